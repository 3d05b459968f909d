"""Limits in words: the events of :mod:`limitgames.cards.events` and a game's outcome as
sentences in the current language (:mod:`limitgames.translation`).

This is the one narrator of the cards game: the terminal, the browser, replays and the
arena draw their sentences from here. Cards are named with their colour as a whole
phrase (``"a blue card"``, ``"4 blue cards"``) so that every language makes its colour
agree with its noun (*une carte bleue*, *eine blaue Karte*). The person at the screen
(``you``, a seat) is told in the second person (``"You play a red card"``). Rules:
``rules/cards.md``; nothing here decides a rule, it only says what the events carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from limitgames.cards.events import (
    Drew,
    Exchanged,
    Hid,
    LimitCardReturned,
    LimitCardTaken,
    Passed,
    Played,
    Revealed,
    RoundScored,
    RoundStarted,
    Suspected,
)
from limitgames.cards.material import COLOURS
from limitgames.core.events import Event, Outcome, Termination, visible
from limitgames.core.outcome import result_in_words
from limitgames.translation import N_, elide, gettext, ngettext

__all__ = [
    "a_card",
    "card_count",
    "colour_word",
    "in_turn",
    "limit_card_words",
    "outcome_sentence",
    "round_sentence",
    "sentence",
    "suspicion_sentence",
    "tell",
]

_A_CARD: dict[str, str] = {
    "red": N_("a red card"),
    "yellow": N_("a yellow card"),
    "green": N_("a green card"),
    "blue": N_("a blue card"),
    "purple": N_("a purple card"),
}
"""One card of each colour, as a whole phrase (the colour agrees with the noun)."""

NO_LIMIT_WORDS = N_("no limit")
"""What an ``X`` on a limit card means (``rules/cards.md``, "Material")."""


def colour_word(colour: str) -> str:
    """A colour's name on its own (a label: ``"rouge"``), in the current language."""
    return gettext(colour)


def a_card(colour: str) -> str:
    """``"a red card"`` in the current language, the colour agreeing with the noun.

    Raises:
        KeyError: ``colour`` is not one of :data:`~limitgames.cards.material.COLOURS`.
    """
    return gettext(_A_CARD[colour])


def card_count(colour: str, count: int) -> str:
    """``"4 red cards"`` (``count`` cards of ``colour``) in the current language, one whole
    phrase per colour so that the colour agrees with the noun in number and gender.

    Raises:
        KeyError: ``colour`` is not one of :data:`~limitgames.cards.material.COLOURS`.
    """
    if colour == "red":
        words = ngettext("%(num)d red card", "%(num)d red cards", count)
    elif colour == "yellow":
        words = ngettext("%(num)d yellow card", "%(num)d yellow cards", count)
    elif colour == "green":
        words = ngettext("%(num)d green card", "%(num)d green cards", count)
    elif colour == "blue":
        words = ngettext("%(num)d blue card", "%(num)d blue cards", count)
    elif colour == "purple":
        words = ngettext("%(num)d purple card", "%(num)d purple cards", count)
    else:
        raise KeyError(colour)
    return words % {"num": count}


def limit_card_words(code: str) -> str:
    """A limit card in words: ``"X0335"`` -> ``"red no limit, yellow 0, green 3, blue 3,
    purple 5"`` (one value per colour in :data:`~limitgames.cards.material.COLOURS` order,
    ``X``: no limit). Anything not a five-character code comes back as it is."""
    if len(code) != len(COLOURS):
        return code
    return ", ".join(
        f"{colour_word(colour)} {gettext(NO_LIMIT_WORDS) if value.upper() == 'X' else value}"
        for colour, value in zip(COLOURS, code, strict=True)
    )


def _and(items: Sequence[str]) -> str:
    """``"a, b and c"`` in the current language."""
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s and %(second)s") % {
        "first": ", ".join(items[:-1]),
        "second": items[-1],
    }


def in_turn(sentences: Sequence[str]) -> str:
    """Sentences told one after the other in one line (``"a; b; c"``), with the current
    language's punctuation (French: ``"a ; b"``)."""
    if not sentences:
        return ""
    line = sentences[0]
    for following in sentences[1:]:
        line = gettext("%(first)s; %(second)s") % {"first": line, "second": following}
    return line


def _said(
    seat: int, names: Sequence[str], you: int | None, second: str, third: str, **values: object
) -> str:
    """``second`` (already translated) for the person at the screen, else ``third`` with
    ``%(player)s`` for the seat's name; both whole sentences, each language its own verb."""
    words = second if seat == you else third
    return elide(words % {"player": names[seat], **values}, names)


