"""The social phase's 11 steps (rulebook pp 14-19) and the stress test (p23).

Every step runs for all nations (simultaneous); the column of the player aid
is class C's standard of living at the start of the phase, kept in
``state.columns`` (0-based). Choices inside a step (which plant loses a
level, which class gains or loses standard of living) are queued as
decisions of that nation.

Shortages, per level not covered (rulebook boxes, values in ``data.toml``):
renewable (supply): population -1 level, a plant of the nation's choice -1
level, social unrest +3; industrial (consumption): -1 standard of living,
unrest +2; fossil (production): unrest +2, that plant -1 level; military
(uprising, military crisis): -1 standard of living.
"""

from __future__ import annotations

from collections.abc import Callable

from limitgames.translation import N_
from limitgames.world.data import PLANTS
from limitgames.world.nation import INDUSTRIAL, MILITARY, RENEWABLE, Nation
from limitgames.world.state import STAGE_HANDLERS, WorldState
from limitgames.world.tracks import plant_choice, sol_choice
from limitgames.world.words import Phrase, phrase

StepFn = Callable[[WorldState, Nation, int], None]
ShortfallFn = Callable[[WorldState, Nation, int], tuple[str, int] | None]


def per_nation(step: StepFn, shortfall: ShortfallFn | None = None) -> Callable[[WorldState], bool]:
    """A stage handler running ``step(state, nation, column)`` for each nation in turn order.

    With alliances (p22), a nation about to suffer a shortage (``shortfall``: the resource
    and how much is missing) may first ask its allies for help (choice ``ask``)."""

    def handler(state: WorldState) -> bool:
        if state.cursor == 0:
            state.cursor = 1
            if shortfall is not None and state.alliances_on:
                from limitgames.world.allies import offer_ask

                for seat in state.turn_order():
                    nation = state.nations[seat]
                    short = shortfall(state, nation, state.columns[seat])
                    if short is not None:
                        offer_ask(state, seat, short[0], short[1])
                state.flush_deferred()
                if state.pending:
                    return False
        if state.cursor == 1:
            state.cursor = 2
            for seat in state.turn_order():
                step(state, state.nations[seat], state.columns[seat])
            state.flush_deferred()
            return not state.pending
        return True

    handler.__doc__ = step.__doc__
    return handler


def column_c(nation: Nation) -> int:
    """The player-aid column of the social phase: class C's standard of living (0-based)."""
    return min(nation.sol[2], 4) - 1


def social_start(state: WorldState) -> bool:
    """Fix each nation's social column from class C (rulebook p14)."""
    state.columns = [column_c(n) for n in state.nations]
    state.note(
        None, N_("== Social phase of generation %(generation)d"), generation=state.generation
    )
    return True


def stress_start(state: WorldState) -> bool:
    """Begin the stress test (supply, consumption, production again; no crises), or go to scoring."""
    state.columns = [column_c(n) for n in state.nations]
    if state.stress_tests <= 0:
        state.stage = "scoring"
        return False
    state.note(None, N_("== Stress test: supply, consumption and production once more"))
    return True


def _highest_level(need: Callable[[int], int], population: int, have: int) -> int:
    """The highest population position ``p <= population`` with ``need(p) <= have`` (0 if none)."""
    p = population
    while p > 0 and need(p) > have:
        p -= 1
    return p


def _levels(count: int) -> Phrase:
    """``1 level`` / ``3 levels``: how many levels a shortage is (in the log's words)."""
    return phrase(N_("%(count)d level") if count == 1 else N_("%(count)d levels"), count=count)


def recycle(state: WorldState, nation: Nation, consumed: int) -> str:
    """Recycling (permanent): 10+ industrial consumed in one step -> 1 fossil from the LIMIT box."""
    if "recycling" not in nation.permanent:
        return ""
    card = state.data.cards["recycling"]
    if consumed < card.p("threshold"):
        return ""
    k = card.p("fossil")
    nation.fossil += k
    state.limit_box["fossil"] -= k
    return phrase(N_("; Recycling: +%(fossil)d fossil from the LIMIT box"), fossil=k)


