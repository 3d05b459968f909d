"""Random layouts of the nestorgames edition, and their constraints.

The rule (``rules/hex.md``, "Edition nestorgames", Setup)
----------------------------------------------------------
``4n`` tiles, ``n`` of each of red, blue, yellow and black, laid as one
connected group in which every tile is adjacent to at least 2 others and no two
tiles of one colour are adjacent; every pawn must have a freedom when play
starts: red and blue tiles carry pawns (and yellow ones with 3 players), so
each such tile needs a neighbour that carries no pawn (black, or yellow with 2
players). A layout that breaks any of these is *illegal*. Layouts count up to
translation: :func:`generate_layout` returns them translated so that
``min q = min r = 0`` (see :func:`normalise`).

The sampler: a Markov chain whose stationary law is uniform on legal layouts
---------------------------------------------------------------------------
:func:`generate_layout` runs a Metropolis-Hastings chain (compiled with Numba)
on the set ``S`` of all *connected* placements of the ``4n`` tiles (``n`` of
each colour, up to translation), with the target weight
``pi(x) ∝ exp(-BETA * V(x))``, where ``V(x)`` counts the violations of ``x``:
tiles with fewer than 2 neighbours, pawn tiles without a pawn-free neighbour,
and pairs of adjacent tiles of one colour. ``V(x) = 0`` exactly when ``x`` is
legal, so every legal layout has the same weight: **conditioned on legality,
``pi`` is uniform over legal layouts**. Each step proposes one of four moves
(probabilities in :data:`MOVE_MIX`), each reversible with respect to ``pi``:

- *swap*: two tiles chosen uniformly exchange their colours (a symmetric
  proposal; accepted with probability ``min(1, exp(-BETA*dV))``);
- *local jump*: a uniformly chosen tile jumps by one of the 18 offsets within
  distance 2 (a symmetric set, so again ``min(1, exp(-BETA*dV))``);
- *global jump*: a uniformly chosen tile ``a`` jumps to a neighbour cell ``b``
  of another uniformly chosen tile (one of 6 directions). ``b`` is proposed
  with probability proportional to ``deg_{X-a}(b)``, its number of tiles among
  the others, and the reverse jump proposes ``a`` with weight ``deg_X(a)``, so
  the acceptance is ``min(1, deg_X(a) / deg_{X-a}(b) * exp(-BETA*dV))``;
- *shear*: pick an axis (rows, ``q`` columns or ``q + r`` diagonals), a tile
  and a sign; every tile strictly beyond that tile's line slides one cell along
  the axis (the code slides whichever side is smaller the other way: the same
  layout up to translation). The line is chosen with probability
  ``(tiles on it) / 4n``, which a shear does not change, and the reverse shear
  has the other sign: a symmetric proposal. Shears move half the shape at once;
  they are what lets the long thin shapes (noodles with triangular ends, loops)
  that dominate the uniform law change their overall form quickly.

A proposal that would leave the tiles disconnected, or put two tiles on one
cell, is rejected (``pi = 0`` outside ``S``). When several moves lead from
``x`` to the same layout ``y`` up to translation, each move's inverse leads back
with the same proposal weight (both only depend on the tiles that stay put),
so detailed balance holds move by move and therefore for the whole kernel.

Irreducibility (every legal layout can be drawn). The chain is irreducible on
``S`` (every state has positive weight, so it is enough that the moves connect
``S``): (1) colour swaps realise every transposition, hence every colouring of
a fixed shape; (2) every connected shape reaches a straight line of ``4n``
cells by global jumps that keep it connected: let ``t`` be the right-most cell
of the top row and ``R`` the run of cells of that row ending at ``t``; if the
shape is not ``R``, the shape with ``R`` contracted to one vertex is a
connected graph with at least two vertices, so it has a non-cut vertex other
than ``R``, i.e. a cell ``v`` outside ``R`` whose removal keeps the shape
connected; jump ``v`` to the cell right of ``t`` (a neighbour of ``t``, so a
legal global-jump target). The sum of the row numbers does not decrease and
the run ``R`` grows when it stays equal, so the process ends at a line. Every
move has an inverse move, so every shape reaches every other, each with any
colouring. With ``BETA`` finite every move between states of ``S`` has
positive probability, so the chain is irreducible (and aperiodic, as it has
rejections) and converges to ``pi``. The chain restricted to legal layouts
(``BETA = infinity``) is also irreducible at size 2 for 2 and 3 players under
jumps and swaps alone: ``tests/hex/test_layout.py`` checks it on the full
enumeration (219,864 and 45,036 legal layouts, 513 shapes).

What is returned, and how close to uniform
------------------------------------------
Each draw starts from a quick construction (with the probabilities of
:data:`START_MIX`, a random self-avoiding "noodle" of cells, each new cell
touching only the previous one, or a random compact cluster; then a greedy
colouring; neither needs to be legal), runs :func:`chain_steps` steps and
returns the state if it is legal; otherwise it runs the same number of steps
again and looks again (at ``BETA = 6`` about 93% of the stationary mass is
legal; a look seldom fails). As the number of steps grows the law of the
result tends to the uniform law on legal layouts; it is exactly uniform only
in that limit. With the documented numbers of steps (:func:`chain_steps`):

- size 2 (every legal layout enumerated: 513 shapes; 219,864 legal layouts
  with 2 players, 45,036 with 3): chi-square tests of the draws against the
  exact uniform law pass (25,000 draws per player count on shapes and on
  colours in the fast tests, 200,000 on (shape, colours) in the slow ones),
  already with 600 steps; 20 steps fail them by far
  (``tests/hex/test_layout.py``);
- size 8: the means of five statistics of the result (radius of gyration,
  adjacent pairs, tiles with exactly 2 neighbours, red-black pairs, pawn tiles
  with a single pawn-free neighbour) are within 0.06 (2 players) and 0.03
  (3 players) standard deviations of their means after 40 times as many
  steps: the noise of 2,000 draws (``benchmarks/bench_layout.py mixing``).
  The start construction is tuned so that these means are already close;
  what the chain must still forget is the rest of the start's global form:
  at stationarity the radius of gyration is correlated 0.68, 0.5, 0.3, 0.1
  and 0.0 with its value 500, 1,000, 2,000, 4,000 and 8,000 steps earlier
  (2 and 3 players alike; the local statistics: below 0.1 after 1,000 steps).
  So at the default 1,120 steps (2 players) a drawn layout's overall form
  still owes about half to the random start construction, about a fifth at
  3,040 steps (3 players). :func:`sample_layout` takes more steps for a
  closer approach.

Draws are reproducible: the chain's xorshift64 stream
(:mod:`limitgames.hex.bitboard`) is seeded from ``rng.getrandbits(64)``, the
only use of ``rng``. The first call in a process compiles the kernel: about
11 s on one core; Numba caches the machine code on disk (see
:mod:`limitgames.hex.bitboard`), and later processes load it in a fraction of a second. With
``NUMBA_DISABLE_JIT=1`` the same code runs as plain Python (about 0.3 s for
one size-2 layout) and draws the same layouts.

``BETA`` must exceed ``ln 6`` (the kernel accepts every jump that lowers ``V``
without drawing, which is exact when ``exp(BETA) / 6 >= 1``).
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
from numba import njit

from limitgames.hex.bitboard import U, rng_below, rng_next, seed_word
from limitgames.hex.surface import DIRECTIONS, Cell

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "black")
"""Tile colours of the nestorgames edition; seat ``i`` plays colour ``COLOURS[i]``."""

Layout = dict[Cell, str]
"""A layout: cell -> colour."""

MIN_SIZE = 2
"""Smallest supported ``n`` (tiles per colour)."""

MAX_SIZE = 16
"""Largest supported ``n`` (64 tiles)."""

BETA = 6.0
"""Weight of one violation in the chain's target ``exp(-BETA * V)`` (see the module docstring)."""

