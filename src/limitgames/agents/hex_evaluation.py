"""The evaluation of a Browne's Limit (``hex``) position, per seat, learned from games.

What a player counts when looking at the board (``rules/hex.md``), read from
the engine's compiled feature call (``HexState.feature_matrix()``; perfect
information, nothing is hidden):

- **pawns**: every pawn is worth most (a seat with none is out);
- **freedoms**: empty tiles next to own pawns; a group without freedom is
  captured, so more freedoms mean safer groups;
- **mobility** and **area**: the (pawn, destination) moves and the empty
  tiles the pawns can reach;
- **removable tiles**: empty tiles with a free edge, the removals still
  possible. Few of them mean the surface is nearly used up and every
  difference is close to decisive, so pawn and freedom differences are also
  given sharpened by ``8 / (removable + 4)``;
- **atari**: pawns in groups with exactly one freedom, which the player to
  move may capture at once;
- **tempo**: whose decision it is (and whether it is a removal);
- the **hand-tuned score** (below) as one more feature, so the fit refines it.

:func:`feature_vector` gives these as differences between a seat and its
opponent (the mean of its opponents with three players). The value of seat
``s`` is ``tanh(w . x(s) / 2)`` = ``2 P(s wins) - 1`` under a logistic
regression whose weights ``w`` were fitted on the results of self-play games
by ``scripts/train_hex_evaluation.py`` (seeded, re-runnable) and ship as
``hex_evaluation.json`` beside this module, with the data they came from and
their held-out accuracy. The hand-tuned evaluation it replaced stays as
:func:`hand_value` for comparison. A finished game is worth its returns.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from limitgames.agents.hex_search import EVALUATION_SIZE
from limitgames.agents.hex_search import evaluate as compiled_evaluate
from limitgames.agents.hex_search.evaluation import learned_values
from limitgames.core import Action, State
from limitgames.hex.bitboard import Floats
from limitgames.hex.kernel import F_ATARI, F_FREEDOMS, F_MOBILITY, F_PAWNS, F_REMOVABLE
from limitgames.hex.state import HexState

PLAYOUT_DEPTH = 12
"""Random decisions (six turns) before a heuristic playout is cut off."""

FEATURE_NAMES: tuple[str, ...] = (
    "tempo",
    "tempo_removal",
    "hand_score",
    "pawns",
    "freedoms",
    "mobility/10",
    "atari",
    "enemy_atari_on_move",
)
"""The entries of :func:`feature_vector`, in order."""

WEIGHTS_FILE = Path(__file__).with_name("hex_evaluation.json")

# the hand-tuned evaluation (before the learned one): 10 pawns + freedoms + 0.15 mobility
PAWN, FREEDOM, MOBILITY, SCALE, SCALE_PER_REMOVABLE = 10.0, 1.0, 0.15, 6.0, 0.25


def _load_weights() -> tuple[float, ...] | None:
    """The shipped weights, or ``None`` (then the hand-tuned evaluation is used) if the file is
    missing or was fitted on other features (a test checks that the shipped file fits)."""
    if not WEIGHTS_FILE.exists():
        return None
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    if data.get("features") != list(FEATURE_NAMES):
        return None
    return tuple(float(v) for v in data["weights"])


WEIGHTS = _load_weights()


def _vector(rows: list[list[int]], seat: int, mover: int, removal: bool) -> list[float]:
    """:func:`feature_vector` from the feature matrix rows (``kernel.FEATURES`` columns)."""
    mine = rows[seat]
    others = [row for i, row in enumerate(rows) if i != seat]
    k = len(others)
    opp = [sum(row[j] for row in others) / k for j in range(len(mine))]
    tempo = 1.0 if mover == seat else -1.0
    scale = SCALE + SCALE_PER_REMOVABLE * mine[F_REMOVABLE]
    pawns = mine[F_PAWNS] - opp[F_PAWNS]
    freedoms = mine[F_FREEDOMS] - opp[F_FREEDOMS]
    mobility = mine[F_MOBILITY] - opp[F_MOBILITY]
    hand = (PAWN * pawns + FREEDOM * freedoms + MOBILITY * mobility) / scale
    # a group in atari is lost if its enemy moves next (and so is the enemy's, if we move next)
    threat = opp[F_ATARI] if mover == seat else -mine[F_ATARI]
    return [
        tempo,
        tempo if removal else 0.0,
        hand,
        pawns,
        freedoms,
        mobility / 10.0,
        mine[F_ATARI] - opp[F_ATARI],
        threat,
    ]


def feature_vector(state: State, seat: int) -> list[float]:
    """The features of :data:`FEATURE_NAMES` for ``seat`` (an unfinished hex state)."""
    hex_state: Any = state
    rows = hex_state.feature_matrix().tolist()
    return _vector(rows, seat, state.current_player(), hex_state.step == "remove")


def evaluate(state: State) -> list[float]:
    """One value per seat in ``[-1, 1]``: the learned model (see the module docstring),
    computed by the compiled search's own evaluation
    (:func:`limitgames.agents.hex_search.evaluate` in the movement phase, in one compiled
    call from the kernel vector; :func:`~limitgames.agents.hex_search.evaluation.learned_values`
    on the pawn counts during 2008 placement), so that the search and the ``heuristic`` and
    ``alphabeta`` agents score a position alike."""
    if state.is_terminal():
        return list(state.returns())
    if _MODEL is None:
        return hand_value(state)
    hex_state: Any = state
    s, surface = hex_state.kernel_vector(), hex_state.surface
    players = state.num_players
    out = np.empty(3, dtype=np.float64)
    if s is None or surface is None:  # 2008 placement: the rows hold the pawn counts only
        rows = hex_state.feature_matrix()
        learned_values(rows, players, state.current_player(), False, _MODEL, out)
        values: list[float] = out[:players].tolist()
        return values
    compiled_evaluate(surface.neighbour_masks, s, _MODEL, np.empty((3, 7), np.int64), out)
    by_player = out.tolist()  # kernel player k plays seat seat_order()[k]
    values = [0.0] * players
    for k, seat in enumerate(hex_state.seat_order()):
        values[seat] = by_player[k]
    return values


def hand_value(state: State) -> list[float]:
    """The hand-tuned evaluation: seat ``s`` scores ``10 pawns + freedoms + 0.15 mobility``; its
    value is ``tanh((score_s - mean score of the others) / (6 + 0.25 removable))``."""
    if state.is_terminal():
        return list(state.returns())
    hex_state: Any = state
    m = hex_state.feature_matrix().tolist()
    scale = SCALE + SCALE_PER_REMOVABLE * m[0][F_REMOVABLE]
    scores = [
        PAWN * row[F_PAWNS] + FREEDOM * row[F_FREEDOMS] + MOBILITY * row[F_MOBILITY] for row in m
    ]
    if len(scores) == 2:
        value = math.tanh((scores[0] - scores[1]) / scale)
        return [value, -value]
    total = sum(scores)
    players = len(scores)
    return [math.tanh((s - (total - s) / (players - 1)) / scale) for s in scores]


EVALUATIONS = {"learned": evaluate, "hand": hand_value}
"""The evaluations an agent may name (``alphabeta:eval=hand``)."""

SOLVER_TILES = 20
"""The exact solver is tried only on surfaces of at most this many tiles."""


def solve(
    state: State, seconds: float, nodes: int | None = None
) -> tuple[list[float], Action] | None:
    """The exact values and a best action of a small hex position, or ``None`` (too big, or
    not solved within ``seconds`` or, if given, ``nodes`` positions searched). See
    :mod:`limitgames.hex.solver` (max-n with 3 players)."""
    from limitgames.hex.solver import solve as exact

    if not isinstance(state, HexState) or state.is_terminal() or state.surface is None:
        return None
    if len(state.tiles()) > SOLVER_TILES:
        return None
    solution = exact(state, seconds=seconds, table_bits=18, nodes=nodes)
    if solution.values is None or solution.best_action is None:
        return None
    return solution.values, solution.best_action


def evaluation_array() -> Floats:
    """The learned model as the compiled search reads it: ``float64[13]``, the weights of
    :data:`FEATURE_NAMES` then ``PAWN, FREEDOM, MOBILITY, SCALE, SCALE_PER_REMOVABLE``
    (see :func:`limitgames.agents.hex_search.evaluation.learned_values`).

    Raises:
        RuntimeError: if the shipped weights are missing or were fitted on other features.
    """
    if WEIGHTS is None:
        raise RuntimeError(f"{WEIGHTS_FILE.name} is missing or does not fit FEATURE_NAMES")
    values = [*WEIGHTS, PAWN, FREEDOM, MOBILITY, SCALE, SCALE_PER_REMOVABLE]
    assert len(values) == EVALUATION_SIZE
    return np.array(values, dtype=np.float64)


_MODEL = evaluation_array() if WEIGHTS is not None else None
"""The learned model as :func:`evaluate` hands it to the compiled code (``None``: no weights)."""
