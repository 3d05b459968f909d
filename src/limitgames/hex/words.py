"""Browne's Limit in words: what happened (events) and why the game ended (outcome).

The one narrator of the game: the terminal (:mod:`limitgames.cli.hex_view`), the browser
(:mod:`limitgames.web.hex_narration`), replays and the arena turn the engine's events
(:mod:`limitgames.hex.events`) and :class:`~limitgames.core.events.Outcome` into sentences
here, in the current language (:mod:`limitgames.translation`; catalogues in
``limitgames/locale``). The rules told are ``docs/rules/hex.md`` (Move, Remove, "Must, if
possible", End, Edition "2008").

Every function takes the seats' ``names`` as people read them (colours or people's names,
already translated) and ``you``: the seat of the one person at the screen, told in the
second person (``"You moved from b1 to c1."``), or ``None``. Each sentence is written whole
for the second and the third person, so that every language conjugates its own verbs;
pawns and the 2008 edition's balls have sentences of their own for the same reason
(grammatical gender). Tiles are named as the events name them (the game's notation) unless
``tile_name`` renames them (the terminal's frame for the 2008 edition).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from limitgames.core.events import Event, Outcome, Termination
from limitgames.core.outcome import ending_at_table, listing
from limitgames.hex.events import (
    BallPlaced,
    Captured,
    Eliminated,
    Moved,
    MovementBegins,
    NoBall,
    PlacementPassed,
    QuietTurns,
    Removed,
    StepSkipped,
    TilePlaced,
    TurnPassed,
)
from limitgames.translation import elide, gettext, ngettext

__all__ = ["end_reason", "event_sentences", "result_for"]

TileName = Callable[[str], str]
"""A tile's name in the notation -> the name shown (the identity by default)."""


def _sentence(text: str) -> str:
    """``text`` with its first letter in capitals (names begin sentences)."""
    return text[:1].upper() + text[1:]


