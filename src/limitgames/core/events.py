"""What happened and why a game ended: typed events and the outcome of a finished game.

Every engine tells its story in :class:`Event` values (frozen dataclasses, one class per
kind of happening: hex ``Moved``, cards ``Hid``, world its log entries) and ends every
finished game with an :class:`Outcome` whose :class:`Termination` says why, as
python-chess's ``Outcome``/``Termination`` and scalachess's ``Status`` do. Surfaces
(terminal, browser, replays, the arena, the research adapters) tell the story only from
these, through one words module per game; none of them reads engine internals.

Secrecy is part of the event: :attr:`Event.audience` names the seats that may see it
(``None``: everyone, spectators included). An engine that must tell the public less than
one seat (cards: a hidden card) emits two events, the public one and the private one with
``audience={seat}``; :func:`visible` keeps what a viewer may see, so a surface cannot show
a secret by accident.

Standard library only (this is ``core``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Something that happened in a game. Subclasses add the facts, as plain JSON-ready values.

    Attributes:
        audience: the seats that may see this event, or ``None`` for everyone (spectators
            too). Keyword-only, so subclasses keep positional fields of their own.
    """

    audience: frozenset[int] | None = field(default=None, kw_only=True)

    @property
    def kind(self) -> str:
        """The event's kind: its class name (``"Moved"``), stable across versions."""
        return type(self).__name__

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``{"kind": ..., <fields>...}`` (the audience left out: it is for the
        server, not for the one who reads the event)."""
        data: dict[str, Any] = {"kind": self.kind}
        for name in self.__dataclass_fields__:
            if name != "audience":
                value = getattr(self, name)
                if isinstance(value, (frozenset, set, tuple)):
                    value = sorted(value) if isinstance(value, (frozenset, set)) else list(value)
                data[name] = value
        return data


def visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events of ``events`` that ``seat`` (``None``: a spectator) may see, in order."""
    return [e for e in events if e.visible_to(seat)]


@dataclass(frozen=True)
class ActionTaken(Event):
    """A decision told as its notation only: the default event of a game that has no
    events of its own (:meth:`limitgames.core.protocol.State.apply_with_events`).

    Attributes:
        seat: who decided.
        action: the decision in the game's notation.
    """

    seat: int
    action: str


class Termination(enum.Enum):
    """Why a game ended. The rule behind each is in the game's rules document."""

    # hex (docs/rules/hex.md, "End")
    LAST_WITH_PAWNS = "last_with_pawns"
    """hex: one player alone still has pawns (or balls, 2008) and wins."""
    TABLE_EMPTIED = "table_emptied"
    """hex: a turn left no pawn on the table."""
    STALEMATE = "stalemate"
    """hex: as many turns in a row without a removal as players holding pawns: a draw."""
    ELIMINATED_TOGETHER = "eliminated_together"
    """hex 2008: the last players were eliminated together: a draw among them."""
    # cards (docs/rules/cards.md, "End")
    LIMIT_CARDS_TAKEN = "limit_cards_taken"
    """cards: the last limit card has been taken; the scores decide."""
    # world (docs/rules/world.md, "The game ends")
    SEVENTH_GENERATION = "seventh_generation"
    """world: the 7th generation ended; stress test and scoring."""
    FOURTH_CRISIS = "fourth_crisis"
    """world: the 4th crisis tile was placed; stress test and scoring."""
    SCORED_EARLY = "scored_early"
    """world: a position was stress tested and scored where it stood, before the 7th
    generation or the 4th crisis (the score calculator, ``limit score world``)."""
    # any game, decided at the table rather than by the rules engine
    RESIGNATION = "resignation"
    """A player resigned (:attr:`Outcome.by`)."""
    AGREED_DRAW = "agreed_draw"
    """The players agreed to a draw."""
    TIME_FORFEIT = "time_forfeit"
    """A player's clock ran out (:attr:`Outcome.by`)."""
    ABANDONMENT = "abandonment"
    """A player left the game (:attr:`Outcome.by`)."""

    @property
    def decided_by_rules(self) -> bool:
        """Whether the rules engine ended the game (not a resignation, draw, clock or leaving)."""
        return self not in _TABLE_ENDINGS


_TABLE_ENDINGS = frozenset(
    {
        Termination.RESIGNATION,
        Termination.AGREED_DRAW,
        Termination.TIME_FORFEIT,
        Termination.ABANDONMENT,
    }
)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: why, who won, and the final returns.

    Attributes:
        termination: why it ended.
        returns: one number per seat, as ``State.returns()`` (win/draw/loss, or scores
            turned into returns by the game).
        winners: the seats that won or share the win, in seat order; every seat still in
            the game for a draw among all of them; ``()`` if nobody won.
        by: the seat the ending is about (who resigned, ran out of time, left, or whose
            turn emptied the table), or ``None``.
        scores: final scores per seat where the game counts points (cards, world), else
            ``None``.
        details: further facts for the words module (JSON-ready), e.g. the generation.
    """

    termination: Termination
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    by: int | None = None
    scores: tuple[float, ...] | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        """Whether every seat shares the result (nobody did better than anyone else)."""
        return len(set(self.returns)) <= 1

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, for records, the arena's summary and the research adapters."""
        data: dict[str, Any] = {
            "termination": self.termination.value,
            "returns": list(self.returns),
            "winners": list(self.winners),
            "by": self.by,
        }
        if self.scores is not None:
            data["scores"] = list(self.scores)
        if self.details:
            data["details"] = dict(self.details)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """Read :meth:`to_json`'s form. Raises ValueError naming the bad field."""
        try:
            termination = Termination(data["termination"])
        except (KeyError, ValueError):
            raise ValueError(f"outcome: unknown termination {data.get('termination')!r}") from None
        scores = data.get("scores")
        return cls(
            termination=termination,
            returns=tuple(float(r) for r in data.get("returns", ())),
            winners=tuple(int(w) for w in data.get("winners", ())),
            by=None if data.get("by") is None else int(data["by"]),
            scores=None if scores is None else tuple(float(s) for s in scores),
            details=dict(data.get("details") or {}),
        )

    @classmethod
    def at_table(
        cls, termination: Termination, returns: Iterable[float], by: int | None = None
    ) -> Outcome:
        """An ending decided at the table (resignation, agreed draw, time-out, abandonment):
        the winners are the seats with the best return."""
        values = tuple(float(r) for r in returns)
        best = max(values) if values else 0.0
        winners = tuple(i for i, r in enumerate(values) if r == best)
        return cls(termination=termination, returns=values, winners=winners, by=by)
