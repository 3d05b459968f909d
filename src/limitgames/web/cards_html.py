"""Drawing Rosenberg's Limits (``cards``) as HTML from one seat's observation.

Everything drawn comes from ``observation(seat)`` (``rules/cards.md``,
"Information"): the seat's own hand and hidden cards (``None`` for a
spectator), the limit card, the pile (its top card; the whole pile behind a
setting), every seat's hand size, hidden-card count, points and limit cards,
this round's public actions and the finished rounds with their reveal. What
happened is told by :mod:`limitgames.cards.words`, the game's one narrator (the
terminal's too); the numbers are the engine's, nothing is recomputed.
"""

from __future__ import annotations

from typing import Any

from limitgames.cards.events import public_events
from limitgames.cards.words import limit_card_words, sentence, suspicion_sentence
from limitgames.translation import N_, gettext
from limitgames.web.views import environment

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
"""The colour order of the drawing (the limit card's order)."""

PHASE_WORDS: dict[str, str] = {
    "hide": N_("put a card face down (it raises the limit of its colour by 1)"),
    "play": N_("play a card, exchange four of a colour, or suspect"),
    "over": N_("the game is over"),
}


def _name(names: list[str], seat: Any) -> str:
    """A seat's name; a seat without one is numbered from 1, as the lobby numbers seats."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    number = seat + 1 if isinstance(seat, int) else seat
    return gettext("seat %(number)s") % {"number": number}


def _cards(counts: dict[str, int] | None) -> list[str]:
    """``{"red": 2, "blue": 1}`` -> ``["red", "red", "blue"]`` in the drawing's colour order."""
    if not counts:
        return []
    return [c for c in COLOURS for _ in range(int(counts.get(c, 0)))]


def _explanation(summary: dict[str, Any], names: list[str]) -> str:
    """A finished round's ending in words (:func:`limitgames.cards.words.suspicion_sentence`)."""
    return suspicion_sentence(summary, [_name(names, s) for s in range(_players(summary, names))])


def _players(summary: dict[str, Any], names: list[str]) -> int:
    return max(len(names), len(summary.get("revealed") or []))


def _action_words(actions: list[list[Any]], names: list[str], players: int) -> list[str]:
    """This round's public decisions in words (:func:`limitgames.cards.words.sentence`)."""
    who = [_name(names, s) for s in range(max(players, len(names)))]
    try:
        events = public_events(actions)
    except ValueError:
        return [f"{_name(names, s)}: {a}" for s, a in actions]
    return [text for e in events if (text := sentence(e, who)) is not None]


def draw(observation: dict[str, Any], names: list[str], seat: int | None) -> tuple[str, str]:
    """The table (board HTML) and the scores panel (side HTML) for ``seat``'s observation."""
    n = int(observation.get("players") or len(names))
    limit_card = observation.get("limit_card")
    rounds = list(observation.get("rounds") or [])
    seats = []
    for s in range(n):
        seats.append(
            {
                "seat": s,
                "name": _name(names, s),
                "hand_size": _at(observation.get("hand_sizes"), s),
                "hidden_count": _at(observation.get("hidden_counts"), s),
                "known": _cards(_at(observation.get("known_cards"), s)),
                "last_played": _at(observation.get("last_played"), s),
                "points": _at(observation.get("points"), s),
                "limit_cards": len(_at(observation.get("limit_cards_taken"), s) or []),
                "score": _at(observation.get("scores"), s),
                "to_move": observation.get("to_move") == s,
                "me": seat == s,
            }
        )
    history = [
        {
            "round": r.get("round", i) + 1,
            "limit_card": limit_card_words(str(r.get("limit_card"))),
            "explanation": _explanation(r, names),
            "revealed": [
                (_name(names, s), cards) for s, cards in enumerate(r.get("revealed") or [])
            ],
            "taker": _name(names, r.get("taker"))
            if r.get("taker") is not None
            else gettext("nobody"),
        }
        for i, r in enumerate(rounds)
    ]
    board = environment.get_template("cards_table.html.j2").render(
        observation=observation,
        colours=COLOURS,
        limit_card=[(c, limit_card.get(c)) for c in COLOURS] if limit_card else None,
        hand=_cards(observation.get("hand")),
        hidden=_cards(observation.get("hidden")),
        pile=[(_name(names, s), c) for s, c in observation.get("pile") or []],
        pile_top=observation.get("pile_top"),
        seats=seats,
        me=seat,
        round_actions=_action_words(list(observation.get("round_actions") or []), names, n),
        last_reveal=history[-1] if history else None,
    )
    side = environment.get_template("cards_side.html.j2").render(seats=seats, history=history)
    return board, side


def _at(values: Any, index: int) -> Any:
    if isinstance(values, list) and 0 <= index < len(values):
        return values[index]
    return None


def status(observation: dict[str, Any], names: list[str]) -> str:
    """The phase of the round in words, with the round number."""
    phase = str(observation.get("phase") or "")
    words = gettext(PHASE_WORDS[phase]) if phase in PHASE_WORDS else phase
    number = observation.get("round")
    if isinstance(number, int) and phase != "over":
        return gettext("%(step)s (round %(round)d)") % {"step": words, "round": number + 1}
    return words
