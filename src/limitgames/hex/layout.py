"""Random layouts of the nestorgames edition, drawn by one of two laws.

The ``layout`` parameter of ``hex`` names the law (``rules/hex.md``,
"Edition nestorgames", Setup): ``grown`` (the default, :func:`grow_layout`:
tile by tile into a compact group, as hands lay them at a table) or
``uniform`` (:func:`generate_layout`, a Markov chain whose law tends to the
uniform one on legal layouts: mostly long thin shapes; in
:mod:`limitgames.hex.uniform_layout`). What makes a layout legal is in
:mod:`limitgames.hex.layout_rule`; its names and the uniform sampler's are
re-exported here, so ``limitgames.hex.layout`` is the one place to draw from.
"""

from __future__ import annotations

import math
import random

import numpy as np
from numba import njit

from limitgames.hex.bitboard import (
    Bools,
    Floats,
    Int,
    Ints,
    Masks,
    rng_below,
    rng_uniform,
    seed_word,
)
from limitgames.hex.layout_rule import (
    COLOURS,
    MAX_SIZE,
    MIN_SIZE,
    Layout,
    LayoutError,
    layout_problems,
    layout_to_json,
    normalise,
    pawn_colours,
)
from limitgames.hex.surface import DIRECTIONS, Cell
from limitgames.hex.uniform_layout import (
    chain_snapshots,
    chain_steps,
    generate_layout,
    sample_layout,
)

__all__ = [
    "COLOURS",
    "GROWTH_PULL",
    "LAWS",
    "MAX_SIZE",
    "MIN_SIZE",
    "Layout",
    "LayoutError",
    "chain_snapshots",
    "chain_steps",
    "colour_shape",
    "draw_layout",
    "generate_layout",
    "grow_layout",
    "layout_problems",
    "layout_to_json",
    "normalise",
    "pawn_colours",
    "sample_layout",
]

LAWS: tuple[str, ...] = ("grown", "uniform")
"""The layout laws a game can be dealt from (the ``layout`` variant parameter of ``hex``)."""

GROWTH_PULL = 1.5
"""How strongly a grown layout prefers cells touching several laid tiles (see :func:`grow_layout`)."""

_COLOUR_BUDGET = 4000
"""Steps of one colouring search before the shape's colouring is restarted."""


def draw_layout(law: str, n: int, players: int, rng: random.Random) -> Layout:
    """A random legal layout drawn by ``law``: ``"grown"`` (:func:`grow_layout`) or
    ``"uniform"`` (:func:`generate_layout`).

    Raises:
        ValueError: an unknown law, or ``n`` or ``players`` out of range.
    """
    if law == "grown":
        return grow_layout(n, players, rng)
    if law == "uniform":
        return generate_layout(n, players, rng)
    raise ValueError(f"layout must be one of {', '.join(LAWS)}, not {law!r}")


