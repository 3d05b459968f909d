"""A plain exact solver: the differential reference of ``limitgames.hex.solver``.

This is the solver as it was before its search was made faster: alpha-beta over
+1/0/-1 (two players) and max-n with ties to the first legal action (three
players), each with a transposition table keyed by the whole position, children
searched in legal order, no move ordering, no cutoffs taken from the children's
table entries, one full window. It runs on the compiled kernel (the rules are not
what it checks: ``tests/hex/test_solver.py`` checks both solvers' values against a
naive minimax over the reference engine); it checks that the fast search's
pruning and ordering never change a value.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit, objmode

from limitgames.hex import kernel
from limitgames.hex.bitboard import Int, U
from limitgames.hex.state import HexState

UNKNOWN = np.int64(-9)
_KEY_WORDS = 5
_PROBES = 8


@njit(cache=True)
def _time_is_up(deadline: float) -> bool:
    with objmode(now="float64"):
        now = time.perf_counter()
    return now > deadline


@njit(cache=True)
def _key(s: Any, key: Any) -> Any:
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
def _find(keys: Any, used: Any, key: Any, h: Any) -> Int:
    """The slot holding ``key``, or ``-1 - free slot`` (or ``-1 - home slot`` if the probes are full)."""
    mask = U(keys.shape[0] - 1)
    home = np.int64(h & mask)
    for p in range(_PROBES):
        i = np.int64((h + U(p)) & mask)
        if not used[i]:
            return -1 - i
        same = True
        for w in range(_KEY_WORDS):
            if keys[i, w] != key[w]:
                same = False
                break
        if same:
            return i
    return -1 - home


@njit(cache=True)
def _store(keys: Any, used: Any, slot: Int, key: Any) -> Int:
    i = slot if slot >= 0 else -1 - slot
    for w in range(_KEY_WORDS):
        keys[i, w] = key[w]
    used[i] = True
    return i


@njit(cache=True)
def _first_player_result(s: Any) -> int:
    if (s[kernel.S_WINNERS] & U(1)) != U(0):
        return 1
    if (s[kernel.S_DRAWN] & U(1)) != U(0):
        return 0
    return -1


@njit(cache=True)
def _alphabeta(
    nb: Any,
    ring: Any,
    s: Any,
    alpha: Int,
    beta: Int,
    keys: Any,
    used: Any,
    lower: Any,
    upper: Any,
    best: Any,
    stats: Any,
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
    key = np.empty(_KEY_WORDS, np.uint64)
    h = _key(s, key)
    slot = _find(keys, used, key, h)
    tt_move = -1
    if slot >= 0:
        lo = lower[slot]
        hi = upper[slot]
        if lo >= beta or lo == hi:
            return np.int64(lo)
        if hi <= alpha:
            return np.int64(hi)
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        tt_move = best[slot]
    out = np.empty(kernel.MAX_MOVES, np.int64)
    n = kernel.legal_actions(nb, s, out)
    if tt_move >= 0:
        for i in range(n):
            if out[i] == tt_move:
                out[i] = out[0]
                out[0] = tt_move
                break
    maximising = s[kernel.S_TO_MOVE] == U(0)
    a0 = alpha
    b0 = beta
    value: Int = -2 if maximising else 2
    chosen = out[0]
    for i in range(n):
        child = s.copy()
        kernel.play(nb, ring, child, out[i])
        v = _alphabeta(
            nb, ring, child, alpha, beta, keys, used, lower, upper, best, stats, deadline
        )
        if v == UNKNOWN:
            return UNKNOWN
        if maximising:
            if v > value:
                value = v
                chosen = out[i]
            alpha = max(alpha, v)
        else:
            if v < value:
                value = v
                chosen = out[i]
            beta = min(beta, v)
        if alpha >= beta:
            break
    # store the bound this search proved (fail-soft): exact inside the window
    slot = _find(keys, used, key, h)
    fresh = slot < 0
    entry = _store(keys, used, slot, key)
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
def _maxn(
    nb: Any,
    ring: Any,
    s: Any,
    keys: Any,
    used: Any,
    vectors: Any,
    best: Any,
    stats: Any,
    deadline: float,
    result: Any,
) -> bool:
    """Write the max-n result per kernel player into ``result``; False if the time ran out."""
    stats[0] += 1
    if stats[1]:
        return False
    if stats[0] == stats[2] or ((stats[0] & 4095) == 0 and _time_is_up(deadline)):
        stats[1] = 1
        return False
    if s[kernel.S_STEP] == kernel.OVER_STEP:
        kernel.returns_of(s, result)
        return True
    key = np.empty(_KEY_WORDS, np.uint64)
    h = _key(s, key)
    slot = _find(keys, used, key, h)
    if slot >= 0:
        for k in range(3):
            result[k] = vectors[slot, k]
        return True
    out = np.empty(kernel.MAX_MOVES, np.int64)
    n = kernel.legal_actions(nb, s, out)
    mover = np.int64(s[kernel.S_TO_MOVE])
    child_result = np.zeros(3, np.float64)
    top = -2.0
    chosen = out[0]
    for i in range(n):
        child = s.copy()
        kernel.play(nb, ring, child, out[i])
        if not _maxn(nb, ring, child, keys, used, vectors, best, stats, deadline, child_result):
            return False
        if child_result[mover] > top:  # strictly better: ties keep the first action
            top = child_result[mover]
            chosen = out[i]
            for k in range(3):
                result[k] = child_result[k]
    slot = _store(keys, used, _find(keys, used, key, h), key)
    for k in range(3):
        vectors[slot, k] = result[k]
    best[slot] = chosen
    return True


def plain_values(state: HexState, seconds: float = 600.0, table_bits: int = 16) -> list[float]:
    """Every seat's exact result of a movement-phase ``state`` (max-n with three players).

    Raises:
        ValueError: the state is still placing tiles.
        TimeoutError: the search ran past ``seconds``.
    """
    vector = state.kernel_vector()
    surface = state.surface
    if vector is None or surface is None:
        raise ValueError("the plain solver works on the movement phase")
    result = plain_vector_values(surface.neighbour_masks, surface.ring, vector, seconds, table_bits)
    values = [0.0] * state.num_players
    for player, owner in enumerate(state.seat_order()):
        values[owner] = float(result[player])
    return values


def plain_vector_values(
    nb: Any, ring: Any, vector: Any, seconds: float = 600.0, table_bits: int = 16
) -> Any:
    """The exact result ``float64[3]`` per kernel player of a kernel state vector (2 or 3
    players; max-n with three).

    Raises:
        TimeoutError: the search ran past ``seconds``.
    """
    size = 1 << table_bits
    keys = np.zeros((size, _KEY_WORDS), dtype=np.uint64)
    used = np.zeros(size, dtype=np.bool_)
    best = np.full(size, -1, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    deadline = time.perf_counter() + seconds
    s = np.array(vector, dtype=np.uint64)
    result = np.zeros(3, dtype=np.float64)
    if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
        kernel.returns_of(s, result)
    elif int(s[kernel.S_PLAYERS]) == 2:
        lower = np.zeros(size, dtype=np.int64)
        upper = np.zeros(size, dtype=np.int64)
        v = int(_alphabeta(nb, ring, s, -1, 1, keys, used, lower, upper, best, stats, deadline))
        if v == UNKNOWN:
            raise TimeoutError("the plain solver ran out of time")
        result[0], result[1] = v, -v
    elif not _maxn(nb, ring, s, keys, used, np.zeros((size, 3)), best, stats, deadline, result):
        raise TimeoutError("the plain solver ran out of time")
    return result
