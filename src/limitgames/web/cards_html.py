"""Drawing Rosenberg's Limits (``cards``) as HTML from one seat's observation.

Everything drawn comes from ``observation(seat)`` (``rules/cards.md``,
"Information"): the seat's own hand and hidden cards (``None`` for a
spectator), the limit card, the pile (its top card; the whole pile behind a
setting), every seat's hand size, hidden-card count, points and limit cards,
this round's public actions and the finished rounds with their reveal. The
reveal of a suspicion is explained in words here; the numbers are the
engine's (``rounds[i]["suspicion"]``), nothing is recomputed.
"""

from __future__ import annotations

from typing import Any

from limitgames.translation import N_, gettext, ngettext
from limitgames.web.views import environment, shown_name

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


def limit_card_words(code: Any) -> str:
    """A limit card in words: ``"026X1"`` -> ``"red 0, yellow 2, green 6, blue no limit, purple 1"``.

    The code gives one limit per colour in the drawing's colour order
    (:data:`COLOURS`), ``X`` for no limit (``rules/cards.md``, "Material").
    Anything else is returned as it came (``str(code)``), never raised on.
    """
    text = str(code)
    if len(text) != len(COLOURS):
        return text
    return ", ".join(
        f"{shown_name(colour)} {gettext('no limit') if value.upper() == 'X' else value}"
        for colour, value in zip(COLOURS, text, strict=True)
    )


def explain_suspicion(check: dict[str, Any] | None, names: list[str]) -> str:
    """A suspicion's outcome in words (``rules/cards.md``, "A round" step 4)."""
    if not check:
        return gettext(
            "Nobody could act: the round ended without a suspicion; "
            "the limit card goes under the limit pile."
        )
    by = _name(names, check.get("by"))
    suspect = _name(names, check.get("suspect"))
    colour = shown_name(str(check.get("colour")))
    card_limit = check.get("card_limit")
    hidden = check.get("hidden", 0)
    limit = check.get("limit")
    counted = check.get("counted")
    base = gettext("no limit (X)") if card_limit in ("X", None) else str(card_limit)
    if limit in ("X", None):
        limit_words = gettext("the limit card shows X for %(colour)s: there is no limit") % {
            "colour": colour
        }
    else:
        limit_words = ngettext(
            "the limit card shows %(base)s for %(colour)s, plus %(num)d hidden %(colour)s "
            "card: the limit is %(limit)s",
            "the limit card shows %(base)s for %(colour)s, plus %(num)d hidden %(colour)s "
            "cards: the limit is %(limit)s",
            int(hidden or 0),
        ) % {"base": base, "colour": colour, "num": int(hidden or 0), "limit": limit}
    verdict = gettext("above the limit") if check.get("exceeded") else gettext("within the limit")
    taker = _name(names, check.get("taker"))
    scorer = _name(names, check.get("scorer"))
    count = int(counted) if isinstance(counted, int) else 0
    words = ngettext(
        "%(by)s suspected %(suspect)s's last card (%(colour)s). Revealed: %(limit_words)s; "
        "%(num)d %(colour)s card counted on the pile up to %(suspect)s's last card, "
        "%(verdict)s. %(taker)s takes the limit card (-2); %(scorer)s scores +1.",
        "%(by)s suspected %(suspect)s's last card (%(colour)s). Revealed: %(limit_words)s; "
        "%(num)d %(colour)s cards counted on the pile up to %(suspect)s's last card, "
        "%(verdict)s. %(taker)s takes the limit card (-2); %(scorer)s scores +1.",
        count,
    )
    return words % {
        "by": by,
        "suspect": suspect,
        "colour": colour,
        "limit_words": limit_words,
        "num": count,
        "verdict": verdict,
        "taker": taker,
        "scorer": scorer,
    }


def _action_words(seat: int, notation: str, names: list[str]) -> str:
    who = _name(names, seat)
    words = notation.split()
    colour = " ".join(shown_name(w) for w in words[1:])
    if notation == "hide":
        return gettext("%(player)s put a card face down") % {"player": who}
    if words and words[0] == "play":
        return gettext("%(player)s played %(colour)s") % {"player": who, "colour": colour}
    if words and words[0] == "exchange":
        return gettext("%(player)s exchanged four %(colour)s (+1)") % {
            "player": who,
            "colour": colour,
        }
    if words and words[0] == "suspect" and len(words) == 2 and words[1].isdigit():
        suspect = _name(names, int(words[1]))
        return gettext("%(player)s suspects %(suspect)s") % {"player": who, "suspect": suspect}
    if notation == "pass":
        return gettext("%(player)s passed") % {"player": who}
    return f"{who}: {notation}"


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
            "limit_card": limit_card_words(r.get("limit_card")),
            "explanation": explain_suspicion(r.get("suspicion"), names),
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
        round_actions=[
            _action_words(s, a, names) for s, a in observation.get("round_actions") or []
        ],
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
