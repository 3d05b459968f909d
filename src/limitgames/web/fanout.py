"""Several server processes on one database: their live updates shared through Redis pub/sub.

``limit serve --workers N --db postgresql+psycopg://... --redis redis://...``
runs N processes, each with its own :class:`~limitgames.web.live.GameHub`
(the games it has in memory, the sockets connected to it). The database is the
truth; what a process changes in a game it announces on one Redis channel,
and every other process that has that game in memory brings its copy up to
date and sends its own viewers the new views.

Messages (:data:`CHANNEL`) are ``"SEQ JSON"``: ``SEQ`` is the game's sequence
number, counted by Redis for each game (``INCR`` in the same script as the
``PUBLISH``, so sequence order is publication order); ``JSON`` is the change:

- ``{"kind": "action", "ply", "seat", "action", "chance"}``: action number
  ``ply`` in notation and the chance outcomes it drew (the copy applies it);
- ``{"kind": "reload"}``: anything else (an undo, a resignation, a seat
  taken or joined, a zombie seat made or given back, an abandoned game): the
  copy is reloaded from the database; ``"zombies"``, when present, lists the
  seats this process has just made zombies (and whose computer moves it makes);
- ``{"kind": "chat", "channel", "message"}``: a stored chat message for the
  viewers of that channel;
- ``{"kind": "draw", "offer"}``: the seats that offer a draw (kept in memory
  only, like the offer itself);
- ``{"kind": "takeback", "offer", "agreed"}``: a takeback offer (``[seat, plies]``
  or ``None``) and the seats that agreed (memory only, ``takebacks.py``);
- ``{"kind": "lobby"}`` under the name ``viewers.LOBBY``: the seeks changed (``lobby_feed.py``);
- ``{"kind": "presence", "seats", "away"}``: the people's seats with a connection to
  the publishing process (when that changes, every
  :data:`PRESENCE_EVERY_SECONDS`, and in answer to a process heard for the
  first time), so that a person playing through another process is not
  taken for away (zombie seats, ``clocks.py``); what a process has not
  repeated for :data:`PRESENCE_FORGET_SECONDS` is forgotten;
- ``{"kind": "rematch", "game_id", "tokens"}``: the rematch of a finished
  game and its people's new tokens (``{old seat: [new seat, token]}``), so
  that each person's connections, on whichever process, are offered their
  own (kept in memory only, like on the process that started it). The
  tokens cross Redis in the clear [decision]: Redis is as private to the
  site as the database, and holds nothing after delivery.

Each carries ``origin``, the publishing process. A process that holds a
game nobody watches there (no connection, no computer thinking) forgets it
when another process changes it, rather than keep it in step; it is loaded
again from the database when somebody opens it. Redis pub/sub delivers at
most once: a process that sees a game's sequence number jump (it missed a
message, say while its Redis connection was down) reloads that game from the
database, and after reconnecting to Redis it reloads every game it holds. An
action that arrives at a process whose copy is behind is refused by the
database's ``(game, ply)`` key; that process reloads the game and tries the
action again (:meth:`~limitgames.web.live.GameHub.act`), so every action is
stored once, in order, whichever process it reached.

Why Redis and not PostgreSQL's LISTEN/NOTIFY [decision]: a counter and a
publication in one atomic script give the sequence number for free; and a
listening PostgreSQL connection would have to be held
outside SQLAlchemy's pool by every process (NOTIFY's one advantage, delivery
only on commit, is not needed: everything is committed before it is
announced).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from limitgames.core import LimitGamesError
from limitgames.web.startup import Backoff, Outage
from limitgames.web.viewers import LOBBY

if TYPE_CHECKING:
    from limitgames.web.live import GameHub, LiveGame

log = logging.getLogger("limitgames.web")

CHANNEL = "limitgames:changes"
"""The Redis channel every process publishes on and listens to."""

SEQ_KEY = "limitgames:seq:"
"""Prefix of the Redis key counting one game's changes (the key expires a day after its last use)."""

SEQ_TTL_SECONDS = 86400

OUTBOX_SIZE = 10000
"""Changes waiting to be published; beyond that they are dropped (the others catch up by ``ply``)."""

PRESENCE_EVERY_SECONDS = 30.0
"""How often each process announces again which seats have a connection to it, per game."""

PRESENCE_FORGET_SECONDS = 3 * PRESENCE_EVERY_SECONDS
"""A process not heard of for this long (killed) no longer counts for presence."""

