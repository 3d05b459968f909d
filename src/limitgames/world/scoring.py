"""Scoring (rulebook p23), every weight a value of the data file.

- Gross domestic happiness: (A + C + E) x the demographic index of the population.
- Financial strength: (5 - crises) points per 10 $, if positive; with the variant parameter
  ``money=fixed`` ("About the score": money has the same value whatever the state of the
  world) 2 points per 10 $ (``scoring.fixed_money_value``).
- Territory: 5 points per territory token.
- Military power: 1 point per 3 military in stock.
- Historical impact: -2 per pollution token, -1 per disruption token.

The rulebook's example: 8 x 4 + 15 + 20 + 1 - 18 = 50. In solo mode (p24) the log ends with
the verdict: more than 100 victory points is "a very good game".

:func:`score_lines` is the scorecard, line by line with its reckoning (``score_board`` and
the game's scoring add up its points); :func:`scorecards` and
:func:`limitgames.world.position.stress_test` are the score calculator of
``limit score world POSITION.json``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from limitgames.translation import N_
from limitgames.world.data import CLASSES, WorldData
from limitgames.world.international import total_crises
from limitgames.world.nation import MILITARY, Nation
from limitgames.world.state import STAGE_HANDLERS, WorldState
from limitgames.world.words import Phrase, phrase


def score_nation(data: WorldData, nation: Nation, crises: int) -> dict[str, int]:
    """The score of one nation as ``{part: points, ..., "total": points}``.

    Args:
        data: the game data (``[scoring]`` weights, demographic index).
        nation: the board to score.
        crises: the number of crisis tiles placed in the game.
    """
    parts = {line.part: line.points for line in nation_score_lines(data, nation, crises)}
    parts["total"] = sum(parts.values())
    return parts


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
    ``population`` its position 1-9, the rest counts; weights from ``data.scoring``.

    Returns ``{part: points, ..., "total": points}`` (the parts of :func:`score_lines`).
    """
    lines = score_lines(
        data,
        sol=sol,
        population=population,
        money=money,
        territory=territory,
        military=military,
        pollution=pollution,
        disruption=disruption,
        crises=crises,
    )
    parts = {line.part: line.points for line in lines}
    parts["total"] = sum(parts.values())
    return parts


class ScoreLine(NamedTuple):
    """One line of the scorecard: ``part`` (happiness, financial, territory, military, impact),
    the rulebook's name of it, its ``points`` and the reckoning in words."""

    part: str
    title: str
    points: int
    reckoning: str