class _Teller:
    """Sentences for one list of events: the names, the reader and the edition's pieces."""

    def __init__(
        self, names: Sequence[str], edition: str, you: int | None, tile_name: TileName | None
    ) -> None:
        self.names = list(names)
        self.balls = edition == "2008"
        self.you = you
        self.tile = tile_name or (lambda name: name)

    def say(self, seat: int, second: str, third: str, **values: Any) -> str:
        """``second`` (already translated) when ``seat`` is the reader, else ``third`` with
        ``%(player)s`` for the seat's name; the first letter in capitals."""
        words = second if seat == self.you else third
        return _sentence(elide(words % {"player": self.names[seat], **values}, self.names))

    def tiles(self, names: Iterable[str]) -> str:
        return listing([self.tile(n) for n in names])

    def tell(self, event: Event) -> list[str]:
        """The sentences of one event (``[]`` for an event this game does not make)."""
        if isinstance(event, Moved):
            values = {"start": self.tile(event.start), "end": self.tile(event.end)}
            return [
                self.say(
                    event.seat,
                    gettext("You moved from %(start)s to %(end)s."),
                    gettext("%(player)s moved from %(start)s to %(end)s."),
                    **values,
                )
            ]
        if isinstance(event, Removed):
            return self.removed(event)
        if isinstance(event, Captured):
            return [self.captured(event)]
        if isinstance(event, Eliminated):
            return [self.eliminated(event)]
        if isinstance(event, StepSkipped):
            return [self.skipped(event)]
        if isinstance(event, TurnPassed):
            return [
                self.say(
                    event.seat,
                    gettext("You can neither move nor remove: your turn is skipped."),
                    gettext(
                        "%(player)s can neither move nor remove: %(player)s's turn is skipped."
                    ),
                )
            ]
        if isinstance(event, QuietTurns):
            words = ngettext(
                "%(num)d turn in a row without a removal: the game is drawn when this "
                "reaches %(alive)d, the number of players with pawns.",
                "%(num)d turns in a row without a removal: the game is drawn when this "
                "reaches %(alive)d, the number of players with pawns.",
                event.count,
            )
            return [words % {"num": event.count, "alive": event.limit}]
        return self.placement(event)

    def removed(self, event: Removed) -> list[str]:
        cell = self.tile(event.tile)
        out = [
            self.say(
                event.seat,
                gettext("You removed the tile %(cell)s."),
                gettext("%(player)s removed the tile %(cell)s."),
                cell=cell,
            )
        ]
        if event.cut_off:
            count = len(event.cut_off)
            words = ngettext(
                "Removing %(cell)s cut off %(num)d empty tile, which left the table with it: "
                "%(cells)s.",
                "Removing %(cell)s cut off %(num)d empty tiles, which left the table with it: "
                "%(cells)s.",
                count,
            )
            out.append(words % {"cell": cell, "num": count, "cells": self.tiles(event.cut_off)})
        return out

    def captured(self, event: Captured) -> str:
        count = len(event.tiles)
        values = {
            "player": self.names[event.seat],
            "owner": self.names[event.owner],
            "num": count,
            "cells": self.tiles(event.tiles),
        }
        if event.own:
            if event.seat == self.you:
                words = (
                    ngettext(
                        "You lost %(num)d own ball on %(cells)s: "
                        "self-capture, the group had no empty tile next to it.",
                        "You lost %(num)d own balls on %(cells)s: "
                        "self-capture, the group had no empty tile next to it.",
                        count,
                    )
                    if self.balls
                    else ngettext(
                        "You lost %(num)d own pawn on %(cells)s: "
                        "self-capture, the group had no empty tile next to it.",
                        "You lost %(num)d own pawns on %(cells)s: "
                        "self-capture, the group had no empty tile next to it.",
                        count,
                    )
                )
            elif self.balls:
                words = ngettext(
                    "%(player)s lost %(num)d own ball on %(cells)s: "
                    "self-capture, the group had no empty tile next to it.",
                    "%(player)s lost %(num)d own balls on %(cells)s: "
                    "self-capture, the group had no empty tile next to it.",
                    count,
                )
            else:
                words = ngettext(
                    "%(player)s lost %(num)d own pawn on %(cells)s: "
                    "self-capture, the group had no empty tile next to it.",
                    "%(player)s lost %(num)d own pawns on %(cells)s: "
                    "self-capture, the group had no empty tile next to it.",
                    count,
                )
        elif event.seat == self.you:
            words = (
                ngettext(
                    "You captured %(owner)s's ball on %(cells)s.",
                    "You captured %(num)d of %(owner)s's balls on %(cells)s.",
                    count,
                )
                if self.balls
                else ngettext(
                    "You captured %(owner)s's pawn on %(cells)s.",
                    "You captured %(num)d of %(owner)s's pawns on %(cells)s.",
                    count,
                )
            )
        elif event.owner == self.you:
            words = (
                ngettext(
                    "%(player)s captured your ball on %(cells)s.",
                    "%(player)s captured %(num)d of your balls on %(cells)s.",
                    count,
                )
                if self.balls
                else ngettext(
                    "%(player)s captured your pawn on %(cells)s.",
                    "%(player)s captured %(num)d of your pawns on %(cells)s.",
                    count,
                )
            )
        elif self.balls:
            words = ngettext(
                "%(player)s captured %(owner)s's ball on %(cells)s.",
                "%(player)s captured %(num)d of %(owner)s's balls on %(cells)s.",
                count,
            )
        else:
            words = ngettext(
                "%(player)s captured %(owner)s's pawn on %(cells)s.",
                "%(player)s captured %(num)d of %(owner)s's pawns on %(cells)s.",
                count,
            )
        return _sentence(words % values)

    def eliminated(self, event: Eliminated) -> str:
        if event.cause == "blocked":
            num = event.pieces
            second = ngettext(
                "You cannot move and then remove a tile: you are eliminated and your %(num)d "
                "ball leaves the table.",
                "You cannot move and then remove a tile: you are eliminated and your %(num)d "
                "balls leave the table.",
                num,
            )
            third = ngettext(
                "%(player)s cannot move and then remove a tile: %(player)s is eliminated "
                "and %(player)s's %(num)d ball leaves the table.",
                "%(player)s cannot move and then remove a tile: %(player)s is eliminated "
                "and %(player)s's %(num)d balls leave the table.",
                num,
            )
            return self.say(event.seat, second, third, num=num)
        if self.balls:
            return self.say(
                event.seat,
                gettext("You have no balls left and are eliminated."),
                gettext("%(player)s has no balls left and is eliminated."),
            )
        return self.say(
            event.seat,
            gettext("You have no pawns left and are out."),
            gettext("%(player)s has no pawns left and is out."),
        )

    def skipped(self, event: StepSkipped) -> str:
        if event.step == "remove":
            return self.say(
                event.seat,
                gettext("You can remove no tile: your remove step is skipped."),
                gettext("%(player)s can remove no tile: the remove step is skipped."),
            )
        return self.say(
            event.seat,
            gettext("You can make no move: your move step is skipped."),
            gettext("%(player)s can make no move: the move step is skipped."),
        )

    def placement(self, event: Event) -> list[str]:
        """The 2008 placement phase's events."""
        if isinstance(event, TilePlaced):
            return [
                self.say(
                    event.seat,
                    gettext("You placed a tile on %(cell)s."),
                    gettext("%(player)s placed a tile on %(cell)s."),
                    cell=self.tile(event.tile),
                )
            ]
        if isinstance(event, BallPlaced):
            return [
                self.say(
                    event.seat,
                    gettext("You put a ball on %(cell)s."),
                    gettext("%(player)s put a ball on %(cell)s."),
                    cell=self.tile(event.tile),
                )
            ]
        if isinstance(event, NoBall):
            return [
                self.say(
                    event.seat,
                    gettext(
                        "No ball of yours can go on either new tile: the turn ends without a ball."
                    ),
                    gettext(
                        "No ball of %(player)s's can go on either new tile: the turn ends "
                        "without a ball."
                    ),
                )
            ]
        if isinstance(event, PlacementPassed):
            return [
                self.say(
                    event.seat,
                    gettext("You cannot place anything and pass."),
                    gettext("%(player)s cannot place anything and passes."),
                )
            ]
        if isinstance(event, MovementBegins):
            return [
                self.say(
                    event.seat,
                    gettext("The placement is over: you move first."),
                    gettext("The placement is over: %(player)s moves first."),
                )
            ]
        return []