def supply(state: WorldState, nation: Nation, column: int) -> None:
    """1 Supply: spend 1 renewable per population (Vegetarianism: one level lower)."""
    data, so = state.data, state.data.social
    off = (
        data.cards["vegetarianism"].p("supply_offset") if "vegetarianism" in nation.permanent else 0
    )
    pop = nation.population
    have = nation.stock[RENEWABLE]

    def need(p: int) -> int:
        return data.level(p + off) if p > 0 else 0

    wanted = need(pop)
    if wanted <= have:
        nation.stock[RENEWABLE] -= wanted
        state.note(
            nation.seat,
            N_("Supply: population %(population)d eats %(wanted)d renewable (%(left)d left)"),
            population=data.level(pop),
            wanted=wanted,
            left=have - wanted,
        )
        return
    fed = _highest_level(need, pop, have)
    spent = need(fed)
    k = pop - fed
    nation.stock[RENEWABLE] -= spent
    old_pop = data.level(pop)
    nation.population = max(1, pop - so["renewable_shortage_population"] * k)
    state.note(
        nation.seat,
        N_(
            "Supply: population %(population)d needs %(wanted)d renewable, you have %(have)d: "
            "shortage of %(levels)s — spend %(spent)d, keep %(kept)d; population %(population)d "
            "-> %(new)d; %(plants)d plant level(s) lost"
        ),
        population=old_pop,
        wanted=wanted,
        have=have,
        levels=_levels(k),
        spent=spent,
        kept=have - spent,
        new=data.level(nation.population),
        plants=k * so["renewable_shortage_plant"],
    )
    state.change_unrest(nation, so["renewable_shortage_unrest"] * k, N_("Supply shortage"))
    plant_choice(
        state,
        nation,
        k * so["renewable_shortage_plant"],
        -1,
        PLANTS,
        N_("Supply shortage"),
        deferred=True,
    )


def supply_shortfall(state: WorldState, nation: Nation, column: int) -> tuple[str, int] | None:
    """The renewable the supply step will lack (p14), or ``None``."""
    off = (
        state.data.cards["vegetarianism"].p("supply_offset")
        if "vegetarianism" in nation.permanent
        else 0
    )
    missing = state.data.level(nation.population + off) - nation.stock[RENEWABLE]
    return ("renewable", missing) if missing > 0 else None


def consumption_shortfall(state: WorldState, nation: Nation, column: int) -> tuple[str, int] | None:
    """The industrial the consumption step will lack (p15), or ``None``."""
    so = state.data.social
    if not so["consumes_industrial"][column]:
        return None
    off = so["consumption_offset"][column]
    if "sustainable-consumption" in nation.permanent:
        off += state.data.cards["sustainable-consumption"].p("consumption_offset")
    missing = state.data.level(nation.population + off) - nation.stock[INDUSTRIAL]
    return ("industrial", missing) if missing > 0 else None


def production_shortfall(state: WorldState, nation: Nation, column: int) -> tuple[str, int] | None:
    """The fossil the production step will lack (p17: Intensive Farming, then the industrial and
    military plants), or ``None``."""
    data = state.data
    need = (
        data.fossil_cost[nation.plants[INDUSTRIAL] - 1]
        + data.fossil_cost[nation.plants[MILITARY] - 1]
    )
    if "intensive-farming" in nation.permanent:
        need += data.cards["intensive-farming"].p("fossil")
    missing = need - nation.fossil
    return ("fossil", missing) if missing > 0 else None


def military_shortfall(state: WorldState, nation: Nation, offset: int) -> int:
    """The military missing to spend 1 per population ``offset`` levels away (p18)."""
    return max(0, state.data.level(nation.population + offset) - nation.stock[MILITARY])


def uprising_shortfall(state: WorldState, nation: Nation, column: int) -> tuple[str, int] | None:
    """The military an uprising will lack (p18), or ``None``."""
    if nation.unrest < state.data.uprising_from:
        return None
    kind, number = state.data.uprising[column]
    missing = military_shortfall(state, nation, number) if kind == "military" else 0
    return ("military", missing) if missing > 0 else None