_PUBLISH_SCRIPT = """
local seq = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[1], seq .. ' ' .. ARGV[2])
return seq
"""

Deliver = Callable[[str, int, dict[str, Any]], Awaitable[None]]
"""``deliver(game id, sequence number, change)``: called for each message, in order."""

Resync = Callable[[], Awaitable[None]]
"""Called after the connection to the other processes was lost and found again."""


class Fanout(Protocol):
    """How changes travel between processes (:class:`RedisFanout`)."""

    origin: str

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        """Connect and start delivering; raises ``ConnectionError`` if unreachable."""

    def publish(self, game_id: str, change: dict[str, Any]) -> None:
        """Queue ``change`` of ``game_id`` for the others (never waits)."""

    async def close(self) -> None:
        """Stop publishing and delivering."""


class RedisFanout:
    """Changes published on, and read from, one Redis channel (asyncio client of ``redis``).

    Args:
        url: the Redis URL (``redis://host:6379/0``).
        channel: the channel (all processes of one site use the same).
    """

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        self.url = url
        self.channel = channel
        self.origin = secrets.token_hex(8)
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=OUTBOX_SIZE)
        self._tasks: list[asyncio.Task[None]] = []
        self._client: Any = None

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        """Connect to Redis, subscribe, and start the publishing and listening tasks.

        Raises:
            ConnectionError: Redis cannot be reached (one line, naming the URL's host).
        """
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        self._client = aioredis.from_url(self.url, health_check_interval=10)
        try:
            await self._client.ping()
            script = self._client.register_script(_PUBLISH_SCRIPT)
            pubsub = self._client.pubsub(ignore_subscribe_messages=False)
            await pubsub.subscribe(self.channel)
        except (RedisError, OSError) as exc:
            await self._client.aclose()
            self._client = None
            raise ConnectionError(f"cannot reach Redis at {shown_url(self.url)}: {exc}") from None
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._send(script)),
            loop.create_task(self._listen(pubsub, deliver, resync)),
        ]

    def publish(self, game_id: str, change: dict[str, Any]) -> None:
        """Queue ``change`` (with this process's ``origin``); dropped with a warning when full."""
        text = json.dumps({**change, "origin": self.origin})
        try:
            self._outbox.put_nowait((game_id, text))
        except asyncio.QueueFull:
            log.warning("game %s: a change was not shared (the outbox is full)", game_id)

    async def _send(self, script: Any) -> None:
        from redis.exceptions import RedisError

        outage = Outage("Redis (publishing)")
        backoff = Backoff(0.05, 2.0)
        while True:
            game_id, text = await self._outbox.get()
            while True:
                try:
                    await script(
                        keys=[SEQ_KEY + game_id], args=[self.channel, text, SEQ_TTL_SECONDS]
                    )
                    break
                except (RedisError, OSError) as exc:
                    outage.failed(exc)  # logged once per outage
                    await backoff.sleep()
            outage.recovered()
            backoff.reset()

    async def _listen(self, pubsub: Any, deliver: Deliver, resync: Resync) -> None:
        from redis.exceptions import RedisError

        subscribed = 0
        outage = Outage("Redis (listening)")
        backoff = Backoff(0.25, 5.0)
        while True:
            try:
                message = await pubsub.get_message(timeout=5.0)
            except (RedisError, OSError) as exc:
                # redis-py reconnects and subscribes again on the next read
                outage.failed(exc)  # logged once per outage
                await backoff.sleep()
                continue
            outage.recovered()
            backoff.reset()
            if message is None:
                continue
            if message["type"] == "subscribe":
                subscribed += 1
                if subscribed > 1:  # a new connection: messages may have been missed meanwhile
                    await _guarded(resync())
                continue
            if message["type"] != "message":
                continue
            try:
                seq_text, _, body = bytes(message["data"]).decode("utf-8").partition(" ")
                change = json.loads(body)
                game_id = str(change.pop("game"))
                seq = int(seq_text)
            except (ValueError, KeyError, UnicodeDecodeError):
                log.warning("ignored a malformed message on %s", self.channel)
                continue
            await _guarded(deliver(game_id, seq, change))

    async def close(self) -> None:
        """Cancel the tasks and close the connection (queued changes are dropped)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()


def presence_change(live: LiveGame) -> dict[str, Any]:
    """The ``presence`` change of ``live`` for the other processes: who is connected here,
    and which of them are away (``LiveGame.away_here``)."""
    return {
        "kind": "presence",
        "seats": sorted(live.present_shared),
        "away": sorted(live.away_shared),
    }


def shown_url(url: str) -> str:
    """``url`` as printed and logged: a password in it replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