MOVE_MIX: tuple[float, float, float, float] = (0.2, 0.3, 0.25, 0.25)
"""Probabilities of a step being a swap, a shear, a local jump, a global jump."""

START_MIX: dict[int, tuple[float, float]] = {2: (0.85, 0.3), 3: (0.5, 0.0)}
"""Per player count: (probability that the start is a noodle rather than a compact cluster,
probability that a noodle cell may touch two cells already laid)."""


class LayoutError(ValueError):
    """A layout that breaks a constraint (the message names which)."""


def pawn_colours(players: int) -> tuple[str, ...]:
    """The colours whose tiles carry pawns: red, blue (and yellow with 3 players)."""
    return COLOURS[:players]


def chain_steps(n: int, players: int) -> int:
    """The number of chain steps per look for a legal state (see :func:`generate_layout`).

    ``max(1000, k * 4n)`` with ``k = 35`` for 2 players and ``95`` for 3
    players: 1,120 and 3,040 steps at ``n = 8``, about 5,400 and 2,300 layouts
    a second on one core (compiled; ``benchmarks/bench_layout.py speed``).
    Chosen from measured mixing against the speed asked for (5,000 and 2,000
    a second): at size 2, 600 steps already pass the exact chi-square tests;
    at size 8 the monitored statistics of the result are within measurement
    noise of their stationary means, while the global form is still partly
    the start's (module docstring). Three players need more steps: the
    freedom rule rejects most moves.
    """
    m = 4 * n
    per_tile = 35 if players == 2 else 95
    return max(1000, per_tile * m)


