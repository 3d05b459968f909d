"""Live games: every game being played on this server process, and what is done to them.

The :class:`GameHub` owns the games in memory (:class:`~limitgames.web.live_game.LiveGame`,
loaded from the database on demand and on start-up) and orders what is done
to each under its ``asyncio.Lock``. The order of an action is always: check
(seat, turn, notation, legality) -> apply -> commit to the database ->
announce. A failure in one game (an agent that crashes, a database error) is
caught, reported to that game's viewers and never touches another.

The hub does the games' life (creation, loading, actions, undo, abandonment)
itself and gives the rest to services, each with a small public interface:

- ``hub.database`` (:class:`~limitgames.web.database.Database`): the database
  calls, off the event loop; a database that refuses writes is reported in one line;
- ``hub.viewers`` (:class:`~limitgames.web.viewers.Viewers`): the connections,
  their caps and views, and the changes shared with other processes (``fanout.py``);
- ``hub.seats`` (:class:`~limitgames.web.seats.SeatService`): seats and tokens, open seats;
- ``hub.clocks`` (:class:`~limitgames.web.clock_service.ClockService`): clocks and zombie seats;
- ``hub.chat`` (:class:`~limitgames.web.chat.ChatService`): the seats' and the spectators' chat;
- ``hub.computer_moves`` (:class:`~limitgames.web.computer_moves.ComputerMoves`): computer moves;
- ``hub.endings`` (:class:`~limitgames.web.endings.EndingService`): resign, draw, rematch;
- ``hub.takebacks`` (:class:`~limitgames.web.takebacks.TakebackService`): takebacks between people;
- ``hub.presence`` (:class:`~limitgames.web.presence.PresenceService`): here, away or gone.

What one client may cost (``limits.ServerLimits``): messages are read no
faster than a per-connection and a per-game rate; connections per game and
per address, games started per address and unfinished games per creator are
capped; a game without an action for ``abandon_after`` seconds is abandoned.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from limitgames.agents import make_agent
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
from limitgames.translation import N_, Phrase, gettext, phrase, render
from limitgames.web.chat import ChatService, clean_chat
from limitgames.web.clock_service import ClockService
from limitgames.web.clocks import ClockSettings, GameClock, after_decision, clock_from_stored
from limitgames.web.computer import ComputerPool, resolve_level
from limitgames.web.computer_moves import ComputerMoves
from limitgames.web.connection import Connection
from limitgames.web.database import Database
from limitgames.web.endings import EndingService
from limitgames.web.limits import AddressBuckets, ServerLimits, TokenBucket
from limitgames.web.live_game import (
    GAME_ID,
    DataFiles,
    LiveGame,
    build_state,
    draw_allowed,
    engine_variant,
    resign_result,
)
from limitgames.web.messages import NewGame
from limitgames.web.presence import PresenceService
from limitgames.web.refusals import (
    ConflictError,
    RefusedError,
    StorageUnavailableError,
    TooManyError,
)
from limitgames.web.seats import SeatService, welcome
from limitgames.web.storage import (
    SEAT_OPEN,
    SEED_FROM_CREATOR,
    SEED_FROM_SERVER,
    STATUS_ABANDONED,
    STATUS_PLAYING,
    GameNotPlayingError,
    SeatInfo,
    Store,
    StoredGame,
    hash_token,
)
from limitgames.web.takebacks import TakebackService
from limitgames.web.viewers import Viewers
from limitgames.web.views import shown_name

log = logging.getLogger("limitgames.web")
T = TypeVar("T")

MAX_GAMES_IN_MEMORY = 2000
"""Above this many games in memory, finished games nobody watches are dropped (reloaded on demand)."""


@dataclass
class _Loading:
    """The lock of one game being loaded and how many requests wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiters: int = 0