def event_sentences(
    events: Iterable[Event],
    names: Sequence[str],
    *,
    edition: str = "nestorgames",
    you: int | None = None,
    tile_name: TileName | None = None,
) -> list[str]:
    """The sentences telling ``events`` (from :meth:`HexState.apply_with_events`), in order,
    in the current language.

    Args:
        events: hex events (others are passed over).
        names: each seat's name as people read it.
        edition: ``"nestorgames"`` (pawns) or ``"2008"`` (balls).
        you: the seat told in the second person, or ``None``.
        tile_name: renames the tiles named in the events (default: as they are).

    Returns:
        One sentence per event; a removal that cut off empty tiles gets a second one.
    """
    teller = _Teller(names, edition, you, tile_name)
    return [elide(sentence, names) for event in events for sentence in teller.tell(event)]


def end_reason(
    outcome: Outcome, names: Sequence[str], *, edition: str = "nestorgames", you: int | None = None
) -> str:
    """Why the game ended, in one sentence (``rules/hex.md``, End; Edition "2008"), or the
    ending decided at the table (resignation, agreed draw, time-out, leaving;
    :func:`limitgames.core.outcome.ending_at_table`)."""
    return elide(_end_reason(outcome, names, edition=edition, you=you), names)


def _end_reason(
    outcome: Outcome, names: Sequence[str], *, edition: str = "nestorgames", you: int | None = None
) -> str:
    termination = outcome.termination
    if not termination.decided_by_rules:
        return ending_at_table(outcome, names, you)
    teller = _Teller(names, edition, you, None)
    winners = list(outcome.winners)
    if termination is Termination.LAST_WITH_PAWNS:
        if edition == "2008":
            return teller.say(
                winners[0],
                gettext(
                    "You are the last player left: every other player was eliminated (no balls "
                    "left, or no move followed by a removal)."
                ),
                gettext(
                    "%(player)s is the last player left: every other player "
                    "was eliminated (no balls left, or no move followed by a removal)."
                ),
            )
        return teller.say(
            winners[0],
            gettext("You are the only player with pawns left and win."),
            gettext("%(player)s is the only player with pawns left and wins."),
        )
    together = listing([names[seat] for seat in winners])
    if termination is Termination.ELIMINATED_TOGETHER:
        words = gettext(
            "The last players, %(players)s, were eliminated together: a draw between them."
        )
        return words % {"players": together}
    if termination is Termination.TABLE_EMPTIED:
        mover = outcome.by if outcome.by is not None else -1
        if outcome.is_draw:
            return gettext(
                "No pawn is left on the table after a turn that all three players began "
                "with pawns: a draw."
            )
        if not winners or winners == [mover] or len(names) == 2:
            return teller.say(
                mover,
                gettext("No pawn is left on the table: you took the last turn and lose."),
                gettext("No pawn is left on the table: %(player)s, who took the last turn, loses."),
            )
        if winners == [you]:
            words = gettext(
                "No pawn is left on the table: %(player)s, who took the last turn, loses, "
                "and you win."
            )
            return words % {"player": names[mover]}
        return teller.say(
            mover,
            gettext(
                "No pawn is left on the table: you took the last turn and lose, and "
                "%(winners)s wins."
            ),
            gettext(
                "No pawn is left on the table: %(player)s, who took the last turn, loses, "
                "and %(winners)s wins."
            ),
            winners=together,
        )
    quiet = int(outcome.details.get("quiet_turns", len(winners)))
    words = ngettext(
        "%(num)d turn in a row without a removal, as many as players still holding pawns: "
        "a draw between %(players)s.",
        "%(num)d turns in a row without a removal, as many as players still holding pawns: "
        "a draw between %(players)s.",
        quiet,
    )
    return words % {"num": quiet, "players": together}


