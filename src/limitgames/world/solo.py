"""Solo mode (seed 004, "05 Solo mode", p24): you against the star nation.

The game is played by one nation (one seat). The star nation is a card, not a board: its
population, class C standard of living, military and industrial production are values read
from its table by generation (``data.solo``; they do not vary within a generation), and it
holds tokens that do vary (``state.star``: money, fossil, territory, pollution, disruption;
setup 40 $, 8 fossil, 5 territory). A card that targets another nation targets the star
nation (``target star``) and uses those values; what the star nation cannot hold (social
unrest, standard of living, plants) is ignored, "as they have no effect in solo mode". The star
nation resists a war card when its military value is at least the military spent [decision:
its values do not vary, so resisting costs it nothing]. It takes no part in crises [decision: p24 uses its table only
"if you play a card that targets another nation"; the event cards stand for it].

Instead of the alliance step, one event card is drawn, applied and discarded; an empty draw
pile is made again from the shuffled discards (a chance draw ``solo_events``). The 8 event
cards are lost from the sources: the data's ``[solo_events]`` holds 8 built from the game's
own mechanics (``source = "reconstructed"``), each a one-line effect on your nation; the log
says so when one is drawn. At the
end, a score of more than ``solo.very_good_score`` (100) is "a very good game".
"""

from __future__ import annotations

from typing import Any

from limitgames.core.errors import RecordError
from limitgames.translation import N_
from limitgames.world.data import PLANTS, describe_event
from limitgames.world.nation import Nation
from limitgames.world.state import STAR, Star, WorldState
from limitgames.world.tracks import plant_choice, sol_choice
from limitgames.world.words import phrase


def shuffle_events(state: WorldState, cards: list[str]) -> None:
    """Shuffle ``cards`` into the event draw pile (chance draw ``solo_events``: the names, top
    first). Raises RecordError when a replayed outcome is not a shuffle of them."""

    def shuffle(rng: Any) -> list[str]:
        pile = sorted(cards)
        rng.shuffle(pile)
        return pile

    pile = state._chance.draw("solo_events", shuffle)
    if not isinstance(pile, list) or sorted(pile) != sorted(cards):
        raise RecordError("the solo_events outcome is not a shuffle of the event cards", "chance")
    state.events = list(pile)


def star_values(state: WorldState) -> dict[str, int]:
    """The star nation's values of the current generation (its table, p24): ``population``,
    ``sol_c``, ``military``, ``industrial``."""
    g = min(state.generation, len(state.data.solo["population"])) - 1
    return {
        k: int(state.data.solo[k][g]) for k in ("population", "sol_c", "military", "industrial")
    }


def star_position(state: WorldState, value: int) -> int:
    """The level-track position (1-9) of a value of the star's table."""
    return state.data.level_values.index(value) + 1


def star_of(state: WorldState) -> Star:
    """The star nation's card (solo mode only)."""
    assert state.star is not None
    return state.star


def event_step(state: WorldState) -> bool:
    """Step 3 of the international phase in solo mode: draw the top event card, apply its
    effect to your nation, discard it (p24)."""
    if state.cursor:
        return True
    state.cursor = 1
    if not state.events:
        shuffle_events(state, state.event_discard)
        state.event_discard = []
        state.note(None, N_("Event cards: the discard pile is shuffled into a new draw pile"))
    name = state.events.pop(0)
    state.event_discard.append(name)
    steps = state.data.solo_events[name]
    if state.data.raw["solo_events"][name]["source"] == "reconstructed":
        state.note(
            None,
            N_("Event card %(event)s (a reconstruction: the published cards are lost): %(effect)s"),
            event=name,
            effect=describe_event(steps),
        )
    else:
        state.note(
            None, N_("Event card %(event)s: %(effect)s"), event=name, effect=describe_event(steps)
        )
    nation = state.nations[0]
    for what, k in steps:
        apply_event_step(state, nation, what, k, phrase(N_("Event %(event)s"), event=name))
    return not state.pending