def generate_layout(n: int, players: int, rng: random.Random) -> Layout:
    """A random legal layout of ``4n`` tiles for ``players``, translated so ``min q = min r = 0``.

    Draws (approximately, see the module docstring) uniformly among all legal
    layouts up to translation (``rules/hex.md``, "Edition nestorgames",
    Setup), using one ``rng.getrandbits(64)`` call: the same ``rng`` state
    gives the same layout.

    Args:
        n: tiles per colour, ``MIN_SIZE <= n <= MAX_SIZE``.
        players: 2 or 3 (pawns on red and blue tiles, and on yellow with 3).
        rng: the source of randomness.

    Returns:
        The layout, cells sorted by row then ``q`` (as :func:`normalise`).

    Raises:
        ValueError: ``n`` or ``players`` out of range.
    """
    return sample_layout(n, players, rng, chain_steps(n, players))


def sample_layout(n: int, players: int, rng: random.Random, steps: int) -> Layout:
    """Like :func:`generate_layout` with ``steps`` chain steps per look (``steps >= 1``).

    Few steps give a biased law (the tests use this to show that their
    uniformity check can fail).

    Raises:
        ValueError: ``n``, ``players`` or ``steps`` out of range.
    """
    if not (isinstance(n, int) and MIN_SIZE <= n <= MAX_SIZE):
        raise ValueError(f"size must be an integer from {MIN_SIZE} to {MAX_SIZE}, not {n!r}")
    if players not in (2, 3):
        raise ValueError(f"players must be 2 or 3, not {players!r}")
    if steps < 1:
        raise ValueError(f"steps must be positive, not {steps!r}")
    state = np.array([seed_word(rng.getrandbits(64))], dtype=np.uint64)
    out = np.empty((4 * n, 3), dtype=np.int64)
    mix = np.array(MOVE_MIX + START_MIX[players], dtype=np.float64)
    _draw(n, players, steps, BETA, mix, state, out)
    # rows come normalised: translated to min q = min r = 0, sorted by row then q
    return {(q, r): COLOURS[c] for q, r, c in out.tolist()}


def chain_snapshots(
    n: int, players: int, rng: random.Random, every: int, count: int
) -> list[Layout]:
    """A diagnostic: ``count`` successive states of one run of the chain, ``every`` steps apart.

    The states are not necessarily legal (the chain visits illegal states; see
    the module docstring). Used to measure mixing (``benchmarks/bench_layout.py``).
    """
    state = np.array([seed_word(rng.getrandbits(64))], dtype=np.uint64)
    out = np.empty((max(count, 2), 4 * n, 3), dtype=np.int64)
    mix = np.array(MOVE_MIX + START_MIX[players], dtype=np.float64)
    _draw(n, players, every, BETA, mix, state, out)
    return [
        normalise({(int(q), int(r)): COLOURS[int(c)] for q, r, c in snap}) for snap in out[:count]
    ]


def normalise(layout: Layout) -> Layout:
    """Translate a layout so that its smallest ``q`` and ``r`` are 0 (cells sorted by row, then q)."""
    q0 = min(q for q, _ in layout)
    r0 = min(r for _, r in layout)
    return {(q - q0, r - r0): layout[(q, r)] for q, r in sorted(layout, key=lambda c: (c[1], c[0]))}


def layout_problems(layout: Layout, n: int, players: int) -> list[str]:
    """Every way ``layout`` breaks the generated-layout constraints (empty list: it is legal)."""
    problems: list[str] = []
    if len(layout) != 4 * n:
        problems.append(f"{len(layout)} tiles instead of {4 * n}")
    for c in COLOURS:
        count = sum(1 for v in layout.values() if v == c)
        if count != n:
            problems.append(f"{count} {c} tiles instead of {n}")
    pawn = set(pawn_colours(players))
    for (q, r), c in layout.items():
        nbrs = [(q + dq, r + dr) for dq, dr in DIRECTIONS if (q + dq, r + dr) in layout]
        if len(nbrs) < 2:
            problems.append(f"tile {(q, r)} has {len(nbrs)} neighbour(s), needs 2")
        if any(layout[nb] == c for nb in nbrs):
            problems.append(f"tile {(q, r)} touches another {c} tile")
        if c in pawn and all(layout[nb] in pawn for nb in nbrs):
            problems.append(f"the pawn on {(q, r)} has no freedom")
    if layout:
        start = next(iter(layout))
        seen = {start}
        stack = [start]
        while stack:
            q, r = stack.pop()
            for dq, dr in DIRECTIONS:
                nb = (q + dq, r + dr)
                if nb in layout and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        if len(seen) != len(layout):
            problems.append("the tiles are not one connected group")
    return problems


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


