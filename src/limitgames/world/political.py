"""The political phase (rulebook pp 12-13).

Stages: ``technology`` (class A 2/3/4 adds Market Access / Robotization /
Mass Destruction once), ``new_policy`` (choose a deck, draw 5 or 10, keep 1
or 2; the others go to the bottom in the order drawn), ``hand_limit``
(discard down to 5-8 cards to the bottom of their decks), ``decide_policy``
(in turn order from the leader: play two cards, play one and pass, or pass;
a targeted nation that passed plays again; instant cards return to the hand
when all have passed, permanent cards stay; Policy Planning and Intensive
Farming may be taken back on one's turn; with alliances, ``fund CARD`` asks the economic
allies to pay a card's $ cost, p22).

Choices defined here: ``deck``, ``keep``, ``discard``, ``policy`` (the shared ``raise``,
``lower`` and ``plant`` are in :mod:`limitgames.world.tracks`).
"""

from __future__ import annotations

from typing import Any

from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.data import DECKS
from limitgames.world.nation import Nation
from limitgames.world.state import (
    ACCEPT,
    OPTIONS,
    RESOLVE,
    STAGE_HANDLERS,
    Choice,
    WorldAction,
    WorldState,
)
from limitgames.world.words import phrase

WITHDRAWABLE = ("policy-planning", "intensive-farming")


def column_a(state: WorldState, nation: Nation) -> int:
    """The player-aid column of the political phase: class A's standard of living (0-based)."""
    return min(nation.sol[0], 4) - 1


def snapshot(state: WorldState) -> tuple[list[Nation], dict[str, Any]]:
    """The parts of ``state`` a position holds (taken at the start of each generation, or
    when a game is loaded at a later step)."""
    globals_ = {
        "stage": state.stage,
        "columns": list(state.columns),
        "generation": state.generation,
        "leader": state.leader,
        "crises": [list(c) for c in state.crises],
        "world_bank": state.world_bank,
        "pollution_reserve": state.pollution_reserve,
        "disruption_reserve": state.disruption_reserve,
        "limit_box": dict(state.limit_box),
        "colonization": list(state.colonization),
        "market_price": list(state.market_price),
        "market_stock": list(state.market_stock),
        "alliances": {k: [list(g) for g in gs] for k, gs in state.alliances.items()},
        "demilitarized": state.demilitarized,
    }
    return [n.copy() for n in state.nations], globals_


DRAW_WORDS: dict[str, str] = {
    "new_policy": N_("new policy"),
    "political_reform": N_("political reform"),
}
"""Why a nation draws cards (the step or the card), in the log's words."""


# --- stages -----------------------------------------------------------------------
def technology(state: WorldState) -> bool:
    """Technological advancement: technology cards by class A (rulebook p12)."""
    state.opening = snapshot(state)
    state.columns = [column_a(state, n) for n in state.nations]
    state.note(
        None, N_("== Political phase of generation %(generation)d"), generation=state.generation
    )
    techs = state.data.political["technology"]
    for seat in state.turn_order():
        nation = state.nations[seat]
        for col in range(state.columns[seat] + 1):
            card = techs[col]
            if card and card not in nation.technology:
                nation.technology.append(card)
                nation.hand.append(card)
                state.note(
                    seat,
                    N_("Technological advancement: %(card)s joins the hand"),
                    card=state.data.cards[card].name,
                )
    return True


def new_policy(state: WorldState) -> bool:
    """New policy: each nation chooses a deck (simultaneous, hidden)."""
    if state.cursor == 0:
        state.cursor = 1
        for seat in state.turn_order():
            if any(state.nations[seat].decks[d] for d in DECKS):
                state.defer(Choice("deck", seat, ("new_policy",)))
        state.flush_deferred()
        return not state.pending
    return True


