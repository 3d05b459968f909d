"""The evaluation of a Browne's Limit (``hex``) position, per seat.

What a player counts when looking at the board (``rules/hex.md``):

- **pawns**: every pawn is worth most (a seat with none is out);
- **freedoms**: empty tiles next to own pawns; a group without freedom is
  captured, so more freedoms mean safer groups;
- **mobility**: the (pawn, destination) moves available; a mobile army can
  reach the empty tiles that matter;
- **removable tiles**: empty tiles with a free edge, the removals still
  possible. Few of them mean the surface is nearly used up and every
  difference in pawns and freedoms is close to decisive, so the values are
  sharpened as they run out.

Seat ``s`` scores ``10 pawns + freedoms + 0.15 mobility``; its value is
``tanh((score_s - mean score of the others) / (6 + 0.25 removable))``.
A finished game is worth its returns. Counts come from the engine's public
``HexState.feature_matrix()``, one compiled call (perfect information: nothing is hidden).
"""

from __future__ import annotations

import math
from typing import Any

from limitgames.core import State

PAWN = 10.0
FREEDOM = 1.0
MOBILITY = 0.15
SCALE = 6.0
SCALE_PER_REMOVABLE = 0.25
PLAYOUT_DEPTH = 12
"""Random decisions (six turns) before a heuristic playout is cut off."""


def evaluate(state: State) -> list[float]:
    """One value per seat in ``[-1, 1]`` (see the module docstring)."""
    if state.is_terminal():
        return list(state.returns())
    hex_state: Any = state
    players = state.num_players
    m = hex_state.feature_matrix().tolist()  # per seat: pawns, freedoms, mobility, removable
    scale = SCALE + SCALE_PER_REMOVABLE * m[0][3]
    scores = [PAWN * row[0] + FREEDOM * row[1] + MOBILITY * row[2] for row in m]
    if players == 2:
        value = math.tanh((scores[0] - scores[1]) / scale)
        return [value, -value]
    total = sum(scores)
    return [math.tanh((s - (total - s) / (players - 1)) / scale) for s in scores]
