"""What a seat may know of a LIMIT game, and determinization.

``observation(seat)`` holds everything public (boards, stocks, money,
tokens, the marketplace, reserves, the World Bank and LIMIT box, crisis
tiles, permanent and played cards, card counts in hands and decks, the alliances and
which tokens lie agreement side up; in solo mode the star nation's card and the count of
the event pile with the discarded events) plus
that seat's own hand and, when it decides, its options. Its size does not
grow with the history: the log is its own channel, ``log(state, seat)``
(``WorldState.log_lines``), with the same rule of what the seat may see. It never holds
another seat's hand, the cards another seat is choosing from, or the order
of any deck. While a simultaneous step is open, other nations that already
chose are shown as they were before their choices.

``determinize(seat, rng)`` re-deals what ``seat`` cannot see (a card an ally was asked to
pay for stays in the asker's hand: it was named aloud): every other
nation's hand and drawn cards together with its decks (per deck, keeping
the counts), the order of the seat's own decks and of the solo event pile.
"""

from __future__ import annotations

import random
from typing import Any

from limitgames.world.data import CLASSES, DECKS, PLANTS, RESOURCES
from limitgames.world.nation import Nation
from limitgames.world.state import NATION_NAMES, Choice, WorldState


def nation_view(state: WorldState, nation: Nation) -> dict[str, Any]:
    """The public face of a nation board (JSON-ready)."""
    level = state.data.level
    return {
        "name": NATION_NAMES[nation.seat],
        "seat": nation.seat,
        "population": {"position": nation.population, "value": level(nation.population)},
        "plants": {
            name: {"position": nation.plants[i], "value": level(nation.plants[i])}
            for i, name in enumerate(PLANTS)
        },
        "stock": {name: nation.stock[i] for i, name in enumerate(PLANTS)},
        "fossil": nation.fossil,
        "money": nation.money,
        "territory": nation.territory,
        "pollution": nation.pollution,
        "disruption": nation.disruption,
        "sol": {c: nation.sol[i] for i, c in enumerate(CLASSES)},
        "shift_tiles": [CLASSES[i] for i in range(5) if nation.shift_tiles[i]],
        "shift_zone": nation.shift_zone,
        "unrest": nation.unrest,
        "hand_count": len(nation.hand),
        "hand_by_deck": {
            d: sum(1 for c in nation.hand if state.data.cards[c].deck == d) for d in DECKS
        },
        "deck_counts": nation.card_count(),
        "permanent": list(nation.permanent),
        "played": list(nation.played),
        "technology": list(nation.technology),
        "passed": nation.passed,
    }