def conserve(state: WorldState, nation: Nation, column: int) -> None:
    """2 Conserving renewable resources: keep at most 10."""
    cap = state.data.social["renewable_keep"]
    if nation.stock[RENEWABLE] > cap:
        state.note(
            nation.seat,
            N_("Conserving: renewable %(old)d -> %(new)d"),
            old=nation.stock[RENEWABLE],
            new=cap,
        )
        nation.stock[RENEWABLE] = cap


def consumption(state: WorldState, nation: Nation, column: int) -> None:
    """3 Consumption of industrial resources by class C's column (Sustainable Consumption: one level lower)."""
    data, so = state.data, state.data.social
    if not so["consumes_industrial"][column]:
        return
    off = so["consumption_offset"][column]
    if "sustainable-consumption" in nation.permanent:
        off += data.cards["sustainable-consumption"].p("consumption_offset")
    pop = nation.population
    have = nation.stock[INDUSTRIAL]

    def need(p: int) -> int:
        return data.level(p + off) if p > 0 else 0

    wanted = need(pop)
    if wanted <= have:
        nation.stock[INDUSTRIAL] -= wanted
        extra = recycle(state, nation, wanted)
        state.note(
            nation.seat,
            N_(
                "Consumption (class C at %(column)d): %(wanted)d industrial (%(left)d left)%(extra)s"
            ),
            column=column + 1,
            wanted=wanted,
            left=have - wanted,
            extra=extra,
        )
        return
    served = _highest_level(need, pop, have)
    spent = need(served)
    k = pop - served
    nation.stock[INDUSTRIAL] -= spent
    extra = recycle(state, nation, spent)
    state.note(
        nation.seat,
        N_(
            "Consumption: population %(population)d needs %(wanted)d industrial, you have "
            "%(have)d: shortage of %(levels)s — spend %(spent)d; %(lost)d standard of living "
            "lost%(extra)s"
        ),
        population=data.level(pop),
        wanted=wanted,
        have=have,
        levels=_levels(k),
        spent=spent,
        lost=k * so["industrial_shortage_sol"],
        extra=extra,
    )
    state.change_unrest(nation, so["industrial_shortage_unrest"] * k, N_("Consumption shortage"))
    sol_choice(
        state, nation, -so["industrial_shortage_sol"] * k, N_("Consumption shortage"), deferred=True
    )


def _move_population(state: WorldState, nation: Nation, delta: int, why: str) -> None:
    old = nation.population
    nation.population = max(1, min(state.data.population_positions, old + delta))
    if nation.population != old:
        state.note(
            nation.seat,
            N_("%(why)s: population %(old)d -> %(new)d"),
            why=why,
            old=state.data.level(old),
            new=state.data.level(nation.population),
        )


def population_growth(state: WorldState, nation: Nation, column: int) -> None:
    """4 Population growth: +1 level with class C at 1 or 2."""
    _move_population(
        state,
        nation,
        state.data.social["population_growth"][column],
        phrase(N_("Population growth (class C at %(column)d)"), column=column + 1),
    )


def lower_mortality(state: WorldState, nation: Nation, column: int) -> None:
    """5 Lower mortality rate: 2+ demographic-shift tiles in the zone -> population +1 level."""
    if nation.shift_zone >= state.data.social["lower_mortality_shifts"]:
        _move_population(state, nation, 1, N_("Lower mortality rate"))


def lower_birth_rate(state: WorldState, nation: Nation, column: int) -> None:
    """6 Lower birth rate: 1 or 2 demographic-shift tiles from the zone to the LIMIT box."""
    k = min(nation.shift_zone, state.data.social["lower_birth_rate_max"])
    if k:
        nation.shift_zone -= k
        state.limit_box["shift"] += k
        state.note(
            nation.seat,
            N_("Lower birth rate: %(count)d demographic shift tile(s) to the LIMIT box"),
            count=k,
        )