class GameHub:
    """Every live game of one server process, and the work done on them.

    Args:
        store: the database.
        computers: the pool that runs computer moves.
        limits: rates, caps and time-outs (:class:`~limitgames.web.limits.ServerLimits`).
        data_files: the data sets an admin offers, by name (see
            :func:`~limitgames.web.live_game.engine_variant`).
        db_threads: threads that run database calls (:class:`~limitgames.web.database.Database`).
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
        self.database = Database(store, db_threads)
        self.viewers = Viewers(self.limits)
        self.clocks = ClockService(self)
        self.chat = ChatService(self.database, self.viewers)
        self.computer_moves = ComputerMoves(self)
        self.seats = SeatService(self)
        self.endings = EndingService(self)
        self.takebacks = TakebackService(self)
        self.presence = PresenceService(self.clocks, self.viewers)
        self._loading: dict[str, _Loading] = {}
        self._creations = AddressBuckets(
            self.limits.games_per_hour / 3600.0, self.limits.games_per_hour
        )
        self._sweeper: asyncio.Task[None] | None = None

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
        live.takeback_offer, live.takeback_agreed = None, frozenset()
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
        self.computer_moves.schedule(live)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a :class:`Store` method on a database thread (:meth:`Database.run`).

        Raises:
            StorageUnavailableError: the database refused.
        """
        return await self.database.run(fn, *args)

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
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.computer_moves.close(self.games.values())
        await self.clocks.close()
        self.database.close()

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
            self.viewers.share(live, {"kind": "reload"})
            await self.viewers.broadcast(live)
            if not live.connections:
                self.games.pop(game_id, None)
        return ids

    def _abandoned_text(self) -> Phrase:
        hours = self.limits.abandon_after / 3600
        span = f"{hours:g} h" if hours >= 1 else f"{self.limits.abandon_after:g} s"
        return phrase(N_("this game was abandoned: nobody acted for %(span)s"), span=span)

    # --- connections -----------------------------------------------------------------
    def new_connection(self, address: str, language: str = "en") -> Connection:
        """A connection from ``address`` (:meth:`Viewers.new_connection`)."""
        return self.viewers.new_connection(address, language)

    async def throttle_game(self, live: LiveGame, connection: Connection) -> None:
        """Wait until the players of ``live`` may send another action (the per-game rate).

        Only a connection that plays a seat (its token checked, ``hello``)
        spends the game's budget; a spectator's messages, and the hello that
        claims seats, are counted against that connection's own rate alone
        (:meth:`Connection.throttle`), so spectators cannot slow the players.
        """
        if not connection.seats:
            return
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
        creator = await self.db(self.store.creator_tag, address)
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
        self.schedule_computer(live)
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
            spectator_chat_bucket=TokenBucket(
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
        return self.viewers.attach(live, connection)

    def detach(self, live: LiveGame, connection: Connection) -> None:
        """Remove a viewer; a game that is over and nobody watches leaves memory."""
        if not self.viewers.detach(live, connection):
            return
        if not live.connections and live.stored.status != STATUS_PLAYING:
            self.games.pop(live.id, None)
        self.clocks.presence(live)
        if connection.seats and live.connections:
            self.presence.announce_soon(live)

    async def join(
        self, live: LiveGame, connection: Connection, claims: list[tuple[int, str]]
    ) -> None:
        """A connection says hello: it plays the claimed seats (:meth:`SeatService.claim`).

        It then takes back the seats the computer played while its person
        was away, and is sent its welcome, its view, its chat channel's
        history and the rematch it was offered.

        Raises:
            RefusedError: a wrong token, or the seat was taken meanwhile.
            StorageUnavailableError: the database refused (the invite link still works).
        """
        fresh = await self.seats.claim(live, connection, claims)
        await self.clocks.reclaim(live, connection, automatic=True)
        await connection.send(welcome(connection.seats, fresh))
        if fresh:
            self.viewers.share(live, {"kind": "reload"})
        if fresh or live.seat_presence() != live.presence_shown:
            await self.viewers.broadcast(live)  # one view each, with the seat now here
        else:
            await self.viewers.send_view(live, connection)
        await self.chat.start(live, connection)
        await self.endings.offer_rematch(live, connection)
        self.clocks.presence(live)
        await self.presence.announce(live)

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
                await self.viewers.broadcast(live)
                if ply is not None or attempt == 2:
                    raise
        await self.viewers.broadcast(live)
        self.schedule_computer(live)

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
            await self.commit(live, seat, action)

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
            await self.take_back(live, mine[-1])
        await self.viewers.broadcast(live)
        self.schedule_computer(live)

    async def take_back(self, live: LiveGame, plies: int) -> None:
        """Keep only the first ``plies`` actions of ``live``: stored, then in memory; lock held.

        The record ends as if the later actions had never been taken (the
        actions table and the chance log they drew). A clock gives no time
        back [decision, as Lichess]: the running clock stops with what it has
        left (stored in the same transaction) and the seat to move again
        resumes its own (``ClockService.follow``: a clock per move or in days
        starts a full turn, a Fischer clock what it had after its move). The
        other processes reload the game; the caller broadcasts.

        Raises:
            StorageUnavailableError: the database refused (nothing changed).
        """
        stored = live.stored
        stored.actions = list(live.notations)
        stored.action_seats = list(live.action_seats)
        state = build_state(stored, plies=plies, data_files=self.data_files)
        chance = [dict(c) for c in state.chance_outcomes()]
        clock = live.clock.copy() if live.clock is not None else None
        if clock is not None:
            clock.halt(self.clocks.now())
        snapshot = clock.snapshot(self.clocks.now()) if clock is not None else None
        await self.db(self.store.truncate_actions, live.id, plies, chance, snapshot)
        stored.chance = chance
        live.state = state
        live.previous = None
        del live.action_seats[plies:]
        del live.notations[plies:]
        stored.actions = list(live.notations)
        stored.action_seats = list(live.action_seats)
        live.generation += 1
        live.thinking = None
        live.draw_offer = frozenset()
        live.takeback_offer, live.takeback_agreed = None, frozenset()
        for agent in live.agents.values():
            agent.reset()
        if clock is not None:
            live.clock = clock
            self.clocks.follow(live)
        self.viewers.share(live, {"kind": "reload"})

    async def commit(self, live: LiveGame, seat: int, action: Action) -> None:
        """Apply ``action`` (legal, for ``seat``) to a copy, store it, then make it the game's state.

        The lock is held. Raises :class:`ConflictError` when another server
        process stored this ply first (the game was reloaded),
        :class:`RefusedError` when the game is no longer being played or the
        action could not be stored, :class:`StorageUnavailableError` when the
        database refuses. Views drawn meanwhile still show the stored position:
        nothing is announced before it is committed.
        """
        state = live.state
        notation = state.action_to_string(action)
        after = state.clone()
        after.apply(action)
        ply = len(live.action_seats)
        result = after.returns() if after.is_terminal() else None
        chance = [dict(c) for c in after.chance_outcomes()]
        now = self.clocks.now()
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
        self.viewers.share(
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
        live.takeback_offer, live.takeback_agreed = None, frozenset()  # any move: it lapses
        if result is not None:
            live.stored.result = result
            live.stored.status = "finished"
        live.clock = clock
        self.clocks.follow(live)


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


__all__ = [
    "GAME_ID",
    "MAX_GAMES_IN_MEMORY",
    "ConflictError",
    "Connection",
    "DataFiles",
    "GameHub",
    "LiveGame",
    "RefusedError",
    "StorageUnavailableError",
    "TooManyError",
    "build_state",
    "clean_chat",
    "draw_allowed",
    "engine_variant",
    "resign_result",
]