def apply_event_step(state: WorldState, nation: Nation, what: str, k: int, why: str) -> None:
    """One step of an event card on ``nation`` (``data.EVENT_TERMS``); it goes as far as it can
    (an effect on your nation from outside, like a crisis)."""
    seat = nation.seat
    if what == "money":
        if k > 0:
            state.pay_from_bank(nation, k)
            state.note(seat, N_("%(why)s: +%(count)d $"), why=why, count=k)
        else:
            paid = min(-k, nation.money)
            nation.money -= paid
            state.world_bank += paid
            state.note(seat, N_("%(why)s: -%(count)d $"), why=why, count=paid)
    elif what == "unrest":
        state.change_unrest(nation, k, why)
    elif what == "sol":
        sol_choice(state, nation, k, why)
    elif what == "pollution":
        if k > 0:
            state.gain_pollution(nation, k)
            state.note(seat, N_("%(why)s: +%(count)d pollution"), why=why, count=k)
        else:
            state.note(
                seat,
                N_("%(why)s: %(count)d pollution returned"),
                why=why,
                count=state.return_pollution(nation, -k),
            )
    elif what == "disruption":
        if k > 0:
            state.gain_disruption(nation, k)
            state.note(seat, N_("%(why)s: +%(count)d disruption"), why=why, count=k)
        else:
            back = state.return_disruption(nation, -k)
            state.note(seat, N_("%(why)s: %(count)d disruption returned"), why=why, count=back)
    elif what == "fossil":
        moved = k if k > 0 else -min(-k, nation.fossil)
        nation.fossil += moved
        state.limit_box["fossil"] -= moved
        state.note(seat, N_("%(why)s: fossil %(moved)s"), why=why, moved=f"{moved:+d}")
    elif what in PLANTS:
        i = PLANTS.index(what)
        moved = k if k > 0 else -min(-k, nation.stock[i])
        nation.stock[i] += moved
        state.note(
            seat, N_("%(why)s: %(resource)s %(moved)s"), why=why, resource=what, moved=f"{moved:+d}"
        )
    elif what == "territory":
        if k > 0:
            moved = min(k, state.colonization[0])
            state.colonization[0] -= moved
        else:
            moved = -min(-k, nation.territory)
            state.limit_box["territory"] -= moved
        nation.territory += moved
        nation.cap_renewable()
        state.note(seat, N_("%(why)s: territory %(moved)s"), why=why, moved=f"{moved:+d}")
    elif what == "population":
        old = state.population_value(nation)
        nation.population = max(1, min(state.data.population_positions, nation.population + k))
        state.note(
            seat,
            N_("%(why)s: population %(old)d -> %(new)d"),
            why=why,
            old=old,
            new=state.population_value(nation),
        )
    else:  # plant-renewable, plant-industrial, plant-military
        plant = what.removeprefix("plant-")
        plant_choice(state, nation, abs(k), 1 if k > 0 else -1, (plant,), why)


# --- cards that target the star nation --------------------------------------------------------
def star_pollution(state: WorldState, k: int) -> None:
    """``k`` pollution onto the star card, from the reserve card then the LIMIT box."""
    star = star_of(state)
    from_reserve = min(k, state.pollution_reserve)
    state.pollution_reserve -= from_reserve
    state.limit_box["pollution"] -= k - from_reserve
    star.pollution += k


def star_resists(state: WorldState, amount: int) -> bool:
    """Whether the star nation resists a war card for which ``amount`` military was spent."""
    return star_values(state)["military"] >= amount