def score_lines(
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
) -> list[ScoreLine]:
    """The scorecard's lines (rulebook p23, "Calculating points"), each with its reckoning, as
    :func:`score_board` counts them (same arguments; weights from ``data.scoring``)."""
    w: dict[str, Any] = data.scoring
    classes = list(w["sol_classes"])
    levels = [sol[CLASSES.index(c)] for c in classes]
    total_sol = sum(levels)
    pos = max(1, min(9, population))
    index = data.demographic_index[pos - 1]
    happiness = total_sol * index
    units = money // w["money_unit"]
    fixed = data.money == "fixed"
    value = w["fixed_money_value"] if fixed else w["financial_base"] - crises
    financial = value * units if value > 0 else 0
    if fixed:
        money_text = phrase(
            N_(
                "money has the same value whatever the state of the world: %(value)d per "
                "%(unit)d $; %(money)d $ / %(unit)d = %(units)d; %(units)d x %(value)d = "
                "%(points)d"
            ),
            value=value,
            unit=w["money_unit"],
            money=money,
            units=units,
            points=financial,
        )
    elif value > 0:
        money_text = phrase(
            N_(
                "%(base)d - %(crises)d crises = %(value)d per %(unit)d $; %(money)d $ / "
                "%(unit)d = %(units)d; %(units)d x %(value)d = %(points)d"
            ),
            base=w["financial_base"],
            crises=crises,
            value=value,
            unit=w["money_unit"],
            money=money,
            units=units,
            points=financial,
        )
    else:
        money_text = phrase(
            N_("%(base)d - %(crises)d crises = %(value)d: money is worth nothing (%(money)d $)"),
            base=w["financial_base"],
            crises=crises,
            value=value,
            money=money,
        )
    military_points = w["military_points"] * (military // w["military_unit"])
    impact = w["pollution"] * pollution + w["disruption"] * disruption
    return [
        ScoreLine(
            "happiness",
            Phrase(N_("Gross domestic happiness")),
            happiness,
            phrase(
                N_(
                    "%(classes)s = %(levels)s = %(sol)d; population %(population)s: "
                    "demographic index %(index)d; %(sol)d x %(index)d = %(points)d"
                ),
                classes=" + ".join(classes),
                levels=" + ".join(map(str, levels)),
                sol=total_sol,
                population=data.level(pos),
                index=index,
                points=happiness,
            ),
        ),
        ScoreLine("financial", Phrase(N_("Financial strength")), financial, money_text),
        ScoreLine(
            "territory",
            Phrase(N_("Territory")),
            w["territory"] * territory,
            phrase(
                N_("%(territory)d territory x %(weight)d = %(points)d"),
                territory=territory,
                weight=w["territory"],
                points=w["territory"] * territory,
            ),
        ),
        ScoreLine(
            "military",
            Phrase(N_("Military power")),
            military_points,
            phrase(
                N_("%(military)d military / %(unit)d = %(units)d; x %(weight)d = %(points)d"),
                military=military,
                unit=w["military_unit"],
                units=military // w["military_unit"],
                weight=w["military_points"],
                points=military_points,
            ),
        ),
        ScoreLine(
            "impact",
            Phrase(N_("Historical impact")),
            impact,
            phrase(
                N_(
                    "%(pollution)d pollution x %(pollution_weight)d + %(disruption)d disruption "
                    "x %(disruption_weight)d = %(points)d"
                ),
                pollution=pollution,
                pollution_weight=w["pollution"],
                disruption=disruption,
                disruption_weight=w["disruption"],
                points=impact,
            ),
        ),
    ]


def nation_score_lines(data: WorldData, nation: Nation, crises: int) -> list[ScoreLine]:
    """:func:`score_lines` of a nation board."""
    return score_lines(
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


def scoring(state: WorldState) -> bool:
    """Score every nation and end the game."""
    crises = total_crises(state)
    state.note(None, N_("== Scoring"))
    state.score_details = [score_nation(state.data, n, crises) for n in state.nations]
    state.scores = [d["total"] for d in state.score_details]
    for seat, d in enumerate(state.score_details):
        state.note(
            seat,
            N_(
                "Score: happiness %(happiness)s + money %(financial)s + territory %(territory)s + "
                "military %(military)s + impact %(impact)s = %(total)s"
            ),
            happiness=d["happiness"],
            financial=d["financial"],
            territory=d["territory"],
            military=d["military"],
            impact=d["impact"],
            total=d["total"],
        )
    if state.solo:
        total, bar = state.scores[0], state.data.solo["very_good_score"]
        verdict = (
            N_("you played a very good game, well done!")
            if total > bar
            else phrase(N_("more than %(bar)d victory points is a very good game"), bar=bar)
        )
        state.note(
            None,
            N_("Solo score: %(total)d victory points; %(verdict)s"),
            total=total,
            verdict=verdict,
        )
    state.terminal = True
    state.pending.clear()
    return False


STAGE_HANDLERS["scoring"] = scoring


# --- the score calculator (limit score world) ---------------------------------------------------


def scorecards(state: WorldState) -> list[tuple[str, list[ScoreLine], int]]:
    """Each nation's name, scorecard lines and total, as :func:`scoring` counted them (the
    game must be over).

    Raises:
        ValueError: the game is not over.
    """
    if not state.terminal:
        raise ValueError("the game is not over: no score yet")
    crises = total_crises(state)
    cards = []
    for nation in state.nations:
        lines = nation_score_lines(state.data, nation, crises)
        cards.append((state.name(nation.seat), lines, sum(line.points for line in lines)))
    return cards
