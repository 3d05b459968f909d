"""A live game: the engine state and the stored game, what each seat is shown.

A :class:`LiveGame` holds the engine state (rebuilt from the stored record,
:func:`build_state`), the connections watching it, the computer agents of its
seats, its clock and an ``asyncio.Lock`` that orders everything done to it
(the services of ``live.py`` take it).

Hidden information: each connection is sent the view of the seat it plays
(``observation(seat)``), spectators ``observation(None)``; legal actions go
only to the seat to move; the move list in notation is sent only for games of
perfect information (:meth:`LiveGame.view_for`).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from limitgames.agents import Agent
from limitgames.core import Chance, Game, State, VariantError, get_game
from limitgames.core.events import Event
from limitgames.core.outcome import ending_at_table, result_in_words
from limitgames.translation import gettext, render, using
from limitgames.web.clocks import CLOCK_FISCHER, ZOMBIE_TIME, ClockSettings, GameClock
from limitgames.web.connection import Connection
from limitgames.web.end_screen import end_screen, ending_of, outcome_of
from limitgames.web.end_screen import reason as end_reason
from limitgames.web.limits import TokenBucket
from limitgames.web.refusals import RefusedError
from limitgames.web.seat_events import decision_events, events_view
from limitgames.web.storage import (
    SEAT_HUMAN,
    STATUS_ABANDONED,
    STATUS_PLAYING,
    SeatInfo,
    StoredGame,
    seed_fields,
    token_matches,
)
from limitgames.web.views import render_view, shown_name

T = TypeVar("T")

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a game id looks like (the server makes 12 URL-safe characters); others are unknown at once."""

DataFiles = Mapping[str, Mapping[str, str]]
"""``{game id: {data set name: file}}``: the data files an admin offers (``--world-data``)."""


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
    spectator_chat_bucket: TokenBucket = field(default_factory=lambda: TokenBucket(0.8, 20))
    """The spectators' chat budget in this game, apart from the seats' (``chat_bucket``)."""
    draw_offer: frozenset[int] = frozenset()
    takeback_offer: tuple[int, int] | None = None
    """``(seat, plies)``: ``seat`` asks to take back its move, the game's last of ``plies``
    (kept in memory only, like a draw offer; ``takebacks.py``)."""
    takeback_agreed: frozenset[int] = frozenset()
    """The seats that agreed to :attr:`takeback_offer` (the asker's included)."""
    rematch_id: str | None = None
    rematch_tokens: dict[int, tuple[int, str]] = field(default_factory=dict)
    previous: State | None = None
    """The state before the last decision (its announcements); ``None`` after a load or an undo."""
    told: tuple[State, list[Event]] | None = None
    """The events of the last decision and the state they were taken from (``previous``):
    computed once, for every view of that decision (:meth:`last_events`)."""
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
    away_elsewhere: dict[str, frozenset[int]] = field(default_factory=dict)
    """``{server process: seats whose connections there all say they are away}``."""
    away_shared: frozenset[int] = frozenset()
    """The seats whose connections here all say they are away, as last announced."""
    presence_shown: list[str | None] = field(default_factory=list)
    """:meth:`seat_presence` as last sent to the viewers."""

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
        """How a game ended outside its rules: ``{"kind": "resign" | "time", "seat": N}``,
        ``{"kind": "draw"}`` (:func:`~limitgames.web.end_screen.ending_of`)."""
        return ending_of(self.stored)

    def outcome(self) -> dict[str, Any] | None:
        """Why and how the game ended (:meth:`Outcome.to_json`), or ``None`` while it goes on
        (or when the engine does not say): decided in one place,
        :func:`~limitgames.web.end_screen.outcome_of`."""
        found = outcome_of(self.stored, self.state)
        return None if found is None else found.to_json()

    def last_events(self) -> list[Event]:
        """What the last decision did (:func:`~limitgames.web.seat_events.decision_events`),
        with every audience; ``[]`` after a load or an undo (nothing to tell)."""
        before = self.previous
        if before is None or not self.notations:
            return []
        if self.told is None or self.told[0] is not before:
            self.told = (before, decision_events(before, self.notations[-1]))
        return self.told[1]

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

    def away_here(self) -> frozenset[int]:
        """The seats with a connection to this process, every one of which says it is away."""
        here: set[int] = set()
        present: set[int] = set()
        for connection in self.connections:
            present |= connection.seats
            if not connection.away:
                here |= connection.seats
        return frozenset(present - here)

    def seat_presence(self) -> list[str | None]:
        """Each seat's person: ``"here"`` (a page open and in use, on any server process),
        ``"away"`` (pages open, but each hidden or without input for a while), ``"gone"``
        (no page open); ``None`` for a computer's seat."""
        present: set[int] = set()
        for connection in self.connections:
            present |= connection.seats
        away = set(self.away_here())
        for origin, (seats, _heard) in self.present_elsewhere.items():
            present |= seats
            away |= self.away_elsewhere.get(origin, frozenset()) & seats
        here = present - away
        for origin, (seats, _heard) in self.present_elsewhere.items():
            here |= seats - self.away_elsewhere.get(origin, frozenset())
        return [
            None
            if s.is_computer
            else "here"
            if s.seat in here
            else "away"
            if s.seat in present
            else "gone"
            for s in self.seats
        ]

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
        """The result in words, an ending at the table included (``red resigned: blue wins.``)."""
        names = [shown_name(n) for n in self.seat_names()]
        found = outcome_of(self.stored, self.state)
        if found is None:
            return result_in_words(names, self.state.returns())
        if not found.termination.decided_by_rules:
            return end_reason(found, self.stored.game, names, None, self.state)
        return result_in_words(names, found.returns)

    def _outcome_view(self, seats: frozenset[int], names: list[str]) -> dict[str, Any]:
        """``outcome`` (JSON), ``ending_words`` (an ending at the table in one sentence for the
        people at ``seats``, ``You resigned: Blue wins.``, else ``None``) and ``end_screen``
        (:func:`~limitgames.web.end_screen.end_screen`, once the game is over)."""
        found = outcome_of(self.stored, self.state)
        if found is None:
            return {"outcome": None, "ending_words": None}
        shown = [shown_name(n) for n in names]
        you = next(iter(seats)) if len(seats) == 1 else None
        words = None
        if not found.termination.decided_by_rules:
            words = ending_at_table(found, shown, you) or None
        screen = end_screen(found, self.stored.game, shown, sorted(seats), self.state)
        return {"outcome": found.to_json(), "ending_words": words, "end_screen": screen}

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
            "can_resign": bool(seats) and not over,
            "draw_allowed": draw_allowed(self.stored.game, self.seats) and not over,
            "draw_offer": sorted(self.draw_offer),
            "presence": self.seat_presence(),
            "takeback_offer": None if self.takeback_offer is None else self.takeback_offer[0],
            "can_takeback": bool(seats)
            and not over
            and len(self.human_seats()) > 1
            and bool(self.action_seats)
            and self.action_seats[-1] in seats,
            "can_rematch": bool(seats) and over and self.stored.status != STATUS_ABANDONED,
            "rematch_id": self.rematch_id,
            "open_seats": self.open_seats(),
            "moves": list(self.notations) if info.perfect_information else None,
            "move_seats": list(self.action_seats) if info.perfect_information else None,
            "can_undo": self.undo_allowed(seats)
            and not over
            and bool([p for p in self.action_seats if p in seats]),
            "events": events_view(
                self.stored.game, self.last_events(), seats, [shown_name(n) for n in names]
            ),
            "error": render(self.error) if self.error is not None else None,
            "notice": render(self.notice) if self.notice is not None else None,
            "game_status": self.stored.status,
            **seed_fields(self.stored.seed, self.stored.seed_source),
            **clock_view(self, seats, time.monotonic()),
            **rendered,
            **self._outcome_view(seats, names),  # after ``rendered``: its ``end_screen`` too
        }


