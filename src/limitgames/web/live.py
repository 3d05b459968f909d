"""Live games: the states in memory, who is connected, computer moves, undo.

The :class:`GameHub` owns every game being played on this server. A
:class:`LiveGame` holds the engine state (rebuilt from the stored record on
start-up), the connections watching it, the computer agents of its seats and
an ``asyncio.Lock`` that orders everything done to it. The order of an action
is always: check (seat, turn, notation, legality) -> apply -> commit to the
database -> announce. A failure in one game (an agent that crashes, a database
error) is caught, reported to that game's viewers and never touches another.

Hidden information: each connection is sent the view of the seat it plays
(``observation(seat)``), spectators ``observation(None)``; legal actions go
only to the seat to move; the move list in notation is sent only for games of
perfect information.

What one client may cost (``limits.ServerLimits``): every connection has a
bounded send queue emptied by its own sender task, so announcing a move never
waits for a slow reader (one that falls behind is closed with the reason
``resync``); messages are read no faster than a per-connection and a per-game
rate; connections per game and per address, games started per address and
unfinished games per creator are capped; a game without an action for
``abandon_after`` seconds is abandoned. A database that refuses writes (full
disk, read-only) is reported in one line and retried for computer moves, so
the game goes on by itself once the database takes writes again.

Platform features: a seat may resign (:func:`resign_result`), two people may
agree to a draw where the game allows one (:func:`draw_allowed`), the seats
of a game that is over may ask for a rematch (:meth:`GameHub.rematch`), seats
left open are taken by the first who asks (:meth:`GameHub.take_seat`), and a
game has two chat channels: the seats' and the spectators' (a connection
receives only its own channel's messages, :meth:`GameHub.chat`). Clocks and
zombie seats (the computer plays a person's seat whose time ran out or who
left) are kept by :class:`~limitgames.web.clocks.ClockService` (``hub.clocks``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError, InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from limitgames.agents import Agent, make_agent
from limitgames.core import (
    Action,
    Chance,
    Game,
    IllegalActionError,
    LimitGamesError,
    NotationError,
    State,
    VariantError,
    fresh_seed,
    get_game,
)
from limitgames.core.events import Outcome, Termination
from limitgames.core.outcome import ending_at_table, result_in_words
from limitgames.core.record import outcome_json
from limitgames.translation import LANGUAGES, N_, Phrase, gettext, phrase, render, using
from limitgames.web.clocks import (
    ClockService,
    ClockSettings,
    GameClock,
    after_decision,
    clock_from_stored,
    clock_view,
)
from limitgames.web.computer import ComputerPool, resolve_level
from limitgames.web.limits import AddressBuckets, ServerLimits, TokenBucket
from limitgames.web.messages import NewGame, SeatChoice
from limitgames.web.storage import (
    CHANNEL_SEATS,
    CHANNEL_SPECTATORS,
    SEAT_HUMAN,
    SEAT_OPEN,
    SEED_FROM_CREATOR,
    SEED_FROM_SERVER,
    STATUS_ABANDONED,
    STATUS_PLAYING,
    GameNotPlayingError,
    SeatInfo,
    Store,
    StoredGame,
    creator_tag,
    hash_token,
    seed_fields,
    token_matches,
)
from limitgames.web.views import render_view, shown_name

log = logging.getLogger("limitgames.web")
T = TypeVar("T")

MAX_GAMES_IN_MEMORY = 2000
"""Above this many games in memory, finished games nobody watches are dropped (reloaded on demand)."""

SendText = Callable[[str], Awaitable[None]]

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a game id looks like (the server makes 12 URL-safe characters); others are unknown at once."""

DataFiles = Mapping[str, Mapping[str, str]]
"""``{game id: {data set name: file}}``: the data files an admin offers (``--world-data``)."""

STORAGE_MESSAGE = N_(
    "the game database cannot store anything right now (full or read-only); try again in a moment"
)
"""What a client is told when the database refuses a write; it says nothing about files or paths."""


CHAT_HISTORY = 50
"""How many earlier chat messages of its channel a connection gets when it says hello."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Control and bidirectional-override characters, removed from chat text."""


def resign_result(players: int, seat: int) -> list[float]:
    """The returns when ``seat`` resigns a game of ``players`` seats.

    On the scale every game here uses (``core.encoding``; ``rules/cards.md``
    returns: +1 a sole winner, 0 each of several seats sharing the win, -1
    the others): the resigning seat loses (-1); with one opponent left, it
    takes the win (+1); with several, they share it (0 each).

    Per game [decision]: ``hex`` with 2 is the rulebook's "one player alone
    has pawns wins" (``rules/hex.md``, "End"); with 3 the rules would let the
    other two play on, but the engine cannot take one seat's pawns off
    mid-game, so they share the win, as in the rulebook's 3-player draw.
    ``cards`` and ``world`` are scored at the end, and no score is fair for
    a table one seat left, so the others share the win. No rulebook here
    covers a player leaving.
    """
    return [-1.0 if s == seat else (1.0 if players == 2 else 0.0) for s in range(players)]


def draw_allowed(game: str, seats: list[SeatInfo]) -> bool:
    """Whether the seats may agree to a draw: hex between two people.

    Browne's Limit has drawn endings (the stalemate, ``rules/hex.md`` "End"),
    so two players may also agree to one [decision]; cards and world are
    scored games where an agreed draw means nothing, and a computer never
    agrees (it is not offered one).
    """
    return game == "hex" and len(seats) == 2 and all(s.kind == SEAT_HUMAN for s in seats)


def clean_chat(text: str) -> str:
    """Chat text as stored and sent: control characters removed, spaces trimmed.

    The text is kept as plain text (clients show it as text, never as HTML).

    Raises:
        ValueError: nothing is left.
    """
    cleaned = _CONTROL.sub("", text).strip()
    if not cleaned:
        raise ValueError(gettext("the chat message is empty"))
    return cleaned


class RefusedError(Exception):
    """A request the server answers with a one-line reason; nothing was changed."""


class TooManyError(RefusedError):
    """A request refused by a rate limit or a cap (HTTP 429)."""


class ConflictError(RefusedError):
    """Another server process stored a decision of this game first; the game was reloaded."""


class StorageUnavailableError(RefusedError):
    """The database refused (full disk, read-only, unreachable); nothing was changed (HTTP 503)."""


class ResumingChance(Chance):
    """Hands back the recorded chance outcomes, then draws fresh ones from its seed.

    A game resumed from its record needs the outcomes drawn so far, and new
    ones if the game goes on drawing (a later shuffle).
    """

    __slots__ = ()

    def draw(
        self, kind: str, sample: Callable[[Any], T], request: Mapping[str, Any] | None = None
    ) -> T:
        if self._replay is not None and len(self.outcomes) >= len(self._replay):
            self._replay = None
        return super().draw(kind, sample, request)

    def clone(self) -> Chance:
        other = super().clone()
        other.__class__ = ResumingChance
        return other