def grow_layout(n: int, players: int, rng: random.Random, pull: float = GROWTH_PULL) -> Layout:
    """A legal layout of ``4n`` tiles laid as hands lay them at a table (``rules/hex.md``, Setup).

    The shape grows from one tile: each next tile goes on a cell touching the
    group, chosen with weight ``exp(pull * k)`` where ``k`` is the number of
    tiles it touches, so the group stays compact, as in the rulebook's
    picture, instead of the long thin shapes that dominate the uniform law
    (40 adjacent pairs on average at size 8, against about 73 grown with the
    default ``pull``). A shape with a tile of fewer than 2 neighbours is
    grown again. The colours are then dealt by :func:`colour_shape`; if it
    runs out of steps four times, the shape is grown again. Compiled (Numba,
    ``_grow``), with the xorshift64 stream of :mod:`limitgames.hex.bitboard`.

    Every legal layout can be drawn, as the rules page requires (it is not
    uniform, which the rules page does not require): a legal shape is
    connected, so it can be grown tile by tile in a breadth-first order, each
    step with positive weight; and any legal colouring can be dealt (see
    :func:`colour_shape`). ``tests/hex/test_layout.py`` checks the law of the
    shapes at size 2 against an exact computation of this growth, and that
    every legal colouring of small shapes is dealt.

    Args:
        n: tiles per colour, ``MIN_SIZE <= n <= MAX_SIZE``.
        players: 2 or 3 (pawns on red and blue tiles, and on yellow with 3).
        rng: the source of randomness; one ``rng.getrandbits(64)`` call.
        pull: the weight of each touching tile (``0``: any touching cell alike).

    Returns:
        The layout, cells sorted by row then ``q`` (as :func:`normalise`).

    Raises:
        ValueError: ``n`` or ``players`` out of range.
    """
    if not (isinstance(n, int) and MIN_SIZE <= n <= MAX_SIZE):
        raise ValueError(f"size must be an integer from {MIN_SIZE} to {MAX_SIZE}, not {n!r}")
    if players not in (2, 3):
        raise ValueError(f"players must be 2 or 3, not {players!r}")
    state = np.array([seed_word(rng.getrandbits(64))], dtype=np.uint64)
    weights = np.array([math.exp(pull * k) for k in range(7)], dtype=np.float64)
    out = np.empty((4 * n, 3), dtype=np.int64)
    _grow(n, players, weights, _COLOUR_BUDGET, _offsets(8 * n + 5), state, out)
    return normalise({(q, r): COLOURS[c] for q, r, c in out.tolist()})


def colour_shape(cells: list[Cell], n: int, players: int, rng: random.Random) -> Layout | None:
    """A random legal colouring of the ``4n`` tiles on ``cells``, as :func:`grow_layout` deals
    it, or ``None`` if the search ran out of :data:`_COLOUR_BUDGET` steps (or there is none).

    The search visits the cells in a random breadth-first order and tries the
    colours still in stock in a random order, backtracking on two touching
    tiles of one colour or on a pawn tile whose neighbours are all coloured
    and all carry pawns. Every legal colouring can come out: it is the
    search's first descent when each cell's colour comes first in its
    shuffled order, which takes ``4n`` steps, within the budget. Uses one
    ``rng.getrandbits(64)`` call.
    """
    m = len(cells)
    width = 2 * m + 5
    q0 = min(q for q, _ in cells) - 2
    r0 = min(r for _, r in cells) - 2
    index = np.array([(r - r0) * width + (q - q0) for q, r in cells], dtype=np.int64)
    present = np.zeros(width * width, dtype=np.bool_)
    present[index] = True
    colour = np.full(width * width, -1, dtype=np.int64)
    state = np.array([seed_word(rng.getrandbits(64))], dtype=np.uint64)
    off = _offsets(width)
    if not _colour(index, present, colour, off, n, players, _COLOUR_BUDGET, state):
        return None
    return {cell: COLOURS[int(colour[x])] for cell, x in zip(cells, index, strict=True)}


def _offsets(width: int) -> Ints:
    """Index steps to the six neighbours in a grid ``width`` cells wide (index ``r * width + q``)."""
    return np.array([dq + dr * width for dq, dr in DIRECTIONS], dtype=np.int64)