def time_out_turn(live: LiveGame, seat: int) -> bool:
    """Whether ``seat`` is to move in a game not over (for a seat whose time ran out: the
    turn its time ran out in, which the computer plays)."""
    return not live.over and live.error is None and live.state.current_player() == seat


def reclaimable(live: LiveGame, seat: int) -> bool:
    """Whether the person of zombie ``seat`` may take it back (see the module docstring).

    Not while a seat whose time ran out is still to move: the computer plays
    the turn the time ran out in, else taking the seat back would give that
    same turn fresh time, again and again (the clock would never count).
    """
    info = live.seats[seat]
    if info.zombie is None or live.over:
        return False
    if info.zombie == ZOMBIE_TIME and time_out_turn(live, seat):
        return False
    settings = live.clock_settings
    return not (
        info.zombie == ZOMBIE_TIME
        and settings.kind == CLOCK_FISCHER
        and settings.increment_seconds <= 0
    )


def clock_view(live: LiveGame, seats: frozenset[int], now: float) -> dict[str, Any]:
    """A view's ``clock`` (settings, the seat whose clock runs, seconds left per person's seat
    at ``now``) and ``can_reclaim`` (the zombie seats of ``seats`` their person may take back)."""
    clock = live.clock
    fields: dict[str, Any] = dict(live.clock_settings.to_json())
    fields["running"] = None if clock is None or live.over else clock.running
    fields["remaining"] = (
        None
        if clock is None
        else [
            round(clock.left(s.seat, now), 2) if s.kind == SEAT_HUMAN else None for s in live.seats
        ]
    )
    return {"clock": fields, "can_reclaim": [s for s in sorted(seats) if reclaimable(live, s)]}


__all__ = [
    "GAME_ID",
    "DataFiles",
    "LiveGame",
    "ResumingChance",
    "build_state",
    "clock_view",
    "draw_allowed",
    "engine_variant",
    "reclaimable",
    "resign_result",
]
