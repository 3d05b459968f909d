"""The ``uniform`` law of nestorgames layouts: every legal layout equally likely.

Not the default law (that is ``grown``, :func:`limitgames.hex.layout.grow_layout`);
chosen with ``layout=uniform``. What a legal layout is: :mod:`limitgames.hex.layout_rule`.

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

import random

import numpy as np
from numba import njit

from limitgames.hex.bitboard import Floats, Int, Ints, Masks, seed_word
from limitgames.hex.layout_rule import COLOURS, MAX_SIZE, MIN_SIZE, Layout, normalise
from limitgames.hex.uniform_chain import run_chain, start_layout, total_violations

BETA = 6.0
"""Weight of one violation in the chain's target ``exp(-BETA * V)`` (see the module docstring)."""

MOVE_MIX: tuple[float, float, float, float] = (0.2, 0.3, 0.25, 0.25)
"""Probabilities of a step being a swap, a shear, a local jump, a global jump."""

START_MIX: dict[int, tuple[float, float]] = {2: (0.85, 0.3), 3: (0.5, 0.0)}
"""Per player count: (probability that the start is a noodle rather than a compact cluster,
probability that a noodle cell may touch two cells already laid)."""


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


@njit(cache=True)
def _draw(n: Int, players: Int, steps: Int, beta: float, mix: Floats, rng: Masks, out: Ints) -> int:
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
    start_layout(col, deg, npn, pos, W, n, players, off, rng, mix[4], mix[5])
    state = np.zeros(2, np.int64)
    state[0] = total_violations(col, deg, npn, pos, players, off)
    if out.ndim == 3:
        for snap in range(out.shape[0]):
            run_chain(
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
        run_chain(
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
