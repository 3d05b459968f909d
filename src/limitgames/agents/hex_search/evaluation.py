"""The learned evaluation of hex and the results of finished games, compiled for the search.

The one implementation of the learned model of :mod:`limitgames.agents.hex_evaluation`:
its ``evaluate(state)``, the ``alphabeta`` and ``heuristic`` agents and the
compiled search (:mod:`limitgames.agents.hex_search.tree`) all call
:func:`evaluate` here. Player ``k`` (a kernel player: turn order, not a seat) is
worth ``tanh(w . x(k) / 2)``, ``x(k)`` its feature differences (the columns of
:data:`limitgames.hex.kernel.FEATURES`) against the mean of its opponents; see
:mod:`limitgames.agents.hex_evaluation` for the features and how the weights
were fitted.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from limitgames.hex import kernel
from limitgames.hex.bitboard import Floats, Int, Ints, Masks

__all__ = ["EVALUATION_SIZE", "evaluate", "learned_values", "outcome", "scored_outcome"]

EVALUATION_SIZE = 13
"""Length of the evaluation array :func:`evaluate` reads: the 8 weights of
``hex_evaluation.FEATURE_NAMES``, then ``PAWN, FREEDOM, MOBILITY, SCALE,
SCALE_PER_REMOVABLE`` of its hand-tuned score."""

_IDENTITY = np.arange(3, dtype=np.int64)
"""The kernel players whose feature rows :func:`evaluate` reads (all three; rows past the
player count are left alone)."""


@njit(cache=True)
def outcome(s: Masks, out: Floats) -> None:
    """``out[k]`` for a finished game: 1 for the sole winner, 0 for a shared top, -1 otherwise."""
    kernel.returns_of(s, out)
    players = np.int64(s[kernel.S_PLAYERS])
    best = out[0]
    for k in range(1, players):
        best = max(best, out[k])
    tops = 0
    for k in range(players):
        if out[k] == best:
            tops += 1
    for k in range(players):
        if out[k] == best:
            out[k] = 1.0 if tops == 1 else 0.0
        else:
            out[k] = -1.0


@njit(cache=True)
def scored_outcome(s: Masks, out: Floats, me: Int, contempt: float) -> None:
    """:func:`outcome`, with a draw or shared win worth ``-contempt`` to the searching
    player ``me`` (a kernel player)."""
    outcome(s, out)
    if out[me] == 0.0:
        out[me] = -contempt


@njit(cache=True)
def evaluate(nb: Masks, s: Masks, weights: Floats, rows: Ints, out: Floats) -> None:
    """The learned evaluation of an unfinished position, per kernel player, into ``out``:
    :func:`learned_values` of the position's feature rows (:func:`kernel.features`).

    Args:
        nb: the surface's neighbour masks (``uint64[tiles, ...]``, ``Surface.neighbour_masks``).
        s: the kernel state vector (``uint64[kernel.STATE_SIZE]``), not finished.
        weights: ``float64[EVALUATION_SIZE]`` (see :data:`EVALUATION_SIZE`).
        rows: ``int64[3, 7]`` scratch for :func:`kernel.features`.
        out: ``float64[>= players]``.
    """
    kernel.features(nb, s, _IDENTITY, rows)
    learned_values(
        rows,
        np.int64(s[kernel.S_PLAYERS]),
        np.int64(s[kernel.S_TO_MOVE]),
        s[kernel.S_STEP] == kernel.REMOVE_STEP,
        weights,
        out,
    )


@njit(cache=True)
def learned_values(
    rows: Ints, players: Int, mover: Int, removal: bool, weights: Floats, out: Floats
) -> None:
    """The learned model on feature rows: ``out[k] = tanh(w . x(k) / 2)`` for ``k < players``.

    ``x(k)`` are the differences between row ``k`` and the mean of the other rows
    (tempo, tempo at a removal, the hand-tuned score, pawns, freedoms,
    mobility / 10, atari, the enemy's atari on the move: the features of
    :data:`limitgames.agents.hex_evaluation.FEATURE_NAMES`). Rows and ``mover`` are
    counted alike: kernel players inside the search, seats from
    :meth:`HexState.feature_matrix`.

    Args:
        rows: ``int64[>= players, 7]``, the columns of :data:`limitgames.hex.kernel.FEATURES`.
        players: 2 or 3.
        mover: the row of the player to move.
        removal: whether the step to play is a removal.
        weights: ``float64[EVALUATION_SIZE]``.
        out: ``float64[>= players]``, in ``[-1, 1]``.
    """
    pawn, freedom, mobility = weights[8], weights[9], weights[10]
    scale0, per_removable = weights[11], weights[12]
    others = players - 1
    for k in range(players):
        o0 = 0.0
        o1 = 0.0
        o2 = 0.0
        o6 = 0.0
        for i in range(players):
            if i != k:
                o0 += rows[i, kernel.F_PAWNS]
                o1 += rows[i, kernel.F_FREEDOMS]
                o2 += rows[i, kernel.F_MOBILITY]
                o6 += rows[i, kernel.F_ATARI]
        o0 /= others
        o1 /= others
        o2 /= others
        o6 /= others
        a0 = float(rows[k, kernel.F_PAWNS])
        a1 = float(rows[k, kernel.F_FREEDOMS])
        a2 = float(rows[k, kernel.F_MOBILITY])
        a6 = float(rows[k, kernel.F_ATARI])
        tempo = 1.0 if mover == k else -1.0
        scale = scale0 + per_removable * rows[k, kernel.F_REMOVABLE]
        hand = (pawn * (a0 - o0) + freedom * (a1 - o1) + mobility * (a2 - o2)) / scale
        threat = o6 if mover == k else -a6
        z = (
            weights[0] * tempo
            + (weights[1] * tempo if removal else 0.0)
            + weights[2] * hand
            + weights[3] * (a0 - o0)
            + weights[4] * (a1 - o1)
            + weights[5] * (a2 - o2) / 10.0
            + weights[6] * (a6 - o6)
            + weights[7] * threat
        )
        out[k] = np.tanh(z / 2.0)
