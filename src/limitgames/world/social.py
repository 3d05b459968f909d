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

from limitgames.world.data import PLANTS
from limitgames.world.nation import INDUSTRIAL, MILITARY, RENEWABLE, Nation
from limitgames.world.political import plant_choice, sol_choice
from limitgames.world.state import STAGE_HANDLERS, WorldState

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
                from limitgames.world.alliances import offer_ask

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
    state.note(None, f"== Social phase of generation {state.generation}")
    return True


def stress_start(state: WorldState) -> bool:
    """Begin the stress test (supply, consumption, production again; no crises), or go to scoring."""
    state.columns = [column_c(n) for n in state.nations]
    if state.stress_tests <= 0:
        state.stage = "scoring"
        return False
    state.note(None, "== Stress test: supply, consumption and production once more")
    return True


def _highest_level(need: Callable[[int], int], population: int, have: int) -> int:
    """The highest population position ``p <= population`` with ``need(p) <= have`` (0 if none)."""
    p = population
    while p > 0 and need(p) > have:
        p -= 1
    return p


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
    return f"; Recycling: +{k} fossil from the LIMIT box"


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
            f"Supply: population {data.level(pop)} eats {wanted} renewable ({have - wanted} left)",
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
        f"Supply: population {old_pop} needs {wanted} renewable, you have {have}: shortage of {k} "
        f"level{'s' if k > 1 else ''} — spend {spent}, keep {have - spent}; population {old_pop} -> "
        f"{data.level(nation.population)}; {k * so['renewable_shortage_plant']} plant level(s) lost",
    )
    state.change_unrest(nation, so["renewable_shortage_unrest"] * k, "Supply shortage")
    plant_choice(
        state,
        nation,
        k * so["renewable_shortage_plant"],
        -1,
        PLANTS,
        "Supply shortage",
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
        state.note(nation.seat, f"Conserving: renewable {nation.stock[RENEWABLE]} -> {cap}")
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
            f"Consumption (class C at {column + 1}): {wanted} industrial ({have - wanted} left){extra}",
        )
        return
    served = _highest_level(need, pop, have)
    spent = need(served)
    k = pop - served
    nation.stock[INDUSTRIAL] -= spent
    extra = recycle(state, nation, spent)
    state.note(
        nation.seat,
        f"Consumption: population {data.level(pop)} needs {wanted} industrial, you have {have}: shortage of "
        f"{k} level{'s' if k > 1 else ''} — spend {spent}; {k * so['industrial_shortage_sol']} standard of "
        f"living lost{extra}",
    )
    state.change_unrest(nation, so["industrial_shortage_unrest"] * k, "Consumption shortage")
    sol_choice(
        state, nation, -so["industrial_shortage_sol"] * k, "Consumption shortage", deferred=True
    )


def _move_population(state: WorldState, nation: Nation, delta: int, why: str) -> None:
    old = nation.population
    nation.population = max(1, min(state.data.population_positions, old + delta))
    if nation.population != old:
        state.note(
            nation.seat,
            f"{why}: population {state.data.level(old)} -> {state.data.level(nation.population)}",
        )


def population_growth(state: WorldState, nation: Nation, column: int) -> None:
    """4 Population growth: +1 level with class C at 1 or 2."""
    _move_population(
        state,
        nation,
        state.data.social["population_growth"][column],
        f"Population growth (class C at {column + 1})",
    )


def lower_mortality(state: WorldState, nation: Nation, column: int) -> None:
    """5 Lower mortality rate: 2+ demographic-shift tiles in the zone -> population +1 level."""
    if nation.shift_zone >= state.data.social["lower_mortality_shifts"]:
        _move_population(state, nation, 1, "Lower mortality rate")


def lower_birth_rate(state: WorldState, nation: Nation, column: int) -> None:
    """6 Lower birth rate: 1 or 2 demographic-shift tiles from the zone to the LIMIT box."""
    k = min(nation.shift_zone, state.data.social["lower_birth_rate_max"])
    if k:
        nation.shift_zone -= k
        state.limit_box["shift"] += k
        state.note(nation.seat, f"Lower birth rate: {k} demographic shift tile(s) to the LIMIT box")


