"""Seats and their tokens: who may play which seat of a live game.

A person's seat is proved by its secret token (the database keeps only its
SHA-256). The first time a person opens an invited seat, its token is
replaced by a new one sent only to that connection (``welcome.tokens``): the
invite link, which the game's creator also saw, stops working, so the
creator never keeps another seat's token. Seats left open at creation are
taken by the first who asks (the database's conditional update decides).
"""

from __future__ import annotations

import secrets
from typing import Any, Protocol

from limitgames.translation import gettext
from limitgames.web.clock_service import ClockService
from limitgames.web.connection import Connection
from limitgames.web.database import Database
from limitgames.web.limits import AddressBuckets, ServerLimits
from limitgames.web.live_game import LiveGame
from limitgames.web.refusals import RefusedError
from limitgames.web.storage import SEAT_HUMAN, STATUS_PLAYING, hash_token
from limitgames.web.viewers import Viewers


class SeatHost(Protocol):
    """What the seats need of the server's games (:class:`~limitgames.web.live.GameHub`)."""

    @property
    def limits(self) -> ServerLimits:
        """The server's rates, caps and time-outs."""

    @property
    def database(self) -> Database:
        """The database calls."""

    @property
    def viewers(self) -> Viewers:
        """The connections, and the changes shared with other processes."""

    @property
    def clocks(self) -> ClockService:
        """The clocks (a table just completed starts them)."""

    async def reload(self, live: LiveGame) -> None:
        """Bring ``live`` back to what the database holds (the lock held)."""


class SeatService:
    """The seats of one server process's games (see the module docstring)."""

    def __init__(self, host: SeatHost) -> None:
        self.host = host
        self._takes = AddressBuckets(
            host.limits.games_per_hour / 3600.0, host.limits.games_per_hour
        )

    async def claim(
        self, live: LiveGame, connection: Connection, claims: list[tuple[int, str]]
    ) -> dict[int, str]:
        """Check the claimed seats' tokens and make ``connection`` play them.

        Returns ``{seat: new token}`` for the invited seats opened for the
        first time (their tokens were rotated, see the module docstring).
        With several server processes, a token that does not match is looked
        at again after reloading the game (another process may have rotated it).

        Raises:
            RefusedError: a wrong token, or the seat was taken meanwhile (the
                seats already rotated stay the connection's, and their tokens
                are sent to it in a ``welcome``).
            StorageUnavailableError: the database refused (the invite link still works).
        """
        fresh: dict[int, str] = {}
        if not self.host.viewers.shared:
            live.check_tokens(claims)  # a wrong token is refused before the game's lock
        async with live.lock:
            try:
                seats = live.check_tokens(claims)
            except RefusedError:
                claimed = [live.seats[s] for s, _ in claims if 0 <= s < len(live.seats)]
                if not self.host.viewers.shared or all(info.joined for info in claimed):
                    raise
                # another server process may have rotated that seat's token: look again
                await self.host.reload(live)
                seats = live.check_tokens(claims)
            try:
                for s in sorted(seats):
                    if live.seats[s].joined:
                        continue
                    token = secrets.token_urlsafe(24)
                    token_hash = hash_token(token)
                    if not await self.host.database.run(
                        self.host.database.store.mark_joined, live.id, s, token_hash
                    ):
                        raise RefusedError(
                            gettext(
                                "seat %(seat)s was just taken by whoever opened its invite link"
                            )
                            % {"seat": s}
                        )
                    live.seats[s].joined = True
                    live.seats[s].token_hash = token_hash
                    fresh[s] = token
            except RefusedError:
                if fresh:  # seats already rotated stay this connection's: send their tokens
                    connection.seats = frozenset(s for s in seats if live.seats[s].joined)
                    await connection.send(welcome(connection.seats, fresh))
                raise
            connection.seats = seats
            self.host.clocks.follow(live)  # a table just completed starts its clocks
            self.host.clocks.presence(live)
        return fresh

    async def take(self, live: LiveGame, seat: int, name: str) -> str:
        """Give the open ``seat`` to the caller; return its new token.

        First come, first served: the database's conditional update decides
        (:meth:`~limitgames.web.storage.Store.take_seat`).

        Raises:
            RefusedError: no such seat, not open (taken meanwhile), game over.
        """
        async with live.lock:
            if not 0 <= seat < len(live.seats):
                raise RefusedError(
                    gettext("this game has seats 0..%(last)d") % {"last": len(live.seats) - 1}
                )
            if live.over:
                raise RefusedError(gettext("the game is over"))
            if not live.seats[seat].is_open:
                raise RefusedError(
                    gettext("seat %(seat)s is not open (somebody took it)") % {"seat": seat}
                )
            token = secrets.token_urlsafe(24)
            token_hash = hash_token(token)
            label = name or "guest"
            if not await self.host.database.run(
                self.host.database.store.take_seat, live.id, seat, token_hash, label
            ):
                raise RefusedError(
                    gettext("seat %(seat)s is not open (somebody took it)") % {"seat": seat}
                )
            info = live.seats[seat]
            info.kind = SEAT_HUMAN
            info.token_hash = token_hash
            info.joined = True
            info.label = label
            self.host.clocks.follow(live)
            self.host.clocks.presence(live)
            self.host.viewers.share(live, {"kind": "reload"})
        await self.host.viewers.broadcast(live)
        return token

    def take_allowed(self, address: str) -> bool:
        """Whether ``address`` may take another open seat (``games_per_hour`` an hour, like starting one)."""
        return self._takes.take(address)

    async def open_games(self) -> list[dict[str, Any]]:
        """Public summaries of the games being played with an open seat, newest first."""
        ids = await self.host.database.run(self.host.database.store.open_game_ids, 100)
        if not ids:
            return []
        return await self.host.database.run(
            self.host.database.store.summaries, ids, STATUS_PLAYING, 100
        )


def welcome(seats: frozenset[int], fresh: dict[int, str]) -> dict[str, Any]:
    """The ``welcome`` message: the seats a connection plays and its rotated tokens (if any)."""
    message: dict[str, Any] = {"type": "welcome", "seats": sorted(seats)}
    if fresh:
        message["tokens"] = {str(s): t for s, t in fresh.items()}
    return message


__all__ = ["SeatHost", "SeatService", "welcome"]