def result_for(
    outcome: Outcome, names: Sequence[str], seat: int | None = None, *, you: int | None = None
) -> str:
    """The result for ``seat`` (``"You won."`` when ``seat`` is ``you``, else ``"Red won."``),
    or for everybody when ``seat`` is ``None`` (``"Red wins."``, ``"A draw between red and
    blue."``), from the outcome's returns."""
    returns = outcome.returns
    if seat is None:
        won = [names[s] for s, r in enumerate(returns) if r > 0]
        drawn = [names[s] for s, r in enumerate(returns) if r == 0]
        if won:
            words = gettext("%(players)s win.") if len(won) > 1 else gettext("%(players)s wins.")
            return _sentence(words % {"players": listing(won)})
        if drawn:
            return gettext("A draw between %(players)s.") % {"players": listing(drawn)}
        return gettext("Everybody loses.")
    teller = _Teller(names, "", you, None)
    result = returns[seat]
    if result > 0:
        return teller.say(seat, gettext("You won."), gettext("%(player)s won."))
    if result < 0:
        return teller.say(seat, gettext("You lost."), gettext("%(player)s lost."))
    others = listing([names[s] for s, r in enumerate(returns) if r == 0 and s != seat])
    return teller.say(
        seat,
        gettext("Draw: You shared the result with %(players)s."),
        gettext("Draw: %(player)s shared the result with %(players)s."),
        players=others,
    )
