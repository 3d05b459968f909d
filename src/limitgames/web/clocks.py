"""Clocks and zombie seats of live games.

**Clocks**, chosen when a game is created (``NewGame.clock``):

- ``none`` (the default): nobody's time is counted;
- ``move``: each turn may last ``seconds``;
- ``fischer``: each seat starts with ``minutes``; a turn's time is taken
  off, and ``increment`` seconds are added when the turn ends (Bobby
  Fischer's increment: ``left after = left before - used + increment``).

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

**Zombie seats** (as on Board Game Arena): a person's seat whose clock runs
out (``"time"``), or whose person has had no connection to the game for the
game's ``away`` seconds while another person is connected (``"left"``),
is played by the computer at :data:`ZOMBIE_LEVEL`, with the bounded
computer pool (``web/computer.py``), and every view marks it. A person
takes their seat back [decision]:

- ``left``: by coming back (their page's ``hello`` with the seat's token);
- either: with ``{"type": "reclaim"}`` (the page's *Take my seat back*).
  After a time-out a Fischer clock gives back only the increment (the time
  was spent); with no increment the seat stays the computer's to the end.
  A clock per move gives each turn its full time anyway.

Where nobody else is connected nobody waits, so no seat becomes a zombie
for being away (the game simply waits).

Several server processes (``fanout.py``) each watch the games they hold:
the database decides which one makes a seat a zombie or gives it back
(``Store.set_zombie`` changes a seat only once, and only while the game
has the actions that process saw); that one announces it and plays the
zombie's moves, the others reload. Presence counts the connections to
every process (``live.present_elsewhere``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from limitgames.agents import make_agent
from limitgames.translation import gettext as _
from limitgames.web.computer import resolve_level
from limitgames.web.messages import ClockChoice
from limitgames.web.storage import SEAT_HUMAN

if TYPE_CHECKING:
    from limitgames.web.live import Connection, GameHub, LiveGame

log = logging.getLogger("limitgames.web")

ZOMBIE_LEVEL = "medium"
"""The computer level that plays a zombie seat (``agents/levels.py``): sensible, quick."""

ZOMBIE_TIME = "time"
ZOMBIE_LEFT = "left"

CLOCK_NONE = "none"
CLOCK_MOVE = "move"
CLOCK_FISCHER = "fischer"

WATCH_MAX_SLEEP = 30.0
"""The longest a game's watcher sleeps without looking (seconds); it is woken on every change."""


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
    """

    kind: str = CLOCK_NONE
    move_seconds: float | None = None
    base_seconds: float | None = None
    increment_seconds: float = 0.0
    away_seconds: float = 0.0

    @classmethod
    def from_choice(cls, choice: ClockChoice, default_away: float) -> ClockSettings:
        """The settings of a lobby's :class:`~limitgames.web.messages.ClockChoice`.

        ``default_away`` (seconds) applies when the choice leaves ``away`` out.
        """
        away = default_away if choice.away is None else choice.away
        if choice.kind == CLOCK_MOVE:
            return cls(CLOCK_MOVE, move_seconds=choice.seconds, away_seconds=away)
        if choice.kind == CLOCK_FISCHER:
            assert choice.minutes is not None  # checked by ClockChoice
            return cls(
                CLOCK_FISCHER,
                base_seconds=choice.minutes * 60,
                increment_seconds=choice.increment or 0.0,
                away_seconds=away,
            )
        return cls(CLOCK_NONE, away_seconds=away)

    def to_choice(self) -> ClockChoice:
        """The same clock as a lobby would ask for it (a rematch keeps its clock)."""
        if self.kind == CLOCK_MOVE:
            return ClockChoice(kind="move", seconds=self.move_seconds, away=self.away_seconds)
        if self.kind == CLOCK_FISCHER:
            assert self.base_seconds is not None
            return ClockChoice(
                kind="fischer",
                minutes=self.base_seconds / 60,
                increment=self.increment_seconds,
                away=self.away_seconds,
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
        )

    @property
    def timed(self) -> bool:
        """Whether time is counted at all (a clock other than ``none``)."""
        return self.kind != CLOCK_NONE

    def turn_seconds(self) -> float:
        """A seat's time at the start: ``move_seconds`` or ``base_seconds``."""
        value = self.move_seconds if self.kind == CLOCK_MOVE else self.base_seconds
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
        if self.settings.kind == CLOCK_MOVE:
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
        if self.settings.kind == CLOCK_MOVE:
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


