"""Scoring (rulebook p23), every weight a value of the data file.

- Gross domestic happiness: (A + C + E) x the demographic index of the population.
- Financial strength: (5 - crises) points per 10 $, if positive.
- Territory: 5 points per territory token.
- Military power: 1 point per 3 military in stock.
- Historical impact: -2 per pollution token, -1 per disruption token.

The rulebook's example: 8 x 4 + 15 + 20 + 1 - 18 = 50. In solo mode (p24) the log ends with
the verdict: more than 100 victory points is "a very good game".
"""

from __future__ import annotations

from typing import Any

from limitgames.world.data import CLASSES, WorldData
from limitgames.world.international import total_crises
from limitgames.world.nation import MILITARY, Nation
from limitgames.world.state import STAGE_HANDLERS, WorldState


def score_nation(data: WorldData, nation: Nation, crises: int) -> dict[str, int]:
    """The score of one nation as ``{part: points, ..., "total": points}``.

    Args:
        data: the game data (``[scoring]`` weights, demographic index).
        nation: the board to score.
        crises: the number of crisis tiles placed in the game.
    """
    return score_board(
        data,
        sol=nation.sol,
        population=nation.population,
        money=nation.money,
        territory=nation.territory,
        military=nation.stock[MILITARY],
        pollution=nation.pollution,
        disruption=nation.disruption,
        crises=crises,
    )


def score_view(data: WorldData, view: dict[str, Any], crises: int) -> dict[str, int]:
    """:func:`score_nation` of a nation's public view (``observe.nation_view``), for agents
    that read the observation."""
    return score_board(
        data,
        sol=[view["sol"][c] for c in CLASSES],
        population=int(view["population"]["position"]),
        money=int(view["money"]),
        territory=int(view["territory"]),
        military=int(view["stock"]["military"]),
        pollution=int(view["pollution"]),
        disruption=int(view["disruption"]),
        crises=crises,
    )


def score_board(
    data: WorldData,
    *,
    sol: list[int],
    population: int,
    money: int,
    territory: int,
    military: int,
    pollution: int,
    disruption: int,
    crises: int,
) -> dict[str, int]:
    """The score (rulebook p23) of a board given as numbers: ``sol`` by class A-E,
    ``population`` its position 1-9, the rest counts; weights from ``data.scoring``."""
    w: dict[str, Any] = data.scoring
    total_sol = sum(sol[CLASSES.index(c)] for c in w["sol_classes"])
    happiness = total_sol * data.demographic_index[max(1, min(9, population)) - 1]
    value = w["financial_base"] - crises
    financial = value * (money // w["money_unit"]) if value > 0 else 0
    territory_points = w["territory"] * territory
    military_points = w["military_points"] * (military // w["military_unit"])
    impact = w["pollution"] * pollution + w["disruption"] * disruption
    parts = {
        "happiness": happiness,
        "financial": financial,
        "territory": territory_points,
        "military": military_points,
        "impact": impact,
    }
    parts["total"] = sum(parts.values())
    return parts


def scoring(state: WorldState) -> bool:
    """Score every nation and end the game."""
    crises = total_crises(state)
    state.note(None, "== Scoring")
    state.score_details = [score_nation(state.data, n, crises) for n in state.nations]
    state.scores = [d["total"] for d in state.score_details]
    for seat, d in enumerate(state.score_details):
        state.note(
            seat,
            f"Score: happiness {d['happiness']} + money {d['financial']} + territory {d['territory']} + "
            f"military {d['military']} + impact {d['impact']} = {d['total']}",
        )
    if state.solo:
        total, bar = state.scores[0], state.data.solo["very_good_score"]
        verdict = (
            "you played a very good game, well done!"
            if total > bar
            else f"more than {bar} victory points is a very good game"
        )
        state.note(None, f"Solo score: {total} victory points; {verdict}")
    state.terminal = True
    state.pending.clear()
    return False


STAGE_HANDLERS["scoring"] = scoring