def engine_variant(game: Game, variant: Mapping[str, Any], data_files: DataFiles) -> dict[str, Any]:
    """``variant`` as the engine takes it: a data set's name becomes the admin's file.

    The server stores (and shows) only names for parameters of kind
    ``path``; the files behind them are the ones named at start-up.

    Raises:
        VariantError: a name this server does not offer (now).
    """
    result = dict(variant)
    offered = data_files.get(game.info.id, {})
    for p in game.info.parameters:
        name = result.get(p.name)
        if p.kind == "path" and name is not None:
            if name not in offered:
                raise VariantError(
                    gettext("%(parameter)s: this server does not offer the data set %(name)r")
                    % {"parameter": p.name, "name": name}
                )
            result[p.name] = offered[name]
    return result


def build_state(
    stored: StoredGame, plies: int | None = None, data_files: DataFiles | None = None
) -> State:
    """Replay a stored game (its first ``plies`` actions, default all) into a state.

    ``data_files`` resolves the names of data sets in the variant (see
    :func:`engine_variant`).

    Raises:
        LimitGamesError: if the game is unknown or the record does not replay.
    """
    game = get_game(stored.game)
    chance = ResumingChance(seed=stored.seed, replay=stored.chance)
    variant = engine_variant(game, stored.variant, data_files or {})
    state = game.new_initial_state(chance=chance, **variant)
    for text in stored.actions[: plies if plies is not None else len(stored.actions)]:
        state.apply_string(text)
    return state


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


