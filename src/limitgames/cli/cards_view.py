"""Drawing Limits (``cards``) in the terminal with Rich, and telling what happened in words.

Everything here reads the engine's observation (or a finished round's public
summary) and never decides a rule. The pile is shown as its top card only,
as the physical game forbids looking through it, unless ``show_pile`` is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from limitgames.cards.material import COLOURS, limit_card_from_code, limit_card_text
from limitgames.cards.notation import EXCHANGE, PASS, PLAY, SUSPECT
from limitgames.cli.session import is_you, phrase
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
            who[s] + (" " + gettext("(you)") if seat == s and not is_you(who[s]) else ""),
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
            heading = gettext("Round %(round)d (limit card %(card)s): ") % {
                "round": summary["round"] + 1,
                "card": limit_card_words(summary["limit_card"]),
            }
            console.print(heading + explain_round(summary, who), highlight=False)


def describe_action(action: int, seat: int, names: Sequence[str], viewer: int | None = None) -> str:
    """What the table sees when ``seat`` takes ``action`` (a hide keeps its colour secret
    unless ``viewer`` is that seat)."""
    who = names[seat]
    if action < PLAY:
        if viewer == seat:
            return phrase(
                who,
                gettext("You hide a %(colour)s card"),
                gettext("%(player)s hides a %(colour)s card"),
                colour=gettext(COLOURS[action]),
            )
        return phrase(who, gettext("You hide a card"), gettext("%(player)s hides a card"))
    if action < EXCHANGE:
        return phrase(
            who,
            gettext("You play %(colour)s and draw a card"),
            gettext("%(player)s plays %(colour)s and draws a card"),
            colour=gettext(COLOURS[action - PLAY]),
        )
    if action < SUSPECT:
        return phrase(
            who,
            gettext(
                "You exchange four %(colour)s cards (+1 point): four new cards, two %(colour)s "
                "on the pile and two %(colour)s face down on top of the draw pile"
            ),
            gettext(
                "%(player)s exchanges four %(colour)s cards (+1 point): four new cards, two "
                "%(colour)s on the pile and two %(colour)s face down on top of the draw pile"
            ),
            colour=gettext(COLOURS[action - EXCHANGE]),
        )
    if action < PASS:
        return phrase(
            who,
            gettext("You suspect %(suspect)s"),
            gettext("%(player)s suspects %(suspect)s"),
            suspect=names[action - SUSPECT],
        )
    return phrase(
        who,
        gettext("You pass (no possible action)"),
        gettext("%(player)s passes (no possible action)"),
    )


def _colour(check: dict[str, Any]) -> str:
    """The suspected colour, in the session's language."""
    colour = str(check["colour"])
    return gettext(colour)


def explain_suspicion(check: dict[str, Any], names: Sequence[str]) -> str:
    """A suspicion's outcome in words, e.g. ``"green: 4 counted, limit 3 + 1 hidden = 4,
    not exceeded: Barbara scores +1, Daniel takes the limit card"``."""
    if check["limit"] is None:
        limit = gettext("limit X (no limit)")
    else:
        limit = gettext("limit %(card)s + %(hidden)s hidden = %(limit)s") % {
            "card": check["card_limit"],
            "hidden": check["hidden"],
            "limit": check["limit"],
        }
    verdict = gettext("exceeded") if check["exceeded"] else gettext("not exceeded")
    scores = phrase(
        names[check["scorer"]], gettext("You score +1"), gettext("%(player)s scores +1")
    )
    takes = phrase(
        names[check["taker"]],
        gettext("You take the limit card"),
        gettext("%(player)s takes the limit card"),
    )
    words = gettext("%(colour)s: %(num)s counted, %(limit)s, %(verdict)s: %(scores)s, %(takes)s")
    return words % {
        "colour": _colour(check),
        "num": check["counted"],
        "limit": limit,
        "verdict": verdict,
        "scores": scores,
        "takes": takes,
    }


def explain_round(summary: dict[str, Any], names: Sequence[str]) -> str:
    """How a finished round ended: who suspected whom and the check, in words."""
    check = summary["suspicion"]
    if check is None:
        return gettext("nobody could act; the limit card went under the limit pile")
    words = gettext("%(player)s suspected %(suspect)s (%(colour)s). ") % {
        "player": names[check["by"]],
        "suspect": names[check["suspect"]],
        "colour": _colour(check),
    }
    return words + explain_suspicion(check, names)


def reveal_text(summary: dict[str, Any], names: Sequence[str]) -> Text:
    """The hidden cards revealed at the end of a round, seat by seat."""
    text = Text(gettext("Hidden cards: "))
    for s, colours in enumerate(summary["revealed"]):
        text.append(f"{names[s]} ")
        for colour in colours:
            text.append_text(card_text(colour))
        text.append("  ")
    return text


def round_start_text(obs: dict[str, Any], names: Sequence[str]) -> Text:
    """The start of a round: its number, the revealed limit card, the start player."""
    text = Text(gettext("Round %(round)d: limit card ") % {"round": obs["round"] + 1})
    text.append_text(limit_card_line(obs["limit_card"]))
    starts = phrase(
        names[obs["start_player"]], gettext("You start."), gettext("%(player)s starts.")
    )
    text.append(f" {starts}")
    return text


def result_text(state: State, names: Sequence[str] | None = None) -> str:
    """The result in words: the winner(s) and every score."""
    who = seat_names(state, names)
    scores = state.observation(None)["scores"]
    best = max(scores)
    winners = [who[s] for s, x in enumerate(scores) if x == best]
    table = ", ".join(f"{who[s]} {x:+d}" for s, x in enumerate(scores))
    if len(winners) == 1:
        head = phrase(
            winners[0],
            gettext("You win with %(score)s"),
            gettext("%(player)s wins with %(score)s"),
            score=f"{best:+d}",
        )
    else:
        head = gettext("%(players)s share the win with %(score)s") % {
            "players": gettext("%(first)s and %(second)s")
            % {"first": ", ".join(winners[:-1]), "second": winners[-1]},
            "score": f"{best:+d}",
        }
    return gettext("%(result)s (scores: %(scores)s)") % {"result": head, "scores": table}


def limit_card_words(code: str) -> str:
    """A limit card code in words: ``"X0335"`` -> ``"red X, yellow 0, green 3, blue 3, purple 5"``."""
    return limit_card_text(limit_card_from_code(code))
