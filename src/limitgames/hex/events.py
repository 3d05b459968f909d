"""What happens in a game of Browne's Limit, as typed events (:mod:`limitgames.core.events`).

:meth:`limitgames.hex.state.HexState.apply_with_events` returns these, in the order the
rules make them happen (``docs/rules/hex.md``): the decision itself (:class:`Moved`,
:class:`Removed`, 2008 :class:`TilePlaced` and :class:`BallPlaced`), the pawns it
captured (:class:`Captured`, enemies before the mover's own), players left without pawns
or eliminated (:class:`Eliminated`), then what the rules did without a decision until the
next one (:class:`StepSkipped`, :class:`TurnPassed`, 2008 :class:`NoBall`,
:class:`PlacementPassed`, :class:`MovementBegins`) and the stalemate count
(:class:`QuietTurns`). Why the game ended is the state's :meth:`outcome`, not an event.
The functions at the end read both from the kernel's own results (its state vectors before
and after a step); the state calls them.

Facts only, as JSON-ready values: seats (``0``-based), tiles named in the game's notation
(``"c4"``, the state's frame), counts. Browne's Limit has no secrets, so every event is
public (``audience`` ``None``). Sentences are :mod:`limitgames.hex.words`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from limitgames.core.events import Event, Outcome, Termination
from limitgames.hex import kernel
from limitgames.hex.bitboard import Masks

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
    "capture_events",
    "last_move_and_removal",
    "outcome_of",
    "placement_events",
    "settled_events",
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


# --- reading the kernel's results (for HexState.apply_with_events and HexState.outcome) ------
Vector = Masks
"""A kernel state vector (``uint64[kernel.STATE_SIZE]``)."""


def capture_events(
    seat: int,
    seat_of: Sequence[int],
    before: Vector,
    after: Vector,
    names_of: Callable[[int], tuple[str, ...]],
) -> list[Event]:
    """What a move or removal of ``seat`` captured, read from the kernel's result slot
    (``S_CAPTURED`` of ``after``) and the owners in ``before``: one :class:`Captured` per
    owner (enemies in seat order, then the mover's own), then :class:`Eliminated` for each
    seat left without pawns. ``seat_of[k]`` is kernel player ``k``'s seat; ``names_of``
    names the tiles of a mask."""
    dead = int(after[kernel.S_CAPTURED])
    if not dead:
        return []
    taken = {
        owner: int(before[kernel.S_PAWNS + player]) & dead for player, owner in enumerate(seat_of)
    }
    events: list[Event] = [
        Captured(seat, owner, names_of(taken[owner]))
        for owner in sorted(taken, key=lambda o: (o == seat, o))
        if taken[owner]
    ]
    for player, owner in enumerate(seat_of):
        if int(before[kernel.S_PAWNS + player]) and not int(after[kernel.S_PAWNS + player]):
            events.append(Eliminated(owner, "no_pieces"))
    return events


def settled_events(
    middle: Vector, after: Vector, seat_of: Sequence[int], edition: str
) -> list[Event]:
    """What :func:`kernel.settle` did between ``middle`` (the vector just after the move or
    removal) and ``after`` (the next decision or the end): a remove step skipped, whole turns
    passed (nestorgames) or players eliminated at the start of their turn (2008), a move step
    skipped, and the count of turns without a removal (``rules/hex.md``, "Must, if possible",
    End). Turns that ended are counted by the quiet-turn slot, which only grows here."""
    if int(middle[kernel.S_STEP]) == kernel.OVER_STEP:
        return []
    players = len(seat_of)
    over = int(after[kernel.S_STEP]) == kernel.OVER_STEP
    player = int(middle[kernel.S_TO_MOVE])
    events: list[Event] = []
    turns_ended = 0
    if int(middle[kernel.S_STEP]) == kernel.REMOVE_STEP:
        if not over and int(after[kernel.S_TURN]) == int(middle[kernel.S_TURN]):
            return []  # the mover's removal step is the next decision
        events.append(StepSkipped(seat_of[player], "remove"))
        turns_ended = 1
        player = (player + 1) % players
    if edition == "2008":
        # a player who cannot move then remove is eliminated: its balls leave the table
        for i in range(players):
            k = (player + i) % players
            had = int(middle[kernel.S_PAWNS + k])
            if had and not int(after[kernel.S_PAWNS + k]):
                events.append(Eliminated(seat_of[k], "blocked", had.bit_count()))
        return events
    passed = int(after[kernel.S_QUIET]) - int(middle[kernel.S_QUIET]) - turns_ended
    while passed > 0:
        if int(middle[kernel.S_PAWNS + player]):  # seats without pawns take no turn
            events.append(TurnPassed(seat_of[player]))
            passed -= 1
        player = (player + 1) % players
    if not over and int(after[kernel.S_STEP]) == kernel.REMOVE_STEP:
        events.append(StepSkipped(seat_of[int(after[kernel.S_TO_MOVE])], "move"))
    quiet = int(after[kernel.S_QUIET])
    if not over and quiet > int(middle[kernel.S_QUIET]):
        holding = sum(1 for k in range(players) if int(after[kernel.S_PAWNS + k]))
        events.append(QuietTurns(quiet, holding))
    return events


def placement_events(
    seat: int,
    step: str,
    balls: Mapping[Any, int],
    after: Any,
    first: int | None,
) -> list[Event]:
    """What followed a 2008 placement decision of ``seat`` at ``step`` (``tile``,
    ``second-tile``, ``ball``, ``ball-any``): a turn ended without a ball (:class:`NoBall`),
    the players who could place nothing (:class:`PlacementPassed`), and when the phase ended
    (``first``: the seat that moves first) :class:`MovementBegins` and the players eliminated
    at once because they could not move then remove. ``balls``: cell -> owner on the table
    after the decision; ``after``: the state after it (a ``HexState``)."""
    events: list[Event] = []
    placing = after.placement is not None
    players = after.num_players
    nxt = after.current_player()
    ball_next = placing and nxt == seat and after.step == "ball"
    if step == "second-tile" and not ball_next:
        events.append(NoBall(seat))
    if placing and step in ("second-tile", "ball", "ball-any") and not ball_next:
        k = (seat + 1) % players
        while k not in (nxt, seat):
            events.append(PlacementPassed(k))
            k = (k + 1) % players
    if first is not None:
        events.append(MovementBegins(first))
        counts = after.pawn_counts()
        for i in range(players):
            k = (first + i) % players
            had = sum(1 for owner in balls.values() if owner == k)
            if had and not counts[k]:
                events.append(Eliminated(k, "blocked", had))
    return events


def outcome_of(
    returns: Sequence[float], counts: Sequence[int], edition: str, quiet: int, turn: int, by: int
) -> Outcome:
    """The outcome of a finished game (``rules/hex.md``, End) from its returns, the pawns
    (balls) each seat still has, the edition, the quiet turns, the turn it ended in and
    ``by``, the seat whose turn it was:

    - ``LAST_WITH_PAWNS``: one player alone still has pawns (2008: balls) and wins;
    - ``TABLE_EMPTIED`` (nestorgames): a turn left no pawn on the table; ``by`` took it;
    - ``STALEMATE`` (nestorgames): as many turns in a row without a removal as players
      holding pawns, a draw among them (``details["quiet_turns"]``);
    - ``ELIMINATED_TOGETHER`` (2008): the last players were eliminated together, a draw.

    ``winners`` are the seats with return 1, or, in a draw, those sharing it (return 0).
    """
    won = tuple(seat for seat, r in enumerate(returns) if r > 0)
    drawn = tuple(seat for seat, r in enumerate(returns) if r == 0)
    details: dict[str, Any] = {"turn": turn}
    ending_by: int | None = None
    if not any(counts):
        if edition == "2008":
            termination = Termination.ELIMINATED_TOGETHER
        else:
            termination = Termination.TABLE_EMPTIED
            ending_by = by
    elif won:
        termination = Termination.LAST_WITH_PAWNS
    else:
        termination = Termination.STALEMATE
        details["quiet_turns"] = quiet
    return Outcome(termination, tuple(returns), won or drawn, by=ending_by, details=details)


def last_move_and_removal(history: Sequence[Any]) -> tuple[tuple[int, int] | None, int | None]:
    """The game's latest move, as its ``(from, to)`` tiles, and its latest removed tile, read
    back through ``history`` (the actions of :meth:`HexState.history`) as far as the turn
    of move then removal goes (``rules/hex.md``, "A turn"): the board marks these. ``None``
    for one not made yet (or made before a placement action, which stops the reading).
    The one reading of the history that the terminal and the browser both draw from."""
    from limitgames.hex.codec import Kind, kind_of, move_tiles, removal_tile

    moved: tuple[int, int] | None = None
    removed: int | None = None
    for action in reversed(history):
        kind = kind_of(action)
        if kind == Kind.MOVE and moved is None:
            start, end = move_tiles(action)
            moved = (int(start), int(end))
        elif kind == Kind.REMOVE and removed is None:
            removed = int(removal_tile(action))
        if (moved is not None and removed is not None) or kind not in (Kind.MOVE, Kind.REMOVE):
            break
    return moved, removed