def _drawn(cards: Sequence[str | None]) -> str:
    """The cards of a draw: the seen ones by colour, the others counted."""
    unseen = sum(1 for c in cards if c is None)
    parts = [a_card(c) for c in cards if c is not None]
    if unseen:
        parts.append(ngettext("%(num)d card", "%(num)d cards", unseen) % {"num": unseen})
    return _and(parts)


def sentence(event: Event, names: Sequence[str], you: int | None = None) -> str | None:
    """One event of Limits as a sentence, or ``None`` for an event this module does not tell.

    Args:
        event: an event of :mod:`limitgames.cards.events`.
        names: the seats' names, by seat.
        you: the seat of the person reading (told in the second person), or ``None``.
    """
    if isinstance(event, RoundStarted):
        starts = _said(
            event.start_player, names, you, gettext("You start."), gettext("%(player)s starts.")
        )
        return gettext("Round %(round)d: limit card %(card)s. %(starts)s") % {
            "round": event.round + 1,
            "card": limit_card_words(event.limit_card),
            "starts": starts,
        }
    if isinstance(event, Hid):
        if event.colour is None:
            return _said(
                event.seat,
                names,
                you,
                gettext("You hide a card"),
                gettext("%(player)s hides a card"),
            )
        return _said(
            event.seat,
            names,
            you,
            gettext("You hide %(card)s"),
            gettext("%(player)s hides %(card)s"),
            card=a_card(event.colour),
        )
    if isinstance(event, Played):
        return _said(
            event.seat,
            names,
            you,
            gettext("You play %(card)s"),
            gettext("%(player)s plays %(card)s"),
            card=a_card(event.colour),
        )
    if isinstance(event, Drew):
        return _said(
            event.seat,
            names,
            you,
            gettext("You draw %(cards)s"),
            gettext("%(player)s draws %(cards)s"),
            cards=_drawn(event.cards),
        )
    if isinstance(event, Exchanged):
        return _said(
            event.seat,
            names,
            you,
            gettext(
                "You show %(four)s and exchange them (+1 point): %(two)s on the pile, "
                "%(two)s face down on top of the draw pile"
            ),
            gettext(
                "%(player)s shows %(four)s and exchanges them (+1 point): %(two)s on the pile, "
                "%(two)s face down on top of the draw pile"
            ),
            four=card_count(event.colour, 4),
            two=card_count(event.colour, 2),
        )
    if isinstance(event, Passed):
        return _said(
            event.seat,
            names,
            you,
            gettext("You pass (no possible action)"),
            gettext("%(player)s passes (no possible action)"),
        )
    if isinstance(event, Suspected):
        return _said(
            event.seat,
            names,
            you,
            gettext("You suspect %(suspect)s"),
            gettext("%(player)s suspects %(suspect)s"),
            suspect=names[event.suspect],
        )
    if isinstance(event, Revealed):
        shown = [
            gettext("%(player)s: %(cards)s")
            % {"player": names[s], "cards": _and([a_card(c) for c in cards])}
            for s, cards in enumerate(event.hidden)
            if cards
        ]
        if not shown:
            return None
        return gettext("Hidden cards: %(cards)s") % {"cards": in_turn(shown)}
    if isinstance(event, RoundScored):
        return _check_sentence(
            event.suspect,
            event.colour,
            event.counted,
            event.card_limit,
            event.hidden,
            event.limit,
            event.exceeded,
            event.scorer,
            names,
            you,
        )
    if isinstance(event, LimitCardTaken):
        return _said(
            event.seat,
            names,
            you,
            gettext("You take the limit card"),
            gettext("%(player)s takes the limit card"),
        )
    if isinstance(event, LimitCardReturned):
        return gettext("nobody could act; the limit card went under the limit pile")
    return None


def _check_sentence(
    suspect: int,
    colour: str,
    counted: int,
    card_limit: int | None,
    hidden: int,
    limit: int | None,
    exceeded: bool,
    scorer: int,
    names: Sequence[str],
    you: int | None,
) -> str:
    """A suspicion's check (``rules/cards.md``, "A round" 4) in one sentence."""
    if limit is None or card_limit is None:
        limit_words = gettext("limit X (no limit)")
    else:
        limit_words = gettext("limit %(card)s + %(hidden)s hidden = %(limit)s") % {
            "card": card_limit,
            "hidden": hidden,
            "limit": limit,
        }
    scores = _said(scorer, names, you, gettext("You score +1"), gettext("%(player)s scores +1"))
    counted_words = gettext(
        "Counted up to the last card of %(suspect)s: %(cards)s; %(limit)s, %(verdict)s: %(scores)s"
    ) % {
        "suspect": names[suspect],
        "cards": card_count(colour, counted),
        "limit": limit_words,
        "verdict": gettext("exceeded") if exceeded else gettext("not exceeded"),
        "scores": scores,
    }
    return elide(counted_words, names)


