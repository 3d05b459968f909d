"""One browser tab on a live game: the seats it plays, its send queue and its rate limit.

What one client may cost (``limits.ServerLimits``): every connection has a
bounded send queue emptied by its own sender task, so announcing a move never
waits for a slow reader (one that falls behind is closed with the reason
``resync``), and its messages are read no faster than its own rate.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from limitgames.translation import LANGUAGES
from limitgames.web.limits import TokenBucket

SendText = Callable[[str], Awaitable[None]]


class Connection:
    """One browser tab on a game: the seats it plays (empty: spectator) and its send queue.

    Messages are queued (at most ``queue_size``) and sent by
    :meth:`run_sender`, the connection's own task, so whoever announces
    something never waits for this client. A client that lets its queue
    fill up is told to go: :attr:`closing` becomes ``"resync"`` and
    :attr:`closed` is set (the socket handler then closes it).

    Args:
        address: the client's network address (for the per-address cap).
        language: the language of this client's views (an unknown code: English).
        queue_size: the most messages waiting for this client.
        messages_per_second, burst: how fast this client's messages are read.
    """

    def __init__(
        self,
        address: str = "",
        language: str = "en",
        queue_size: int = 32,
        messages_per_second: float = 20.0,
        burst: int = 40,
    ) -> None:
        self.address = address
        self.language = language if language in LANGUAGES else LANGUAGES[0]
        self.seats: frozenset[int] = frozenset()
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=queue_size)
        self.closing: str | None = None
        self.closed = asyncio.Event()
        self.bucket = TokenBucket(messages_per_second, burst)
        self.chat_channel: str | None = None
        self.chat_bucket = TokenBucket(12.0 / 60.0, 5)
        self.probation = False
        self.away = False
        """Whether its page says its person is away (hidden, or no input for a while)."""
        """Let in on the seats' reserve: must claim a seat with its first message (``Viewers.attach``)."""

    def push(self, text: str) -> bool:
        """Queue a message (JSON text); ``False`` if the connection is closing or just overflowed."""
        if self.closing is not None:
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close("resync")
            return False
        return True

    async def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (never waits for the client)."""
        self.push(json.dumps(message))

    def close(self, reason: str) -> None:
        """Ask the socket handler to close this connection, telling the client ``reason``."""
        if self.closing is None:
            self.closing = reason
            self.closed.set()

    async def wait_closed(self) -> None:
        """Return once the connection was asked to close (see :meth:`close`)."""
        await self.closed.wait()

    async def run_sender(self, send_text: SendText) -> None:
        """Send queued messages in order until cancelled (the connection's own task)."""
        while True:
            text = await self.queue.get()
            await send_text(text)

    async def throttle(self) -> None:
        """Wait until this client may send another message (its rate limit)."""
        delay = self.bucket.reserve()
        if delay > 0:
            await asyncio.sleep(delay)


__all__ = ["Connection", "SendText"]