@njit(cache=True)
def _grow(
    n: Int, players: Int, weights: Floats, budget: Int, off: Ints, rng: Masks, out: Ints
) -> None:
    """:func:`grow_layout` on a grid of ``(2m + 5)^2`` cells (``m = 4n``, the start in the
    middle, so no cell of a shape reaches the border; ``off``: :func:`_offsets` of that width):
    writes ``out[i] = (q, r, colour)``."""
    m = 4 * n
    width = 2 * m + 5
    centre = (m + 2) * width + (m + 2)
    present = np.zeros(width * width, np.bool_)
    touch = np.zeros(width * width, np.int64)
    frontier = np.empty(6 * m + 6, np.int64)
    laid = np.empty(m, np.int64)
    colour = np.full(width * width, -1, np.int64)
    while True:
        # grow
        present[:] = False
        touch[:] = 0
        size = 0
        laid[0] = centre
        present[centre] = True
        for k in range(6):
            y = centre + off[k]
            touch[y] = 1
            frontier[size] = y
            size += 1
        for i in range(1, m):
            total = 0.0
            for j in range(size):
                total += weights[touch[frontier[j]]]
            u = rng_uniform(rng) * total
            pick = size - 1
            for j in range(size):
                u -= weights[touch[frontier[j]]]
                if u < 0.0:
                    pick = j
                    break
            x = frontier[pick]
            size -= 1
            frontier[pick] = frontier[size]
            laid[i] = x
            present[x] = True
            for k in range(6):
                y = x + off[k]
                if not present[y]:
                    touch[y] += 1
                    if touch[y] == 1:
                        frontier[size] = y
                        size += 1
        ok = True
        for i in range(m):
            d = 0
            for k in range(6):
                if present[laid[i] + off[k]]:
                    d += 1
            if d < 2:
                ok = False
                break
        if not ok:
            continue
        for _ in range(4):
            colour[:] = -1
            if _colour(laid, present, colour, off, n, players, budget, rng):
                for i in range(m):
                    x = laid[i]
                    out[i, 0] = x % width
                    out[i, 1] = x // width
                    out[i, 2] = colour[x]
                return


@njit(cache=True)
def _free(x: Int, present: Bools, colour: Ints, off: Ints, players: Int) -> bool:
    """Whether the tile on ``x`` keeps a freedom: uncoloured, pawn-free, a neighbour not yet
    coloured, or a pawn-free neighbour."""
    c = colour[x]
    if c < 0 or c >= players:
        return True
    for k in range(6):
        y = x + off[k]
        if present[y] and (colour[y] < 0 or colour[y] >= players):
            return True
    return False


@njit(cache=True)
def _colour(
    cells: Ints,
    present: Bools,
    colour: Ints,
    off: Ints,
    n: Int,
    players: Int,
    budget: Int,
    rng: Masks,
) -> bool:
    """:func:`colour_shape`'s search (iterative backtracking): fills ``colour`` at ``cells``
    and returns True, or returns False after ``budget`` colours tried."""
    m = cells.shape[0]
    order = np.empty(m, np.int64)
    seen = np.zeros(present.shape[0], np.bool_)
    order[0] = cells[rng_below(rng, 0, m)]
    seen[order[0]] = True
    filled = 1
    around = np.empty(6, np.int64)
    for i in range(m):
        x = order[i]
        for k in range(6):
            around[k] = x + off[k]
        for k in range(5, 0, -1):
            j = rng_below(rng, 0, k + 1)
            around[k], around[j] = around[j], around[k]
        for k in range(6):
            y = around[k]
            if present[y] and not seen[y]:
                seen[y] = True
                order[filled] = y
                filled += 1
    stock = np.full(4, n, np.int64)
    choices = np.empty((m, 4), np.int64)
    count = np.zeros(m, np.int64)
    tried = np.zeros(m, np.int64)
    steps = 0
    i = 0
    fresh = True
    while True:
        if i == m:
            return True
        x = order[i]
        if fresh:
            c = 0
            for k in range(4):
                if stock[k] == 0:
                    continue
                clash = False
                for d in range(6):
                    if colour[x + off[d]] == k:
                        clash = True
                        break
                if not clash:
                    choices[i, c] = k
                    c += 1
            for k in range(c - 1, 0, -1):
                j = rng_below(rng, 0, k + 1)
                choices[i, k], choices[i, j] = choices[i, j], choices[i, k]
            count[i] = c
            tried[i] = 0
            fresh = False
        if colour[x] >= 0:  # take back the colour tried last at this level
            stock[colour[x]] += 1
            colour[x] = -1
        if tried[i] == count[i]:
            i -= 1
            if i < 0:
                return False
            continue
        k = choices[i, tried[i]]
        tried[i] += 1
        steps += 1
        if steps > budget:
            return False
        colour[x] = k
        stock[k] -= 1
        good = _free(x, present, colour, off, players)
        if good:
            for d in range(6):
                y = x + off[d]
                if present[y] and not _free(y, present, colour, off, players):
                    good = False
                    break
        if good:
            i += 1
            fresh = True