def _offsets(width: int) -> np.ndarray[Any, Any]:
    """Index steps to the six neighbours in a grid ``width`` cells wide (index ``r * width + q``)."""
    return np.array([dq + dr * width for dq, dr in DIRECTIONS], dtype=np.int64)


@njit(cache=True)
def _grow(n: Any, players: Any, weights: Any, budget: Any, off: Any, rng: Any, out: Any) -> None:
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
            u = _uniform(rng) * total
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
def _free(x: Any, present: Any, colour: Any, off: Any, players: Any) -> Any:
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
    cells: Any, present: Any, colour: Any, off: Any, n: Any, players: Any, budget: Any, rng: Any
) -> Any:
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


# ---------------------------------------------------------------------------
# The compiled chain.
#
# The tiles live in a W x W window of axial cells (W = 4n + 8), cell (q, r) at
# index r * W + q; the six neighbours of index x are x + off[k] with
# off = (1, 1 - W, -W, -1, W - 1, W), the order of DIRECTIONS. Arrays over the
# window: col (int8, -1 empty, else colour 0..3), deg (tiles among the six
# neighbours, for every cell), npn (pawn-free tiles among the six neighbours).
# Tiles stay at least 3 cells away from the window's edges (the window is
# re-centred when one comes closer), so every index used is inside the window
# and no neighbour wraps to another row. Colour c carries a pawn when
# c < players. V = sum over tiles of bad(tile) + monochrome adjacent pairs,
# bad = [deg < 2] + [pawn colour and npn == 0].
# ---------------------------------------------------------------------------

_MARGIN = 3


@njit(cache=True, inline="always")
def _add(col: Any, deg: Any, npn: Any, x: Any, c: Any, players: Any, off: Any) -> None:
    col[x] = c
    free = 1 if c >= players else 0
    for k in range(6):
        y = x + off[k]
        deg[y] += 1
        npn[y] += free


@njit(cache=True, inline="always")
def _remove(col: Any, deg: Any, npn: Any, x: Any, players: Any, off: Any) -> None:
    free = 1 if col[x] >= players else 0
    col[x] = -1
    for k in range(6):
        y = x + off[k]
        deg[y] -= 1
        npn[y] -= free


@njit(cache=True, inline="always")
def _bad_of(c: Any, d: Any, f: Any, players: Any) -> Any:
    """Violations of one tile of colour ``c`` with ``d`` neighbours, ``f`` of them pawn-free."""
    b = 1 if d < 2 else 0
    if c < players and f == 0:
        b += 1
    return b


@njit(cache=True, inline="always")
def _bad(col: Any, deg: Any, npn: Any, x: Any, players: Any) -> Any:
    return _bad_of(col[x], deg[x], npn[x], players)


@njit(cache=True, inline="always")
def _count_colour(col: Any, x: Any, c: Any, skip: Any, off: Any) -> Any:
    """Neighbours of ``x`` of colour ``c``, not counting cell ``skip``."""
    m = 0
    for k in range(6):
        y = x + off[k]
        if y != skip and col[y] == c:
            m += 1
    return m


