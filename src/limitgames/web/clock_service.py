"""The clocks and zombie seats of one server's games: :class:`ClockService`.

The service starts and stops each game's clock as the turn passes, watches
for time-outs and stores the time left (how a clock counts is ``clocks.py``).

**Zombie seats** (as on Board Game Arena): a person's seat whose clock runs
out (``"time"``), or whose person has had no connection to the game for the
game's ``away`` seconds while another person is connected (``"left"``),
is played by the computer at :data:`ZOMBIE_LEVEL`, with the bounded
computer pool (``web/computer.py``), and every view marks it. A person
takes their seat back [decision]:

- ``left``: by coming back (their page's ``hello`` with the seat's token);
- either: with ``{"type": "reclaim"}`` (the page's *Take my seat back*).
  After a time-out the computer plays the turn the time ran out in first (a
  seat is never given that turn again with fresh time: its person could
  otherwise stop their clock by timing out and reclaiming, over and over);
  then a Fischer clock gives back only the increment (the time was spent);
  with no increment the seat stays the computer's to the end. A clock per
  move gives each later turn its full time anyway.

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
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Protocol

from limitgames.agents import make_agent
from limitgames.translation import gettext as _
from limitgames.web.clocks import (
    CLOCK_DAYS,
    CLOCK_FISCHER,
    ZOMBIE_LEFT,
    ZOMBIE_TIME,
    ClockSettings,
    clock_from_stored,
    zombie_words,
)
from limitgames.web.computer import resolve_level
from limitgames.web.connection import Connection
from limitgames.web.database import Database
from limitgames.web.limits import ServerLimits
from limitgames.web.live_game import LiveGame, reclaimable
from limitgames.web.messages import ClockChoice
from limitgames.web.refusals import RefusedError
from limitgames.web.storage import SEAT_HUMAN
from limitgames.web.viewers import Viewers

log = logging.getLogger("limitgames.web")

ZOMBIE_LEVEL = "medium"
"""The computer level that plays a zombie seat (``agents/levels.py``): sensible, quick."""


WATCH_MAX_SLEEP = 30.0
"""The longest a game's watcher sleeps without looking (seconds); it is woken on every change."""


class TimeForfeits(Protocol):
    """Who ends a game lost on time (:class:`~limitgames.web.endings.EndingService`)."""

    async def time_forfeit(self, live: LiveGame, seat: int) -> None:
        """End ``live``: ``seat``'s clock ran out and it loses (the lock is held)."""


class ClockHost(Protocol):
    """What the clocks need of the server's games (:class:`~limitgames.web.live.GameHub`)."""

    @property
    def endings(self) -> TimeForfeits:
        """Ends a game lost on time (``ClockSettings.forfeit``)."""

    @property
    def games(self) -> Mapping[str, LiveGame]:
        """The games in memory, by id."""

    @property
    def limits(self) -> ServerLimits:
        """The server's rates, caps and time-outs."""

    @property
    def database(self) -> Database:
        """The database calls."""

    @property
    def viewers(self) -> Viewers:
        """The connections, and the changes shared with other processes."""

    async def reload(self, live: LiveGame) -> None:
        """Bring ``live`` back to what the database holds (the lock held)."""

    def schedule_computer(self, live: LiveGame) -> None:
        """Start the computer moves of ``live`` if a computer is to move."""