def hand_limit(state: WorldState) -> bool:
    """Political action capacity: discard down to the hand limit (simultaneous)."""
    if state.cursor == 0:
        state.cursor = 1
        limits = state.data.political["hand_limit"]
        for seat in state.turn_order():
            nation = state.nations[seat]
            over = len(nation.hand) - limits[state.columns[seat]]
            if over > 0:
                state.defer(Choice("discard", seat, (over,)))
        state.flush_deferred()
        return not state.pending
    return True


def decide_policy(state: WorldState) -> bool:
    """Decide policy, in turn order until every nation has passed."""
    if state.cursor == 0:
        state.cursor = 1
        state.policy_turn = 0
        state.policy_plays = 0
        for nation in state.nations:
            nation.passed = False
    order = state.turn_order()
    while True:
        if all(n.passed for n in state.nations):
            for nation in state.nations:
                nation.passed = False
                if nation.played:
                    nation.hand.extend(nation.played)
                    nation.played = []
            state.note(None, N_("All nations have passed: instant cards return to their hands"))
            return True
        seat = order[state.policy_turn % state.n]
        nation = state.nations[seat]
        if nation.passed or state.policy_plays >= 2:
            state.policy_turn += 1
            state.policy_plays = 0
            continue
        state.push(Choice("policy", seat, (state.policy_plays,)))
        return False


STAGE_HANDLERS.update(
    {
        "technology": technology,
        "new_policy": new_policy,
        "hand_limit": hand_limit,
        "decide_policy": decide_policy,
    }
)


# --- choices: deck, keep, discard ------------------------------------------------------
def _deck_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    nation = state.nations[choice.seat]
    return [("deck", d) for d in DECKS if nation.decks[d]]


def _deck_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    nation = state.nations[choice.seat]
    deck = action[1]
    if choice.args[0] == "new_policy":
        col = state.columns[choice.seat]
        draw = state.data.political["draw"][col]
        keep = state.data.political["keep"][col]
    else:
        card = state.data.cards["political-reform"]
        draw, keep = card.p("draw"), card.p("keep")
    if state.variant.get("draws") == "table":
        drawn = table_draw(state, nation, deck, draw)
    else:
        drawn = tuple(nation.decks[deck][:draw])
        del nation.decks[deck][:draw]
    state.revealed[choice.seat] += 1
    state.note(
        choice.seat,
        N_("%(step)s: draws %(count)d from the %(deck)s deck"),
        step=DRAW_WORDS[choice.args[0]],
        count=len(drawn),
        deck=deck,
    )
    state.push(Choice("keep", choice.seat, (deck, drawn, keep)))


def drawn_refusal(deck: list[str], count: int, cards: Any) -> str | None:
    """Why ``cards`` cannot be the ``count`` cards drawn from ``deck`` (``None`` if they can)."""
    if not isinstance(cards, list | tuple) or any(not isinstance(c, str) for c in cards):
        return "the cards drawn are a list of card ids"
    if len(cards) != count:
        return f"{len(cards)} card(s) told, but {count} are drawn"
    if len(set(cards)) != len(cards):
        return "a card is told twice"
    absent = [c for c in cards if c not in deck]
    if absent:
        return f"not in that deck now: {', '.join(absent)} (it holds {', '.join(sorted(deck))})"
    return None


def table_draw(state: WorldState, nation: Nation, deck: str, count: int) -> tuple[str, ...]:
    """Variant ``draws=table`` (a referee at a real table): the cards drawn are a chance outcome
    ``cards`` told by whoever holds the deck, any ``min(count, cards left)`` cards of it, in any
    order (the engine's deck order does not matter). A source that draws instead takes the top.

    Raises:
        RecordError: the outcome is not cards of that deck (a bad record or source).
    """
    from limitgames.core.errors import RecordError

    cards = nation.decks[deck]
    k = min(count, len(cards))
    label = phrase(
        N_("%(nation)s draws %(count)d from the %(deck)s deck"),
        nation=state.name(nation.seat),
        count=k,
        deck=deck,
    )
    request = {"label": label, "options": sorted(cards), "count": k}
    value = state._chance.draw("cards", lambda rng: list(cards[:k]), request)
    reason = drawn_refusal(cards, k, value)
    if reason is not None:
        raise RecordError(f"{label}: {reason}", f"chance {len(state.chance_outcomes()) - 1}")
    for card in value:
        cards.remove(card)
    return tuple(value)


