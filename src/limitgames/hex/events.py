"""What happens in a game of Browne's Limit, as typed events (:mod:`limitgames.core.events`).

:meth:`limitgames.hex.state.HexState.apply_with_events` returns these, in the order the
rules make them happen (``docs/rules/hex.md``): the decision itself (:class:`Moved`,
:class:`Removed`, 2008 :class:`TilePlaced` and :class:`BallPlaced`), the pawns it
captured (:class:`Captured`, enemies before the mover's own), players left without pawns
or eliminated (:class:`Eliminated`), then what the rules did without a decision until the
next one (:class:`StepSkipped`, :class:`TurnPassed`, 2008 :class:`NoBall`,
:class:`PlacementPassed`, :class:`MovementBegins`) and the stalemate count
(:class:`QuietTurns`). Why the game ended is the state's :meth:`outcome`, not an event.

Facts only, as JSON-ready values: seats (``0``-based), tiles named in the game's notation
(``"c4"``, the state's frame), counts. Browne's Limit has no secrets, so every event is
public (``audience`` ``None``). Sentences are :mod:`limitgames.hex.words`.
"""

from __future__ import annotations

from dataclasses import dataclass

from limitgames.core.events import Event

__all__ = [
    "BallPlaced",
    "Captured",
    "Eliminated",
    "Moved",
    "MovementBegins",
    "NoBall",
    "PlacementPassed",
    "QuietTurns",
    "Removed",
    "StepSkipped",
    "TilePlaced",
    "TurnPassed",
]


@dataclass(frozen=True)
class Moved(Event):
    """``seat`` moved its pawn (ball) from tile ``start`` to the empty tile ``end``
    (``rules/hex.md``, "A turn is two steps", 1. Move)."""

    seat: int
    start: str
    end: str


@dataclass(frozen=True)
class Removed(Event):
    """``seat`` removed the empty tile ``tile``; ``cut_off`` are the empty tiles that left the
    table with it, isolated from every pawn (``rules/hex.md``, 2. Remove), in notation order."""

    seat: int
    tile: str
    cut_off: tuple[str, ...] = ()


@dataclass(frozen=True)
class Captured(Event):
    """``seat``'s decision captured the pawns (balls) of ``owner`` on ``tiles``: groups left
    without freedom (``rules/hex.md``, Move and Remove). ``owner == seat`` is a self-capture
    (legal, after a removal)."""

    seat: int
    owner: int
    tiles: tuple[str, ...]

    @property
    def own(self) -> bool:
        """Whether this is a self-capture (the mover's own pawns)."""
        return self.owner == self.seat


@dataclass(frozen=True)
class Eliminated(Event):
    """``seat`` is out of the game (``rules/hex.md``, End; Edition "2008").

    Attributes:
        cause: ``"no_pieces"``: its last pawns (balls) were captured; ``"blocked"`` (2008
            only): it could not move and then remove a tile at the start of its turn, and its
            ``pieces`` balls left the table.
        pieces: the pawns (balls) that left the table with the elimination (0 for
            ``"no_pieces"``: they were told as :class:`Captured`).
    """

    seat: int
    cause: str
    pieces: int = 0


@dataclass(frozen=True)
class StepSkipped(Event):
    """``seat``'s ``step`` (``"move"`` or ``"remove"``) offered no legal choice and was
    skipped (``rules/hex.md``, "Must, if possible"); the rest of the turn goes on."""

    seat: int
    step: str


@dataclass(frozen=True)
class TurnPassed(Event):
    """``seat`` could neither move nor remove a tile: its whole turn passed (nestorgames;
    ``rules/hex.md``, "Must, if possible"). It counts as a turn without a removal."""

    seat: int


@dataclass(frozen=True)
class QuietTurns(Event):
    """``count`` turns in a row without a removal; the nestorgames game is drawn when the
    count reaches ``limit``, the number of players holding pawns (``rules/hex.md``, End,
    stalemate). Told after each such turn while the game goes on."""

    count: int
    limit: int


@dataclass(frozen=True)
class TilePlaced(Event):
    """2008 placement: ``seat`` placed a tile on the cell ``tile`` (``rules/hex.md``,
    Edition "2008")."""

    seat: int
    tile: str


@dataclass(frozen=True)
class BallPlaced(Event):
    """2008 placement: ``seat`` put one of its balls on the tile ``tile``."""

    seat: int
    tile: str


@dataclass(frozen=True)
class NoBall(Event):
    """2008 placement: no ball of ``seat`` may go on either tile it just placed, so its turn
    ends without a ball (``rules/hex.md``, Edition "2008", a [decision])."""

    seat: int


@dataclass(frozen=True)
class PlacementPassed(Event):
    """2008 placement: ``seat`` could place nothing and passed its placement turn."""

    seat: int


@dataclass(frozen=True)
class MovementBegins(Event):
    """2008: the placement phase is over; ``seat`` (the player after the one who placed last)
    moves first."""

    seat: int
