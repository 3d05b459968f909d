"""The computers' moves in live games: thought over in the pool, stored, shown.

A computer seat (or a zombie seat, ``clock_service.py``) to move gets its
decision from the bounded pool (``computer.ComputerPool``); the decision is
committed like a person's (``GameHub.commit``). In a game where a person plays
it is shown no sooner than ``limits.computer_pause`` seconds after the decision
before it. A database that refuses the write is reported in one line and
tried again, so the game goes on by itself once the database takes writes
again. A computer that fails stops its own game with the reason, never another.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any, Protocol

from limitgames.agents import make_agent
from limitgames.core import Action, LimitGamesError, State
from limitgames.translation import N_, phrase
from limitgames.web.computer import ComputerPool
from limitgames.web.limits import ServerLimits
from limitgames.web.live_game import LiveGame
from limitgames.web.refusals import ConflictError, StorageUnavailableError
from limitgames.web.storage import STATUS_PLAYING
from limitgames.web.viewers import Viewers

log = logging.getLogger("limitgames.web")


class ComputerHost(Protocol):
    """What the computer moves need of the server's games (:class:`~limitgames.web.live.GameHub`)."""

    @property
    def computers(self) -> ComputerPool:
        """The pool that runs computer moves."""

    @property
    def limits(self) -> ServerLimits:
        """The server's rates, caps and time-outs."""

    @property
    def viewers(self) -> Viewers:
        """Whom the moves are shown."""

    async def commit(self, live: LiveGame, seat: int, action: Action) -> None:
        """Store ``action`` of ``seat`` and make it the game's (the lock held)."""


class ComputerMoves:
    """Runs the computer moves of one server process's games (see the module docstring)."""

    def __init__(self, host: ComputerHost) -> None:
        self.host = host
        self._closed = False

    def close(self, games: Iterable[LiveGame]) -> None:
        """Start no more computer moves, and stop those of ``games`` under way."""
        self._closed = True
        for live in games:
            if live.computer_task is not None:
                live.computer_task.cancel()

    def schedule(self, live: LiveGame) -> None:
        """Start the computer moves of ``live`` if a computer is to move and none runs."""
        if self._closed or live.error is not None or live.over:
            return
        if live.state.current_player() not in live.computer_seats():
            return
        if live.computer_task is not None and not live.computer_task.done():
            return
        live.computer_task = asyncio.get_running_loop().create_task(self._moves(live))

    async def _moves(self, live: LiveGame) -> None:
        """Let the computers move until a person is to move or the game ends.

        In a game where a person plays, a computer's decision is stored (and
        shown) no sooner than ``limits.computer_pause`` seconds after the
        decision before it; the wait is an ``asyncio.sleep``, so other games
        and this game's chat go on meanwhile.
        """
        pause = self.host.limits.computer_pause if live.human_seats() else 0.0
        shown = time.monotonic()  # the decision that gave a computer the turn was just sent
        try:
            while True:
                async with live.lock:
                    state = live.state
                    if live.error is not None or live.over:
                        return
                    seat = state.current_player()
                    if seat not in live.computer_seats():
                        return
                    generation = live.generation
                    live.thinking = seat
                    agent = live.agents[seat]
                await self.host.viewers.broadcast(live)
                action, info = await self.host.computers.choose(agent, state)
                async with live.lock:
                    if live.generation != generation or live.state is not state:
                        continue
                    if info.get("timeout"):
                        spec = live.seats[seat].agent_spec or agent.spec
                        live.agents[seat] = make_agent(spec, seed=secrets.randbits(32))
                    live.last_info = {"seat": seat, **{k: v for k, v in info.items() if _plain(v)}}
                    if not state.is_legal(action):
                        raise LimitGamesError(f"the computer chose an illegal action {action!r}")
                wait = pause - (time.monotonic() - shown)
                if wait > 0:
                    await asyncio.sleep(wait)
                if not await self._store(live, seat, action, state, generation):
                    return  # another server process moves this game's computers now
                shown = time.monotonic()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("game %s: computer move failed", live.id)
            live.thinking = None
            live.error = phrase(N_("the computer player failed: %(reason)s"), reason=str(exc))
            await self.host.viewers.broadcast(live)

    async def _store(
        self, live: LiveGame, seat: int, action: Action, state: State, generation: int
    ) -> bool:
        """Commit a computer's move; while the database refuses, say so and try again.

        The waits double from 0.05 s up to ``storage_retry_max``; the game
        goes on by itself as soon as the database takes writes again.
        Returns ``False`` when another server process stored a move there
        first (:class:`ConflictError`; the game was reloaded), else ``True``.
        """
        delay = 0.05
        conflict = False
        while True:
            async with live.lock:
                if (
                    live.generation != generation
                    or live.state is not state
                    or live.stored.status != STATUS_PLAYING
                ):
                    return True
                try:
                    await self.host.commit(live, seat, action)
                    stored = True
                    live.thinking = None
                    live.notice = None
                except ConflictError:
                    conflict = True  # another process moved first; the game was reloaded
                    stored = True
                except StorageUnavailableError as exc:
                    stored = False
                    live.notice = phrase(
                        N_("%(reason)s: the computer's move is kept and saved when it can be"),
                        reason=str(exc),
                    )
            await self.host.viewers.broadcast(live)
            if stored:
                return not conflict
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.host.limits.storage_retry_max)


def _plain(value: Any) -> bool:
    return isinstance(value, (int, float, str, bool)) or value is None


__all__ = ["ComputerHost", "ComputerMoves"]