def tell(
    events: Iterable[Event], viewer: int | None, names: Sequence[str], you: int | None = None
) -> list[str]:
    """The sentences ``viewer`` (a seat, or ``None`` for a spectator) may read, in order.

    Only the events visible to ``viewer`` are told (:func:`limitgames.core.events.visible`);
    where the viewer sees both the public and the private telling of one happening (its
    own hidden or drawn card), only the private one, which says more, is told. ``you``
    (a seat, usually the viewer, or ``None``) is told in the second person.
    """
    shown = visible(events, viewer)
    lines: list[str] = []
    for i, event in enumerate(shown):
        twin = shown[i + 1] if i + 1 < len(shown) else None
        if (
            isinstance(event, (Hid, Drew))
            and event.audience is None
            and type(twin) is type(event)
            and twin is not None
            and twin.audience is not None
            and getattr(twin, "seat", None) == event.seat
        ):
            continue
        text = sentence(event, names, you)
        if text is not None:
            lines.append(text)
    return lines


def round_sentence(summary: dict[str, object], names: Sequence[str], you: int | None = None) -> str:
    """A finished round (one of ``Outcome.details["rounds"]`` or an observation's
    ``rounds``) in one sentence: its number and limit card, then :func:`suspicion_sentence`."""
    number = int(summary.get("round", 0)) + 1  # type: ignore[call-overload]
    head = gettext("Round %(round)d (limit card %(card)s): ") % {
        "round": number,
        "card": limit_card_words(str(summary.get("limit_card"))),
    }
    return head + suspicion_sentence(summary, names, you)


def suspicion_sentence(
    summary: dict[str, object], names: Sequence[str], you: int | None = None
) -> str:
    """How a finished round ended (``rules/cards.md``, "A round" 4): who suspected whom,
    the check, who took the limit card; or that nobody could act."""
    check = summary.get("suspicion")
    if not isinstance(check, dict):
        return gettext("nobody could act; the limit card went under the limit pile")
    card_limit = check.get("card_limit")
    by = _said(
        int(check["by"]),
        names,
        you,
        gettext("You suspect %(suspect)s"),
        gettext("%(player)s suspects %(suspect)s"),
        suspect=names[int(check["suspect"])],
    )
    told = _check_sentence(
        int(check["suspect"]),
        str(check["colour"]),
        int(check["counted"]),
        None if card_limit in ("X", None) else int(card_limit),
        int(check["hidden"]),
        None if check.get("limit") is None else int(check["limit"]),
        bool(check["exceeded"]),
        int(check["scorer"]),
        names,
        you,
    )
    takes = _said(
        int(check["taker"]),
        names,
        you,
        gettext("You take the limit card"),
        gettext("%(player)s takes the limit card"),
    )
    return f"{by}. {told}. {takes}."


_REASONS: dict[Termination, str] = {
    Termination.LIMIT_CARDS_TAKEN: N_("The last limit card has been taken."),
}


def outcome_sentence(outcome: Outcome, names: Sequence[str], you: int | None = None) -> str:
    """Who won, why the game ended and every score, in one sentence: ``"The last limit card
    has been taken. Barbara wins with +3 (scores: Andreas -1, Barbara +3)"``.

    Args:
        outcome: a finished game's outcome (``CardsState.outcome()``).
        names: the seats' names. you: the person reading (second person), or ``None``.
    """
    scores = [int(s) for s in outcome.scores] if outcome.scores is not None else None
    reason = gettext(_REASONS[outcome.termination]) if outcome.termination in _REASONS else ""
    if scores is None or not outcome.winners:
        return f"{reason} {result_in_words(names, outcome.returns)}".strip()
    best = max(scores[s] for s in outcome.winners)
    if len(outcome.winners) == 1:
        head = _said(
            outcome.winners[0],
            names,
            you,
            gettext("You win with %(score)s"),
            gettext("%(player)s wins with %(score)s"),
            score=f"{best:+d}",
        )
    else:
        head = gettext("%(players)s share the win with %(score)s") % {
            "players": _and([names[s] for s in outcome.winners]),
            "score": f"{best:+d}",
        }
    table = ", ".join(f"{names[s]} {x:+d}" for s, x in enumerate(scores))
    result = gettext("%(result)s (scores: %(scores)s)") % {"result": head, "scores": table}
    return elide(f"{reason} {result}".strip(), names)