class ClockService:
    """The clocks and zombie seats of one server's games (see the module docstring).

    Each game with a clock or a time away gets a watcher task that sleeps
    until the next time-out (a clock reaching 0, a person away for too
    long), woken early by every change.
    """

    def __init__(self, hub: GameHub, clock: Callable[[], float] = time.monotonic) -> None:
        self.hub = hub
        self.now = clock
        self._watchers: dict[str, asyncio.Task[None]] = {}
        self._specs: dict[str, str] = {}

    # --- settings ---------------------------------------------------------------
    def settings_for(self, choice: ClockChoice) -> ClockSettings:
        """The settings of a new game's clock (the server's ``zombie_after`` by default)."""
        return ClockSettings.from_choice(choice, self.hub.limits.zombie_after)

    def initial_state(self, settings: ClockSettings, seats: int) -> dict[str, Any] | None:
        """The clock state stored with a new game."""
        clock = clock_from_stored(settings, None, seats)
        return None if clock is None else clock.snapshot(0.0)

    def zombie_spec(self, game_id: str) -> str:
        """The agent spec of a zombie seat in ``game_id`` (:data:`ZOMBIE_LEVEL`)."""
        spec = self._specs.get(game_id)
        if spec is None:
            spec = self._specs[game_id] = resolve_level(game_id, ZOMBIE_LEVEL).spec
        return spec

    # --- life cycle -------------------------------------------------------------
    def load(self, live: LiveGame) -> None:
        """Set up a game just loaded: its clock resumes, its zombies get agents, its watcher starts."""
        stored = live.stored
        live.clock_settings = ClockSettings.from_json(stored.clock, self.hub.limits.zombie_after)
        live.clock = clock_from_stored(live.clock_settings, stored.clock_state, len(live.seats))
        now = self.now()
        for s in live.seats:
            if s.zombie is not None and s.seat not in live.agents:
                live.agents[s.seat] = make_agent(
                    self.zombie_spec(stored.game), seed=secrets.randbits(32)
                )
        if live.clock is not None:
            mover = self._mover(live)
            if mover is not None and mover in self.clocked_seats(live):
                live.clock.resume(mover, now)
        self.presence(live)
        watched = live.clock is not None or (
            live.clock_settings.away_seconds > 0
            and sum(1 for s in live.seats if not s.is_computer) > 1
        )
        if watched and not live.over:
            self._watchers[live.id] = asyncio.get_running_loop().create_task(self._watch(live))

    async def close(self) -> None:
        """Store every running clock (the time used in the current turn) and stop the watchers."""
        for task in self._watchers.values():
            task.cancel()
        self._watchers.clear()
        now = self.now()
        for live in list(self.hub.games.values()):
            if live.clock is None or live.clock.running is None or live.over:
                continue
            with contextlib.suppress(
                Exception
            ):  # a refusing database: the turn's time is given back
                await self.hub.db(self.hub.store.save_clock, live.id, live.clock.snapshot(now))

    def wake(self, live: LiveGame) -> None:
        """Tell the game's watcher something changed (it looks again at once)."""
        live.clock_changed.set()

    # --- who plays, who is here -------------------------------------------------
    @staticmethod
    def _mover(live: LiveGame) -> int | None:
        if live.over or live.error is not None:
            return None
        seat = live.state.current_player()
        return seat if 0 <= seat < len(live.seats) else None

    @staticmethod
    def clocked_seats(live: LiveGame) -> set[int]:
        """The seats whose clocks count now: people's seats (not zombies), once the table is complete."""
        if live.clock is None:
            return set()
        if any(s.is_open or (s.kind == SEAT_HUMAN and not s.joined) for s in live.seats):
            return set()
        return {s.seat for s in live.seats if s.kind == SEAT_HUMAN and s.zombie is None}

    def follow(self, live: LiveGame) -> None:
        """Make the running clock the one of the seat to move (no increment: see :func:`after_decision`).

        Called (the lock held) after anything that may change whose clock
        runs: a decision, a seat taken or opened, a zombie, a reclaim, the end.
        """
        clock = live.clock
        if clock is not None:
            now = self.now()
            mover = self._mover(live)
            target = mover if mover is not None and mover in self.clocked_seats(live) else None
            if clock.running != target:
                clock.halt(now)
                if target is not None:
                    clock.start(target, now)
        self.wake(live)

    def presence(self, live: LiveGame) -> None:
        """Note which people's seats have a connection now (the time away starts when none has).

        With several server processes, a connection to another process
        counts (``live.present_elsewhere``, kept by ``fanout.SharedGames``).
        """
        now = self.now()
        present: set[int] = set()
        for connection in live.connections:
            present |= connection.seats
        if self.hub.on_change is not None and live.present_shared != present:
            # several server processes: tell the others who is here (``fanout.py``)
            live.present_shared = frozenset(present)
            self.hub._changed(live, {"kind": "presence", "seats": sorted(present)})
        for seats, _heard in live.present_elsewhere.values():
            present |= seats
        for s in live.seats:
            if s.kind != SEAT_HUMAN or not s.joined or s.seat in present:
                live.away_since.pop(s.seat, None)
            else:
                live.away_since.setdefault(s.seat, now)
        self.wake(live)

    def _someone_else_here(self, live: LiveGame, seat: int) -> bool:
        return any(
            any(s != seat and live.seats[s].kind == SEAT_HUMAN for s in c.seats)
            for c in live.connections
        )

    # --- time-outs ------------------------------------------------------------------
    def _due(self, live: LiveGame, now: float) -> list[tuple[int, str]]:
        """The seats that become zombies at ``now``, and why."""
        due: list[tuple[int, str]] = []
        clock = live.clock
        if clock is not None and clock.running is not None and clock.left(clock.running, now) <= 0:
            due.append((clock.running, ZOMBIE_TIME))
        away = live.clock_settings.away_seconds
        if away > 0:
            for seat, since in sorted(live.away_since.items()):
                info = live.seats[seat]
                if info.zombie is not None or seat in {s for s, _why in due}:
                    continue
                if now - since >= away and self._someone_else_here(live, seat):
                    due.append((seat, ZOMBIE_LEFT))
        return due

    def _next_deadline(self, live: LiveGame) -> float | None:
        if live.error is not None:
            return None  # a stopped game: nothing falls due
        times: list[float] = []
        if live.clock is not None and (deadline := live.clock.deadline()) is not None:
            times.append(deadline)
        away = live.clock_settings.away_seconds
        if away > 0:
            for seat, since in live.away_since.items():
                if live.seats[seat].zombie is None and self._someone_else_here(live, seat):
                    times.append(since + away)
        return min(times) if times else None

    async def _watch(self, live: LiveGame) -> None:
        """Sleep until the next time-out or change; make the seats due zombies; until the game ends."""
        while not live.over:
            live.clock_changed.clear()
            deadline = self._next_deadline(live)
            wait = WATCH_MAX_SLEEP if deadline is None else deadline - self.now()
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        live.clock_changed.wait(), timeout=min(wait, WATCH_MAX_SLEEP)
                    )
            try:
                if not await self.check(live) and wait <= 0:
                    await asyncio.sleep(0.05)  # due but nothing changed (rounding): never spin
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a refusing database (logged in one line by hub.db)
                log.warning("game %s: zombie seats not updated (%s); trying again", live.id, exc)
                await asyncio.sleep(1.0)
        self._watchers.pop(live.id, None)

    async def check(self, live: LiveGame) -> list[tuple[int, str]]:
        """Make every seat that is due a zombie now; return them (seat, why)."""
        made: list[tuple[int, str]] = []
        async with live.lock:
            if live.over or live.error is not None:
                return []
            now = self.now()
            due = self._due(live, now)
            for seat, reason in due:
                if not await self._make_zombie(live, seat, reason, now):
                    # another server process decided first (or the game moved on there)
                    await self.hub.reload(live)
                    break
                made.append((seat, reason))
            if made:
                self.follow(live)
                self.hub._changed(live, {"kind": "reload", "zombies": [s for s, _why in made]})
        if due:
            await self.hub.broadcast(live)
        if made:
            self.hub._schedule_computer(live)
        return made

    async def _make_zombie(self, live: LiveGame, seat: int, reason: str, now: float) -> bool:
        """The computer plays ``seat`` from now on (the lock is held); stored first.

        Returns ``False`` (nothing changed) when the database refused: the
        seat is a zombie already, or the game has other actions stored than
        this copy (another server process, see ``Store.set_zombie``).
        """
        clock = live.clock.copy() if live.clock is not None else None
        if clock is not None and clock.running == seat:
            clock.halt(now)
            if reason == ZOMBIE_TIME:
                clock.remaining[seat] = 0.0
        state = clock.snapshot(now) if clock is not None else None
        plies = len(live.action_seats)
        if not await self.hub.db(self.hub.store.set_zombie, live.id, seat, reason, state, plies):
            return False
        live.clock = clock
        live.seats[seat].zombie = reason
        live.agents[seat] = make_agent(
            self.zombie_spec(live.stored.game), seed=secrets.randbits(32)
        )
        live.draw_offer = frozenset()
        log.info("game %s: the computer plays seat %d (%s)", live.id, seat, reason)
        return True

    # --- a person's side ------------------------------------------------------------
    def refuse_action(self, live: LiveGame, seat: int) -> str | None:
        """Why a person may not act for ``seat`` now (a zombie seat, time up), or ``None``."""
        reason = live.seats[seat].zombie
        if reason is not None:
            return _(
                "the computer plays your seat now (%(why)s): take it back first (Take my seat back)"
            ) % {"why": zombie_words(reason)}
        clock = live.clock
        if clock is not None and clock.running == seat and clock.left(seat, self.now()) <= 0:
            self.wake(live)
            return _("your time ran out: the computer plays your seat")
        return None

    async def reclaim(
        self, live: LiveGame, connection: Connection, automatic: bool = False
    ) -> None:
        """The person of ``connection`` takes back their zombie seats.

        ``automatic`` (a ``hello``): only seats that became zombies because
        their person left, and silently. Raises
        :class:`~limitgames.web.live.RefusedError` (not automatic) for a
        spectator, no zombie seat, or a Fischer time-out without increment.
        """
        from limitgames.web.live import RefusedError

        async with live.lock:
            mine = [s for s in sorted(connection.seats) if live.seats[s].zombie is not None]
            if automatic:
                mine = [s for s in mine if live.seats[s].zombie == ZOMBIE_LEFT and not live.over]
                if not mine:
                    return
            elif not connection.seats:
                raise RefusedError(_("spectators have no seat to take back"))
            elif not mine or live.over:
                raise RefusedError(_("the computer plays none of your seats"))
            for seat in mine:
                if not reclaimable(live, seat):
                    raise RefusedError(
                        _(
                            "your time ran out and this clock has no increment: the computer "
                            "plays your seat to the end"
                        )
                    )
            now = self.now()
            clock = live.clock.copy() if live.clock is not None else None
            given: list[int] = []
            stale = False
            for seat in mine:
                if clock is not None and live.seats[seat].zombie == ZOMBIE_TIME:
                    # Fischer: the time was spent, only the increment comes back; per move:
                    # the next turn has its full time anyway
                    settings = live.clock_settings
                    clock.remaining[seat] = (
                        settings.increment_seconds
                        if settings.kind == CLOCK_FISCHER
                        else settings.turn_seconds()
                    )
                state = clock.snapshot(now) if clock is not None else None
                if not await self.hub.db(self.hub.store.set_zombie, live.id, seat, None, state):
                    stale = True  # given back through another server process already
                    continue
                given.append(seat)
                live.seats[seat].zombie = None
                live.agents.pop(seat, None)
                if live.thinking == seat:  # the computer's move for this seat is dropped
                    live.thinking = None
                    live.generation += 1
            live.clock = clock
            if stale:
                await self.hub.reload(live)
            self.follow(live)
            self.presence(live)
            if given:
                self.hub._changed(live, {"kind": "reload"})
        await self.hub.broadcast(live)


