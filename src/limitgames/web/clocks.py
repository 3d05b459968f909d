"""The clocks of live games: their settings and their arithmetic.

**Clocks**, chosen when a game is created (``NewGame.clock``):

- ``none`` (the default): nobody's time is counted;
- ``move``: each turn may last ``seconds``;
- ``fischer``: each seat starts with ``minutes``; a turn's time is taken
  off, and ``increment`` seconds are added when the turn ends (Bobby
  Fischer's increment: ``left after = left before - used + increment``);
- ``days``: correspondence play, ``days`` for each turn (a clock per move
  counted in days); nobody is taken for away, the time of a turn counts
  while the server is down (wall time since the last decision, see
  ``ClockService.load``) and the seat to move gets an e-mail reminder
  (``correspondence.py``).

A *turn* is the decisions a seat takes in a row (hex: a move and its
removal; ``rules/hex.md``): the clock runs through them and the increment
is added once, when another seat is to move or the game ends. Clocks count
only for seats people play, and only once the table is complete (no open
seat, every invited person has opened the game): a computer's thinking (a
computer seat's, or a zombie's) is nobody's time. The server keeps the time
with ``time.monotonic``; the views carry each seat's seconds left at the
moment they are sent and the page counts down from there.

What is stored (``games.clock_state``): each seat's seconds left, with every
action (in the same transaction) and when a server shuts down (the time
used in the current turn included). A server that is killed gives the seat
to move back the time of its current turn; the time a server is down is
nobody's.

The zombie seats, and the service that keeps every game's clock running, are
in ``clock_service.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from limitgames.translation import gettext as _
from limitgames.web.messages import ClockChoice

ZOMBIE_TIME = "time"
ZOMBIE_LEFT = "left"

CLOCK_NONE = "none"
CLOCK_MOVE = "move"
CLOCK_FISCHER = "fischer"
CLOCK_DAYS = "days"
DAY_SECONDS = 86400.0


@dataclass(frozen=True)
class ClockSettings:
    """A game's clock, as chosen at creation.

    Attributes:
        kind: ``"none"``, ``"move"`` or ``"fischer"``.
        move_seconds: seconds for each turn (``move``).
        base_seconds: seconds each seat starts with (``fischer``).
        increment_seconds: seconds added after each turn (``fischer``).
        away_seconds: seconds a person may be away before the computer
            plays their seat; 0: never.
        forfeit: a seat whose time runs out loses the game at once (as a
            resignation, ``Termination.TIME_FORFEIT``) instead of the
            computer playing it on.
    """

    kind: str = CLOCK_NONE
    move_seconds: float | None = None
    base_seconds: float | None = None
    increment_seconds: float = 0.0
    away_seconds: float = 0.0
    forfeit: bool = False

    @classmethod
    def from_choice(cls, choice: ClockChoice, default_away: float) -> ClockSettings:
        """The settings of a lobby's :class:`~limitgames.web.messages.ClockChoice`.

        ``default_away`` (seconds) applies when the choice leaves ``away`` out.
        """
        away = default_away if choice.away is None else choice.away
        forfeit = bool(choice.forfeit)
        if choice.kind == CLOCK_DAYS:
            assert choice.days is not None  # checked by ClockChoice
            return cls(
                CLOCK_DAYS,
                move_seconds=choice.days * DAY_SECONDS,
                away_seconds=0.0,
                forfeit=forfeit,
            )
        if choice.kind == CLOCK_MOVE:
            return cls(CLOCK_MOVE, move_seconds=choice.seconds, away_seconds=away, forfeit=forfeit)
        if choice.kind == CLOCK_FISCHER:
            assert choice.minutes is not None  # checked by ClockChoice
            return cls(
                CLOCK_FISCHER,
                base_seconds=choice.minutes * 60,
                increment_seconds=choice.increment or 0.0,
                away_seconds=away,
                forfeit=forfeit,
            )
        return cls(CLOCK_NONE, away_seconds=away)

    def to_choice(self) -> ClockChoice:
        """The same clock as a lobby would ask for it (a rematch keeps its clock)."""
        if self.kind == CLOCK_DAYS:
            return ClockChoice(kind="days", days=self.days, away=0.0, forfeit=self.forfeit)
        if self.kind == CLOCK_MOVE:
            return ClockChoice(
                kind="move", seconds=self.move_seconds, away=self.away_seconds, forfeit=self.forfeit
            )
        if self.kind == CLOCK_FISCHER:
            assert self.base_seconds is not None
            return ClockChoice(
                kind="fischer",
                minutes=self.base_seconds / 60,
                increment=self.increment_seconds,
                away=self.away_seconds,
                forfeit=self.forfeit,
            )
        return ClockChoice(kind="none", away=self.away_seconds)

    def to_json(self) -> dict[str, Any]:
        """The settings as stored (``games.clock``) and shown (``view.clock``)."""
        return {
            "kind": self.kind,
            "seconds": self.move_seconds,
            "minutes": None if self.base_seconds is None else self.base_seconds / 60,
            "increment": self.increment_seconds if self.kind == CLOCK_FISCHER else None,
            "away": self.away_seconds,
            "forfeit": self.forfeit,
            **({"days": self.days} if self.kind == CLOCK_DAYS else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None, default_away: float) -> ClockSettings:
        """The stored settings; a game stored before clocks has none and ``default_away``."""
        if not data:
            return cls(CLOCK_NONE, away_seconds=default_away)
        minutes = data.get("minutes")
        return cls(
            str(data.get("kind", CLOCK_NONE)),
            move_seconds=data.get("seconds"),
            base_seconds=None if minutes is None else float(minutes) * 60,
            increment_seconds=float(data.get("increment") or 0.0),
            away_seconds=float(data.get("away") or 0.0),
            forfeit=bool(data.get("forfeit", False)),
        )

    @property
    def days(self) -> int | None:
        """Days per move of a correspondence clock (``None`` for the others)."""
        if self.kind != CLOCK_DAYS:
            return None
        return round((self.move_seconds or 0.0) / DAY_SECONDS)

    @property
    def per_move(self) -> bool:
        """Whether each turn starts with the full time (``move`` and ``days``)."""
        return self.kind in (CLOCK_MOVE, CLOCK_DAYS)

    @property
    def timed(self) -> bool:
        """Whether time is counted at all (a clock other than ``none``)."""
        return self.kind != CLOCK_NONE

    def turn_seconds(self) -> float:
        """A seat's time at the start: ``move_seconds`` or ``base_seconds``."""
        value = self.move_seconds if self.per_move else self.base_seconds
        return float(value or 0.0)