def star_war(state: WorldState, card: str, attacker: Nation, amount: int) -> None:
    """A war card against the star nation: it resists, or suffers the effect on its tokens
    (Mass Destruction: a territory to the LIMIT box and the pollution; Annexation: a territory
    to you; Military Operation: you take what its tokens hold)."""
    from limitgames.world.state import Choice

    star = star_of(state)
    name = state.data.cards[card].name
    military = star_values(state)["military"]
    if star_resists(state, amount):
        state.note(
            None,
            N_("The star nation (military %(military)d) resists %(card)s; no effect"),
            military=military,
            card=name,
        )
        return
    state.note(
        None,
        N_("The star nation (military %(military)d) does not resist %(card)s"),
        military=military,
        card=name,
    )
    if card == "military-operation":
        state.push(Choice("take", attacker.seat, (STAR,)))
        return
    params = state.data.cards[card].params
    lost = min(int(params["territory"]), star.territory)
    star.territory -= lost
    if card == "annexation-of-territory":
        attacker.territory += lost
        state.note(
            attacker.seat,
            N_("%(card)s: takes %(count)d territory from the star nation"),
            card=name,
            count=lost,
        )
    else:
        state.limit_box["territory"] += lost
        k = int(params["pollution"])
        star_pollution(state, k)
        state.note(
            attacker.seat,
            N_(
                "%(card)s: the star nation loses %(count)d territory to the LIMIT box, +%(pollution)d pollution"
            ),
            card=name,
            count=lost,
            pollution=k,
        )


def star_offshore_cost(state: WorldState) -> tuple[int, int, int]:
    """Offshore Production on the star: its industrial value (paid to it and produced), the
    fossil you spend and the pollution it receives, from that value's plant position."""
    value = star_values(state)["industrial"]
    pos = star_position(state, value)
    return value, state.data.fossil_cost[pos - 1], state.data.pollution[pos - 1]


def star_effect(state: WorldState, card: str, attacker: Nation) -> None:
    """A card that cannot be resisted, aimed at the star nation (its values from the table)."""
    from limitgames.world.state import Choice

    star = star_of(state)
    values = star_values(state)
    params = state.data.cards[card].params
    seat = attacker.seat
    if card == "offshore-production":
        value, fossil, pollution = star_offshore_cost(state)
        attacker.money -= value
        star.money += value
        state.world_bank -= int(params["bank_to_limit"])
        state.limit_box["money"] += int(params["bank_to_limit"])
        attacker.fossil -= fossil
        state.limit_box["fossil"] += fossil
        attacker.stock[PLANTS.index("industrial")] += value
        star_pollution(state, pollution)
        state.note(
            seat,
            N_(
                "Offshore Production: pays %(value)d $ to the star nation; +%(value)d industrial, "
                "fossil -%(fossil)d; the star nation +%(pollution)d pollution"
            ),
            value=value,
            fossil=fossil,
            pollution=pollution,
        )
    elif card == "soft-power":
        money = int(params["money"])
        attacker.money -= money
        state.world_bank += money
        state.note(seat, N_("Soft Power (cost): %(cost)d $"), cost=money)
        state.push(Choice("give", seat, (STAR,)))
    elif card == "political-interference":
        state.world_bank -= int(params["bank_to_limit"])
        state.limit_box["money"] += int(params["bank_to_limit"])
        pos = star_position(state, values["population"])
        due = (
            pos
            if state.data.readings["interference_takes"] == "population-position"
            else values["population"]
        )
        take = min(due, star.money)
        star.money -= take
        attacker.money += take
        state.note(
            seat, N_("Political Interference: takes %(money)d $ from the star nation"), money=take
        )
    elif card == "development-of-tourism":
        state.world_bank -= int(params["bank_to_limit"])
        state.limit_box["money"] += int(params["bank_to_limit"])
        take = min((values["sol_c"] - 1) * int(params["money_per_sol"]), star.money)
        star.money -= take
        attacker.money += take
        state.note(
            seat, N_("Development of Tourism: takes %(money)d $ from the star nation"), money=take
        )
    elif card == "terrorism":
        attacker.stock[PLANTS.index("military")] -= int(params["military"])
        state.gain_disruption(attacker, int(params["disruption"]))
        state.note(
            seat,
            N_(
                "Terrorism (cost): %(military)s military, +%(disruption)s disruption; the star "
                "nation has no social unrest (no effect)"
            ),
            military=params["military"],
            disruption=params["disruption"],
        )