def reclaimable(live: LiveGame, seat: int) -> bool:
    """Whether the person of zombie ``seat`` may take it back (see the module docstring)."""
    info = live.seats[seat]
    if info.zombie is None or live.over:
        return False
    settings = live.clock_settings
    return not (
        info.zombie == ZOMBIE_TIME
        and settings.kind == CLOCK_FISCHER
        and settings.increment_seconds <= 0
    )


def clock_view(live: LiveGame, seats: frozenset[int], now: float) -> dict[str, Any]:
    """A view's ``clock`` (settings, the seat whose clock runs, seconds left per person's seat
    at ``now``) and ``can_reclaim`` (the zombie seats of ``seats`` their person may take back)."""
    clock = live.clock
    fields: dict[str, Any] = dict(live.clock_settings.to_json())
    fields["running"] = None if clock is None or live.over else clock.running
    fields["remaining"] = (
        None
        if clock is None
        else [
            round(clock.left(s.seat, now), 2) if s.kind == SEAT_HUMAN else None for s in live.seats
        ]
    )
    return {"clock": fields, "can_reclaim": [s for s in sorted(seats) if reclaimable(live, s)]}


def zombie_words(reason: str) -> str:
    """Why the computer plays a seat, in words (``time ran out``, ``left``)."""
    return _("time ran out") if reason == ZOMBIE_TIME else _("left")


__all__ = [
    "ZOMBIE_LEVEL",
    "ClockService",
    "ClockSettings",
    "GameClock",
    "after_decision",
    "clock_from_stored",
    "clock_view",
    "reclaimable",
    "zombie_words",
]