def economic_growth(state: WorldState, nation: Nation, column: int) -> None:
    """7 Economic growth by class C's column; skipped with Policy Planning."""
    if "policy-planning" in nation.permanent:
        state.note(nation.seat, N_("Economic growth: skipped (Policy Planning)"))
        return
    positions = state.data.production_positions
    for plants, delta in state.data.economic_growth[column]:
        if len(plants) == 1:
            i = PLANTS.index(plants[0])
            old = nation.plants[i]
            if nation.move_plant(i, delta, positions):
                state.note(
                    nation.seat,
                    N_(
                        "Economic growth (class C at %(column)d): %(plant)s plant %(old)d -> %(new)d"
                    ),
                    column=column + 1,
                    plant=plants[0],
                    old=old,
                    new=nation.plants[i],
                )
        else:
            plant_choice(state, nation, 1, delta, plants, N_("Economic growth"), deferred=True)


def taxation(state: WorldState, nation: Nation, column: int) -> None:
    """8 Taxation: 2/3/3/5 $ per population from the World Bank (empty: financial crisis)."""
    rate = state.data.social["taxation_per_pop"][column]
    amount = rate * state.population_value(nation)
    state.pay_from_bank(nation, amount)
    state.note(
        nation.seat,
        N_(
            "Taxation (class C at %(column)d): %(rate)d $ x population %(population)d = "
            "+%(amount)d $ (now %(money)d $)"
        ),
        column=column + 1,
        rate=rate,
        population=state.population_value(nation),
        amount=amount,
        money=nation.money,
    )


def produce(state: WorldState, nation: Nation, plant: int, why: str, shortage: bool = True) -> None:
    """Produce with an industrial or military plant (rulebook p17): from position 4, fossil to the
    LIMIT box and pollution received; a fossil shortage produces at the highest level possible,
    unrest +2 and the plant -1 level per level not produced."""
    data, so = state.data, state.data.social
    pos = nation.plants[plant]
    costs = data.fossil_cost
    made = pos
    while made > 0 and costs[made - 1] > nation.fossil:
        made -= 1
    fossil = costs[made - 1] if made else 0
    pollution = data.pollution[made - 1] if made else 0
    if plant == INDUSTRIAL and "green-production" in nation.permanent:
        pollution = max(0, pollution - data.cards["green-production"].p("pollution_less"))
    amount = data.level(made)
    nation.stock[plant] += amount
    nation.fossil -= fossil
    state.limit_box["fossil"] += fossil
    state.gain_pollution(nation, pollution)
    name = PLANTS[plant]
    text: str = phrase(
        N_("%(why)s: %(resource)s +%(amount)d"), why=why, resource=name, amount=amount
    )
    if fossil or pollution:
        text += phrase(
            N_(" (fossil -%(fossil)d, pollution +%(pollution)d)"),
            fossil=fossil,
            pollution=pollution,
        )
    k = pos - made
    if k:
        text += phrase(
            N_("; fossil shortage of %(levels)s: %(plant)s plant %(old)d -> %(new)d"),
            levels=_levels(k),
            plant=name,
            old=pos,
            new=max(1, pos - k),
        )
        nation.plants[plant] = max(1, pos - so["fossil_shortage_plant"] * k)
    state.note(nation.seat, text)
    if k:
        state.change_unrest(nation, so["fossil_shortage_unrest"] * k, N_("Fossil shortage"))


def production(state: WorldState, nation: Nation, column: int) -> None:
    """9 Production: renewable, then industrial, then military (Intensive Farming, Green Production)."""
    data = state.data
    bonus = 0
    if "intensive-farming" in nation.permanent:
        card = data.cards["intensive-farming"]
        if nation.fossil < card.p("fossil"):
            from limitgames.world.cards import withdraw

            withdraw(state, nation, "intensive-farming", forced=True)
        else:
            bonus = card.p("bonus_levels")
            nation.fossil -= card.p("fossil")
            state.limit_box["fossil"] += card.p("fossil")
            state.gain_pollution(nation, card.p("pollution"))
    amount = data.level(nation.plants[RENEWABLE] + bonus)
    nation.stock[RENEWABLE] += amount
    if bonus:
        state.note(
            nation.seat, N_("Production: renewable +%(amount)d (Intensive Farming)"), amount=amount
        )
    else:
        state.note(nation.seat, N_("Production: renewable +%(amount)d"), amount=amount)
    produce(state, nation, INDUSTRIAL, N_("Production"))
    produce(state, nation, MILITARY, N_("Production"))


