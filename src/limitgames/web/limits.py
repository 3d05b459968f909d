"""What one client may cost the server: rates, caps, queues and time-outs of ``limit serve``.

:class:`ServerLimits` gathers the limits (each an option of ``limit serve``,
see ``docs/web.md``); :class:`TokenBucket` is the rate limiter behind them
and :class:`AddressBuckets` keeps one bucket per address in bounded memory.
Nothing here knows about games: ``live.GameHub`` and ``app`` apply them.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ServerLimits:
    """The limits of one server. The defaults suit a public server with people playing.

    Attributes:
        messages_per_second: WebSocket messages one connection may send per
            second; faster ones wait (the connection is read no faster).
        message_burst: messages a connection may send at once before waiting.
        actions_per_second: actions (and hellos, undos) the people of one
            game may send per second, all connections together; more wait.
        action_burst: actions a game takes at once before waiting.
        send_queue: messages waiting to be sent to one connection; a
            connection that falls that far behind is closed with the reason
            ``resync`` (its page reconnects and gets the current view).
        connections_per_game: WebSocket connections on one game (players
            and spectators); more are refused.
        connections_per_address: WebSocket connections from one network
            address, all games together; more are refused.
        games_per_hour: games one address may start per hour (a bucket of
            this size refilled evenly over the hour).
        unfinished_per_creator: games started from one address that are
            still being played; another one is refused until one ends.
        abandon_after: seconds without an action after which an unfinished
            game is abandoned (status ``abandoned``, no result).
        chat_per_minute: chat messages one connection may send per minute
            (beyond its burst, more are refused with a reason); a game takes
            four times as many from all its connections together.
        chat_burst: chat messages a connection may send at once.
        computer_pause: the least time (seconds) between two decisions shown
            on the page when the second is a computer's, in a game where a
            person plays (a computer that thought less waits, with
            ``asyncio.sleep``: other games go on); 0 (the default here, and
            in the tests): no wait. ``limit serve`` sets
            :data:`SERVE_COMPUTER_PAUSE` unless told otherwise.
        storage_retry_max: the longest wait (seconds) between two attempts
            to store a computer's move while the database refuses writes.
        zombie_after: the default time (seconds) a person may be away (no
            open connection) from a game before the computer plays their
            seat (``clocks.py``); 0: never. A game may choose its own
            (``NewGame.clock.away``).
    """

    messages_per_second: float = 20.0
    message_burst: int = 40
    actions_per_second: float = 20.0
    action_burst: int = 40
    send_queue: int = 32
    connections_per_game: int = 50
    connections_per_address: int = 40
    games_per_hour: int = 30
    unfinished_per_creator: int = 20
    abandon_after: float = 7 * 24 * 3600.0
    storage_retry_max: float = 10.0
    chat_per_minute: float = 12.0
    chat_burst: int = 5
    computer_pause: float = 0.0
    zombie_after: float = 300.0

    def __post_init__(self) -> None:
        if not 0 <= self.zombie_after <= 7 * 24 * 3600:
            raise ValueError(f"zombie_after must be 0-604800 seconds, not {self.zombie_after!r}")
        if not 0 <= self.computer_pause <= 60:
            raise ValueError(f"computer_pause must be 0-60 seconds, not {self.computer_pause!r}")
        for name in (
            "messages_per_second",
            "message_burst",
            "actions_per_second",
            "action_burst",
            "send_queue",
            "connections_per_game",
            "connections_per_address",
            "games_per_hour",
            "unfinished_per_creator",
            "abandon_after",
            "storage_retry_max",
            "chat_per_minute",
            "chat_burst",
        ):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)!r}")


SERVE_COMPUTER_PAUSE = 0.8
"""``limit serve``'s default :attr:`ServerLimits.computer_pause` (seconds): a person sees each
computer decision (without it easy computers acted in about 30 ms and a round ended unseen)."""


class TokenBucket:
    """A token bucket: ``capacity`` tokens, refilled at ``rate`` tokens per second.

    Args:
        rate: tokens added per second (> 0).
        capacity: the most tokens held (the burst).
        clock: seconds from an arbitrary origin (``time.monotonic`` by default).
    """

    __slots__ = ("capacity", "clock", "rate", "stamp", "tokens")

    def __init__(
        self, rate: float, capacity: float, clock: Callable[[], float] | None = None
    ) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.clock = clock or time.monotonic
        self.stamp: float = self.clock()

    def _refill(self) -> None:
        now: float = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        """Take one token if there is one; ``False`` (nothing taken) otherwise."""
        self._refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def reserve(self) -> float:
        """Take one token, going into debt if needed; return the seconds to wait before using it."""
        self._refill()
        self.tokens -= 1.0
        return 0.0 if self.tokens >= 0.0 else -self.tokens / self.rate

    def full(self) -> bool:
        """Whether the bucket is full again (its owner has been quiet long enough)."""
        self._refill()
        return self.tokens >= self.capacity


class AddressBuckets:
    """One :class:`TokenBucket` per network address, in bounded memory.

    Buckets that are full again carry no information and are dropped when
    the table grows past ``max_addresses``; if every bucket is still in use
    the oldest one is dropped (that address starts afresh).
    """

    def __init__(
        self,
        rate: float,
        capacity: float,
        max_addresses: int = 10_000,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.rate = rate
        self.capacity = capacity
        self.max_addresses = max_addresses
        self.clock = clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, address: str) -> bool:
        """Take a token from ``address``'s bucket; ``False`` if it is empty."""
        bucket = self._buckets.get(address)
        if bucket is None:
            self._prune()
            bucket = self._buckets[address] = TokenBucket(self.rate, self.capacity, self.clock)
        else:
            self._buckets.move_to_end(address)
        return bucket.take()

    def _prune(self) -> None:
        if len(self._buckets) < self.max_addresses:
            return
        for address in [a for a, b in self._buckets.items() if b.full()]:
            del self._buckets[address]
        while len(self._buckets) >= self.max_addresses:
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)


__all__ = ["AddressBuckets", "ServerLimits", "TokenBucket"]