def economic_growth(state: WorldState, nation: Nation, column: int) -> None:
    """7 Economic growth by class C's column; skipped with Policy Planning."""
    if "policy-planning" in nation.permanent:
        state.note(nation.seat, "Economic growth: skipped (Policy Planning)")
        return
    positions = state.data.production_positions
    for plants, delta in state.data.economic_growth[column]:
        if len(plants) == 1:
            i = PLANTS.index(plants[0])
            old = nation.plants[i]
            if nation.move_plant(i, delta, positions):
                state.note(
                    nation.seat,
                    f"Economic growth (class C at {column + 1}): {plants[0]} plant {old} -> {nation.plants[i]}",
                )
        else:
            plant_choice(state, nation, 1, delta, plants, "Economic growth", deferred=True)


def taxation(state: WorldState, nation: Nation, column: int) -> None:
    """8 Taxation: 2/3/3/5 $ per population from the World Bank (empty: financial crisis)."""
    rate = state.data.social["taxation_per_pop"][column]
    amount = rate * state.population_value(nation)
    state.pay_from_bank(nation, amount)
    state.note(
        nation.seat,
        f"Taxation (class C at {column + 1}): {rate} $ x population {state.population_value(nation)} = "
        f"+{amount} $ (now {nation.money} $)",
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
    text = f"{why}: {name} +{amount}"
    if fossil or pollution:
        text += f" (fossil -{fossil}, pollution +{pollution})"
    k = pos - made
    if k:
        text += f"; fossil shortage of {k} level{'s' if k > 1 else ''}: {name} plant {pos} -> {max(1, pos - k)}"
        nation.plants[plant] = max(1, pos - so["fossil_shortage_plant"] * k)
    state.note(nation.seat, text)
    if k:
        state.change_unrest(nation, so["fossil_shortage_unrest"] * k, "Fossil shortage")


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
    state.note(
        nation.seat, f"Production: renewable +{amount}" + (" (Intensive Farming)" if bonus else "")
    )
    produce(state, nation, INDUSTRIAL, "Production")
    produce(state, nation, MILITARY, "Production")


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
        state.note(nation.seat, f"{why}: spend {wanted} military ({have - wanted} left)")
        return
    paid = _highest_level(need, pop, have)
    spent = need(paid)
    k = pop - paid
    nation.stock[MILITARY] -= spent
    lost = k * data.social["military_shortage_sol"]
    state.note(
        nation.seat,
        f"{why}: needs {wanted} military, you have {have}: shortage of {k} level{'s' if k > 1 else ''} — "
        f"spend {spent}; {lost} standard of living lost",
    )
    sol_choice(state, nation, -lost, f"{why} (military shortage)", deferred=deferred)


def public_order(state: WorldState, nation: Nation, column: int) -> None:
    """10 Public order: uprising (unrest 10-11), growth (3-9) or boom (1-2)."""
    data, so = state.data, state.data.social
    if nation.unrest >= data.uprising_from:
        kind, number = data.uprising[column]
        if kind == "military":
            spend_military(state, nation, number, f"Uprising (social unrest {nation.unrest})")
        else:
            due = number * state.population_value(nation)
            paid = min(due, nation.money)
            nation.money -= paid
            state.limit_box["money"] += paid
            state.note(
                nation.seat,
                f"Uprising (social unrest {nation.unrest}): lose {paid} $ of {due} $ to the LIMIT box",
            )
    elif nation.unrest <= data.boom_up_to:
        money = so["boom_money"][column]
        state.pay_from_bank(nation, money)
        state.note(nation.seat, f"Boom (social unrest {nation.unrest}): +{money} $")
        sol_choice(state, nation, so["boom_sol"][column], "Boom", deferred=True)
    else:
        sol_choice(
            state,
            nation,
            so["growth_sol"][column],
            f"Growth (social unrest {nation.unrest})",
            deferred=True,
        )


def class_struggle(state: WorldState, nation: Nation, column: int) -> None:
    """11 Class struggle: unrest + (A - E)."""
    gap = nation.sol[0] - nation.sol[4]
    state.change_unrest(
        nation, gap, f"Class struggle (A {nation.sol[0]} - E {nation.sol[4]} = {gap})"
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
