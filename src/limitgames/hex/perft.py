"""Perft for the movement phase, in the compiled kernel: the number of decision sequences.

``rules/hex.md``, Interfaces: the count of sequences of exactly ``depth``
decisions (a game over before ``depth`` counts 0; skipped steps are not
decisions). :meth:`HexState.fast_perft` calls :func:`perft`; the tests check it
against the naive engine of ``tests/hex/reference.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from limitgames.hex.bitboard import Ints, Masks
from limitgames.hex.kernel import MAX_MOVES, OVER_STEP, S_STEP, legal_actions, play


@njit(cache=True)
def perft(nb: Masks, ring: Ints, s: Masks, depth: int) -> int:
    """The number of sequences of exactly ``depth`` decisions from ``s`` (``rules/hex.md``,
    Interfaces: a game over before ``depth`` counts 0; skipped steps are not decisions)."""
    if s[S_STEP] == OVER_STEP:
        return 0
    if depth == 0:
        return 1
    out = np.empty(MAX_MOVES, np.int64)
    n = legal_actions(nb, s, out)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        child = s.copy()
        play(nb, ring, child, out[i])
        total += perft(nb, ring, child, depth - 1)
    return total