class GameClock:
    """The seconds left of each seat, and the seat whose clock runs since when.

    Every method takes ``now``, in seconds of ``time.monotonic`` (tests pass
    their own), so the arithmetic can be checked by hand.

    Args:
        settings: the game's clock (``move`` or ``fischer``).
        remaining: seconds left per seat, as of the start of the running turn.
    """

    def __init__(self, settings: ClockSettings, remaining: list[float]) -> None:
        self.settings = settings
        self.remaining = list(remaining)
        self.running: int | None = None
        self.since = 0.0

    @classmethod
    def fresh(cls, settings: ClockSettings, seats: int) -> GameClock:
        """Every seat with its full time, no clock running."""
        return cls(settings, [settings.turn_seconds()] * seats)

    def copy(self) -> GameClock:
        """An independent copy (changed, then kept only once stored)."""
        other = GameClock(self.settings, self.remaining)
        other.running, other.since = self.running, self.since
        return other

    def left(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (never below 0)."""
        value = self.remaining[seat]
        if self.running == seat:
            value -= now - self.since
        return max(0.0, value)

    def start(self, seat: int, now: float) -> None:
        """``seat``'s turn begins: a clock per move gets its full time again."""
        if self.settings.per_move:
            self.remaining[seat] = self.settings.turn_seconds()
        self.running, self.since = seat, now

    def resume(self, seat: int, now: float) -> None:
        """Run ``seat``'s clock from what it has left (a restarted server)."""
        self.running, self.since = seat, now

    def halt(self, now: float) -> None:
        """Stop the running clock, keeping what is left, with no increment."""
        if self.running is not None:
            self.remaining[self.running] = self.left(self.running, now)
            self.running = None

    def end_turn(self, now: float) -> None:
        """The running seat's turn ends: ``left - used + increment`` (Fischer) or full time (per move)."""
        seat = self.running
        if seat is None:
            return
        if self.settings.per_move:
            self.remaining[seat] = self.settings.turn_seconds()
        else:
            self.remaining[seat] = self.left(seat, now) + self.settings.increment_seconds
        self.running = None

    def deadline(self) -> float | None:
        """When the running clock reaches 0 (``time.monotonic`` seconds), or ``None``."""
        if self.running is None:
            return None
        return self.since + self.remaining[self.running]

    def snapshot(self, now: float) -> dict[str, Any]:
        """What is stored: ``{"remaining": [seconds left per seat at now]}``, to the millisecond."""
        return {"remaining": [round(self.left(s, now), 3) for s in range(len(self.remaining))]}


def clock_from_stored(
    settings: ClockSettings, state: dict[str, Any] | None, seats: int
) -> GameClock | None:
    """The clock of a game read back from the database (``None`` without a clock)."""
    if not settings.timed:
        return None
    clock = GameClock.fresh(settings, seats)
    stored = (state or {}).get("remaining")
    if isinstance(stored, list) and len(stored) == seats:
        clock.remaining = [max(0.0, float(v)) for v in stored]
    return clock


def after_decision(clock: GameClock, seat: int, next_seat: int | None, now: float) -> GameClock:
    """The clock after ``seat`` decided and ``next_seat`` is to move (``None``: the game ended).

    A copy: the caller keeps it once the decision is stored. The seat's turn
    ends (and its increment is added) only when another seat is to move.
    """
    after = clock.copy()
    if after.running == seat and next_seat != seat:
        after.end_turn(now)
    return after


def zombie_words(reason: str) -> str:
    """Why the computer plays a seat, in words (``time ran out``, ``left``)."""
    return _("time ran out") if reason == ZOMBIE_TIME else _("left")


__all__ = [
    "CLOCK_DAYS",
    "CLOCK_FISCHER",
    "CLOCK_MOVE",
    "CLOCK_NONE",
    "DAY_SECONDS",
    "ZOMBIE_LEFT",
    "ZOMBIE_TIME",
    "ClockSettings",
    "GameClock",
    "after_decision",
    "clock_from_stored",
    "zombie_words",
]