def observation(state: WorldState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: a spectator), as a JSON-ready dict."""
    nations = []
    for nation in state.nations:
        shown = nation if nation.seat == seat else state.veil.get(nation.seat, nation)
        nations.append(nation_view(state, shown))
    obs: dict[str, Any] = {
        "game": "world",
        "players": state.n,
        "generation": state.generation,
        "stage": state.stage,
        "leader": NATION_NAMES[state.leader],
        "to_move": None if state.terminal else NATION_NAMES[state.current_player()],
        "world_bank": state.world_bank,
        "limit_box": dict(state.limit_box),
        "pollution_reserve": state.pollution_reserve,
        "disruption_reserve": state.disruption_reserve,
        "colonization": {"territory": state.colonization[0], "fossil": state.colonization[1]},
        "market": {
            name: {
                "position": state.market_price[r],
                "price": state.data.prices[state.market_price[r] - 1],
                "stock": state.market_stock[r],
            }
            for r, name in enumerate(RESOURCES)
        },
        "crises": [list(g) for g in state.crises],
        "nations": nations,
        "alliances": {
            kind: [[NATION_NAMES[x] for x in group] for group in groups]
            for kind, groups in state.alliances.items()
        }
        if state.alliances_on
        else None,
        "agreement": {k: [NATION_NAMES[x] for x in v] for k, v in state.agreement.items()},
        "demilitarized": state.demilitarized,
        "log_length": len(state.log),
    }
    if state.star is not None:
        from limitgames.world.solo import star_values

        star = state.star
        obs["star"] = {
            "values": star_values(state),
            "money": star.money,
            "fossil": star.fossil,
            "territory": star.territory,
            "pollution": star.pollution,
            "disruption": star.disruption,
        }
        obs["events"] = {"draw_pile": len(state.events), "discard": list(state.event_discard)}
    if seat is not None:
        obs["hand"] = list(state.nations[seat].hand)
    if state.pending and not state.terminal:
        top = state.pending[-1]
        choice: dict[str, Any] = {"kind": top.kind, "nation": NATION_NAMES[top.seat]}
        if seat == top.seat:
            choice["options"] = [state.action_to_string(a) for a in state.legal_actions()]
            forms = state.action_forms()
            if forms:  # the options list a sample of these ranges; every amount is legal
                choice["amounts"] = [f.describe() for f in forms]
        obs["choice"] = choice
    if state.terminal:
        obs["scores"] = list(state.scores)
        obs["score_details"] = [dict(d) for d in state.score_details]
        if state.solo:
            obs["very_good_game"] = state.scores[0] > state.data.solo["very_good_score"]
    return obs


def log(state: WorldState, seat: int | None) -> list[str]:
    """The log as ``seat`` may read it (``None``: the public lines): its own channel, apart from
    :func:`observation` (which would otherwise grow with every line)."""
    return state.log_lines(seat)


def determinize(state: WorldState, seat: int, rng: random.Random) -> WorldState:
    """A full state consistent with what ``seat`` knows, the unseen cards dealt at random.

    Each pool of unseen cards is sorted before it is shuffled, and other nations' hands are
    rebuilt deck by deck, so the result depends only on what ``seat`` knows and on ``rng``.
    Inside a simultaneous step, a nation that already chose is put back as it was before its
    choices, which it makes again after the others (the order inside such a step is free).
    """
    other = state.clone()
    cards = state.data.cards
    unveiled = [j for j in sorted(other.veil) if j != seat]
    for j in unveiled:
        other.nations[j] = other.veil.pop(j)
        other.pending.insert(0, other.veil_first.pop(j))
    if unveiled:
        other.veiled_log = [line for line in other.veiled_log if line[0] not in unveiled]
    pending = list(other.pending)
    # a card an ally is asked to pay for was named aloud (p22): it stays in the asker's hand
    named: dict[int, list[str]] = {}
    for asked in pending:
        if asked.kind == "aid" and asked.args[0][4]:
            named.setdefault(asked.args[0][0], []).append(asked.args[0][4])
    for nation in other.nations:
        mine = nation.seat == seat
        pinned = [] if mine else list(named.get(nation.seat, []))
        keep_slots = [
            i for i, c in enumerate(pending) if c.kind == "keep" and c.seat == nation.seat
        ]
        new_hand: list[str] = []
        for deck in DECKS:
            pool = list(nation.decks[deck])
            in_hand = 0
            drawn_slots: list[int] = []
            if not mine:
                held = [c for c in nation.hand if cards[c].deck == deck]
                for card in pinned:
                    if card in held:
                        held.remove(card)
                in_hand = len(held)
                pool += held
                for k in keep_slots:
                    if pending[k].args[0] == deck:
                        drawn_slots.append(k)
                        pool += list(pending[k].args[1])
            pool.sort()
            rng.shuffle(pool)
            size = len(nation.decks[deck])
            nation.decks[deck] = pool[:size]
            rest = pool[size:]
            new_hand += rest[:in_hand]
            rest = rest[in_hand:]
            for k in drawn_slots:
                deck_name, drawn, keep = pending[k].args
                pending[k] = Choice(
                    "keep", pending[k].seat, (deck_name, tuple(rest[: len(drawn)]), keep)
                )
                rest = rest[len(drawn) :]
        if not mine:
            nation.hand = new_hand + pinned
    other.pending = pending
    if other.events:  # the face-down pile of solo event cards
        pile = sorted(other.events)
        rng.shuffle(pile)
        other.events = pile
    other._legal = None
    return other
