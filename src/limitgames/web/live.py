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
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from limitgames.agents import Agent, make_agent
from limitgames.core import (
    Action,
    Chance,
    IllegalActionError,
    LimitGamesError,
    NotationError,
    State,
    fresh_seed,
    get_game,
)
from limitgames.web.computer import ComputerPool, resolve_level
from limitgames.web.messages import NewGame
from limitgames.web.storage import (
    STATUS_PLAYING,
    SeatInfo,
    Store,
    StoredGame,
    hash_token,
    token_matches,
)
from limitgames.web.views import render_view

log = logging.getLogger("limitgames.web")
T = TypeVar("T")

MAX_GAMES_IN_MEMORY = 2000
"""Above this many games in memory, finished games nobody watches are dropped (reloaded on demand)."""

Send = Callable[[dict[str, Any]], Awaitable[None]]


class RefusedError(Exception):
    """A request the server answers with a one-line reason; nothing was changed."""


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


def build_state(stored: StoredGame, plies: int | None = None) -> State:
    """Replay a stored game (its first ``plies`` actions, default all) into a state.

    Raises:
        LimitGamesError: if the game is unknown or the record does not replay.
    """
    game = get_game(stored.game)
    chance = ResumingChance(seed=stored.seed, replay=stored.chance)
    state = game.new_initial_state(chance=chance, **stored.variant)
    for text in stored.actions[: plies if plies is not None else len(stored.actions)]:
        state.apply_string(text)
    return state


@dataclass(eq=False)
class Connection:
    """One browser tab on a game: the seats it plays (empty: spectator) and how to reach it."""

    send: Send
    seats: frozenset[int] = frozenset()


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

    @property
    def seats(self) -> list[SeatInfo]:
        """The seats, in order."""
        return self.stored.seats

    def computer_seats(self) -> set[int]:
        """The seats a computer plays."""
        return {s.seat for s in self.seats if s.is_computer}

    def human_seats(self) -> set[int]:
        """The seats people play."""
        return {s.seat for s in self.seats if not s.is_computer}

    def undo_allowed(self, seats: frozenset[int]) -> bool:
        """Undo is for games of perfect information against the computer: ``seats`` hold every human seat.

        (In a game with hidden cards an undo would let a person take back a
        decision after seeing what it revealed.)
        """
        if not get_game(self.stored.game).info.perfect_information:
            return False
        return bool(seats) and bool(self.computer_seats()) and self.human_seats() <= seats

    def check_tokens(self, claims: Iterable[tuple[int, str]]) -> frozenset[int]:
        """The seats whose tokens are right. Raises :class:`RefusedError` naming a wrong one."""
        granted: set[int] = set()
        for seat, token in claims:
            info = self.seats[seat] if 0 <= seat < len(self.seats) else None
            # compare even for a missing seat, so timing says nothing about which part was wrong
            ok = token_matches(token, info.token_hash if info is not None else "0" * 64)
            if info is None or info.is_computer or not ok:
                raise RefusedError(f"wrong token for seat {seat}: you can watch but not play it")
            granted.add(seat)
        return frozenset(granted)

    def view_for(self, seats: frozenset[int]) -> dict[str, Any]:
        """The ``view`` message for a connection playing ``seats`` (empty: spectator)."""
        state = self.state
        to_move = None if state.is_terminal() else state.current_player()
        if to_move is not None and to_move in seats:
            view_seat: int | None = to_move
        else:
            view_seat = min(seats) if seats else None
        your_turn = to_move is not None and to_move in seats and self.error is None
        legal = [state.action_to_string(a) for a in state.legal_actions()] if your_turn else []
        forms = [f.describe() for f in state.action_forms()] if your_turn else []
        info = get_game(self.stored.game).info
        names = state.seat_names()
        rendered = render_view(state, view_seat, info.perfect_information)
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
                    "name": names[s.seat] if s.seat < len(names) else f"seat {s.seat}",
                    "label": s.label,
                    "kind": s.kind,
                    "joined": s.joined,
                }
                for s in self.seats
            ],
            "to_move": to_move,
            "your_turn": your_turn,
            "legal": legal,
            "forms": forms,
            "thinking": self.thinking,
            "finished": state.is_terminal(),
            "returns": state.returns() if state.is_terminal() else None,
            "moves": list(self.notations) if info.perfect_information else None,
            "move_seats": list(self.action_seats) if info.perfect_information else None,
            "can_undo": self.undo_allowed(seats)
            and not state.is_terminal()
            and bool([p for p in self.action_seats if p in seats]),
            "error": self.error,
            **rendered,
        }


