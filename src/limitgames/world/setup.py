"""Setting up a game of LIMIT for N nations (rulebook pp 6-10).

Solo mode (p24) adds the star nation's card and tokens and the shuffled pile of 8 event
cards (``solo_events``: their names, top first).

Chance: the start player (``start_player``: a seat) and each nation's three
shuffled decks (``decks``: per seat, per deck in the order society, military,
production, the card ids top first) are drawn through
:class:`~limitgames.core.chance.Chance`, so a record replays them exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from limitgames.core.errors import RecordError
from limitgames.translation import N_
from limitgames.world.data import DECKS
from limitgames.world.nation import Nation
from limitgames.world.words import Phrase

if TYPE_CHECKING:
    from limitgames.world.state import WorldState


def deck_cards(state: WorldState) -> dict[str, list[str]]:
    """The cards of each deck that are shuffled at setup (not starters, not technology)."""
    out: dict[str, list[str]] = {d: [] for d in DECKS}
    for card in state.data.cards.values():
        if card.kind == "deck":
            out[card.deck].append(card.id)
    return out


def set_up(state: WorldState) -> None:
    """Place everything for ``state.n`` nations; draw the start player and the decks.

    Raises:
        RecordError: when replaying a record whose chance outcomes do not fit.
    """
    data = state.data
    n = state.n
    s = data.setup
    state.world_bank = s["world_bank_per_nation"] * n
    state.pollution_reserve = s["pollution_reserve_base"] + s["pollution_reserve_per_nation"] * n
    state.disruption_reserve = s["disruption_reserve_base"] + s["disruption_reserve_per_nation"] * n
    state.colonization = [
        s["colonization_territory_base"] + s["colonization_territory_per_nation"] * n,
        s["colonization_fossil_base"] + s["colonization_fossil_per_nation"] * n,
    ]
    state.limit_box = {
        "money": s["limit_box_money"],
        "fossil": s["limit_box_fossil"],
        "pollution": s["limit_box_pollution"],
        "disruption": s["limit_box_disruption"],
        "territory": 0,
        "shift": 0,
    }
    if state.solo:  # the star box (p24): the star nation's card and its reserve tokens
        from limitgames.world.state import Star

        so = data.solo
        state.pollution_reserve += so["pollution_reserve"]
        state.disruption_reserve += so["disruption_reserve"]
        state.colonization[0] += so["colonization_territory"]
        state.colonization[1] += so["colonization_fossil"]
        state.star = Star(so["star_money"], so["star_fossil"], so["star_territory"])
    state.market_price = list(data.market_start_positions)
    state.market_stock = list(data.market_start_stock)
    nd = data.nation
    starters = [c.id for c in data.cards.values() if c.kind == "starter"]
    pools = deck_cards(state)

    def shuffle(rng: Any) -> list[list[list[str]]]:
        result = []
        for _ in range(n):
            decks = []
            for d in DECKS:
                cards = list(pools[d])
                rng.shuffle(cards)
                decks.append(cards)
            result.append(decks)
        return result

    if state.variant.get("draws") == "table":  # a referee tells who starts
        request = {
            "label": Phrase(N_("the nation that holds the leadership tile")),
            "options": list(range(n)),
            "names": [state.name(seat) for seat in range(n)],
            "count": None,
        }
        start = state._chance.draw("start_player", lambda rng: rng.randrange(n), request)
    else:
        start = state._chance.draw("start_player", lambda rng: rng.randrange(n))
    shuffled = state._chance.draw("decks", shuffle)
    if not isinstance(start, int) or not 0 <= start < n:
        raise RecordError(f"start player {start!r} is not a seat 0..{n - 1}", "chance 0")
    if not isinstance(shuffled, list) or len(shuffled) != n:
        raise RecordError("the decks outcome needs one entry per nation", "chance 1")
    state.leader = start
    if state.solo:
        from limitgames.world.solo import shuffle_events

        shuffle_events(state, list(data.solo_events))
    for seat in range(n):
        nation = Nation(seat)
        nation.plants = list(nd["production"])
        nation.population = nd["population"]
        nation.stock = list(nd["stock"])
        nation.fossil = nd["fossil"]
        nation.money = nd["money"]
        nation.territory = nd["territory"]
        nation.sol = [nd["sol"]] * 5
        nation.unrest = data.unrest_start
        nation.hand = list(starters)
        decks = shuffled[seat]
        if not isinstance(decks, list) or len(decks) != len(DECKS):
            raise RecordError(f"nation {seat}: the decks outcome needs 3 decks", "chance 1")
        for d, cards in zip(DECKS, decks, strict=True):
            if not isinstance(cards, list) or sorted(cards) != sorted(pools[d]):
                raise RecordError(
                    f"nation {seat}: the {d} deck is not a shuffle of its cards", "chance 1"
                )
            nation.decks[d] = list(cards)
        state.nations.append(nation)
    state.note(
        None,
        N_("Generation %(generation)d begins; %(nation)s holds the leadership tile"),
        generation=1,
        nation=state.name(start),
    )