def spend_military(
    state: WorldState, nation: Nation, offset: int, why: str, deferred: bool = True
) -> None:
    """Spend 1 military per population ``offset`` levels away; shortage: -1 standard of living per
    level not paid, placed by the nation (rulebook p18)."""
    data = state.data
    pop = nation.population
    have = nation.stock[MILITARY]

    def need(p: int) -> int:
        return data.level(p + offset) if p > 0 else 0

    wanted = need(pop)
    if wanted <= have:
        nation.stock[MILITARY] -= wanted
        state.note(
            nation.seat,
            N_("%(why)s: spend %(wanted)d military (%(left)d left)"),
            why=why,
            wanted=wanted,
            left=have - wanted,
        )
        return
    paid = _highest_level(need, pop, have)
    spent = need(paid)
    k = pop - paid
    nation.stock[MILITARY] -= spent
    lost = k * data.social["military_shortage_sol"]
    state.note(
        nation.seat,
        N_(
            "%(why)s: needs %(wanted)d military, you have %(have)d: shortage of %(levels)s — "
            "spend %(spent)d; %(lost)d standard of living lost"
        ),
        why=why,
        wanted=wanted,
        have=have,
        levels=_levels(k),
        spent=spent,
        lost=lost,
    )
    sol_choice(
        state, nation, -lost, phrase(N_("%(why)s (military shortage)"), why=why), deferred=deferred
    )


def public_order(state: WorldState, nation: Nation, column: int) -> None:
    """10 Public order: uprising (unrest 10-11), growth (3-9) or boom (1-2)."""
    data, so = state.data, state.data.social
    if nation.unrest >= data.uprising_from:
        kind, number = data.uprising[column]
        if kind == "military":
            spend_military(
                state,
                nation,
                number,
                phrase(N_("Uprising (social unrest %(unrest)d)"), unrest=nation.unrest),
            )
        else:
            due = number * state.population_value(nation)
            paid = min(due, nation.money)
            nation.money -= paid
            state.limit_box["money"] += paid
            state.note(
                nation.seat,
                N_(
                    "Uprising (social unrest %(unrest)d): lose %(paid)d $ of %(due)d $ to the LIMIT box"
                ),
                unrest=nation.unrest,
                paid=paid,
                due=due,
            )
    elif nation.unrest <= data.boom_up_to:
        money = so["boom_money"][column]
        state.pay_from_bank(nation, money)
        state.note(
            nation.seat,
            N_("Boom (social unrest %(unrest)d): +%(money)d $"),
            unrest=nation.unrest,
            money=money,
        )
        sol_choice(state, nation, so["boom_sol"][column], N_("Boom"), deferred=True)
    else:
        sol_choice(
            state,
            nation,
            so["growth_sol"][column],
            phrase(N_("Growth (social unrest %(unrest)d)"), unrest=nation.unrest),
            deferred=True,
        )


def class_struggle(state: WorldState, nation: Nation, column: int) -> None:
    """11 Class struggle: unrest + (A - E)."""
    gap = nation.sol[0] - nation.sol[4]
    state.change_unrest(
        nation,
        gap,
        phrase(
            N_("Class struggle (A %(a)d - E %(e)d = %(gap)d)"),
            a=nation.sol[0],
            e=nation.sol[4],
            gap=gap,
        ),
    )


STAGE_HANDLERS.update(
    {
        "social_start": social_start,
        "supply": per_nation(supply, supply_shortfall),
        "conserve": per_nation(conserve),
        "consumption": per_nation(consumption, consumption_shortfall),
        "population_growth": per_nation(population_growth),
        "lower_mortality": per_nation(lower_mortality),
        "lower_birth_rate": per_nation(lower_birth_rate),
        "economic_growth": per_nation(economic_growth),
        "taxation": per_nation(taxation),
        "production": per_nation(production, production_shortfall),
        "public_order": per_nation(public_order, uprising_shortfall),
        "class_struggle": per_nation(class_struggle),
        "stress_start": stress_start,
        "stress_supply": per_nation(supply, supply_shortfall),
        "stress_consumption": per_nation(consumption, consumption_shortfall),
        "stress_production": per_nation(production, production_shortfall),
    }
)
