"""Exact game values of hex positions, searched to the end on the compiled kernel.

Two players: alpha-beta over the results ``+1`` (win), ``0`` (draw), ``-1``
(loss), from the first player's side, with a transposition table. A turn is a
move then a removal by the same seat, so the side that maximises is decided
at every node by who is to move, not by alternation. The value is found by two
null-window searches (does the first player win? if not, does it draw?) that
share the table.

Three players: max-n (Luckhardt and Irani 1986), the standard assumption for
more than two players: every player picks the action that is best for
itself, and ties between actions equally good for it are broken by taking the
first in legal-action order (:func:`limitgames.hex.kernel.legal_actions`
order). The value is the result every player then gets. A game has one
winner, so every action that wins for the mover gives every player the same
result: the search of a position stops at the first winning action it finds
(immediate pruning), whichever it is; without a win every action is searched.

At every position all children are made first: a child that ends the game
with a win for the mover, or whose table entry already decides the position
(an enhanced transposition cutoff), ends the search there; the others are
searched best guess first: the table's best action, then actions by enemy
pawns taken, then by the history heuristic (the work the action's cutoffs
saved elsewhere). None of this changes a value; ``tests/hex/test_solver_fast.py``
checks it against the plain search this replaced.

Positions are the kernel's state vectors (:mod:`limitgames.hex.kernel`),
movement phase only. The transposition table stores every field that
decides the future (tiles, pawns, player to move, step, whether the
equaliser binds, quiet turns, eliminations), compared in full, so a
collision can never give a wrong value. When its probes are full, the entry
that took the least search to find is replaced.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
from numba import njit, objmode

from limitgames.hex import kernel
from limitgames.hex.bitboard import Floats, Int, Ints, Mask, Masks, U, popcount
from limitgames.hex.codec import KERNEL_ACTIONS
from limitgames.hex.state import HexState

__all__ = ["Solution", "solve", "solve_vector"]

UNKNOWN = np.int64(-9)
_KEY_WORDS = 5
_PROBES = 8
_TT_MOVE = np.int64(1) << np.int64(60)
_TAKES = np.int64(1) << np.int64(40)

# The table's columns (annotations only: Numba infers its own from the values)
Bounds: TypeAlias = npt.NDArray[np.int8]
"""``int8`` arrays: proved lower and upper bounds (two players), result vectors (three)."""
BestActions: TypeAlias = npt.NDArray[np.int32]
"""``int32`` arrays: the best kernel action found per table slot (-1: none)."""


@dataclass(frozen=True)
class Solution:
    """The exact value of a position for the seat to move.

    Attributes:
        values: the result per seat (+1 win, 0 draw, -1 loss) under perfect
            play (three players: under max-n), or ``None`` if the time ran out.
        seat: the seat to move.
        best_action: an action that reaches that value (``None`` if the game
            is over or the time ran out).
        nodes: positions searched (the proof size).
        seconds: time spent.
    """

    values: list[float] | None
    seat: int
    best_action: int | None
    nodes: int
    seconds: float

    @property
    def value(self) -> float | None:
        """The value for the seat to move (``None`` if unknown)."""
        return None if self.values is None else self.values[self.seat]


@njit(cache=True)
def _time_is_up(deadline: float) -> bool:
    with objmode(now="float64"):
        now = time.perf_counter()
    return now > deadline


@njit(cache=True)
def _key(s: Masks, key: Masks) -> Mask:
    """Fill ``key`` with the fields that decide the future; return its hash."""
    key[0] = s[kernel.S_TILES]
    key[1] = s[kernel.S_PAWNS]
    key[2] = s[kernel.S_PAWNS + 1]
    key[3] = s[kernel.S_PAWNS + 2]
    eq = U(1) if kernel.is_equaliser(s) else U(0)
    key[4] = (
        s[kernel.S_TO_MOVE]
        | (s[kernel.S_STEP] << U(2))
        | (eq << U(4))
        | (s[kernel.S_QUIET] << U(5))
        | (s[kernel.S_OUT] << U(12))
        | (s[kernel.S_ALIVE_AT_START] << U(16))
    )
    h = U(0x9E3779B97F4A7C15)
    for i in range(_KEY_WORDS):
        h ^= key[i]
        h *= U(0xBF58476D1CE4E5B9)
        h ^= h >> U(31)
    return h


@njit(cache=True)
def _find(keys: Masks, work: Ints, key: Masks, h: Mask) -> Int:
    """The slot holding ``key``, or ``-1 - slot`` for the slot to write it in: a free one
    among the probes, else the one whose entry cost the least work to find."""
    mask = U(keys.shape[0] - 1)
    victim = np.int64(h & mask)
    least = np.int64(1) << np.int64(62)
    for p in range(_PROBES):
        i = np.int64((h + U(p)) & mask)
        if work[i] < 0:
            return -1 - i
        same = True
        for w in range(_KEY_WORDS):
            if keys[i, w] != key[w]:
                same = False
                break
        if same:
            return i
        if work[i] < least:
            least = work[i]
            victim = i
    return -1 - victim


@njit(cache=True)
def _store(keys: Masks, work: Ints, slot: Int, key: Masks, effort: Int) -> Int:
    i = slot if slot >= 0 else -1 - slot
    for w in range(_KEY_WORDS):
        keys[i, w] = key[w]
    work[i] = effort
    return i


@njit(cache=True)
def _first_player_result(s: Masks) -> int:
    if (s[kernel.S_WINNERS] & U(1)) != U(0):
        return 1
    if (s[kernel.S_DRAWN] & U(1)) != U(0):
        return 0
    return -1


@njit(cache=True)
def _children(nb: Masks, ring: Ints, s: Masks, actions: Ints, n: Int, children: Masks) -> None:
    for i in range(n):
        for w in range(kernel.STATE_SIZE):
            children[i, w] = s[w]
        kernel.play(nb, ring, children[i], actions[i])


@njit(cache=True)
def _taken(s: Masks, child: Masks, mover: Int) -> Int:
    """Enemy pawns an action took (the ordering's first guess: captures first)."""
    taken = 0
    for k in range(np.int64(s[kernel.S_PLAYERS])):
        if k != mover:
            taken += popcount(s[kernel.S_PAWNS + k]) - popcount(child[kernel.S_PAWNS + k])
    return taken


@njit(cache=True)
def _next_best(scores: Ints, n: Int) -> Int:
    """The index of the highest score still unsearched (then marked searched), or -1."""
    top = np.int64(-1)
    at: Int = -1
    for i in range(n):
        if scores[i] > top:
            top = scores[i]
            at = i
    if at >= 0:
        scores[at] = -1
    return at


@njit(cache=True)
def _alphabeta(
    nb: Masks,
    ring: Ints,
    s: Masks,
    alpha: Int,
    beta: Int,
    keys: Masks,
    work: Ints,
    lower: Bounds,
    upper: Bounds,
    best: BestActions,
    history: Ints,
    stats: Ints,
    deadline: float,
) -> Int:
    """The exact result for kernel player 0 within ``[alpha, beta]`` (fail-soft), or UNKNOWN."""
    stats[0] += 1
    if stats[1]:
        return UNKNOWN
    if stats[0] == stats[2] or ((stats[0] & 4095) == 0 and _time_is_up(deadline)):
        stats[1] = 1
        return UNKNOWN
    if s[kernel.S_STEP] == kernel.OVER_STEP:
        return _first_player_result(s)
    start = stats[0]
    key = np.empty(_KEY_WORDS, np.uint64)
    h = _key(s, key)
    slot = _find(keys, work, key, h)
    tt_move = -1
    if slot >= 0:
        lo = np.int64(lower[slot])
        hi = np.int64(upper[slot])
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        tt_move = best[slot]
    out = np.empty(kernel.MAX_MOVES, np.int64)
    n = kernel.legal_actions(nb, s, out)
    children = np.empty((n, kernel.STATE_SIZE), np.uint64)
    _children(nb, ring, s, out, n, children)
    mover = np.int64(s[kernel.S_TO_MOVE])
    maximising = mover == 0
    goal = 1 if maximising else -1
    scores = np.empty(n, np.int64)
    child_key = np.empty(_KEY_WORDS, np.uint64)
    for i in range(n):
        c = children[i]
        if c[kernel.S_STEP] == kernel.OVER_STEP:
            ended = _first_player_result(c)
            if ended == goal:  # the action wins at once: nothing can do better
                _remember(
                    keys, work, lower, upper, best, key, h, stats[0] - start, ended, ended, out[i]
                )
                return ended
            scores[i] = 0
            continue
        cslot = _find(keys, work, child_key, _key(c, child_key))
        if cslot >= 0:  # enhanced transposition cutoff: a child already proved good enough
            if maximising and lower[cslot] >= beta:
                bound = np.int64(lower[cslot])
                _remember(
                    keys, work, lower, upper, best, key, h, stats[0] - start, bound, 1, out[i]
                )
                return bound
            if not maximising and upper[cslot] <= alpha:
                bound = np.int64(upper[cslot])
                _remember(
                    keys, work, lower, upper, best, key, h, stats[0] - start, -1, bound, out[i]
                )
                return bound
        scores[i] = 1 + history[out[i]] + _TAKES * _taken(s, c, mover)
        if out[i] == tt_move:
            scores[i] += _TT_MOVE
    a0 = alpha
    b0 = beta
    value: Int = -2 if maximising else 2
    chosen = out[0]
    while True:
        pick = _next_best(scores, n)
        if pick < 0:
            break
        v = _alphabeta(
            nb,
            ring,
            children[pick],
            alpha,
            beta,
            keys,
            work,
            lower,
            upper,
            best,
            history,
            stats,
            deadline,
        )
        if v == UNKNOWN:
            return UNKNOWN
        if maximising:
            if v > value:
                value = v
                chosen = out[pick]
            alpha = max(alpha, v)
        else:
            if v < value:
                value = v
                chosen = out[pick]
            beta = min(beta, v)
        if alpha >= beta:
            history[out[pick]] += stats[0] - start
            break
    # store the bound this search proved (fail-soft): exact inside the window
    slot = _find(keys, work, key, h)
    fresh = slot < 0
    entry = _store(keys, work, slot, key, stats[0] - start)
    if fresh:
        lower[entry] = -1
        upper[entry] = 1
    if value <= a0:
        upper[entry] = min(upper[entry], value)
    elif value >= b0:
        lower[entry] = max(lower[entry], value)
    else:
        lower[entry] = value
        upper[entry] = value
    best[entry] = chosen
    return value


@njit(cache=True)
def _remember(
    keys: Masks,
    work: Ints,
    lower: Bounds,
    upper: Bounds,
    best: BestActions,
    key: Masks,
    h: Mask,
    cost: Int,
    low: Int,
    high: Int,
    action: Int,
) -> None:
    """Store a position's proved bounds ``[low, high]`` and the action that proved them (a
    search cut short by a child: a win at once, or a child whose stored bound suffices), so
    that the root's best action is known however its search ended."""
    slot = _find(keys, work, key, h)
    fresh = slot < 0
    entry = _store(keys, work, slot, key, cost)
    if fresh:
        lower[entry] = -1
        upper[entry] = 1
    lower[entry] = max(lower[entry], low)
    upper[entry] = min(upper[entry], high)
    best[entry] = action


@njit(cache=True)
def _maxn(
    nb: Masks,
    ring: Ints,
    s: Masks,
    keys: Masks,
    work: Ints,
    vectors: Bounds,
    best: BestActions,
    history: Ints,
    stats: Ints,
    deadline: float,
    result: Floats,
) -> bool:
    """Write the max-n result per kernel player into ``result``; False if the time ran out.

    A win is the best a player can get, and it leaves every other player lost (a game has one
    winner), so the first winning action found ends the search of a position, in any order;
    otherwise every action is searched and ties go to the first in legal order.
    """
    stats[0] += 1
    if stats[1]:
        return False
    if stats[0] == stats[2] or ((stats[0] & 4095) == 0 and _time_is_up(deadline)):
        stats[1] = 1
        return False
    if s[kernel.S_STEP] == kernel.OVER_STEP:
        kernel.returns_of(s, result)
        return True
    start = stats[0]
    key = np.empty(_KEY_WORDS, np.uint64)
    h = _key(s, key)
    slot = _find(keys, work, key, h)
    if slot >= 0:
        for k in range(3):
            result[k] = vectors[slot, k]
        return True
    out = np.empty(kernel.MAX_MOVES, np.int64)
    n = kernel.legal_actions(nb, s, out)
    children = np.empty((n, kernel.STATE_SIZE), np.uint64)
    _children(nb, ring, s, out, n, children)
    mover = np.int64(s[kernel.S_TO_MOVE])
    found = np.zeros((n, 3), np.float64)
    scores = np.full(n, -1, np.int64)  # -1: value known (game over, or in the table)
    child_key = np.empty(_KEY_WORDS, np.uint64)
    won: Int = -1
    for i in range(n):
        c = children[i]
        if c[kernel.S_STEP] == kernel.OVER_STEP:
            kernel.returns_of(c, found[i])
        else:
            cslot = _find(keys, work, child_key, _key(c, child_key))
            if cslot < 0:
                scores[i] = 1 + history[out[i]] + _TAKES * _taken(s, c, mover)
                continue
            for k in range(3):
                found[i, k] = vectors[cslot, k]
        if found[i, mover] == 1.0:
            won = i
            break
    while won < 0:  # the unknown children, the likeliest wins first
        pick = _next_best(scores, n)
        if pick < 0:
            break
        if not _maxn(
            nb,
            ring,
            children[pick],
            keys,
            work,
            vectors,
            best,
            history,
            stats,
            deadline,
            found[pick],
        ):
            return False
        if found[pick, mover] == 1.0:
            won = pick
            history[out[pick]] += stats[0] - start
    chosen: Int = won
    if won < 0:  # no win: the first action in legal order of the best value for the mover
        chosen = 0
        for i in range(1, n):
            if found[i, mover] > found[chosen, mover]:
                chosen = i
    for k in range(3):
        result[k] = found[chosen, k]
    slot = _store(keys, work, _find(keys, work, key, h), key, stats[0] - start)
    for k in range(3):
        vectors[slot, k] = result[k]
    best[slot] = out[chosen]
    return True


@njit(cache=True)
def _best_of(keys: Masks, work: Ints, best: BestActions, s: Masks) -> int:
    key = np.empty(_KEY_WORDS, np.uint64)
    slot = _find(keys, work, key, _key(s, key))
    return best[slot] if slot >= 0 else -1


def solve_vector(
    neighbour_masks: Masks,
    ring: Ints,
    vector: Masks,
    seconds: float = 60.0,
    table_bits: int = 20,
    nodes: int | None = None,
) -> tuple[list[float] | None, int, int]:
    """Solve a kernel state vector: ``(result per kernel player or None, best action or -1,
    positions searched)``.

    The search gives up (``None``) after ``seconds`` of wall time or, if ``nodes`` is given,
    after searching that many positions (a limit that gives the same answer on any machine
    and under any load). The transposition table holds ``2 ** table_bits`` positions, about
    54 bytes each (``table_bits=22``: about 230 MB).

    Raises:
        ValueError: ``table_bits`` outside 10..26, or ``nodes`` below 1.
    """
    if not 10 <= table_bits <= 26:
        raise ValueError("table_bits must be between 10 and 26")
    if nodes is not None and nodes < 1:
        raise ValueError("nodes must be at least 1")
    size = 1 << table_bits
    keys = np.zeros((size, _KEY_WORDS), dtype=np.uint64)
    work = np.full(size, -1, dtype=np.int64)  # positions searched to fill the entry; -1: free
    best = np.full(size, -1, dtype=np.int32)
    history = np.zeros(KERNEL_ACTIONS, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)  # positions searched, given up, the node limit (0: none)
    stats[2] = 0 if nodes is None else nodes + 1
    deadline = time.perf_counter() + seconds
    s = np.array(vector, dtype=np.uint64)
    players = int(s[kernel.S_PLAYERS])
    if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
        result = np.zeros(3)
        kernel.returns_of(s, result)
        return [float(x) for x in result[:players]], -1, 0
    if players == 2:
        lower = np.full(size, -1, dtype=np.int8)
        upper = np.full(size, 1, dtype=np.int8)

        def window(alpha: int, beta: int) -> int:
            return int(
                _alphabeta(
                    neighbour_masks,
                    ring,
                    s,
                    alpha,
                    beta,
                    keys,
                    work,
                    lower,
                    upper,
                    best,
                    history,
                    stats,
                    deadline,
                )
            )

        # null windows: does the first player win (> 0)? If not, does it draw (>= 0)?
        v = window(0, 1)
        if v == 0:  # at most a draw (fail-low in the first window): a draw or a loss?
            v = window(-1, 0)
            v = v if v in (UNKNOWN, -1) else 0
        if v == UNKNOWN:
            return None, -1, int(stats[0] - stats[1])
        values: list[float] = [float(v), float(-v)]
    else:
        vectors = np.zeros((size, 3), dtype=np.int8)
        result = np.zeros(3, dtype=np.float64)
        if not _maxn(
            neighbour_masks, ring, s, keys, work, vectors, best, history, stats, deadline, result
        ):
            return None, -1, int(stats[0] - stats[1])
        values = [float(x) for x in result[:players]]
    return values, int(_best_of(keys, work, best, s)), int(stats[0])


def solve(
    state: HexState, seconds: float = 60.0, table_bits: int = 20, nodes: int | None = None
) -> Solution:
    """The exact value of ``state`` for every seat, and a best action for the seat to move.

    Two players: exact minimax. Three players: max-n, ties broken by the
    first action in legal order (all winning actions give the same values; the best action
    is then the first win found). The search gives up after ``seconds``, or after ``nodes``
    positions if given (``values`` is then ``None``).

    Raises:
        ValueError: the state is in the 2008 placement phase.
    """
    vector = state.kernel_vector()
    surface = state.surface
    if vector is None or surface is None:
        raise ValueError("the solver works on the movement phase; this game is still placing tiles")
    started = time.perf_counter()
    by_player, action, nodes = solve_vector(
        surface.neighbour_masks, surface.ring, vector, seconds, table_bits, nodes
    )
    elapsed = time.perf_counter() - started
    seat = state.current_player()
    if by_player is None:
        return Solution(None, seat, None, nodes, elapsed)
    values = [0.0] * state.num_players
    for player, owner in enumerate(state.seat_order()):
        values[owner] = by_player[player]
    return Solution(values, seat, action if action >= 0 else None, nodes, elapsed)
