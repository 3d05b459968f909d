"""Presence in a game: whether each seat's person is here, away or gone, told to the table.

- **here**: a page of the seat is open (on any server process) and in use;
- **away**: its pages are open, but each says its person is away: the page is
  hidden (another tab, a minimised window) or has had no input (pointer, key,
  touch, scroll) for :data:`IDLE_SECONDS` [decision: two minutes, long enough
  to think over a move, short enough to tell a table somebody left the room];
- **gone**: no page of the seat is open (no connection).

The page sends ``{"type": "presence", "away": bool}`` when that changes
(``static/presence.js``); the server keeps it on the connection, computes each
seat's presence (:meth:`~limitgames.web.live_game.LiveGame.seat_presence`, in
every view as ``presence``) and sends every viewer a new view when a seat's
presence changes. With several server processes each announces, with its
connected seats, which of them are away (``fanout.py``, kind ``presence``).
Being away changes nothing else: the zombie clock (``clocks.py``) counts only
seats with no connection at all.
"""

from __future__ import annotations

import asyncio

from limitgames.web.clock_service import ClockService
from limitgames.web.connection import Connection
from limitgames.web.live_game import LiveGame
from limitgames.web.viewers import Viewers

IDLE_SECONDS = 120
"""Seconds without input after which a page says its person is away (``static/presence.js``)."""


class PresenceService:
    """Presence of the people at one server process's games (see the module docstring).

    Args:
        clocks: the clocks (they note who has a connection and share it).
        viewers: the connections, to send new views.
    """

    def __init__(self, clocks: ClockService, viewers: Viewers) -> None:
        self.clocks = clocks
        self.viewers = viewers
        self._pending: set[asyncio.Task[None]] = set()

    def announce_soon(self, live: LiveGame) -> None:
        """:meth:`announce` from code that cannot wait (a connection just closed)."""
        task = asyncio.get_running_loop().create_task(self.announce(live))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def note(self, live: LiveGame, connection: Connection, away: bool) -> None:
        """A page says whether its person is away; the table is told when a seat's presence
        changes. A spectator's presence is nobody's business: it is ignored."""
        if not connection.seats or connection.away == away:
            return
        connection.away = away
        self.clocks.presence(live)
        await self.announce(live)

    async def announce(self, live: LiveGame) -> None:
        """Send every viewer a new view if a seat's presence changed since the last one sent."""
        if live.seat_presence() != live.presence_shown:
            await self.viewers.broadcast(live)


__all__ = ["IDLE_SECONDS", "PresenceService"]
