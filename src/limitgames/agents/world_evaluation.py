"""The evaluation of a LIMIT (``world``) position: the score a nation is heading for.

Read from the public (spectator) observation only: nations' boards are open
in the game, hands are not (``rules/world.md``). Each nation's value is its
score as the rulebook counts it at the end (p23; weights as in the project's
data: happiness ``(A + C + E) x demographic index``, ``(5 - crises)`` per
10 $, 5 per territory, 1 per 3 military, -2 per pollution, -1 per
disruption), plus the rule of thumb of a careful player:

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

DEMOGRAPHIC_INDEX = (1, 1, 1, 2, 2, 3, 4, 5, 5)
"""By population position 1-9 (rulebook)."""
FOOD = 1.0
UNREST = 2.0
SCALE = 15.0
PLAYOUT_DEPTH = 24
"""Random decisions before a heuristic playout is cut off (a generation has many small steps)."""


def nation_value(nation: dict[str, Any], crises: int) -> float:
    """The projected score of one nation (see the module docstring)."""
    sol: dict[str, int] = nation["sol"]
    position = int(nation["population"]["position"])
    happiness = (sol["A"] + sol["C"] + sol["E"]) * DEMOGRAPHIC_INDEX[max(1, min(9, position)) - 1]
    financial = max(0, 5 - crises) * (int(nation["money"]) // 10)
    territory = 5 * int(nation["territory"])
    military = int(nation["stock"]["military"]) // 3
    impact = -2 * int(nation["pollution"]) - int(nation["disruption"])
    food_gap = max(
        0,
        int(nation["population"]["value"])
        - int(nation["plants"]["renewable"]["value"])
        - int(nation["stock"]["renewable"]),
    )
    unrest = int(nation["unrest"])
    unrest_cost = max(0, unrest - 6) + max(0, unrest - 9)
    total = happiness + financial + territory + military + impact
    return float(total) - FOOD * food_gap - UNREST * unrest_cost


def evaluate(state: State) -> list[float]:
    """One value per nation in ``[-1, 1]``; results when the game is over."""
    if state.is_terminal():
        return outcome_values(state.returns())
    view = state.observation(None)
    crises = sum(len(tiles) for tiles in view.get("crises", []))
    return squash([nation_value(n, crises) for n in view["nations"]], SCALE)