class ClockService:
    """The clocks and zombie seats of one server's games (see the module docstring).

    Each game with a clock or a time away gets a watcher task that sleeps
    until the next time-out (a clock reaching 0, a person away for too
    long), woken early by every change.
    """

    def __init__(
        self,
        host: ClockHost,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], datetime] | None = None,
    ) -> None:
        self.host = host
        self.now = clock
        """Seconds of ``time.monotonic`` (a test gives its own)."""
        self.wall = wall or (lambda: datetime.now(UTC))
        """The date and time, UTC (a test gives its own): the correspondence clocks'."""
        self._watchers: dict[str, asyncio.Task[None]] = {}
        self._specs: dict[str, str] = {}

    # --- settings ---------------------------------------------------------------
    def settings_for(self, choice: ClockChoice) -> ClockSettings:
        """The settings of a new game's clock (the server's ``zombie_after`` by default)."""
        return ClockSettings.from_choice(choice, self.host.limits.zombie_after)

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
        live.clock_settings = ClockSettings.from_json(stored.clock, self.host.limits.zombie_after)
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
                if live.clock_settings.kind == CLOCK_DAYS and stored.updated_at is not None:
                    # correspondence: the turn's time ran on while no server held the game
                    since = self.wall() - _aware(stored.updated_at)
                    live.clock.since = now - max(0.0, since.total_seconds())
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
        for live in list(self.host.games.values()):
            if live.clock is None or live.clock.running is None or live.over:
                continue
            with contextlib.suppress(
                Exception
            ):  # a refusing database: the turn's time is given back
                await self.host.database.run(
                    self.host.database.store.save_clock, live.id, live.clock.snapshot(now)
                )

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
        away = live.away_here()
        if self.host.viewers.shared and (live.present_shared, live.away_shared) != (
            frozenset(present),
            away,
        ):
            # several server processes: tell the others who is here (``fanout.py``)
            live.present_shared, live.away_shared = frozenset(present), away
            self.host.viewers.share(
                live, {"kind": "presence", "seats": sorted(present), "away": sorted(away)}
            )
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
            except Exception as exc:  # a refusing database (logged in one line by host.database)
                log.warning("game %s: zombie seats not updated (%s); trying again", live.id, exc)
                await asyncio.sleep(1.0)
        self._watchers.pop(live.id, None)

    async def check(self, live: LiveGame) -> list[tuple[int, str]]:
        """Make every seat that is due a zombie now (or, where the clock says so, end the game
        lost on time: :meth:`_forfeit`); return them (seat, why)."""
        made: list[tuple[int, str]] = []
        async with live.lock:
            if live.over or live.error is not None:
                return []
            now = self.now()
            due = self._due(live, now)
            for seat, reason in due:
                if reason == ZOMBIE_TIME and live.clock_settings.forfeit:
                    await self._forfeit(live, seat, now)  # the game is over: nobody else is due
                    made = []
                    break
                if not await self._make_zombie(live, seat, reason, now):
                    # another server process decided first (or the game moved on there)
                    await self.host.reload(live)
                    break
                made.append((seat, reason))
            if made:
                self.follow(live)
                self.host.viewers.share(
                    live, {"kind": "reload", "zombies": [s for s, _why in made]}
                )
        if due:
            await self.host.viewers.broadcast(live)
        if made:
            self.host.schedule_computer(live)
        return made

    async def _forfeit(self, live: LiveGame, seat: int, now: float) -> None:
        """``seat``'s time ran out in a game whose clock says it loses: the game ends (the lock
        is held; ``EndingService.time_forfeit`` stores it and tells the other processes)."""
        if live.clock is not None and live.clock.running == seat:
            clock = live.clock.copy()
            clock.halt(now)
            clock.remaining[seat] = 0.0
            live.clock = clock
        try:
            await self.host.endings.time_forfeit(live, seat)
        except RefusedError:  # another server process ended it first
            await self.host.reload(live)
        log.info("game %s: seat %d lost on time", live.id, seat)

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
        if not await self.host.database.run(
            self.host.database.store.set_zombie, live.id, seat, reason, state, plies
        ):
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
        :class:`~limitgames.web.refusals.RefusedError` (not automatic) for a
        spectator, no zombie seat, or a Fischer time-out without increment.
        """
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
            settings = live.clock_settings
            for seat in mine:
                if reclaimable(live, seat):
                    continue
                if settings.kind == CLOCK_FISCHER and settings.increment_seconds <= 0:
                    raise RefusedError(
                        _(
                            "your time ran out and this clock has no increment: the computer "
                            "plays your seat to the end"
                        )
                    )
                raise RefusedError(
                    _(
                        "your time ran out in this turn: take your seat back once the "
                        "computer has played it"
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
                    clock.remaining[seat] = (
                        settings.increment_seconds
                        if settings.kind == CLOCK_FISCHER
                        else settings.turn_seconds()
                    )
                state = clock.snapshot(now) if clock is not None else None
                if not await self.host.database.run(
                    self.host.database.store.set_zombie, live.id, seat, None, state
                ):
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
                await self.host.reload(live)
            self.follow(live)
            self.presence(live)
            if given:
                self.host.viewers.share(live, {"kind": "reload"})
        await self.host.viewers.broadcast(live)


def _aware(moment: datetime) -> datetime:
    """``moment`` with a time zone (SQLite gives back naive UTC times)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


__all__ = ["WATCH_MAX_SLEEP", "ZOMBIE_LEVEL", "ClockHost", "ClockService"]
