"""The international phase (rulebook pp 19-22): cold war, the three crises, end of generation.

Crises are resolved in the order financial, environmental, military. A
financial crisis happens when a financial tile was placed this generation
(the World Bank ran empty); an environmental crisis when the pollution
reserve is empty now; a military crisis when the disruption reserve is empty
now. No generation holds two tiles of one kind. The game ends after the 7th
generation or the generation in which the 4th crisis tile is placed. The
optional alliance step (``alliances``) or, in solo mode, the event card comes after the
crises. The lost icons of the crises (which
plant and which token the environmental crisis takes, who suffers most) are
read as the data's ``[readings]`` say.
"""

from __future__ import annotations

from limitgames.translation import N_
from limitgames.world.data import PLANTS
from limitgames.world.nation import MILITARY, Nation
from limitgames.world.social import spend_military
from limitgames.world.state import STAGE_HANDLERS, WorldState
from limitgames.world.tracks import sol_choice
from limitgames.world.words import phrase


def tiles(state: WorldState, kind: str) -> int:
    """Crisis tiles of ``kind`` on all generation tiles (current and past)."""
    return sum(g.count(kind) for g in state.crises)


def total_crises(state: WorldState) -> int:
    """All crisis tiles placed so far."""
    return sum(len(g) for g in state.crises)


def crisis_class(state: WorldState, nation: Nation, highest: bool) -> int | None:
    """The class (0=A..4=E) that loses 1 standard of living in a crisis: the highest
    (environmental) or lowest (military) class, read by ``readings.crisis_classes``: the
    highest / lowest the order rule lets fall (``that-can-fall``), or class A / E only, if
    it can fall (``named-class``); ``None`` if none falls."""
    classes = nation.lowerable()
    if state.data.readings["crisis_classes"] == "named-class":
        named = 0 if highest else 4
        return named if named in classes else None
    if not classes:
        return None
    return classes[0] if highest else classes[-1]


def cold_war(state: WorldState) -> bool:
    """Cold war: more than 15 military in stock -> 1 disruption."""
    it = state.data.international
    state.note(
        None, N_("== International phase of generation %(generation)d"), generation=state.generation
    )
    for seat in state.turn_order():
        nation = state.nations[seat]
        if nation.stock[MILITARY] > it["cold_war_military"]:
            state.gain_disruption(nation, it["cold_war_disruption"])
            state.note(
                seat,
                N_("Cold war: %(military)d military -> +%(disruption)d disruption"),
                military=nation.stock[MILITARY],
                disruption=it["cold_war_disruption"],
            )
    return True


def financial_crisis(state: WorldState) -> bool:
    """Financial crisis (if a financial tile lies on this generation): each nation loses 1 $ per
    population per financial tile so far (to the World Bank), -1 standard of living (its
    choice); the richest gets 2 disruption (tied: 1 each)."""
    if state.cursor:
        return True
    state.cursor = 1
    if "financial" not in state.crises[-1]:
        return True
    it = state.data.international
    count = tiles(state, "financial")
    if count > 1:
        state.note(None, N_("Financial crisis (%(count)d financial tiles so far)"), count=count)
    else:
        state.note(None, N_("Financial crisis (%(count)d financial tile so far)"), count=count)
    for seat in state.turn_order():
        nation = state.nations[seat]
        per = (
            nation.population
            if state.data.readings["financial_crisis_per"] == "population-position"
            else state.population_value(nation)
        )
        due = it["financial_money_per_pop_per_tile"] * count * per
        paid = min(due, nation.money)
        nation.money -= paid
        state.world_bank += paid
        state.note(seat, N_("Financial crisis: lose %(paid)d $ of %(due)d $"), paid=paid, due=due)
        sol_choice(state, nation, -it["financial_sol"], N_("Financial crisis"), deferred=True)
    richest = max(n.money for n in state.nations)
    rich = [n for n in state.nations if n.money == richest]
    give = it["financial_richest_disruption"] if len(rich) == 1 else it["financial_tied_disruption"]
    for nation in rich:
        state.gain_disruption(nation, give)
        state.note(
            nation.seat,
            N_("Financial crisis: richest (%(money)d $) -> +%(count)d disruption"),
            money=richest,
            count=give,
        )
    state.flush_deferred()
    return not state.pending