@dataclass
class LiveGame:
    """A game in memory (see the module docstring)."""

    id: str
    stored: StoredGame
    state: State
    action_seats: list[int]
    notations: list[str]
    agents: dict[int, Agent] = field(default_factory=dict)
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    thinking: int | None = None
    generation: int = 0
    error: str | None = None
    computer_task: asyncio.Task[None] | None = None
    last_info: dict[str, Any] = field(default_factory=dict)
    notice: str | None = None
    actions: TokenBucket = field(default_factory=lambda: TokenBucket(20.0, 40))
    chat_bucket: TokenBucket = field(default_factory=lambda: TokenBucket(0.8, 20))
    draw_offer: frozenset[int] = frozenset()
    rematch_id: str | None = None
    rematch_tokens: dict[int, tuple[int, str]] = field(default_factory=dict)
    previous: State | None = None
    """The state before the last decision (its announcements); ``None`` after a load or an undo."""
    clock_settings: ClockSettings = field(default_factory=ClockSettings)
    clock: GameClock | None = None
    """The seats' clocks (``None``: no clock); see ``clocks.py``."""
    away_since: dict[int, float] = field(default_factory=dict)
    """``{seat: time.monotonic() when its last connection closed}`` for people's seats."""
    clock_changed: asyncio.Event = field(default_factory=asyncio.Event)
    present_elsewhere: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)
    """``{server process: (seats with a connection there, time.monotonic() when heard)}``."""
    present_shared: frozenset[int] = frozenset()
    """The seats with a connection here, as last announced to the other server processes."""

    @property
    def over(self) -> bool:
        """Whether the game is over: by its rules, a resignation, a draw or abandonment."""
        return self.stored.status != STATUS_PLAYING or self.state.is_terminal()

    def open_seats(self) -> list[int]:
        """The seats still open (anyone may take them)."""
        return [s.seat for s in self.seats if s.is_open]

    @property
    def seats(self) -> list[SeatInfo]:
        """The seats, in order."""
        return self.stored.seats

    def computer_seats(self) -> set[int]:
        """The seats a computer plays: computers' and zombies' (``clocks.py``)."""
        return {s.seat for s in self.seats if s.is_computer or s.zombie is not None}

    def human_seats(self) -> set[int]:
        """The seats people play."""
        return {s.seat for s in self.seats if not s.is_computer}

    def ending(self) -> dict[str, Any] | None:
        """How a game ended outside its rules: ``{"kind": "resign", "seat": N}``, ``{"kind": "draw"}``."""
        ending = self.stored.ending
        if ending is None:
            return None
        if ending.startswith("resign:"):
            return {"kind": "resign", "seat": int(ending.split(":", 1)[1])}
        return {"kind": ending}

    def outcome(self) -> dict[str, Any] | None:
        """Why and how the game ended (:meth:`Outcome.to_json`), or ``None`` while it goes on
        (or when the engine does not say): a resignation or an agreed draw is decided at the
        table (:meth:`Outcome.at_table`), any other ending by the rules (``State.outcome``)."""
        ending = self.ending()
        if ending is not None and self.stored.result is not None:
            if ending["kind"] == "resign":
                at_table = Termination.RESIGNATION
            elif ending["kind"] == "draw":
                at_table = Termination.AGREED_DRAW
            else:
                return None
            return Outcome.at_table(at_table, self.stored.result, ending.get("seat")).to_json()
        return outcome_json(self.state)

    def undo_allowed(self, seats: frozenset[int]) -> bool:
        """Undo is for games of perfect information against the computer: ``seats`` hold every human seat.

        (In a game with hidden cards an undo would let a person take back a
        decision after seeing what it revealed.)
        """
        if not get_game(self.stored.game).info.perfect_information or self.clock is not None:
            return False  # [decision] no undo against a clock
        return bool(seats) and bool(self.computer_seats()) and self.human_seats() <= seats

    def check_tokens(self, claims: Iterable[tuple[int, str]]) -> frozenset[int]:
        """The seats whose tokens are right. Raises :class:`RefusedError` naming a wrong one."""
        granted: set[int] = set()
        for seat, token in claims:
            info = self.seats[seat] if 0 <= seat < len(self.seats) else None
            # compare even for a missing seat, so timing says nothing about which part was wrong
            ok = token_matches(token, info.token_hash if info is not None else "0" * 64)
            if info is None or info.is_computer or not ok:
                raise RefusedError(
                    gettext(
                        "wrong token for seat %(seat)s: you can watch but not play it "
                        "(an invite link works once: the first browser to open it keeps the seat)"
                    )
                    % {"seat": seat}
                )
            granted.add(seat)
        return frozenset(granted)

    def seat_names(self) -> list[str]:
        """The name of each seat as its page shows it.

        A game whose seats have names of their own (hex's colours, world's
        nations) keeps them. Otherwise (cards: the engine says ``seat 0``...)
        a person's seat takes the name typed in the lobby, and a seat without
        one, a computer's included, is ``seat N`` numbered from 1 as the lobby
        numbers them; a name two seats share gets its seat number added.
        """
        engine = self.state.seat_names()
        if engine != [f"seat {i}" for i in range(len(engine))]:
            return engine
        placeholders = {"", "me", "friend", "guest", "open"}
        names = [
            s.label
            if not s.is_computer and s.label.strip().lower() not in placeholders
            else gettext("seat %(number)d") % {"number": s.seat + 1}
            for s in self.seats
        ]
        names += [
            gettext("seat %(number)d") % {"number": i + 1} for i in range(len(names), len(engine))
        ]
        return [
            gettext("%(name)s (seat %(number)d)") % {"name": name, "number": i + 1}
            if names.count(name) > 1
            else name
            for i, name in enumerate(names)
        ]

    def result_words(self) -> str:
        """The result in words, a resignation or an agreed draw included (``red resigned; blue wins``)."""
        ending = self.ending()
        names = self.seat_names()
        if ending is None or self.stored.result is None:
            return result_in_words(names, self.state.returns())
        if ending["kind"] == "draw":
            return gettext("draw by agreement")
        resigned = gettext("%(player)s resigned") % {"player": names[ending["seat"]]}
        return f"{resigned}; " + result_in_words(names, self.stored.result)

    def _outcome_view(self, seats: frozenset[int], names: list[str]) -> dict[str, Any]:
        """``outcome`` (JSON) and ``ending_words``: a resignation or an agreed draw in one
        sentence for the people at ``seats`` (``You resigned: Blue wins.``), else ``None``."""
        outcome = self.outcome()
        words = None
        if outcome is not None:
            ended = Outcome.from_json(outcome)
            if not ended.termination.decided_by_rules:
                you = next(iter(seats)) if len(seats) == 1 else None
                words = ending_at_table(ended, [shown_name(n) for n in names], you) or None
        return {"outcome": outcome, "ending_words": words}

    def view_in(self, seats: frozenset[int], language: str) -> dict[str, Any]:
        """:meth:`view_for` with its words in ``language``."""
        with using(language):
            return self.view_for(seats)

    def view_for(self, seats: frozenset[int]) -> dict[str, Any]:
        """The ``view`` message for a connection playing ``seats`` (empty: spectator)."""
        state = self.state
        over = self.over
        to_move = None if over else state.current_player()
        if to_move is not None and to_move in seats:
            view_seat: int | None = to_move
        else:
            view_seat = min(seats) if seats else None
        your_turn = (
            to_move is not None
            and to_move in seats
            and self.error is None
            and self.seats[to_move].zombie is None
        )
        legal = [state.action_to_string(a) for a in state.legal_actions()] if your_turn else []
        forms = [f.describe() for f in state.action_forms()] if your_turn else []
        targets = getattr(state, "action_targets", None)  # hex: what to click, per pawn
        info = get_game(self.stored.game).info
        names = self.seat_names()
        rendered = render_view(
            state,
            view_seat,
            info.perfect_information,
            previous=self.previous,
            seats=sorted(seats),
            names=names,
        )
        return {
            "type": "view",
            "game_id": self.id,
            "game": self.stored.game,
            "title": info.title,
            "ply": len(self.action_seats),
            "seat": view_seat,
            "seats": sorted(seats),
            "players": [
                {
                    "seat": s.seat,
                    "name": shown_name(names[s.seat])
                    if s.seat < len(names)
                    else gettext("seat %(number)d") % {"number": s.seat + 1},
                    "engine_name": names[s.seat] if s.seat < len(names) else "",
                    "label": s.label,
                    "kind": s.kind,
                    "joined": s.joined,
                    "zombie": s.zombie,
                }
                for s in self.seats
            ],
            "to_move": to_move,
            "your_turn": your_turn,
            "legal": legal,
            "forms": forms,
            "targets": targets() if your_turn and targets is not None else None,
            "thinking": self.thinking,
            "finished": over and self.stored.status != STATUS_ABANDONED,
            "returns": (
                state.returns()
                if state.is_terminal()
                else list(self.stored.result)
                if over and self.stored.result is not None
                else None
            ),
            "ending": self.ending(),
            **self._outcome_view(seats, names),
            "can_resign": bool(seats) and not over,
            "draw_allowed": draw_allowed(self.stored.game, self.seats) and not over,
            "draw_offer": sorted(self.draw_offer),
            "can_rematch": bool(seats) and over and self.stored.status != STATUS_ABANDONED,
            "rematch_id": self.rematch_id,
            "open_seats": self.open_seats(),
            "moves": list(self.notations) if info.perfect_information else None,
            "move_seats": list(self.action_seats) if info.perfect_information else None,
            "can_undo": self.undo_allowed(seats)
            and not over
            and bool([p for p in self.action_seats if p in seats]),
            "error": render(self.error) if self.error is not None else None,
            "notice": render(self.notice) if self.notice is not None else None,
            "game_status": self.stored.status,
            **seed_fields(self.stored.seed, self.stored.seed_source),
            **clock_view(self, seats, time.monotonic()),
            **rendered,
        }


