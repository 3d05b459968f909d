"""Drawing Limits (``cards``) in the terminal with Rich, and telling what happened in words.

Everything here reads the engine's observation (or a finished round's public
summary) and never decides a rule; what happened is told in words by
:mod:`limitgames.cards.words`, the one narrator of the game. The pile is shown as its top card only,
as the physical game forbids looking through it, unless ``show_pile`` is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from limitgames.cards.material import COLOURS
from limitgames.cards.words import outcome_sentence, round_sentence
from limitgames.cli.seats import is_you
from limitgames.core import State
from limitgames.translation import gettext, ngettext

COLOUR_STYLES: dict[str, str] = {
    "red": "bold white on red3",
    "yellow": "bold black on yellow1",
    "green": "bold white on green4",
    "blue": "bold white on blue3",
    "purple": "bold white on purple4",
}
"""Rich style of each colour's card."""

KNOWN_SHOWN = 6
"""How many known cards on top of the draw pile to show."""

RULEBOOK_NAMES: tuple[str, ...] = ("Andreas", "Barbara", "Clara", "Daniel", "Emil", "Frieda")
"""Default seat names, after the rulebook's example players."""


def seat_names(state: State, names: Sequence[str] | None = None) -> list[str]:
    """``names`` if given, else the rulebook's names for the seats."""
    if names is not None:
        return list(names)
    return list(RULEBOOK_NAMES[: state.num_players])


def card_text(colour: str, count: int = 1) -> Text:
    """A coloured card label (``" red "``, or ``" red ×2 "`` for several)."""
    word = gettext(colour)
    label = f" {word} " if count == 1 else f" {word} ×{count} "
    return Text(label, style=COLOUR_STYLES.get(colour, ""))


def cards_line(counts: dict[str, int] | None) -> Text:
    """Cards per colour as coloured labels; ``(none)`` for no card."""
    text = Text()
    for colour in COLOURS:
        n = (counts or {}).get(colour, 0)
        if n:
            text.append_text(card_text(colour, n))
            text.append(" ")
    return text if text.plain else Text(gettext("(none)"), style="dim")


def limit_card_line(card: dict[str, Any] | None) -> Text:
    """The limit card as five coloured fields (``X`` for no limit)."""
    if card is None:
        return Text(gettext("(none: the game is over)"), style="dim")
    text = Text()
    for colour in COLOURS:
        text.append(f" {gettext(colour)} {card[colour]} ", style=COLOUR_STYLES[colour])
        text.append(" ")
    return text


def limit_card_compact(code: str) -> Text:
    """A limit card's code (``"510X4"``: one value per colour, ``X`` no limit) as five small
    fields in the colours' styles, for tables."""
    text = Text()
    for colour, value in zip(COLOURS, code, strict=False):
        text.append(f" {value} ", style=COLOUR_STYLES[colour])
    return text


def render(
    console: Console,
    state: State,
    seat: int | None,
    show_pile: bool = False,
    names: Sequence[str] | None = None,
    history: bool = True,
) -> None:
    """Draw ``state`` as ``seat`` may see it (``None``: a spectator).

    Shows the round, the limit card, each seat's score, hand size, hidden
    cards (a count), last colour played and known cards, the pile (top card,
    or all of it with ``show_pile``), the draw pile, and ``seat``'s own hand
    and hidden cards. A finished game lists every round's outcome if
    ``history`` is set (the result itself is :func:`result_text`).
    """
    obs = state.observation(seat)
    who = seat_names(state, names)
    over = obs["phase"] == "over"
    if over:
        title = gettext("Limits: game over")
    elif obs["phase"] == "hide":
        title = gettext("Limits: round %(round)d, hide step") % {"round": obs["round"] + 1}
    else:
        title = gettext("Limits: round %(round)d, play step") % {"round": obs["round"] + 1}
    console.rule(title)
    line = Text(gettext("Limit card: "))
    line.append_text(limit_card_line(obs["limit_card"]))
    line.append(gettext("   limit pile: %(num)d left") % {"num": obs["limit_pile"]}, style="dim")
    console.print(line)
    table = Table(box=None, pad_edge=False, show_edge=False)
    for column in (
        "",
        gettext("seat"),
        gettext("score"),
        gettext("points"),
        gettext("limit cards"),
        gettext("hand"),
        gettext("hidden"),
        gettext("last played"),
        gettext("known cards"),
    ):
        table.add_column(column)
    for s in range(obs["players"]):
        marker = (
            ">" if obs["to_move"] == s else ("*" if obs["start_player"] == s and not over else "")
        )
        last = obs["last_played"][s]
        known = obs["known_cards"][s]
        table.add_row(
            marker,
            f"{s + 1} {who[s]}"
            + (" " + gettext("(you)") if seat == s and not is_you(who[s]) else ""),
            str(obs["scores"][s]),
            str(obs["points"][s]),
            str(len(obs["limit_cards_taken"][s])),
            str(obs["hand_sizes"][s]),
            str(obs["hidden_counts"][s]),
            card_text(last) if last else Text("-", style="dim"),
            cards_line(known) if any(known.values()) else Text(""),
        )
    console.print(table)
    if not over:
        console.print(Text(gettext("> to move, * started the round"), style="dim"))
    pile = obs["pile"]
    text = Text(
        ngettext("Pile: %(num)d card", "Pile: %(num)d cards", len(pile)) % {"num": len(pile)}
    )
    if pile and show_pile:
        text.append(": ")
        for s, colour in pile:
            text.append_text(card_text(colour))
            text.append(f"{who[s][:3]} ", style="dim")
    elif pile:
        text.append(gettext(", top "))
        text.append_text(card_text(pile[-1][1]))
        text.append(f" ({who[pile[-1][0]]})")
    console.print(text)
    known_top = []
    for colour in obs["draw_pile_known"]:
        if colour is None:
            break
        known_top.append(colour)
    draw = Text(gettext("Draw pile: %(num)d cards") % {"num": obs["draw_pile"]})
    if known_top:
        draw.append(gettext(", known on top: "))
        for colour in known_top[:KNOWN_SHOWN]:
            draw.append_text(card_text(colour))
            draw.append(" ")
        if len(known_top) > KNOWN_SHOWN:
            more = gettext("and %(num)d more known below") % {"num": len(known_top) - KNOWN_SHOWN}
            draw.append(more, style="dim")
    console.print(draw)
    if seat is not None:
        mine = Text(gettext("Your hand: "))
        mine.append_text(cards_line(obs["hand"]))
        if any(obs["hidden"].values()):
            mine.append(
                gettext("   your hidden card: ")
                if sum(obs["hidden"].values()) == 1
                else gettext("   your hidden cards: ")
            )
            mine.append_text(cards_line(obs["hidden"]))
        console.print(mine)
    if over:
        for summary in obs["rounds"] if history else []:
            console.print(round_sentence(summary, who), highlight=False)


def result_text(state: State, names: Sequence[str] | None = None) -> str:
    """The result in words: why the game ended, the winner(s) and every score
    (:func:`limitgames.cards.words.outcome_sentence`; ``You`` in ``names`` is told in the
    second person)."""
    who = seat_names(state, names)
    outcome = state.outcome()
    if outcome is None:
        return gettext("The game is not finished.")
    you = next((s for s, name in enumerate(who) if is_you(name)), None)
    return outcome_sentence(outcome, who, you)