def environmental_crisis(state: WorldState) -> bool:
    """Environmental crisis (pollution reserve empty): renewable plants -1 level per
    environmental tile so far, each nation loses 1 territory, the most populous lose a
    population level, unrest +3 and 1 standard of living from their highest class; then
    each nation at least 2 population positions below them gains a level (p20 example)."""
    if state.pollution_reserve > 0 or "environmental" in state.crises[-1]:
        return True
    it = state.data.international
    state.crises[-1].append("environmental")
    count = tiles(state, "environmental")
    state.note(
        None,
        N_(
            "Environmental crisis: the pollution reserve is empty (%(count)d environmental tile(s))"
        ),
        count=count,
    )
    readings = state.data.readings
    plant = readings["environmental_crisis_plant"]
    p = PLANTS.index(plant)
    loss = readings["environmental_crisis_loss"]
    for seat in state.turn_order():
        nation = state.nations[seat]
        old = nation.plants[p]
        nation.plants[p] = max(1, old - it["environmental_renewable_per_tile"] * count)
        if loss == "territory":
            lost = min(it["environmental_territory"], nation.territory)
            nation.territory -= lost
            state.limit_box["territory"] += lost
            nation.cap_renewable()
        else:
            lost = min(it["environmental_territory"], nation.fossil)
            nation.fossil -= lost
            state.limit_box["fossil"] += lost
        state.note(
            seat,
            N_("Environmental crisis: %(plant)s plant %(old)d -> %(new)d, %(loss)s -%(lost)d"),
            plant=plant,
            old=old,
            new=nation.plants[p],
            loss=loss,
            lost=lost,
        )
    if readings["environmental_crisis_target"] == "most-pollution":
        top = max(n.pollution for n in state.nations)
        hit = [n for n in state.nations if n.pollution == top]
        why: str = phrase(N_("most pollution (%(count)d)"), count=top)
    else:
        top = max(n.population for n in state.nations)
        hit = [n for n in state.nations if n.population == top]
        why = N_("most populous")
    for nation in hit:
        old_pop = state.data.level(nation.population)
        nation.population = max(1, nation.population - it["environmental_population"])
        state.note(
            nation.seat,
            N_("Environmental crisis: %(why)s, population %(old)d -> %(new)d"),
            why=why,
            old=old_pop,
            new=state.population_value(nation),
        )
        state.change_unrest(nation, it["environmental_unrest"], N_("Environmental crisis"))
        for _ in range(it["environmental_sol"]):
            i = crisis_class(state, nation, highest=True)
            if i is not None:
                state.note(
                    nation.seat,
                    N_("Environmental crisis: %(change)s"),
                    change=nation.lower_class(i),
                )
    threshold = min(n.population for n in hit) - it["environmental_migration_gap"]
    for seat in state.turn_order():
        nation = state.nations[seat]
        if nation not in hit and nation.population <= threshold:
            old_pop = state.population_value(nation)
            nation.population = min(state.data.population_positions, nation.population + 1)
            state.note(
                seat,
                N_("Environmental crisis: migration, population %(old)d -> %(new)d"),
                old=old_pop,
                new=state.population_value(nation),
            )
    return True


def military_crisis(state: WorldState) -> bool:
    """Military crisis (disruption reserve empty): the lowest class -1 standard of living per
    military tile so far; each nation spends 1 military per population one level lower
    (shortage: -1 standard of living per level, its choice); each returns 1 disruption; the
    nation(s) with the most military lose a military plant level (when none holds any, every
    nation ties for the most: reading ``military_crisis_none_held``, a decision)."""
    if state.cursor == 2:
        return True
    it = state.data.international
    if state.cursor == 0:
        if state.disruption_reserve > 0 or "military" in state.crises[-1]:
            state.cursor = 2
            return True
        state.cursor = 1
        state.crises[-1].append("military")
        if state.alliances_on:  # allies may help before the military is spent (p22)
            from limitgames.world.allies import offer_ask
            from limitgames.world.social import military_shortfall

            for seat in state.turn_order():
                nation = state.nations[seat]
                missing = military_shortfall(state, nation, it["military_pop_offset"])
                offer_ask(state, seat, "military", missing)
            state.flush_deferred()
            if state.pending:
                return False
    state.cursor = 2
    count = tiles(state, "military")
    state.note(
        None,
        N_("Military crisis: the disruption reserve is empty (%(count)d military tile(s))"),
        count=count,
    )
    for seat in state.turn_order():
        nation = state.nations[seat]
        for _ in range(it["military_sol_per_tile"] * count):
            i = crisis_class(state, nation, highest=False)
            if i is not None:
                state.note(seat, N_("Military crisis: %(change)s"), change=nation.lower_class(i))
        spend_military(state, nation, it["military_pop_offset"], N_("Military crisis"))
        back = state.return_disruption(nation, it["military_return_disruption"])
        if back:
            state.note(
                seat, N_("Military crisis: %(count)d disruption back to the reserve"), count=back
            )
    by_plant = state.data.readings["military_crisis_target"] == "most-military-plant"

    def measure(n: Nation) -> int:
        return n.plants[MILITARY] if by_plant else n.stock[MILITARY]

    most = max(measure(n) for n in state.nations)
    what = N_("military plant") if by_plant else N_("military")
    if most == 0 and state.data.readings["military_crisis_none_held"] == "none":
        state.note(None, N_("Military crisis: no nation holds any military, none has the most"))
        state.flush_deferred()
        return not state.pending
    for nation in state.nations:
        if measure(nation) == most:
            old = nation.plants[MILITARY]
            nation.plants[MILITARY] = max(1, old - it["military_production"])
            state.note(
                nation.seat,
                N_("Military crisis: most %(what)s (%(most)d), military plant %(old)d -> %(new)d"),
                what=what,
                most=most,
                old=old,
                new=nation.plants[MILITARY],
            )
    state.flush_deferred()
    return not state.pending


def end_generation(state: WorldState) -> bool:
    """End of a generation: the leadership tile passes left; the game ends after the 7th
    generation or once 4 crisis tiles are placed."""
    last = state.data.end["generations"]
    if state.generation >= last or total_crises(state) >= state.data.end["crises"]:
        state.note(
            None,
            N_("The game ends after generation %(generation)d (%(crises)d crises)"),
            generation=state.generation,
            crises=total_crises(state),
        )
        state.stage = "stress_start"
        state.cursor = 0
        return False
    state.generation += 1
    state.crises.append([])
    state.funded = []
    state.leader = (state.leader + 1) % state.n
    state.note(
        None,
        N_("Generation %(generation)d begins; %(nation)s holds the leadership tile"),
        generation=state.generation,
        nation=state.name(state.leader),
    )
    state.stage_index = 0
    state.stage = "technology"
    state.cursor = 0
    return False


STAGE_HANDLERS.update(
    {
        "cold_war": cold_war,
        "financial_crisis": financial_crisis,
        "environmental_crisis": environmental_crisis,
        "military_crisis": military_crisis,
        "end_generation": end_generation,
    }
)
