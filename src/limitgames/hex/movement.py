"""The movement phase on bitmasks: reachability, captures, removals.

Pure functions of plain ints over a :class:`~limitgames.hex.surface.Geometry`,
shared by the state's legal-action generation and its fast random playout
(``rules/hex.md``, "A turn is two steps"). Nothing here allocates per tile.
"""

from __future__ import annotations

from limitgames.hex.surface import Geometry


def dead_pawns(geo: Geometry, pawns: int, empty: int) -> int:
    """The pawns of one player whose group has no freedom (no pawn of it next to ``empty``)."""
    stuck = pawns & ~geo.spread(empty)
    return _dead_groups(geo, pawns, stuck) if stuck else 0


def _dead_groups(geo: Geometry, pawns: int, stuck: int) -> int:
    """The groups of ``pawns`` made only of ``stuck`` pawns (none next to an empty tile)."""
    dead = 0
    while stuck:
        group = geo.flood(stuck & -stuck, pawns)
        if not group & ~stuck:
            dead |= group
        stuck &= ~group
    return dead


def reachable(geo: Geometry, pawn_bit: int, empty: int, comps: list[int]) -> int:
    """The empty tiles the pawn on ``pawn_bit`` can reach (``comps``: the components of ``empty``)."""
    near = geo.nb[pawn_bit] & empty
    if not near:
        return 0
    dest = 0
    for comp in comps:
        if comp & near:
            dest |= comp
    return dest


def removal_result(geo: Geometry, tiles: int, tile: int, all_pawns: int, split_free: bool) -> int:
    """The tiles a removal of ``tile`` (a single-bit mask) takes away, or ``0`` if it is illegal.

    ``rules/hex.md``, Remove: illegal if, with the tile gone and before any
    capture, two or more components of the surface hold pawns; every
    component without a pawn goes with the tile. ``split_free`` says the
    caller knows the removal cannot split the surface (one arc of neighbours
    on a connected surface), which skips the flood fill.
    """
    if split_free:
        return tile
    rest = tiles & ~tile
    if not all_pawns:
        return tiles
    comp = geo.flood(all_pawns & -all_pawns, rest)
    if all_pawns & ~comp:
        return 0
    return tiles & ~comp


def nth_bit(mask: int, k: int) -> int:
    """The ``k``-th lowest set bit of ``mask`` (0-based), as a single-bit mask."""
    for _ in range(k):
        mask &= mask - 1
    return mask & -mask


def enemy_captures(geo: Geometry, pawns: list[int], mover: int, empty: int) -> int:
    """Every enemy pawn (any seat but ``mover``) whose group has no freedom, captured together."""
    near_empty = geo.spread(empty)
    dead = 0
    for s, mask in enumerate(pawns):
        if s == mover:
            continue
        stuck = mask & ~near_empty
        if stuck:
            dead |= _dead_groups(geo, mask, stuck)
    return dead