@njit(cache=True, inline="always")
def _uniform(rng: Any) -> Any:
    return float(rng_next(rng, 0) >> U(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def _adj(adjtab: Any, x: Any, y: Any, reach: Any) -> Any:
    """1 if cells x and y are neighbours (``adjtab`` indexed by ``y - x + reach``)."""
    d = y - x
    if d < -reach or d > reach:
        return 0
    return adjtab[d + reach]


@njit(cache=True)
def _total_violations(col: Any, deg: Any, npn: Any, pos: Any, players: Any, off: Any) -> Any:
    v = 0
    mono = 0
    for i in range(pos.shape[0]):
        x = pos[i]
        v += _bad(col, deg, npn, x, players)
        mono += _count_colour(col, x, col[x], -1, off)
    return v + mono // 2


@njit(cache=True)
def _connected_after_leaving(col: Any, a: Any, off: Any, stamp: Any, stack: Any, tag: Any) -> Any:
    """Whether the tiles are connected, given they were before the tile on ``a`` left.

    Every part left by the removal holds a neighbour of ``a``, so it is enough
    that the occupied neighbours of ``a`` are connected: at once when they
    form one arc around ``a`` (consecutive neighbours touch), else by a search.
    """
    prev = col[a + off[5]] >= 0
    arcs = 0
    need = 0
    first = -1
    for k in range(6):
        occ = col[a + off[k]] >= 0
        if occ:
            need += 1
            if first < 0:
                first = a + off[k]
            if not prev:
                arcs += 1
        prev = occ
    if arcs <= 1:
        return True
    stamp[first] = tag
    stack[0] = first
    top = 1
    found = 0
    while top > 0:
        top -= 1
        x = stack[top]
        d = x - a
        for k in range(6):
            if d == off[k]:
                found += 1
                break
        if found == need:
            return True
        for k in range(6):
            y = x + off[k]
            if col[y] >= 0 and stamp[y] != tag:
                stamp[y] = tag
                stack[top] = y
                top += 1
    return False


@njit(cache=True)
def _all_connected(col: Any, pos: Any, off: Any, stamp: Any, stack: Any, tag: Any) -> Any:
    m = pos.shape[0]
    stamp[pos[0]] = tag
    stack[0] = pos[0]
    top = 1
    seen = 1
    while top > 0:
        top -= 1
        x = stack[top]
        for k in range(6):
            y = x + off[k]
            if col[y] >= 0 and stamp[y] != tag:
                stamp[y] = tag
                stack[top] = y
                top += 1
                seen += 1
    return seen == m


@njit(cache=True)
def _recentre(
    col: Any, deg: Any, npn: Any, pos: Any, W: Any, players: Any, off: Any, tmp: Any
) -> None:
    """Translate the tiles to the middle of the window (a translation: the layout is unchanged)."""
    m = pos.shape[0]
    qmin = W
    qmax = 0
    rmin = W
    rmax = 0
    for i in range(m):
        q = pos[i] % W
        r = pos[i] // W
        qmin = min(qmin, q)
        qmax = max(qmax, q)
        rmin = min(rmin, r)
        rmax = max(rmax, r)
    dq = (W - (qmax - qmin + 1)) // 2 - qmin
    dr = (W - (rmax - rmin + 1)) // 2 - rmin
    if dq == 0 and dr == 0:
        return
    for i in range(m):
        tmp[i] = col[pos[i]]
        _remove(col, deg, npn, pos[i], players, off)
    for i in range(m):
        pos[i] += dr * W + dq
        _add(col, deg, npn, pos[i], tmp[i], players, off)


@njit(cache=True, inline="always")
def _near_edge(x: Any, W: Any) -> Any:
    q = x % W
    r = x // W
    return q < _MARGIN or r < _MARGIN or q > W - 1 - _MARGIN or r > W - 1 - _MARGIN


@njit(cache=True)
def _chain(
    col: Any,
    deg: Any,
    npn: Any,
    pos: Any,
    W: Any,
    players: Any,
    steps: Any,
    beta: Any,
    cuts: Any,
    off: Any,
    off2: Any,
    adjtab: Any,
    reach: Any,
    boltz: Any,
    lines: Any,
    lower: Any,
    shifts: Any,
    rng: Any,
    stamp: Any,
    stack: Any,
    tmp: Any,
    upper: Any,
    seam: Any,
    state: Any,
) -> None:
    """Run ``steps`` steps of the chain. ``state = [V, search tag]`` is read and updated.

    ``cuts`` holds the move thresholds on a 16-bit draw: swap below ``cuts[0]``,
    shear below ``cuts[1]``, local jump below ``cuts[2]``, else global jump.
    """
    m = pos.shape[0]
    v = state[0]
    tag = state[1]
    for _ in range(steps):
        # one word: tile i (bits 0-15), swap partner j (16-31), move kind (32-47),
        # shear axis (48-63) and sign (bit 16). A 16-bit choice is uniform within
        # 2e-4 (relative); the choices whose reverse move draws a different value
        # (a jump's target) use rng_below instead, uniform within 2**-26.
        word = rng_next(rng, 0)
        i = np.int64(((word & U(0xFFFF)) * U(m)) >> U(16))
        j = np.int64((((word >> U(16)) & U(0xFFFF)) * U(m - 1)) >> U(16))
        if j >= i:
            j += 1
        sel = np.int64((word >> U(32)) & U(0xFFFF))
        top16 = word >> U(48)
        if sel < cuts[0]:
            # ---- swap the colours of tiles i and j
            a = pos[i]
            b = pos[j]
            ca = np.int64(col[a])
            cb = np.int64(col[b])
            if ca == cb:
                continue
            u = _uniform(rng)
            # the largest dV that can still be accepted: boltz[k] > u
            kmax = 0
            while kmax < 63 and boltz[kmax + 1] > u:
                kmax += 1
            legal = v == 0
            near = _adj(adjtab, a, b, reach)
            dv = (
                _count_colour(col, a, cb, b, off)
                + _count_colour(col, b, ca, a, off)
                - _count_colour(col, a, ca, -1, off)
                - _count_colour(col, b, cb, -1, off)
            )
            pa = ca < players
            pb = cb < players
            if pa != pb and not (legal and dv > kmax):
                # pawn-free tiles around a gain (da = +1) or lose one
                da = 1 if cb >= players else -1
                fa = npn[a] - da if near == 1 else npn[a]
                fb = npn[b] + da if near == 1 else npn[b]
                dv += _bad_of(cb, deg[a], fa, players) - _bad(col, deg, npn, a, players)
                dv += _bad_of(ca, deg[b], fb, players) - _bad(col, deg, npn, b, players)
                for k in range(6):
                    x = a + off[k]
                    if x == b or col[x] < 0:
                        continue
                    f = npn[x] + da
                    if _adj(adjtab, x, b, reach) == 1:
                        f -= da
                    dv += _bad_of(col[x], deg[x], f, players) - _bad(col, deg, npn, x, players)
                for k in range(6):
                    x = b + off[k]
                    if x == a or col[x] < 0 or _adj(adjtab, x, a, reach) == 1:
                        continue
                    dv += _bad_of(col[x], deg[x], npn[x] - da, players) - _bad(
                        col, deg, npn, x, players
                    )
            if dv > kmax:
                continue
            # accepted (dv <= kmax  <=>  u < exp(-beta dv))
            if pa != pb:
                _remove(col, deg, npn, a, players, off)
                _remove(col, deg, npn, b, players, off)
                _add(col, deg, npn, a, cb, players, off)
                _add(col, deg, npn, b, ca, players, off)
            else:
                col[a] = cb
                col[b] = ca
            v += dv
        elif sel < cuts[1]:
            # ---- shear: tiles beyond the line of tile i slide one cell along an axis
            axis = np.int64((top16 * U(3)) >> U(16))
            sh = shifts[axis] if ((word >> U(16)) & U(1)) == U(1) else -shifts[axis]
            lo0 = off[lower[axis, 0]]
            lo1 = off[lower[axis, 1]]
            la = lines[axis]
            kappa = la[pos[i]]
            # upper[:nup]: tiles beyond the line; upper[nup:]: the others, from the end;
            # seam[:nlow]: tiles on the line; seam[m - nhigh:]: tiles on the next line
            nup = 0
            nrest = 0
            nlow = 0
            nhigh = 0
            for t in range(m):
                lt = la[pos[t]]
                if lt > kappa:
                    upper[nup] = t
                    nup += 1
                    if lt == kappa + 1:
                        nhigh += 1
                        seam[m - nhigh] = t
                else:
                    nrest += 1
                    upper[m - nrest] = t
                    if lt == kappa:
                        seam[nlow] = t
                        nlow += 1
            if nup == 0:
                continue
            u = _uniform(rng)
            kmax = 0
            while kmax < 63 and boltz[kmax + 1] > u:
                kmax += 1
            legal = v == 0
            # violations the shear changes, evaluated before moving anything:
            # tiles on line kappa + 1 trade their neighbours on line kappa ...
            dv = 0
            for t in range(m - nhigh, m):
                x = pos[seam[t]]
                c = col[x]
                d = deg[x]
                f = npn[x]
                for o in (lo0, lo1):
                    y = x + o
                    if col[y] >= 0:
                        d -= 1
                        f -= col[y] >= players
                        dv -= col[y] == c
                    y = x + sh + o
                    if col[y] >= 0:
                        d += 1
                        f += col[y] >= players
                        dv += col[y] == c
                dv += _bad_of(c, d, f, players) - _bad(col, deg, npn, x, players)
                if legal and dv > kmax:
                    break
            if legal and dv > kmax:
                continue
            # ... and tiles on line kappa see the tiles above them shifted
            for t in range(nlow):
                y = pos[seam[t]]
                d = deg[y]
                f = npn[y]
                for o in (-lo0, -lo1):
                    z = y + o
                    if col[z] >= 0:
                        d -= 1
                        f -= col[z] >= players
                    z = y + o - sh
                    if col[z] >= 0:  # z - sh is on line kappa + 1: a tile that slides onto z
                        d += 1
                        f += col[z] >= players
                dv += _bad_of(col[y], d, f, players) - _bad(col, deg, npn, y, players)
                if legal and dv > kmax:
                    break
            if dv > kmax:
                continue
            # slide the smaller side (sliding the other side the other way gives the
            # same layout up to translation)
            if 2 * nup <= m:
                first = 0
                last = nup
                move = sh
            else:
                first = nup
                last = m
                move = -sh
            for t in range(first, last):
                tmp[t] = col[pos[upper[t]]]
                _remove(col, deg, npn, pos[upper[t]], players, off)
            for t in range(first, last):
                pos[upper[t]] += move
                _add(col, deg, npn, pos[upper[t]], tmp[t], players, off)
            tag += 1
            if _all_connected(col, pos, off, stamp, stack, tag):
                v += dv
                lim = W - 1 - _MARGIN
                for t in range(first, last):
                    x = pos[upper[t]]
                    if (
                        lines[0, x] < _MARGIN
                        or lines[1, x] < _MARGIN
                        or lines[0, x] > lim
                        or lines[1, x] > lim
                    ):
                        _recentre(col, deg, npn, pos, W, players, off, tmp)
                        break
            else:
                for t in range(first, last):
                    _remove(col, deg, npn, pos[upper[t]], players, off)
                for t in range(first, last):
                    pos[upper[t]] -= move
                    _add(col, deg, npn, pos[upper[t]], tmp[t], players, off)
        else:
            # ---- jump: tile i from a to b
            a = pos[i]
            local = sel < cuts[2]
            if local:
                b = a + off2[rng_below(rng, 0, 18)]
            else:
                other = rng_below(rng, 0, m - 1)
                if other >= i:
                    other += 1
                b = pos[other] + off[rng_below(rng, 0, 6)]
            if col[b] >= 0:
                continue
            near = _adj(adjtab, a, b, reach)
            degb = deg[b] - near
            if degb == 0:
                continue
            c = np.int64(col[a])
            u = _uniform(rng)
            # acceptance min(1, scale * exp(-beta dV)); a global jump's scale is deg_a / deg_b
            scale = 1.0 if local else deg[a] / degb
            kmax = -1
            while kmax < 63 and scale * boltz[kmax + 1] > u:
                kmax += 1
            legal = v == 0
            if kmax < 0 and legal:
                continue
            free = 1 if c >= players else 0
            # the moved tile at b, then at a
            dv = _bad_of(c, degb, npn[b] - near * free, players) + _count_colour(col, b, c, a, off)
            if legal and dv > kmax:
                continue
            if not legal:
                dv -= _bad(col, deg, npn, a, players) + _count_colour(col, a, c, -1, off)
            # tiles around a lose a (and gain b if they touch it)
            for k in range(6):
                x = a + off[k]
                if col[x] < 0:
                    continue
                xb = _adj(adjtab, x, b, reach)
                dv += _bad_of(col[x], deg[x] - 1 + xb, npn[x] - free + xb * free, players) - _bad(
                    col, deg, npn, x, players
                )
            if legal and dv > kmax:
                continue
            # tiles around b only (not around a) gain b
            for k in range(6):
                x = b + off[k]
                if x == a or col[x] < 0 or _adj(adjtab, x, a, reach) == 1:
                    continue
                dv += _bad_of(col[x], deg[x] + 1, npn[x] + free, players) - _bad(
                    col, deg, npn, x, players
                )
            if dv > kmax:
                continue
            _remove(col, deg, npn, a, players, off)
            _add(col, deg, npn, b, c, players, off)
            tag += 1
            if not _connected_after_leaving(col, a, off, stamp, stack, tag):
                _remove(col, deg, npn, b, players, off)
                _add(col, deg, npn, a, c, players, off)
                continue
            pos[i] = b
            v += dv
            if _near_edge(b, W):
                _recentre(col, deg, npn, pos, W, players, off, tmp)
    state[0] = v
    state[1] = tag


@njit(cache=True)
def _start(
    col: Any,
    deg: Any,
    npn: Any,
    pos: Any,
    W: Any,
    n: Any,
    players: Any,
    off: Any,
    rng: Any,
    p_noodle: Any,
    p_touch2: Any,
) -> None:
    """Lay a random connected start, not necessarily legal (see :data:`START_MIX`).

    With probability ``p_noodle`` a noodle: each new cell touches the previous
    one and no other (or exactly one other, with probability ``p_touch2`` per
    candidate), restarting if it walks into a dead end; otherwise a compact
    cluster (each new cell next to a random cell already laid). Then each cell
    in laying order takes, among the colours with tiles left, one with the
    fewest neighbours of that colour already laid (ties at random).
    """
    m = 4 * n
    centre = (W // 2) * W + W // 2
    cand = np.empty(6, np.int64)
    noodle = _uniform(rng) < p_noodle
    while True:
        pos[0] = centre
        col[centre] = 0
        cnt = 1
        while cnt < m:
            nc = 0
            if noodle:
                h = pos[cnt - 1]
                for d in range(6):
                    y = h + off[d]
                    if col[y] >= 0 or _near_edge(y, W):
                        continue
                    touch = 0
                    for e in range(6):
                        if col[y + off[e]] >= 0:
                            touch += 1
                    if touch == 1 or (touch == 2 and _uniform(rng) < p_touch2):
                        cand[nc] = y
                        nc += 1
                if nc == 0:
                    break
                y = cand[rng_below(rng, 0, nc)]
            else:
                y = pos[rng_below(rng, 0, cnt)] + off[rng_below(rng, 0, 6)]
                if col[y] >= 0 or _near_edge(y, W):
                    continue
            col[y] = 0
            pos[cnt] = y
            cnt += 1
        if cnt == m:
            break
        for t in range(cnt):
            col[pos[t]] = -1
    for t in range(m):
        col[pos[t]] = -1
    left = np.full(4, n, np.int64)
    best = np.empty(4, np.int64)
    for t in range(m):
        x = pos[t]
        lowest = 99
        nb = 0
        for c in range(4):
            if left[c] == 0:
                continue
            clash = _count_colour(col, x, c, -1, off)
            if clash < lowest:
                lowest = clash
                nb = 0
            if clash == lowest:
                best[nb] = c
                nb += 1
        c = best[rng_below(rng, 0, nb)]
        left[c] -= 1
        _add(col, deg, npn, x, c, players, off)


@njit(cache=True)
def _draw(n: Any, players: Any, steps: Any, beta: Any, mix: Any, rng: Any, out: Any) -> Any:
    """Draw one layout into ``out`` (rows ``q, r, colour``); returns the number of looks.

    With ``out`` of shape ``(k, 4n, 3)`` for ``k > 1`` (a diagnostic), records instead
    the chain's state every ``steps`` steps, ``k`` times, legal or not (no looks).
    """
    m = 4 * n
    W = m + 8
    off = np.array([1, 1 - W, -W, -1, W - 1, W], np.int64)
    off2 = np.empty(18, np.int64)
    k = 0
    for dr in range(-2, 3):
        for dq in range(-2, 3):
            dist = max(abs(dq), abs(dr), abs(dq + dr))
            if 1 <= dist <= 2:
                off2[k] = dr * W + dq
                k += 1
    reach = 2 * W + 2
    adjtab = np.zeros(2 * reach + 1, np.int64)
    for k in range(6):
        adjtab[off[k] + reach] = 1
    boltz = np.empty(64, np.float64)
    for k in range(64):
        boltz[k] = np.exp(-beta * k)
    cuts = np.empty(3, np.int64)
    acc = 0.0
    for k in range(3):
        acc += mix[k]
        cuts[k] = np.int64(acc * 65536.0)
    col = np.full(W * W, -1, np.int8)
    deg = np.zeros(W * W, np.int8)
    npn = np.zeros(W * W, np.int8)
    pos = np.empty(m, np.int64)
    stamp = np.zeros(W * W, np.int64)
    stack = np.empty(m + 8, np.int64)
    tmp = np.empty(m, np.int64)
    upper = np.empty(m, np.int64)
    seam = np.empty(m, np.int64)
    # shears: the line of each cell across each axis (row r, column q, diagonal q + r),
    # the two directions towards the line below, and the slide along the axis
    lines = np.empty((3, W * W), np.int16)
    for x in range(W * W):
        lines[0, x] = x // W
        lines[1, x] = x % W
        lines[2, x] = x // W + x % W
    lower = np.array([[1, 2], [3, 4], [2, 3]], np.int64)
    shifts = np.array([1, W, 1 - W], np.int64)
    _start(col, deg, npn, pos, W, n, players, off, rng, mix[4], mix[5])
    state = np.zeros(2, np.int64)
    state[0] = _total_violations(col, deg, npn, pos, players, off)
    if out.ndim == 3:
        for snap in range(out.shape[0]):
            _chain(
                col,
                deg,
                npn,
                pos,
                W,
                players,
                steps,
                beta,
                cuts,
                off,
                off2,
                adjtab,
                reach,
                boltz,
                lines,
                lower,
                shifts,
                rng,
                stamp,
                stack,
                tmp,
                upper,
                seam,
                state,
            )
            for t in range(m):
                out[snap, t, 0] = pos[t] % W
                out[snap, t, 1] = pos[t] // W
                out[snap, t, 2] = col[pos[t]]
        return 0
    looks = 0
    while True:
        _chain(
            col,
            deg,
            npn,
            pos,
            W,
            players,
            steps,
            beta,
            cuts,
            off,
            off2,
            adjtab,
            reach,
            boltz,
            lines,
            lower,
            shifts,
            rng,
            stamp,
            stack,
            tmp,
            upper,
            seam,
            state,
        )
        looks += 1
        if state[0] == 0:
            break
    # normalised: min q = min r = 0, sorted by row then q (= by window index)
    cells = np.sort(pos)
    q0 = W
    for t in range(m):
        q0 = min(q0, cells[t] % W)
    r0 = cells[0] // W
    for t in range(m):
        out[t, 0] = cells[t] % W - q0
        out[t, 1] = cells[t] // W - r0
        out[t, 2] = col[cells[t]]
    return looks
