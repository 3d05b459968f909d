"""Groups, freedoms and reach on 64-bit tile masks, compiled with Numba.

The primitives the kernel (:mod:`limitgames.hex.kernel`) decides moves and
captures with (``rules/hex.md``, Move and Capture): the neighbours of a set
of tiles, the flood fill of a region, the empty components of a surface, the
tiles a pawn reaches, and the groups left without a freedom. ``nb`` is the
surface's neighbour table (``uint64[64]``, :attr:`Surface.neighbour_masks`).
"""

from __future__ import annotations

from numba import njit

from limitgames.hex.bitboard import ONE, ZERO, Int, Mask, Masks, bit, lowest_bit, lowest_index


@njit(cache=True)
def neighbours_of(nb: Masks, mask: Mask) -> Mask:
    """The union of the neighbour masks of the tiles of ``mask``."""
    out = ZERO
    m = mask
    while m:
        out |= nb[lowest_index(m)]
        m &= m - ONE
    return out


@njit(cache=True)
def flood(nb: Masks, seed: Mask, region: Mask) -> Mask:
    """The tiles of ``region`` joined to ``seed`` (a mask inside ``region``) through ``region``."""
    comp = seed
    frontier = seed
    while frontier:
        i = lowest_index(frontier)
        frontier &= frontier - ONE
        new = nb[i] & region & ~comp
        comp |= new
        frontier |= new
    return comp


@njit(cache=True)
def empty_components(nb: Masks, empty: Mask, comps: Masks) -> int:
    """Write the connected components of ``empty`` into ``comps``; return how many."""
    n = 0
    rest = empty
    while rest:
        comp = flood(nb, lowest_bit(rest), rest)
        comps[n] = comp
        n += 1
        rest &= ~comp
    return n


@njit(cache=True)
def reach(nb: Masks, pawn: Int, empty: Mask, comps: Masks, ncomps: Int) -> Mask:
    """The empty tiles the pawn on tile ``pawn`` can move to.

    ``rules/hex.md``, Move: an empty tile reachable by a path of one or more
    steps through adjacent empty tiles (pawns block pawns). That is the
    union of the components of ``empty`` (``comps[:ncomps]``) that touch the
    pawn, each flooded on its own.
    """
    near = nb[pawn] & empty
    dest = ZERO
    if near:
        for k in range(ncomps):
            if comps[k] & near:
                dest |= comps[k]
    return dest


@njit(cache=True)
def dead_groups(nb: Masks, pawns: Mask, empty: Mask) -> Mask:
    """The pawns of ``pawns`` (one player) whose group has no freedom (no pawn next to ``empty``)."""
    stuck = ZERO
    m = pawns
    while m:
        i = lowest_index(m)
        if not (nb[i] & empty):
            stuck |= bit(i)
        m &= m - ONE
    dead = ZERO
    while stuck:
        group = flood(nb, lowest_bit(stuck), pawns)
        if not (group & ~stuck):
            dead |= group
        stuck &= ~group
    return dead