class GameHub:
    """Every live game of one server, and the work done on them.

    Args:
        store: the database.
        computers: the pool that runs computer moves.
    """

    def __init__(self, store: Store, computers: ComputerPool) -> None:
        self.store = store
        self.computers = computers
        self.games: dict[str, LiveGame] = {}
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="limit-db")
        self._loading: dict[str, asyncio.Lock] = {}
        self._closed = False

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a :class:`Store` method on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, fn, *args)

    # --- life cycle ----------------------------------------------------------
    async def resume_all(self) -> int:
        """Load every unfinished game and let its computers move; return how many."""
        ids = await self.db(self.store.game_ids, STATUS_PLAYING)
        count = 0
        for game_id in ids:
            live = await self.get(game_id)
            if live is not None:
                count += 1
        log.info("resumed %d unfinished game(s)", count)
        return count

    async def close(self) -> None:
        """Stop computer moves and the database thread."""
        self._closed = True
        for live in self.games.values():
            if live.computer_task is not None:
                live.computer_task.cancel()
        self._db.shutdown(wait=True)

    # --- games -----------------------------------------------------------------
    async def create(self, request: NewGame) -> tuple[str, dict[int, str]]:
        """Start a game from the lobby. Returns ``(game id, {seat: token})`` for the people's seats.

        Raises:
            RefusedError: unknown game, bad variant, wrong number of seats, unknown level.
        """
        try:
            game = get_game(request.game)
            variant = game.info.resolve_variant(request.variant)
            seed = request.seed if request.seed is not None else fresh_seed()
            state = game.new_initial_state(chance=Chance(seed=seed), **variant)
        except LimitGamesError as exc:
            raise RefusedError(str(exc)) from None
        if len(request.seats) != state.num_players:
            raise RefusedError(
                f"this game has {state.num_players} seats but {len(request.seats)} were filled"
            )
        seats: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        for i, choice in enumerate(request.seats):
            if choice.kind == "computer":
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
        )
        live = await self.get(game_id)
        if live is None:  # pragma: no cover - it was just stored
            raise RefusedError("the game could not be stored")
        return game_id, tokens

    async def get(self, game_id: str) -> LiveGame | None:
        """The live game ``game_id`` (loaded from the database if needed), or ``None``."""
        live = self.games.get(game_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self.games.get(game_id)
            if live is not None:
                return live
            stored = await self.db(self.store.load_game, game_id)
            if stored is None:
                return None
            live = self._make_live(stored)
            self._forget_idle_games()
            self.games[game_id] = live
        self._loading.pop(game_id, None)
        self._schedule_computer(live)
        return live

    def _make_live(self, stored: StoredGame) -> LiveGame:
        error = None
        try:
            state = build_state(stored)
        except LimitGamesError as exc:
            log.error("game %s does not replay: %s", stored.id, exc)
            error = f"this game cannot be resumed: {exc}"
            state = build_state(stored, plies=0)
        live = LiveGame(
            id=stored.id,
            stored=stored,
            state=state,
            action_seats=list(stored.action_seats),
            notations=list(stored.actions),
            error=error,
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
            if live.state.is_terminal() and not live.connections:
                del self.games[game_id]

    async def attach(self, live: LiveGame, connection: Connection) -> None:
        """Add a viewer and send it the current view."""
        live.connections.add(connection)
        await self._send(live, connection)

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        """Remove a viewer; a finished game nobody watches leaves memory."""
        live.connections.discard(connection)
        if not live.connections and live.state.is_terminal():
            self.games.pop(live.id, None)

    async def join(
        self, live: LiveGame, connection: Connection, claims: list[tuple[int, str]]
    ) -> None:
        """Check the claimed seats' tokens and make ``connection`` play them."""
        seats = live.check_tokens(claims)
        connection.seats = seats
        newly = [s for s in seats if not live.seats[s].joined]
        for s in newly:
            live.seats[s].joined = True
            await self.db(self.store.mark_joined, live.id, s)
        await connection.send({"type": "welcome", "seats": sorted(seats)})
        if newly:
            await self.broadcast(live)
        else:
            await self._send(live, connection)

    # --- actions -----------------------------------------------------------------
    async def act(self, live: LiveGame, connection: Connection, text: str, ply: int | None) -> None:
        """A person's action. Raises :class:`RefusedError` with the reason; the game is unchanged."""
        async with live.lock:
            state = live.state
            if live.error is not None:
                raise RefusedError(live.error)
            if state.is_terminal():
                raise RefusedError("the game is over")
            seat = state.current_player()
            if not connection.seats:
                raise RefusedError("spectators cannot act: open your invite link to play")
            if seat not in connection.seats:
                raise RefusedError(f"it is not your turn: {state.seat_names()[seat]} is to move")
            if ply is not None and ply != len(live.action_seats):
                raise RefusedError("the position has changed since you saw it; try again")
            try:
                action = state.parse_action(text)
            except NotationError as exc:
                raise RefusedError(f"cannot read {text!r}: {exc.reason}") from None
            if not state.is_legal(action):
                raise RefusedError(_illegal_reason(state, action, text))
            await self._commit(live, seat, action)
        await self.broadcast(live)
        self._schedule_computer(live)

    async def undo(self, live: LiveGame, connection: Connection) -> None:
        """Take back the connection's last decision (and the computers' replies after it).

        Raises :class:`RefusedError` outside games against the computer.
        """
        async with live.lock:
            if not live.undo_allowed(connection.seats):
                raise RefusedError(
                    "undo is only for games against the computer without hidden cards"
                )
            if live.state.is_terminal():
                raise RefusedError("the game is over")
            mine = [i for i, s in enumerate(live.action_seats) if s in connection.seats]
            if not mine:
                raise RefusedError("there is nothing of yours to undo")
            plies = mine[-1]
            stored = live.stored
            stored.actions = list(live.notations)
            stored.action_seats = list(live.action_seats)
            state = build_state(stored, plies=plies)
            chance = [dict(c) for c in state.chance_outcomes()]
            await self.db(self.store.truncate_actions, live.id, plies, chance)
            stored.chance = chance
            live.state = state
            del live.action_seats[plies:]
            del live.notations[plies:]
            live.generation += 1
            live.thinking = None
            for agent in live.agents.values():
                agent.reset()
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
        try:
            await self.db(self.store.append_action, live.id, ply, seat, notation, chance, result)
        except Exception:
            log.exception("game %s: action %d could not be stored", live.id, ply)
            raise RefusedError("the action could not be saved; the game is unchanged") from None
        for agent in live.agents.values():
            agent.observe(state, action)
        live.state = after
        live.action_seats.append(seat)
        live.notations.append(notation)
        live.stored.actions = list(live.notations)
        live.stored.action_seats = list(live.action_seats)
        live.stored.chance = chance
        if result is not None:
            live.stored.result = result
            live.stored.status = "finished"

    # --- computers ---------------------------------------------------------------
    def _schedule_computer(self, live: LiveGame) -> None:
        if self._closed or live.error is not None or live.state.is_terminal():
            return
        if live.state.current_player() not in live.computer_seats():
            return
        if live.computer_task is not None and not live.computer_task.done():
            return
        live.computer_task = asyncio.get_running_loop().create_task(self._computer_moves(live))

    async def _computer_moves(self, live: LiveGame) -> None:
        """Let the computers move until a person is to move or the game ends."""
        try:
            while True:
                async with live.lock:
                    state = live.state
                    if live.error is not None or state.is_terminal():
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
                    live.thinking = None
                    if info.get("timeout"):
                        spec = live.seats[seat].agent_spec or "random"
                        live.agents[seat] = make_agent(spec, seed=secrets.randbits(32))
                    live.last_info = {"seat": seat, **{k: v for k, v in info.items() if _plain(v)}}
                    if not state.is_legal(action):
                        raise LimitGamesError(f"the computer chose an illegal action {action!r}")
                    await self._commit(live, seat, action)
                await self.broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("game %s: computer move failed", live.id)
            live.thinking = None
            live.error = f"the computer player failed: {exc}"
            await self.broadcast(live)

    # --- sending -------------------------------------------------------------------
    async def broadcast(self, live: LiveGame) -> None:
        """Send every viewer its own view (views are computed once per set of seats)."""
        cache: dict[frozenset[int], dict[str, Any]] = {}
        for connection in list(live.connections):
            try:
                view = cache.get(connection.seats)
                if view is None:
                    view = live.view_for(connection.seats)
                    cache[connection.seats] = view
                await connection.send(view)
            except Exception:
                live.connections.discard(connection)

    async def _send(self, live: LiveGame, connection: Connection) -> None:
        await connection.send(live.view_for(connection.seats))


def _illegal_reason(state: State, action: Action, text: str) -> str:
    """The engine's reason why ``action`` is illegal (asked of a copy, so nothing changes)."""
    try:
        state.clone().apply(action)
    except IllegalActionError as exc:
        return f"illegal action {text}: {exc.reason}"
    except LimitGamesError as exc:
        return f"illegal action {text}: {exc}"
    return f"illegal action {text}: it is not among the legal actions"


def _plain(value: Any) -> bool:
    return isinstance(value, (int, float, str, bool)) or value is None