def _keep_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    return [("keep", c) for c in dict.fromkeys(choice.args[1])]


def _keep_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    deck, drawn, keep = choice.args
    nation = state.nations[choice.seat]
    card = action[1]
    rest = list(drawn)
    rest.remove(card)
    nation.hand.append(card)
    state.note(choice.seat, N_("keeps a card of the %(deck)s deck"), deck=deck)
    state.note(
        choice.seat, N_("(you keep %(card)s)"), private=True, card=state.data.cards[card].name
    )
    if keep > 1 and rest:
        state.push(Choice("keep", choice.seat, (deck, tuple(rest), keep - 1)))
    else:
        nation.decks[deck].extend(rest)


def _discard_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    return [("discard", c) for c in dict.fromkeys(state.nations[choice.seat].hand)]


def _discard_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    nation = state.nations[choice.seat]
    card = action[1]
    nation.hand.remove(card)
    nation.decks[state.data.cards[card].deck].append(card)
    deck = state.data.cards[card].deck
    state.note(choice.seat, N_("hand limit: a card to the bottom of the %(deck)s deck"), deck=deck)
    state.note(
        choice.seat, N_("(you discard %(card)s)"), private=True, card=state.data.cards[card].name
    )
    if choice.args[0] > 1:
        state.push(Choice("discard", choice.seat, (choice.args[0] - 1,)))


# --- choice: policy (play / pass / withdraw) ----------------------------------------------
def _policy_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    from limitgames.world.cards import can_play, can_withdraw

    nation = state.nations[choice.seat]
    out: list[WorldAction] = [
        ("play", c) for c in dict.fromkeys(nation.hand) if can_play(state, nation, c)
    ]
    out += [
        ("withdraw", c)
        for c in WITHDRAWABLE
        if c in nation.permanent and can_withdraw(state, nation, c)
    ]
    if state.alliances_on:
        from limitgames.world.alliances import fund_options

        out += fund_options(state, nation)
    out.append(("pass",))
    return out


def _policy_accept(state: WorldState, choice: Choice, action: WorldAction) -> str | None:
    """``None`` for an option of the policy choice; else why not (a card's cost or effect)."""
    if action in state.legal_actions():
        return None
    if (
        isinstance(action, tuple)
        and len(action) == 2
        and action[0] == "play"
        and action[1] in state.data.cards
    ):
        from limitgames.world.cards import why_not_playable

        return why_not_playable(state, state.nations[choice.seat], action[1])
    return _("not an option now (%(nation)s must play a card, withdraw one, or pass)") % {
        "nation": state.name(choice.seat)
    }


def _policy_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    from limitgames.world.card_effects import play
    from limitgames.world.cards import withdraw

    nation = state.nations[choice.seat]
    verb = action[0]
    if verb == "pass":
        nation.passed = True
        state.note(choice.seat, N_("passes"))
    elif verb == "withdraw":
        withdraw(state, nation, action[1])
    elif verb == "fund":
        from limitgames.world.alliances import fund

        fund(state, nation, action[1])
    else:
        state.policy_plays += 1
        play(state, nation, action[1])


OPTIONS.update(
    {
        "deck": _deck_options,
        "keep": _keep_options,
        "discard": _discard_options,
        "policy": _policy_options,
    }
)
RESOLVE.update(
    {
        "deck": _deck_resolve,
        "keep": _keep_resolve,
        "discard": _discard_resolve,
        "policy": _policy_resolve,
    }
)
ACCEPT["policy"] = _policy_accept