def check_redis(url: str, seconds: float = 5.0) -> str | None:
    """Why Redis at ``url`` cannot be used (a one-line reason), or ``None`` when it answers."""
    try:
        import redis
    except ImportError:
        return "--redis needs the redis package: pip install 'limitgames[scale]'"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=seconds, socket_timeout=seconds)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return f"cannot reach Redis at {shown_url(url)}: {reason}"
    return None


async def _guarded(work: Awaitable[None]) -> None:
    """Run one delivery; a failure is logged and never stops the listener."""
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("applying another process's change failed")


class SharedGames:
    """Keeps one process's live games in step with the other processes (see the module docstring).

    Args:
        hub: this process's games.
        fanout: the channel to the other processes.
        stall_after: seconds after which a game whose computer is to move,
            and that nobody changed, gets its computer move from this process
            (its thinker may have been killed).
    """

    def __init__(self, hub: GameHub, fanout: Fanout, stall_after: float) -> None:
        self.hub = hub
        self.fanout = fanout
        self.stall_after = stall_after
        self.known: dict[str, int] = {}
        self.changed_at: dict[str, float] = {}
        self._watcher: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect, hook into the hub and start watching for stalled computer moves.

        Raises:
            ConnectionError: the fanout cannot connect.
        """
        await self.fanout.start(self.receive, self.resync_all)
        self.hub.viewers.on_change = self.publish
        self.hub.viewers.lobby.publish = self.publish_lobby
        self._watcher = asyncio.get_running_loop().create_task(self._watch_stalls())

    async def close(self) -> None:
        """Unhook and disconnect."""
        self.hub.viewers.on_change = None
        self.hub.viewers.lobby.publish = None
        if self._watcher is not None:
            self._watcher.cancel()
        await self.fanout.close()

    def publish(self, live: LiveGame, change: dict[str, Any]) -> None:
        """Announce a committed change of ``live`` to the other processes."""
        if change.get("kind") != "presence":  # not a change of the game
            self.changed_at[live.id] = time.monotonic()
        self.fanout.publish(live.id, {**change, "game": live.id})

    def publish_lobby(self) -> None:
        """Tell the other processes that the seeks changed (their lobby feeds refresh)."""
        self.fanout.publish(LOBBY, {"kind": "lobby"})

    async def receive(self, game_id: str, seq: int, change: dict[str, Any]) -> None:
        """Apply a change announced by any process (this one's own only advance ``seq``)."""
        if game_id == LOBBY:
            if change.get("origin") != self.fanout.origin:
                self.hub.viewers.lobby.touch(here=False)
            return
        live = self.hub.games.get(game_id)
        if live is None:
            self.known.pop(game_id, None)
            self.changed_at.pop(game_id, None)
            return
        previous = self.known.get(game_id)
        self.known[game_id] = seq
        missed = previous is not None and seq != previous + 1
        if change.get("origin") == self.fanout.origin and not missed:
            return
        idle = live.computer_task is None or live.computer_task.done()
        if not live.connections and idle and not live.lock.locked():
            # nobody here watches it: forget it rather than keep it in step (loaded again on demand)
            self.hub.games.pop(game_id, None)
            self.known.pop(game_id, None)
            self.changed_at.pop(game_id, None)
            return
        kind = change.get("kind")
        if kind == "presence":
            self._note_presence(live, change)
            if not missed:
                await self.hub.presence.announce(live)
                return
        self.changed_at[game_id] = time.monotonic()
        if missed:
            log.warning(
                "game %s: missed a change (seq %s -> %d); reloading", game_id, previous, seq
            )
        if kind == "chat" and not missed:
            self.hub.chat.deliver(live, str(change.get("channel")), change.get("message", {}))
            return
        if kind == "rematch":
            tokens = {
                int(old): (int(pair[0]), str(pair[1]))
                for old, pair in dict(change.get("tokens", {})).items()
            }
            await self.hub.endings.adopt_rematch(live, str(change.get("game_id")), tokens)
            if not missed:
                return
        if kind == "draw" and not missed:
            async with live.lock:
                live.draw_offer = frozenset(int(s) for s in change.get("offer", []))
            await self.hub.viewers.broadcast(live)
            return
        if kind == "takeback" and not missed:
            await self.hub.takebacks.adopt(live, change)
            return
        if kind == "action" and not missed:
            await self._apply_action(live, change)
        else:
            async with live.lock:
                await self.hub.reload(live)
        await self.hub.viewers.broadcast(live)

    def _note_presence(self, live: LiveGame, change: dict[str, Any]) -> None:
        """Note the seats connected to another process; answer a process heard for the first time."""
        origin = str(change.get("origin"))
        first = origin not in live.present_elsewhere
        seats = frozenset(
            s for s in (int(v) for v in change.get("seats", [])) if 0 <= s < len(live.seats)
        )
        live.present_elsewhere[origin] = (seats, time.monotonic())
        live.away_elsewhere[origin] = frozenset(int(v) for v in change.get("away", [])) & seats
        self.hub.clocks.presence(live)
        if first and live.present_shared:  # it has just loaded the game: who is here
            self.hub.viewers.share(live, presence_change(live))

    def _share_presence(self) -> None:
        """Announce again who is here, and forget what the silent processes said (killed ones)."""
        now = time.monotonic()
        for live in list(self.hub.games.values()):
            if live.present_shared:
                self.publish(live, presence_change(live))
            stale = [
                origin
                for origin, (_seats, heard) in live.present_elsewhere.items()
                if now - heard > PRESENCE_FORGET_SECONDS
            ]
            for origin in stale:
                del live.present_elsewhere[origin]
                live.away_elsewhere.pop(origin, None)
            if stale:
                self.hub.clocks.presence(live)

    async def _apply_action(self, live: LiveGame, change: dict[str, Any]) -> None:
        """Apply an action stored by another process, or reload when it does not follow on."""
        async with live.lock:
            ply = int(change["ply"])
            have = len(live.action_seats)
            if ply < have and live.notations[ply] == change.get("action"):
                return  # loaded from the database after it was stored
            state = live.state
            if ply != have or live.over or live.clock is not None:  # a clock: as stored with it
                await self.hub.reload(live)
                return
            try:
                action = state.parse_action(str(change["action"]))
                after = state.clone()
                after.apply(action)
            except LimitGamesError:
                await self.hub.reload(live)
                return
            chance = [dict(c) for c in after.chance_outcomes()]
            drawn = json.loads(json.dumps(chance[len(state.chance_outcomes()) :]))
            if drawn != change.get("chance"):
                await self.hub.reload(live)
                return
            result = after.returns() if after.is_terminal() else None
            self.hub.advance(
                live, int(change["seat"]), action, after, str(change["action"]), chance, result
            )

    async def resync_all(self) -> None:
        """Reload every game in memory (after the connection to the others was lost)."""
        log.info("reloading %d game(s) after reconnecting", len(self.hub.games))
        self.known.clear()
        for live in list(self.hub.games.values()):
            async with live.lock:
                await self.hub.reload(live)
            await self.hub.viewers.broadcast(live)

    async def _watch_stalls(self) -> None:
        """Once a second: give a stalled computer move to this process (see ``stall_after``)."""
        shared = time.monotonic()
        while True:
            await asyncio.sleep(1.0)
            try:
                if time.monotonic() - shared >= PRESENCE_EVERY_SECONDS:
                    shared = time.monotonic()
                    self._share_presence()
                await self._take_stalled()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("checking for stalled computer moves failed")

    async def _take_stalled(self) -> None:
        """Schedule here each computer move nobody made for ``stall_after`` seconds."""
        now = time.monotonic()
        for game_id, live in list(self.hub.games.items()):
            if live.over or live.error is not None:
                continue
            if live.state.current_player() not in live.computer_seats():
                continue
            if live.computer_task is not None and not live.computer_task.done():
                continue
            since = self.changed_at.setdefault(game_id, now)
            if now - since >= self.stall_after:
                log.warning("game %s: the computer move stalled; this process takes it", game_id)
                self.changed_at[game_id] = now
                async with live.lock:
                    await self.hub.reload(live)
                self.hub.schedule_computer(live)
        for game_id in [g for g in self.known if g not in self.hub.games]:
            self.known.pop(game_id, None)
            self.changed_at.pop(game_id, None)