@dataclass
class _Loading:
    """The lock of one game being loaded and how many requests wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiters: int = 0


class GameHub:
    """Every live game of one server, and the work done on them.

    Args:
        store: the database.
        computers: the pool that runs computer moves.
        limits: rates, caps and time-outs (:class:`~limitgames.web.limits.ServerLimits`).
        data_files: the data sets an admin offers, by name (see :func:`engine_variant`).
        db_threads: threads that run database calls: 1 for SQLite (one writer
            at a time); more let a server database (PostgreSQL) commit
            several games' actions at once (one game's are ordered by its lock).
    """

    def __init__(
        self,
        store: Store,
        computers: ComputerPool,
        limits: ServerLimits | None = None,
        data_files: DataFiles | None = None,
        db_threads: int = 1,
    ) -> None:
        self.store = store
        self.computers = computers
        self.limits = limits or ServerLimits()
        self.data_files: DataFiles = data_files or {}
        self.games: dict[str, LiveGame] = {}
        self._db = ThreadPoolExecutor(max_workers=db_threads, thread_name_prefix="limit-db")
        self._loading: dict[str, _Loading] = {}
        self._closed = False
        self._creations = AddressBuckets(
            self.limits.games_per_hour / 3600.0, self.limits.games_per_hour
        )
        self._takes = AddressBuckets(
            self.limits.games_per_hour / 3600.0, self.limits.games_per_hour
        )
        self._address_connections: dict[str, int] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.clocks = ClockService(self)
        self.on_change: Callable[[LiveGame, dict[str, Any]], None] | None = None
        """Called with each committed change (``fanout.SharedGames.publish``: other processes)."""

    def _changed(self, live: LiveGame, change: dict[str, Any]) -> None:
        """Tell the other server processes (if any) about a committed change of ``live``."""
        if self.on_change is not None:
            self.on_change(live, change)

    async def reload(self, live: LiveGame) -> None:
        """Bring ``live`` back to what the database holds (another process changed it); lock held.

        Its connections stay; a computer move being thought over here is
        dropped when it comes back (the generation changes).
        """
        stored = await self.db(self.store.load_game, live.id)
        if stored is None:
            return
        fresh = self._make_live(stored)
        live.stored = fresh.stored
        live.state = fresh.state
        live.action_seats = fresh.action_seats
        live.notations = fresh.notations
        live.agents = fresh.agents
        live.error = fresh.error
        live.previous = None
        live.thinking = None
        live.draw_offer = frozenset()
        live.generation += 1
        # the clock as stored with the last decision, and agents for the zombie seats
        live.clock_settings = ClockSettings.from_json(stored.clock, self.limits.zombie_after)
        live.clock = clock_from_stored(live.clock_settings, stored.clock_state, len(live.seats))
        for s in live.seats:
            if s.zombie is not None and s.seat not in live.agents:
                spec = self.clocks.zombie_spec(stored.game)
                live.agents[s.seat] = make_agent(spec, seed=secrets.randbits(32))
        self.clocks.follow(live)

    def schedule_computer(self, live: LiveGame) -> None:
        """Start the computer moves of ``live`` here if a computer is to move and none runs."""
        self._schedule_computer(live)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a :class:`Store` method on the database thread.

        Raises:
            StorageUnavailableError: the database refused (full disk,
                read-only, unreachable); logged in one line, no traceback.
        """
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._db, fn, *args)
        except (OperationalError, InternalError, PoolTimeoutError) as exc:
            reason = getattr(exc, "orig", None) or exc
            first = str(reason).splitlines()[0] if str(reason) else type(reason).__name__
            log.warning("the database refused %s: %s", getattr(fn, "__name__", "a call"), first)
            raise StorageUnavailableError(gettext(STORAGE_MESSAGE)) from None

    # --- life cycle ----------------------------------------------------------
    async def resume_all(self) -> int:
        """Abandon idle games, load every other unfinished game and let its computers move.

        Returns how many were loaded. Starts the task that abandons games
        which fall idle later (every ``abandon_after / 4`` seconds, at most
        every minute).
        """
        try:
            abandoned = await self.db(self.store.abandon_idle, self._idle_cutoff())
        except StorageUnavailableError:  # a read-only database still serves its games
            abandoned = []
        if abandoned:
            log.info("abandoned %d game(s) without an action for too long", len(abandoned))
        ids = await self.db(self.store.game_ids, STATUS_PLAYING)
        count = 0
        for game_id in ids:
            live = await self.get(game_id)
            if live is not None:
                count += 1
        log.info("resumed %d unfinished game(s)", count)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        return count

    async def close(self) -> None:
        """Stop computer moves, the sweeper and the database thread."""
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for live in self.games.values():
            if live.computer_task is not None:
                live.computer_task.cancel()
        await self.clocks.close()
        self._db.shutdown(wait=True)

    def _idle_cutoff(self) -> datetime:
        return datetime.now(UTC) - timedelta(seconds=self.limits.abandon_after)

    async def _sweep_forever(self) -> None:
        period = max(0.05, min(60.0, self.limits.abandon_after / 4))
        while True:
            await asyncio.sleep(period)
            try:
                await self.abandon_idle()
            except StorageUnavailableError:
                pass  # logged; tried again next time
            except Exception:
                log.exception("abandoning idle games failed")

    async def abandon_idle(self) -> list[str]:
        """Abandon every game without an action for ``abandon_after`` seconds; return their ids.

        Abandoned, not adjudicated: no rulebook of these games says who wins
        an unfinished game (and with hidden cards nobody could tell), so an
        abandoned game is over with no result. Its viewers are told; it is
        never resumed.
        """
        ids = await self.db(self.store.abandon_idle, self._idle_cutoff())
        for game_id in ids:
            live = self.games.get(game_id)
            if live is None:
                continue
            async with live.lock:
                live.stored.status = STATUS_ABANDONED
                live.error = self._abandoned_text()
                live.thinking = None
                if live.computer_task is not None:
                    live.computer_task.cancel()
                self.clocks.wake(live)
            self._changed(live, {"kind": "reload"})
            await self.broadcast(live)
            if not live.connections:
                self.games.pop(game_id, None)
        return ids

    def _abandoned_text(self) -> Phrase:
        hours = self.limits.abandon_after / 3600
        span = f"{hours:g} h" if hours >= 1 else f"{self.limits.abandon_after:g} s"
        return phrase(N_("this game was abandoned: nobody acted for %(span)s"), span=span)

    # --- connections -----------------------------------------------------------------
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

    async def throttle_game(self, live: LiveGame) -> None:
        """Wait until the people of ``live`` may send another action (the per-game rate)."""
        delay = live.actions.reserve()
        if delay > 0:
            await asyncio.sleep(delay)

    # --- games -----------------------------------------------------------------
    def _stored_variant(self, game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
        """The variant to store: values only; a ``path`` parameter takes a data set's name.

        Raises:
            VariantError: a bad value, a non-finite number, or a data set this server does not offer.
        """
        given = dict(given)
        offered = self.data_files.get(game.info.id, {})
        names: dict[str, str] = {}
        for p in game.info.parameters:
            if p.local and given.get(p.name) not in (None, ""):
                raise VariantError(
                    gettext(
                        "%(parameter)s: cannot be set over the network (this server offers "
                        "its data sets by name)"
                    )
                    % {"parameter": p.name}
                )
            if p.kind != "path" or p.name not in given:
                continue
            value = given.pop(p.name)
            if value is None or value == "":
                continue
            if not isinstance(value, str) or value not in offered:
                known = ", ".join(sorted(offered)) if offered else gettext("none")
                raise VariantError(
                    gettext(
                        "%(parameter)s: names one of the data sets this server offers "
                        "(offered: %(known)s)"
                    )
                    % {"parameter": p.name, "known": known}
                )
            names[p.name] = value
        variant = game.info.resolve_variant(given)
        for key, value in variant.items():
            if isinstance(value, float) and not math.isfinite(value):
                raise VariantError(
                    gettext("%(parameter)s: %(value)s is not a finite number")
                    % {"parameter": key, "value": value}
                )
        variant.update(names)
        return variant

    async def create(
        self, request: NewGame, address: str = "local", rematch_of: str | None = None
    ) -> tuple[str, dict[int, str]]:
        """Start a game from the lobby. Returns ``(game id, {seat: token})`` for the people's seats.

        ``address`` is the client's network address: it may start
        ``games_per_hour`` games an hour and have ``unfinished_per_creator``
        unfinished ones. For a game with hidden information and more than one
        person the server draws the seed (a seed chosen by one of them would
        tell that person every hand); a seed the creator chose is shown to
        every seat (:func:`~limitgames.web.storage.seed_fields`).

        Raises:
            RefusedError: unknown game, bad variant, wrong number of seats,
                unknown level, a chosen seed where the server must draw it.
            TooManyError: too many games started or unfinished from ``address``.
            StorageUnavailableError: the database refused.
        """
        try:
            game = get_game(request.game)
            variant = self._stored_variant(game, request.variant)
            people = sum(1 for c in request.seats if c.kind != "computer")
            if request.seed is not None and not game.info.perfect_information and people > 1:
                raise RefusedError(
                    gettext(
                        "seed: the server draws the seed of a game with hidden information "
                        "between people (a chosen seed would tell its chooser every hand)"
                    )
                )
            seed = request.seed if request.seed is not None else fresh_seed()
            state = game.new_initial_state(
                chance=Chance(seed=seed), **engine_variant(game, variant, self.data_files)
            )
        except LimitGamesError as exc:
            raise RefusedError(str(exc)) from None
        if len(request.seats) != state.num_players:
            raise RefusedError(
                gettext("this game has %(seats)d seats but %(filled)d were filled")
                % {"seats": state.num_players, "filled": len(request.seats)}
            )
        clock = self.clocks.settings_for(request.clock)
        seats: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        for i, choice in enumerate(request.seats):
            if choice.kind == "open":
                seats.append(SeatInfo(i, SEAT_OPEN, choice.name or "open"))
            elif choice.kind == "computer":
                try:
                    resolved = resolve_level(game.info.id, choice.level)
                except ValueError as exc:
                    raise RefusedError(str(exc)) from None
                seats.append(SeatInfo(i, "computer", resolved.level, agent_spec=resolved.spec))
            else:
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                label = choice.name or ("me" if choice.kind == "me" else "friend")
                seats.append(
                    SeatInfo(
                        i, "human", label, token_hash=hash_token(token), joined=choice.kind == "me"
                    )
                )
        creator = creator_tag(address)
        unfinished = await self.db(self.store.unfinished_by, creator)
        if unfinished >= self.limits.unfinished_per_creator:
            raise TooManyError(
                gettext(
                    "you have as many unfinished games on this server as it allows "
                    "(%(most)d): finish one first"
                )
                % {"most": self.limits.unfinished_per_creator}
            )
        if not self._creations.take(address):
            raise TooManyError(
                gettext(
                    "too many new games from your address (at most %(most)d an hour): "
                    "try again later"
                )
                % {"most": self.limits.games_per_hour}
            )
        game_id = secrets.token_urlsafe(9)
        await self.db(
            self.store.create_game,
            game_id,
            game.info.id,
            variant,
            seed,
            [dict(c) for c in state.chance_outcomes()],
            game.info.rules_version,
            seats,
            creator,
            SEED_FROM_CREATOR if request.seed is not None else SEED_FROM_SERVER,
            rematch_of,
            clock.to_json(),
            self.clocks.initial_state(clock, len(seats)),
        )
        live = await self.get(game_id)
        if live is None:  # pragma: no cover - it was just stored
            raise RefusedError(gettext("the game could not be stored"))
        return game_id, tokens

    async def get(self, game_id: str) -> LiveGame | None:
        """The live game ``game_id`` (loaded from the database if needed), or ``None``.

        An id that is not a game's keeps nothing in memory (a malformed one
        is not even looked up).

        Raises:
            StorageUnavailableError: the database refused.
        """
        live = self.games.get(game_id)
        if live is not None:
            return live
        if not GAME_ID.fullmatch(game_id):
            return None
        loading = self._loading.get(game_id)
        if loading is None:
            loading = self._loading[game_id] = _Loading()
        loading.waiters += 1
        try:
            async with loading.lock:
                live = self.games.get(game_id)
                if live is not None:
                    return live
                stored = await self.db(self.store.load_game, game_id)
                if stored is None:
                    return None
                live = self._make_live(stored)
                self.clocks.load(live)
                self._forget_idle_games()
                self.games[game_id] = live
        finally:
            loading.waiters -= 1
            if loading.waiters == 0:
                del self._loading[game_id]
        self._schedule_computer(live)
        return live

    def _make_live(self, stored: StoredGame) -> LiveGame:
        error: str | None = None
        try:
            state = build_state(stored, data_files=self.data_files)
        except LimitGamesError as exc:
            log.error("game %s does not replay: %s", stored.id, exc)
            error = phrase(N_("this game cannot be resumed: %(reason)s"), reason=str(exc))
            try:
                state = build_state(stored, plies=0, data_files=self.data_files)
            except LimitGamesError:
                state = get_game(stored.game).new_initial_state(seed=0)
        if stored.status == STATUS_ABANDONED:
            error = self._abandoned_text()
        live = LiveGame(
            id=stored.id,
            stored=stored,
            state=state,
            action_seats=list(stored.action_seats),
            notations=list(stored.actions),
            error=error,
            actions=TokenBucket(self.limits.actions_per_second, self.limits.action_burst),
            chat_bucket=TokenBucket(
                4 * self.limits.chat_per_minute / 60.0, 4 * self.limits.chat_burst
            ),
        )
        for s in stored.seats:
            if s.is_computer:
                live.agents[s.seat] = make_agent(
                    s.agent_spec or "random", seed=secrets.randbits(32)
                )
        return live

    def _forget_idle_games(self) -> None:
        """Keep memory bounded: drop finished games nobody watches once there are many."""
        if len(self.games) < MAX_GAMES_IN_MEMORY:
            return
        for game_id, live in list(self.games.items()):
            if live.stored.status != STATUS_PLAYING and not live.connections:
                del self.games[game_id]

    def attach(self, live: LiveGame, connection: Connection) -> str | None:
        """Add a viewer and queue it the current view; or the reason it is refused (a cap)."""
        if len(live.connections) >= self.limits.connections_per_game:
            return gettext(
                "this game has as many viewers as this server allows (%(most)d): try again later"
            ) % {"most": self.limits.connections_per_game}
        held = self._address_connections.get(connection.address, 0)
        if held >= self.limits.connections_per_address:
            return gettext(
                "too many connections from your address (at most %(most)d): close some tabs"
            ) % {"most": self.limits.connections_per_address}
        self._address_connections[connection.address] = held + 1
        live.connections.add(connection)
        connection.push(json.dumps(live.view_in(connection.seats, connection.language)))
        return None

    def detach(self, live: LiveGame, connection: Connection) -> None:
        """Remove a viewer; a game that is over and nobody watches leaves memory."""
        if connection not in live.connections:
            return
        live.connections.discard(connection)
        held = self._address_connections.get(connection.address, 0) - 1
        if held > 0:
            self._address_connections[connection.address] = held
        else:
            self._address_connections.pop(connection.address, None)
        if not live.connections and live.stored.status != STATUS_PLAYING:
            self.games.pop(live.id, None)
        self.clocks.presence(live)

    async def join(
        self, live: LiveGame, connection: Connection, claims: list[tuple[int, str]]
    ) -> None:
        """Check the claimed seats' tokens and make ``connection`` play them.

        The first time a person opens an invited seat, its token is replaced
        by a new one sent only to this connection (``welcome.tokens``): the
        invite link, which the game's creator also saw, stops working, so
        the creator never keeps another seat's token.

        Raises:
            RefusedError: a wrong token, or the seat was taken meanwhile.
            StorageUnavailableError: the database refused (the invite link still works).
        """
        fresh: dict[int, str] = {}
        async with live.lock:
            try:
                seats = live.check_tokens(claims)
            except RefusedError:
                claimed = [live.seats[s] for s, _ in claims if 0 <= s < len(live.seats)]
                if self.on_change is None or all(info.joined for info in claimed):
                    raise
                # another server process may have rotated that seat's token: look again
                await self.reload(live)
                seats = live.check_tokens(claims)
            try:
                for s in sorted(seats):
                    if live.seats[s].joined:
                        continue
                    token = secrets.token_urlsafe(24)
                    token_hash = hash_token(token)
                    if not await self.db(self.store.mark_joined, live.id, s, token_hash):
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
                    await connection.send(self._welcome(connection.seats, fresh))
                raise
            connection.seats = seats
            self.clocks.follow(live)  # a table just completed starts its clocks
            self.clocks.presence(live)
        await self.clocks.reclaim(live, connection, automatic=True)
        await connection.send(self._welcome(seats, fresh))
        if fresh:
            self._changed(live, {"kind": "reload"})
            await self.broadcast(live)
        else:
            await self._send(live, connection)
        await self._start_chat(live, connection)
        await self._offer_rematch(live, connection)

    @staticmethod
    def _welcome(seats: frozenset[int], fresh: dict[int, str]) -> dict[str, Any]:
        welcome: dict[str, Any] = {"type": "welcome", "seats": sorted(seats)}
        if fresh:
            welcome["tokens"] = {str(s): t for s, t in fresh.items()}
        return welcome

    # --- actions -----------------------------------------------------------------
    async def act(self, live: LiveGame, connection: Connection, text: str, ply: int | None) -> None:
        """A person's action. Raises :class:`RefusedError` with the reason; the game is unchanged.

        When another server process stored a decision first (:class:`ConflictError`),
        the game is reloaded and the action checked again against the new
        position (an action sent with its ``ply`` is then refused: the
        position changed).
        """
        for attempt in range(3):
            try:
                await self._act_once(live, connection, text, ply)
                break
            except ConflictError:
                await self.broadcast(live)
                if ply is not None or attempt == 2:
                    raise
        await self.broadcast(live)
        self._schedule_computer(live)

    async def _act_once(
        self, live: LiveGame, connection: Connection, text: str, ply: int | None
    ) -> None:
        async with live.lock:
            state = live.state
            if live.error is not None:
                raise RefusedError(render(live.error))
            if live.over:
                raise RefusedError(gettext("the game is over"))
            seat = state.current_player()
            if not connection.seats:
                raise RefusedError(gettext("spectators cannot act: open your invite link to play"))
            if seat not in connection.seats:
                raise RefusedError(
                    gettext("it is not your turn: %(player)s is to move")
                    % {"player": shown_name(live.seat_names()[seat])}
                )
            refused = self.clocks.refuse_action(live, seat)
            if refused is not None:
                raise RefusedError(refused)
            if ply is not None and ply != len(live.action_seats):
                raise RefusedError(gettext("the position has changed since you saw it; try again"))
            try:
                action = state.parse_action(text)
            except NotationError as exc:
                raise RefusedError(
                    gettext("cannot read %(text)r: %(reason)s")
                    % {"text": text, "reason": exc.reason}
                ) from None
            if not state.is_legal(action):
                raise RefusedError(_illegal_reason(state, action, text))
            await self._commit(live, seat, action)

    async def undo(self, live: LiveGame, connection: Connection) -> None:
        """Take back the connection's last decision (and the computers' replies after it).

        Raises :class:`RefusedError` outside games against the computer.
        """
        async with live.lock:
            if not live.undo_allowed(connection.seats):
                raise RefusedError(
                    gettext("undo is only for games against the computer without hidden cards")
                )
            if live.over:
                raise RefusedError(gettext("the game is over"))
            mine = [i for i, s in enumerate(live.action_seats) if s in connection.seats]
            if not mine:
                raise RefusedError(gettext("there is nothing of yours to undo"))
            plies = mine[-1]
            stored = live.stored
            stored.actions = list(live.notations)
            stored.action_seats = list(live.action_seats)
            state = build_state(stored, plies=plies, data_files=self.data_files)
            chance = [dict(c) for c in state.chance_outcomes()]
            await self.db(self.store.truncate_actions, live.id, plies, chance)
            stored.chance = chance
            live.state = state
            live.previous = None
            del live.action_seats[plies:]
            del live.notations[plies:]
            live.generation += 1
            live.thinking = None
            for agent in live.agents.values():
                agent.reset()
            self._changed(live, {"kind": "reload"})
        await self.broadcast(live)
        self._schedule_computer(live)

    async def _commit(self, live: LiveGame, seat: int, action: Action) -> None:
        """Apply ``action`` (legal, for ``seat``) to a copy, store it, then make it the game's state.

        The lock is held. Views drawn meanwhile still show the stored position:
        nothing is announced before it is committed.
        """
        state = live.state
        notation = state.action_to_string(action)
        after = state.clone()
        after.apply(action)
        ply = len(live.action_seats)
        result = after.returns() if after.is_terminal() else None
        chance = [dict(c) for c in after.chance_outcomes()]
        now = time.monotonic()
        clock = None
        if live.clock is not None:
            clock = after_decision(
                live.clock, seat, None if after.is_terminal() else after.current_player(), now
            )
        try:
            await self.db(
                self.store.append_action,
                live.id,
                ply,
                seat,
                notation,
                chance,
                result,
                clock.snapshot(now) if clock is not None else None,
            )
        except StorageUnavailableError:
            raise
        except GameNotPlayingError:
            await self.reload(live)
            raise RefusedError(gettext("this game is no longer being played")) from None
        except IntegrityError:
            await self.reload(live)  # another process stored ply ``ply`` first
            raise ConflictError(
                gettext("the position has changed since you saw it; try again")
            ) from None
        except Exception:
            log.exception("game %s: action %d could not be stored", live.id, ply)
            raise RefusedError(
                gettext("the action could not be saved; the game is unchanged")
            ) from None
        drawn = len(state.chance_outcomes())
        self.advance(live, seat, action, after, notation, chance, result, clock)
        self._changed(
            live,
            {
                "kind": "action",
                "ply": ply,
                "seat": seat,
                "action": notation,
                "chance": chance[drawn:],
            },
        )

    def advance(
        self,
        live: LiveGame,
        seat: int,
        action: Action,
        after: State,
        notation: str,
        chance: list[dict[str, Any]],
        result: list[float] | None,
        clock: GameClock | None = None,
    ) -> None:
        """Make ``after`` (``action`` by ``seat``, stored) the game's state; the lock is held.

        ``clock`` is the game's clock after the decision (``None``: no clock).
        """
        state = live.state
        for agent in live.agents.values():
            agent.observe(state, action)
        live.previous = state
        live.state = after
        live.action_seats.append(seat)
        live.notations.append(notation)
        live.stored.actions = list(live.notations)
        live.stored.action_seats = list(live.action_seats)
        live.stored.chance = chance
        live.draw_offer = frozenset()
        if result is not None:
            live.stored.result = result
            live.stored.status = "finished"
        live.clock = clock
        self.clocks.follow(live)

    # --- the end of a game, rematch -------------------------------------------------
    async def resign(self, live: LiveGame, connection: Connection, seat: int | None) -> None:
        """``seat`` (one of the connection's; may be left out when it plays one) resigns.

        The game ends with :func:`resign_result`. Raises :class:`RefusedError`
        when the game is over or the seat is not the connection's.
        """
        async with live.lock:
            if seat is None:
                if len(connection.seats) != 1:
                    raise RefusedError(
                        gettext("spectators cannot resign")
                        if not connection.seats
                        else gettext("say which of your seats resigns")
                    )
                seat = next(iter(connection.seats))
            if seat not in connection.seats:
                raise RefusedError(
                    gettext("seat %(seat)s is not yours: you cannot resign it") % {"seat": seat}
                )
            await self._end(live, resign_result(len(live.seats), seat), f"resign:{seat}")
        await self.broadcast(live)

    async def draw(self, live: LiveGame, connection: Connection, accept: bool) -> None:
        """Offer or agree to a draw (``accept``), or decline the one offered.

        The game ends in a draw (0 each) once every seat agreed
        (:func:`draw_allowed` says where a draw may be offered).
        """
        async with live.lock:
            if live.over:
                raise RefusedError(gettext("the game is over"))
            if not connection.seats:
                raise RefusedError(gettext("spectators cannot offer a draw"))
            if not draw_allowed(live.stored.game, live.seats):
                raise RefusedError(gettext("a draw can be agreed only in hex between two people"))
            if not accept:
                if not live.draw_offer - connection.seats:
                    raise RefusedError(gettext("there is no draw offer to decline"))
                live.draw_offer = frozenset()
            else:
                live.draw_offer = live.draw_offer | connection.seats
                if live.draw_offer >= {s.seat for s in live.seats}:
                    await self._end(live, [0.0] * len(live.seats), "draw")
            if not live.over:
                self._changed(live, {"kind": "draw", "offer": sorted(live.draw_offer)})
        await self.broadcast(live)

    async def _end(self, live: LiveGame, result: list[float], ending: str) -> None:
        """Store the end of a game outside its rules (the lock is held)."""
        if live.over:
            raise RefusedError(gettext("the game is over"))
        if not await self.db(self.store.end_game, live.id, result, ending):
            raise RefusedError(gettext("this game is no longer being played"))
        live.stored.status = "finished"
        live.stored.result = list(result)
        live.stored.ending = ending
        live.draw_offer = frozenset()
        live.thinking = None
        live.generation += 1
        if live.computer_task is not None:
            live.computer_task.cancel()
        self.clocks.follow(live)
        self._changed(live, {"kind": "reload"})

    async def rematch(self, live: LiveGame, connection: Connection) -> None:
        """A seat of a finished game asks for a rematch.

        The first request starts a new game with the same game and variant,
        a fresh seed drawn by the server, and the seats rotated (the player
        of seat i plays seat i+1 mod n; computers keep their level, seats
        never taken stay open). Each person's new token goes only to
        connections that proved their old seat (``{"type": "rematch"}``),
        now or when they come back, on this server process and, through
        ``on_change``, on the others (:meth:`adopt_rematch`); later requests
        get the same game. The
        tokens wait in memory: after a restart the rematch's seats are
        reached through the link of whoever was sent it.

        Raises:
            RefusedError: a spectator, a game not finished.
            TooManyError: the asking address started too many games.
        """
        async with live.lock:
            if not connection.seats:
                raise RefusedError(gettext("spectators cannot ask for a rematch"))
            if not live.over or live.stored.status == STATUS_ABANDONED:
                raise RefusedError(gettext("a rematch is for a game that is over"))
            if live.rematch_id is None:
                n = len(live.seats)
                choices: list[SeatChoice] = [SeatChoice(kind="open")] * n
                for s in live.seats:
                    if s.is_computer:
                        choice = SeatChoice(kind="computer", level=s.label)
                    elif s.is_open:
                        choice = SeatChoice(kind="open")
                    else:
                        choice = SeatChoice(kind="me", name=s.label)
                    choices[(s.seat + 1) % n] = choice
                request = NewGame(
                    game=live.stored.game,
                    variant=dict(live.stored.variant),
                    seats=choices,
                    clock=live.clock_settings.to_choice(),
                )
                game_id, tokens = await self.create(request, connection.address, live.id)
                live.rematch_id = game_id
                live.rematch_tokens = {(new - 1) % n: (new, token) for new, token in tokens.items()}
                self._changed(
                    live,
                    {
                        "kind": "rematch",
                        "game_id": game_id,
                        "tokens": {
                            str(old): [new, token]
                            for old, (new, token) in live.rematch_tokens.items()
                        },
                    },
                )
        for other in list(live.connections):
            await self._offer_rematch(live, other)
        await self.broadcast(live)

    async def adopt_rematch(
        self, live: LiveGame, game_id: str, tokens: dict[int, tuple[int, str]]
    ) -> None:
        """A rematch of ``live`` started by another server process: offer it here.

        ``tokens`` is ``{old seat: (new seat, token)}``; each connection here
        is sent only the tokens of the seats it proved
        (:meth:`_offer_rematch`). When two processes started a rematch at
        the same moment, both keep the one with the smaller game id
        [decision], so both seats meet in the same game (the other stays
        unplayed and is abandoned in time).
        """
        async with live.lock:
            if live.rematch_id is not None and live.rematch_id <= game_id:
                return
            live.rematch_id = game_id
            live.rematch_tokens = dict(tokens)
        for other in list(live.connections):
            await self._offer_rematch(live, other)
        await self.broadcast(live)

    async def _offer_rematch(self, live: LiveGame, connection: Connection) -> None:
        if live.rematch_id is None:
            return
        mine = {
            str(new): token
            for old, (new, token) in live.rematch_tokens.items()
            if old in connection.seats
        }
        if mine:
            await connection.send({"type": "rematch", "game_id": live.rematch_id, "tokens": mine})

    # --- open seats ----------------------------------------------------------------
    async def take_seat(self, live: LiveGame, seat: int, name: str) -> str:
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
            if not await self.db(self.store.take_seat, live.id, seat, token_hash, label):
                raise RefusedError(
                    gettext("seat %(seat)s is not open (somebody took it)") % {"seat": seat}
                )
            info = live.seats[seat]
            info.kind = SEAT_HUMAN
            info.token_hash = token_hash
            info.joined = True
            info.label = label
            self.clocks.follow(live)
            self.clocks.presence(live)
            self._changed(live, {"kind": "reload"})
        await self.broadcast(live)
        return token

    def take_allowed(self, address: str) -> bool:
        """Whether ``address`` may take another open seat (``games_per_hour`` an hour, like starting one)."""
        return self._takes.take(address)

    async def open_games(self) -> list[dict[str, Any]]:
        """Public summaries of the games being played with an open seat, newest first."""
        ids = await self.db(self.store.open_game_ids, 100)
        if not ids:
            return []
        return await self.db(self.store.summaries, ids, STATUS_PLAYING, 100)

    # --- chat ------------------------------------------------------------------------
    async def _start_chat(self, live: LiveGame, connection: Connection) -> None:
        """Put a connection that said hello in its channel and send it that channel's history."""
        channel = CHANNEL_SEATS if connection.seats else CHANNEL_SPECTATORS
        connection.chat_channel = channel
        history = await self.db(self.store.chat_history, live.id, channel, CHAT_HISTORY)
        await connection.send({"type": "chat", "history": True, "messages": history})

    async def chat(self, live: LiveGame, connection: Connection, text: str) -> None:
        """Store a chat message and send it to the connections of the sender's channel.

        A seat writes to the seats' channel, a spectator to the spectators';
        neither ever receives the other's. Raises :class:`RefusedError`
        before a hello, when the text is empty, or beyond the chat rate
        (``ServerLimits.chat_per_minute``, per connection and per game).
        """
        channel = connection.chat_channel
        if channel is None:
            raise RefusedError(gettext("say hello first (the page does): chat is per channel"))
        try:
            cleaned = clean_chat(text)
        except ValueError as exc:
            raise RefusedError(str(exc)) from None
        if not connection.chat_bucket.take() or not live.chat_bucket.take():
            raise TooManyError(gettext("you are chatting too fast: wait a moment"))
        if channel == CHANNEL_SEATS:
            writer = min(connection.seats)
            seat: int | None = writer
            author = live.seats[writer].label or live.state.seat_names()[writer]
        else:
            seat, author = None, "spectator"
        message = await self.db(self.store.add_chat, live.id, channel, seat, author[:64], cleaned)
        self.deliver_chat(live, channel, message)
        self._changed(live, {"kind": "chat", "channel": channel, "message": message})

    def deliver_chat(self, live: LiveGame, channel: str, message: dict[str, Any]) -> None:
        """Queue a stored chat message to this server's connections of ``channel``."""
        text_out = json.dumps({"type": "chat", "history": False, "messages": [message]})
        for other in list(live.connections):
            if other.chat_channel == channel:
                other.push(text_out)

    # --- computers ---------------------------------------------------------------
    def _schedule_computer(self, live: LiveGame) -> None:
        if self._closed or live.error is not None or live.over:
            return
        if live.state.current_player() not in live.computer_seats():
            return
        if live.computer_task is not None and not live.computer_task.done():
            return
        live.computer_task = asyncio.get_running_loop().create_task(self._computer_moves(live))

    async def _computer_moves(self, live: LiveGame) -> None:
        """Let the computers move until a person is to move or the game ends.

        In a game where a person plays, a computer's decision is stored (and
        shown) no sooner than ``limits.computer_pause`` seconds after the
        decision before it; the wait is an ``asyncio.sleep``, so other games
        and this game's chat go on meanwhile.
        """
        pause = self.limits.computer_pause if live.human_seats() else 0.0
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
                await self.broadcast(live)
                action, info = await self.computers.choose(agent, state)
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
                if not await self._store_computer_move(live, seat, action, state, generation):
                    return  # another server process moves this game's computers now
                shown = time.monotonic()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("game %s: computer move failed", live.id)
            live.thinking = None
            live.error = phrase(N_("the computer player failed: %(reason)s"), reason=str(exc))
            await self.broadcast(live)

    async def _store_computer_move(
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
                    await self._commit(live, seat, action)
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
            await self.broadcast(live)
            if stored:
                return not conflict
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.limits.storage_retry_max)

    # --- sending -------------------------------------------------------------------
    async def broadcast(self, live: LiveGame) -> None:
        """Queue every viewer its own view (computed and encoded once per set of seats).

        Never waits for a client: a viewer whose queue is full is closed with
        the reason ``resync`` (see :class:`Connection`).
        """
        cache: dict[tuple[frozenset[int], str], str] = {}
        for connection in list(live.connections):
            key = (connection.seats, connection.language)
            text = cache.get(key)
            if text is None:
                text = json.dumps(live.view_in(connection.seats, connection.language))
                cache[key] = text
            connection.push(text)

    async def _send(self, live: LiveGame, connection: Connection) -> None:
        await connection.send(live.view_in(connection.seats, connection.language))


def _illegal_reason(state: State, action: Action, text: str) -> str:
    """The engine's reason why ``action`` is illegal (asked of a copy, so nothing changes)."""
    try:
        state.clone().apply(action)
    except IllegalActionError as exc:
        reason = str(exc.reason)
    except LimitGamesError as exc:
        reason = str(exc)
    else:
        reason = gettext("it is not among the legal actions")
    return gettext("illegal action %(action)s: %(reason)s") % {"action": text, "reason": reason}


def _plain(value: Any) -> bool:
    return isinstance(value, (int, float, str, bool)) or value is None
