"""The evaluation of a LIMIT (``world``) position: the score a nation is heading for.

Read from the public (spectator) observation only: nations' boards are open
in the game, hands are not (``rules/world.md``). Each nation's value is its
score as the engine counts it at the end (``world.scoring.score_view``: the
game's own scoring weights and demographic index, so a data override reaches
the computer too), plus the rule of thumb of a careful player:

- **feed the population**: renewable production short of the population
  value costs a population level at supply, so each missing unit counts
  ``FOOD`` points;
- **keep social unrest down**: every step above the growth zone's middle (6)
  costs ``UNREST`` points, and the uprising zone (10-11) twice as much;
- **keep pollution down** (already -2 per token in the score).

Values are the scores relative to the other nations, squashed to ``-1..1``
with :data:`SCALE`; a finished game is worth its results.
"""

from __future__ import annotations

from typing import Any

from limitgames.agents.evaluation import outcome_values, squash
from limitgames.core import State
from limitgames.world.data import WorldData
from limitgames.world.scoring import score_view

FOOD = 1.0
UNREST = 2.0
SCALE = 15.0
PLAYOUT_DEPTH = 24
"""Random decisions before a heuristic playout is cut off (a generation has many small steps)."""


def nation_value(data: WorldData, nation: dict[str, Any], crises: int) -> float:
    """The projected score of one nation (see the module docstring)."""
    score = score_view(data, nation, crises)["total"]
    food_gap = max(
        0,
        int(nation["population"]["value"])
        - int(nation["plants"]["renewable"]["value"])
        - int(nation["stock"]["renewable"]),
    )
    unrest = int(nation["unrest"])
    unrest_cost = max(0, unrest - 6) + max(0, unrest - 9)
    return float(score) - FOOD * food_gap - UNREST * unrest_cost


def evaluate(state: State) -> list[float]:
    """One value per nation in ``[-1, 1]``; results when the game is over."""
    if state.is_terminal():
        return outcome_values(state.returns())
    view = state.observation(None)
    crises = sum(len(tiles) for tiles in view.get("crises", []))
    data: WorldData = state.data  # type: ignore[attr-defined]
    return squash([nation_value(data, n, crises) for n in view["nations"]], SCALE)
