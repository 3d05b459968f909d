"""Who is told: the connections watching each game, and the other server processes.

:class:`Viewers` keeps the connections of this process's games (capped per
game and per address, ``limits.ServerLimits``), queues each its own view
(never waiting for a client: see :class:`~limitgames.web.connection.Connection`),
and hands every committed change to the other server processes through
:attr:`Viewers.on_change` (``fanout.SharedGames.publish``; ``None`` when this
process is the only one).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from limitgames.translation import gettext
from limitgames.web.connection import Connection
from limitgames.web.limits import ServerLimits, TokenBucket
from limitgames.web.live_game import LiveGame

SEAT_RESERVE_SHARE = 0.2
"""The share of a game's connections kept for its players (spectators cannot fill it)."""

SEAT_RESERVE_MOST = 10
"""The most connections of a game kept for its players (10 of the default 50)."""

Change = Callable[[LiveGame, dict[str, Any]], None]
"""``on_change(live, change)``: a committed change of ``live`` for the other processes."""


T = TypeVar("T")

LOBBY = "~lobby"
"""The name the lobby's changes travel under on the fan-out channel (never a game's id)."""


class LobbySignal:
    """Wakes the lobby sockets of this process when the seeks change (here or elsewhere).

    ``publish`` (set by ``fanout.SharedGames``) tells the other processes; ``sockets``
    counts the lobby sockets per network address (``lobby_feed.py``). :meth:`shared` reads
    what every lobby socket shows once for all of them.
    """

    def __init__(self) -> None:
        self._changed = asyncio.Event()
        self.publish: Callable[[], None] | None = None
        self.sockets: Counter[str] = Counter()
        self._changes = 0
        self._read: tuple[int, float, asyncio.Future[Any]] | None = None

    def touch(self, here: bool = True) -> None:
        """The seeks changed: wake every lobby socket; ``here``: tell the other processes too."""
        self._changes += 1
        self._changed.set()
        self._changed = asyncio.Event()
        if here and self.publish is not None:
            self.publish()

    async def shared(self, read: Callable[[], Awaitable[T]], fresh: float) -> T:
        """``read()``'s answer, read once for every lobby socket that asks within ``fresh``
        seconds of it with no change of the seeks in between: a change wakes every socket at
        once, and they would otherwise read the same rows each. A read that failed is not kept
        (its error reaches the sockets that waited for it; the next asks again). A socket
        that leaves while the read runs does not cancel it for the others."""
        now = time.monotonic()
        kept = self._read
        if (
            kept is None
            or kept[0] != self._changes
            or now - kept[1] >= fresh
            or (kept[2].done() and (kept[2].cancelled() or kept[2].exception() is not None))
        ):
            kept = self._read = (self._changes, now, asyncio.ensure_future(read()))
        answer: T = await asyncio.shield(kept[2])
        return answer

    async def wait(self, seconds: float) -> None:
        """Return at the next change, or after ``seconds``."""
        changed = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), seconds)


class Viewers:
    """The connections of one server process's games (see the module docstring).

    Args:
        limits: queue sizes, message rates and connection caps.
    """

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.on_change: Change | None = None
        """Called with each committed change (``fanout.SharedGames.publish``: other processes)."""
        self._address_connections: dict[str, int] = {}
        self.lobby = LobbySignal()
        """Wakes the lobby's live feeds when the seeks change (``lobby_feed.py``)."""

    @property
    def shared(self) -> bool:
        """Whether other server processes follow this one's changes (``--redis``)."""
        return self.on_change is not None

    def share(self, live: LiveGame, change: dict[str, Any]) -> None:
        """Tell the other server processes (if any) about a committed change of ``live``.

        ``change`` is one of the messages of ``fanout.py`` (``{"kind": "reload"}``...).
        """
        if self.on_change is not None:
            self.on_change(live, change)

    def new_connection(self, address: str, language: str = "en") -> Connection:
        """A connection from ``address`` with this server's queue and rate limits, whose
        views and messages are in ``language`` (one of :data:`~limitgames.translation.LANGUAGES`)."""
        connection = Connection(
            address,
            language=language,
            queue_size=self.limits.send_queue,
            messages_per_second=self.limits.messages_per_second,
            burst=self.limits.message_burst,
        )
        connection.chat_bucket = TokenBucket(
            self.limits.chat_per_minute / 60.0, self.limits.chat_burst
        )
        return connection

    def seat_reserve(self) -> int:
        """Connections of a game kept for the people who play it (:data:`SEAT_RESERVE_SHARE`
        of ``connections_per_game``, at most :data:`SEAT_RESERVE_MOST`): spectators get the rest."""
        return min(SEAT_RESERVE_MOST, int(self.limits.connections_per_game * SEAT_RESERVE_SHARE))

    def full_for_spectators(self) -> str:
        """Why a connection that claimed no seat is turned away from the seats' reserve."""
        return gettext(
            "this game has as many spectators as this server allows (%(most)d): "
            "the remaining connections are kept for its players"
        ) % {"most": self.limits.connections_per_game - self.seat_reserve()}

    def attach(self, live: LiveGame, connection: Connection) -> str | None:
        """Add a viewer and queue it the current view; or the reason it is refused (a cap).

        Spectators may use ``connections_per_game`` less the :meth:`seat_reserve`;
        a connection that comes when they have (it may be a player's: it has
        not said hello yet) is let in on probation (``connection.probation``):
        its first message must claim a seat (``game_socket.py``).
        """
        if len(live.connections) >= self.limits.connections_per_game:
            return gettext(
                "this game has as many viewers as this server allows (%(most)d): try again later"
            ) % {"most": self.limits.connections_per_game}
        spectators = sum(1 for c in live.connections if not c.seats)
        connection.probation = spectators >= self.limits.connections_per_game - self.seat_reserve()
        held = self._address_connections.get(connection.address, 0)
        if held >= self.limits.connections_per_address:
            return gettext(
                "too many connections from your address (at most %(most)d): close some tabs"
            ) % {"most": self.limits.connections_per_address}
        self._address_connections[connection.address] = held + 1
        live.connections.add(connection)
        connection.push(json.dumps(live.view_in(connection.seats, connection.language)))
        return None

    def detach(self, live: LiveGame, connection: Connection) -> bool:
        """Remove a viewer; ``False`` if it was not one of ``live``'s."""
        if connection not in live.connections:
            return False
        live.connections.discard(connection)
        held = self._address_connections.get(connection.address, 0) - 1
        if held > 0:
            self._address_connections[connection.address] = held
        else:
            self._address_connections.pop(connection.address, None)
        return True

    async def broadcast(self, live: LiveGame) -> None:
        """Queue every viewer its own view (computed and encoded once per set of seats).

        Never waits for a client: a viewer whose queue is full is closed with
        the reason ``resync`` (see :class:`Connection`).
        """
        cache: dict[tuple[frozenset[int], str], str] = {}
        live.presence_shown = live.seat_presence()
        for connection in list(live.connections):
            key = (connection.seats, connection.language)
            text = cache.get(key)
            if text is None:
                text = json.dumps(live.view_in(connection.seats, connection.language))
                cache[key] = text
            connection.push(text)

    async def send_view(self, live: LiveGame, connection: Connection) -> None:
        """Queue one connection its current view."""
        await connection.send(live.view_in(connection.seats, connection.language))


__all__ = ["LOBBY", "SEAT_RESERVE_MOST", "SEAT_RESERVE_SHARE", "Change", "LobbySignal", "Viewers"]
