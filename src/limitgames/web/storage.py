"""Storage of the web app's games: the :class:`Store` over the tables of ``schema.py``.

A game is stored as its record (``DESIGN.md``, "Records"): the game id, the
variant, the seed, the seats, the chance outcomes drawn so far and the actions
in notation, one row per action. Every action is committed (its row and the
game's chance log, in one transaction) before it is announced to anybody, so a
restarted server replays each unfinished game to exactly where it was. The
tables, the engine and the migrations are in :mod:`limitgames.web.schema`.

A seat of kind :data:`SEAT_OPEN` waits for anyone to take it
(:meth:`Store.take_seat`); it then becomes a ``"human"`` seat. A game that
ended outside its rules keeps how in ``games.ending`` (``"resign:N"``, ``"time:N"``,
``"draw"``).

Clocks (``web/clocks.py``): ``games.clock`` holds the settings chosen at
creation (``None``: a game stored before clocks existed), ``games.clock_state``
each seat's remaining seconds (``{"remaining": [...]}``), written with every
action and when a seat becomes a zombie; ``seats.zombie`` says why the
computer plays a person's seat (``"time"``, ``"left"``; ``None``: the person).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, Integer, String, delete, func, insert, literal, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from limitgames.core import GameRecord, seed_commitment
from limitgames.web.creators import creator_tag, shared_secret
from limitgames.web.schema import (
    CHANNEL_SEATS,
    CHANNEL_SPECTATORS,
    SEAT_COMPUTER,
    SEAT_HUMAN,
    SEAT_OPEN,
    SEED_FROM_CREATOR,
    SEED_FROM_SERVER,
    STATUS_ABANDONED,
    STATUS_FINISHED,
    STATUS_PLAYING,
    ActionRow,
    ChatRow,
    GameRow,
    SeatRow,
    default_database_url,
    make_engine,
    migrate,
)


class GameNotPlayingError(Exception):
    """A write to a game that is no longer being played (finished or abandoned meanwhile)."""


def hash_token(token: str) -> str:
    """The SHA-256 hex digest of a seat token (what the database keeps)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seed_fields(seed: int | None, source: str) -> dict[str, Any]:
    """What everybody may know of a game's seed during play.

    ``{"seed_source", "seed", "seed_commitment"}``: a seed chosen by the
    game's creator is shown to everybody; a seed the server drew is shown
    only as its :func:`seed_commitment` (the record reveals it at the end).
    """
    if seed is None:
        return {"seed_source": source, "seed": None, "seed_commitment": None}
    if source == SEED_FROM_CREATOR:
        return {"seed_source": source, "seed": seed, "seed_commitment": None}
    return {"seed_source": source, "seed": None, "seed_commitment": seed_commitment(seed)}


def token_matches(token: str, token_hash: str | None) -> bool:
    """Whether ``token`` hashes to ``token_hash``, compared in constant time."""
    if token_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


@dataclass
class SeatInfo:
    """A seat as the live game needs it (see :class:`SeatRow`)."""

    seat: int
    kind: str
    label: str
    agent_spec: str | None = None
    token_hash: str | None = None
    joined: bool = False
    zombie: str | None = None
    """Why the computer plays this person's seat (``"time"``, ``"left"``), or ``None``."""

    @property
    def is_computer(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind == SEAT_COMPUTER

    @property
    def is_open(self) -> bool:
        """Whether this seat still waits for somebody to take it."""
        return self.kind == SEAT_OPEN

    def record_name(self) -> str:
        """The seat's entry in a record: ``human:LABEL`` or the agent spec."""
        if self.is_computer:
            return self.agent_spec or "random"
        return f"human:{self.label}"


@dataclass
class StoredGame:
    """A game as read back from the database: enough to replay it."""

    id: str
    game: str
    variant: dict[str, Any]
    seed: int | None
    chance: list[dict[str, Any]]
    rules_version: str
    status: str
    result: list[float] | None
    seats: list[SeatInfo]
    actions: list[str] = field(default_factory=list)
    action_seats: list[int] = field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    seed_source: str = SEED_FROM_SERVER
    ending: str | None = None
    rematch_of: str | None = None
    clock: dict[str, Any] | None = None
    clock_state: dict[str, Any] | None = None

    def record(self, outcome: dict[str, Any] | None = None) -> GameRecord:
        """The game's :class:`GameRecord` (``result`` set once finished), with ``outcome``
        (``Outcome.to_json()``, the server's :func:`~limitgames.web.end_screen.outcome_of`)
        once the game is over, as records written by ``limit play`` carry it."""
        return GameRecord(
            game=self.game,
            variant=dict(self.variant),
            seats=[s.record_name() for s in self.seats],
            actions=list(self.actions),
            chance=[dict(c) for c in self.chance],
            seed=self.seed,
            result=list(self.result) if self.result is not None else None,
            rules_version=self.rules_version,
            outcome=outcome if self.status != STATUS_PLAYING else None,
            meta={
                "site": "limit serve",
                "game_id": self.id,
                "date": (self.created_at or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "status": self.status,
                "seed_source": self.seed_source,
                **({"ending": self.ending} if self.ending is not None else {}),
                **({"clock": dict(self.clock)} if self.clock is not None else {}),
                **(
                    {"seed_commitment": seed_commitment(self.seed)}
                    if self.seed is not None and self.seed_source == SEED_FROM_SERVER
                    else {}
                ),
            },
        )


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """The games in one database. Every method is one transaction, committed on return.

    Methods are synchronous; the server runs them on its database thread.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._creator_key: bytes | None = None

    @classmethod
    def open(cls, url: str, run_migrations: bool = True) -> Store:
        """Open (and by default migrate) the database at ``url``."""
        engine = make_engine(url)
        if run_migrations:
            migrate(engine)
        return cls(engine)

    def load_secrets(self) -> None:
        """Read the database's shared secrets, making them on the very first start (``creators.py``).

        Raises:
            sqlalchemy.exc.DBAPIError: the database cannot be reached or written.
        """
        if self._creator_key is None:
            self._creator_key = shared_secret(self.engine)

    def creator_tag(self, address: str) -> str:
        """What the database keeps of the address that started a game: its HMAC-SHA-256 under
        the database's shared key, hex (:mod:`limitgames.web.creators`)."""
        self.load_secrets()
        assert self._creator_key is not None
        return creator_tag(address, self._creator_key)

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    def _session(self) -> Session:
        return self._sessions()

    # --- writing ------------------------------------------------------------
    def create_game(
        self,
        game_id: str,
        game: str,
        variant: dict[str, Any],
        seed: int | None,
        chance: list[dict[str, Any]],
        rules_version: str,
        seats: list[SeatInfo],
        creator: str | None = None,
        seed_source: str = SEED_FROM_SERVER,
        rematch_of: str | None = None,
        clock: dict[str, Any] | None = None,
        clock_state: dict[str, Any] | None = None,
    ) -> None:
        """Insert a new game with its seats and no action.

        ``creator`` is :func:`creator_tag` of the address that started it;
        ``seed_source`` says who chose the seed (:data:`SEED_FROM_SERVER`
        or :data:`SEED_FROM_CREATOR`); ``rematch_of`` the game it follows;
        ``clock`` and ``clock_state`` the clock settings and remaining times.
        """
        now = _now()
        with self._session() as session, session.begin():
            session.add(
                GameRow(
                    id=game_id,
                    game=game,
                    variant=variant,
                    seed=seed,
                    chance=chance,
                    rules_version=rules_version,
                    status=STATUS_PLAYING,
                    result=None,
                    plies=0,
                    created_at=now,
                    updated_at=now,
                    creator=creator,
                    seed_source=seed_source,
                    rematch_of=rematch_of,
                    clock=clock,
                    clock_state=clock_state,
                )
            )
            for s in seats:
                session.add(
                    SeatRow(
                        game_id=game_id,
                        seat=s.seat,
                        kind=s.kind,
                        label=s.label,
                        agent_spec=s.agent_spec,
                        token_hash=s.token_hash,
                        joined=s.joined,
                    )
                )

    def append_action(
        self,
        game_id: str,
        ply: int,
        seat: int,
        notation: str,
        chance: list[dict[str, Any]],
        result: list[float] | None,
        clock_state: dict[str, Any] | None = None,
    ) -> None:
        """Commit action number ``ply`` (0-based) with the chance log after it.

        ``result`` is the final returns when this action ended the game;
        ``clock_state`` (when given) the clocks after it, in the same transaction.

        Raises:
            sqlalchemy.exc.IntegrityError: that ply is already stored.
            GameNotPlayingError: the game is not being played any more
                (abandoned meanwhile); nothing is stored.
        """
        now = _now()
        values: dict[str, Any] = {
            "chance": chance,
            "plies": ply + 1,
            "updated_at": now,
            "status": STATUS_FINISHED if result is not None else STATUS_PLAYING,
            "result": result,
        }
        if clock_state is not None:
            values["clock_state"] = clock_state
        if self.engine.dialect.name == "postgresql":
            self._append_in_one_statement(game_id, ply, seat, notation, now, values)
            return
        with self._session() as session, session.begin():
            session.add(
                ActionRow(game_id=game_id, ply=ply, seat=seat, notation=notation, created_at=now)
            )
            changed = session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == STATUS_PLAYING)
                .values(**values)
            )
            if _rowcount(changed) != 1:
                raise GameNotPlayingError(game_id)

    def _append_in_one_statement(
        self,
        game_id: str,
        ply: int,
        seat: int,
        notation: str,
        now: datetime,
        values: dict[str, Any],
    ) -> None:
        """:meth:`append_action` on PostgreSQL: one statement, its own transaction.

        ``WITH moved AS (UPDATE games ... RETURNING id) INSERT INTO actions
        SELECT ... FROM moved``: the game row is updated only while the game
        is being played, and the action inserted only if it was; a ply already
        stored fails the whole statement (``IntegrityError``), as in the
        transaction of two statements used elsewhere (also when that ply ended
        the game, so the update found it finished). One round trip instead of
        four (BEGIN, INSERT, UPDATE, COMMIT): a server process waits for the
        database on every action.
        """
        moved = (
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.status == STATUS_PLAYING)
            .values(**values)
            .returning(GameRow.id)
            .cte("moved")
        )
        statement = insert(ActionRow).from_select(
            ["game_id", "ply", "seat", "notation", "created_at"],
            select(
                moved.c.id,
                literal(ply, Integer),
                literal(seat, Integer),
                literal(notation, String),
                literal(now, DateTime(timezone=True)),
            ),
        )
        with self.engine.connect() as connection:
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")
            inserted = connection.execute(statement.returning(ActionRow.ply)).fetchall()
            if len(inserted) == 1:
                return
            # nothing stored: the game is over or abandoned; if because that very ply ended
            # it (another process won the race), say so as the two-statement version does
            taken = connection.execute(
                select(ActionRow.ply).where(ActionRow.game_id == game_id, ActionRow.ply == ply)
            ).first()
        if taken is not None:
            raise IntegrityError(
                "INSERT INTO actions", {"game_id": game_id, "ply": ply}, Exception("ply taken")
            )
        raise GameNotPlayingError(game_id)

    def truncate_actions(
        self,
        game_id: str,
        plies: int,
        chance: list[dict[str, Any]],
        clock_state: dict[str, Any] | None = None,
    ) -> None:
        """Keep only the first ``plies`` actions (an undo, a takeback) and the chance log
        they drew; ``clock_state`` (when given) is the clocks afterwards."""
        values: dict[str, Any] = {
            "chance": chance,
            "plies": plies,
            "updated_at": _now(),
            "status": STATUS_PLAYING,
            "result": None,
        }
        if clock_state is not None:
            values["clock_state"] = clock_state
        with self._session() as session, session.begin():
            session.execute(
                delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.ply >= plies)
            )
            session.execute(update(GameRow).where(GameRow.id == game_id).values(**values))

    def mark_joined(self, game_id: str, seat: int, token_hash: str | None = None) -> bool:
        """Note that the person invited to ``seat`` has opened the game.

        With ``token_hash``, the seat's token is replaced at the same time (the
        invite link stops working). Returns ``False`` (nothing changed) when
        the seat had already been joined meanwhile.
        """
        values: dict[str, Any] = {"joined": True}
        if token_hash is not None:
            values["token_hash"] = token_hash
        with self._session() as session, session.begin():
            changed = session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.joined.is_(False))
                .values(**values)
            )
            return _rowcount(changed) == 1

    def set_zombie(
        self,
        game_id: str,
        seat: int,
        zombie: str | None,
        clock_state: dict[str, Any] | None,
        plies: int | None = None,
    ) -> bool:
        """Mark ``seat`` played by the computer (``zombie``: why) or by its person again (``None``).

        Only a change happens: a seat that is already a zombie is not made one
        again, nor given back twice; with ``plies``, only while the game is
        being played and has exactly that many actions stored. So when
        several server processes see the same clock run out, the first one
        decides and the others are told ``False`` (the row locks of both
        updates order them). ``clock_state`` (when given) is stored in the
        same transaction.

        Returns:
            ``True`` when the seat was changed, ``False`` (nothing stored) otherwise.
        """
        game = update(GameRow).where(GameRow.id == game_id)
        if plies is not None:
            game = game.where(GameRow.plies == plies, GameRow.status == STATUS_PLAYING)
        seat_row = update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
        if zombie is None:
            seat_row = seat_row.where(SeatRow.zombie.is_not(None))
        else:
            seat_row = seat_row.where(SeatRow.zombie.is_(None))
        values: dict[str, Any] = {"plies": GameRow.plies}
        if clock_state is not None:
            values["clock_state"] = clock_state
        try:
            with self._session() as session, session.begin():
                # the game's row first: it orders this against an action being stored meanwhile
                if _rowcount(session.execute(game.values(**values))) != 1:
                    raise _Unchanged
                if _rowcount(session.execute(seat_row.values(zombie=zombie))) != 1:
                    raise _Unchanged  # rolls the game's row back too
        except _Unchanged:
            return False
        return True

    def save_clock(self, game_id: str, clock_state: dict[str, Any]) -> None:
        """Store the remaining times of a game's clocks (a server shutting down)."""
        with self._session() as session, session.begin():
            session.execute(
                update(GameRow).where(GameRow.id == game_id).values(clock_state=clock_state)
            )

    def end_game(self, game_id: str, result: list[float], ending: str) -> bool:
        """End a game being played outside its rules (``ending``: ``"resign:N"``, ``"draw"``,
        ``"time:N"``; see :mod:`limitgames.web.end_screen`).

        Returns ``False`` (nothing changed) when the game was not being played.
        """
        with self._session() as session, session.begin():
            changed = session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == STATUS_PLAYING)
                .values(status=STATUS_FINISHED, result=result, ending=ending, updated_at=_now())
            )
            return _rowcount(changed) == 1

    def take_seat(self, game_id: str, seat: int, token_hash: str, label: str) -> bool:
        """Give the open ``seat`` to whoever holds the token of ``token_hash``.

        One conditional UPDATE, so of two people taking the same seat at once
        exactly one gets it. Returns ``False`` (nothing changed) when the seat
        is not open or the game is not being played.
        """
        with self._session() as session, session.begin():
            playing = session.scalar(
                select(GameRow.id).where(GameRow.id == game_id, GameRow.status == STATUS_PLAYING)
            )
            if playing is None:
                return False
            changed = session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.kind == SEAT_OPEN)
                .values(kind=SEAT_HUMAN, token_hash=token_hash, joined=True, label=label)
            )
            return _rowcount(changed) == 1

    def add_chat(
        self, game_id: str, channel: str, seat: int | None, author: str, text: str
    ) -> dict[str, Any]:
        """Store a chat message; return it as sent to clients (see :meth:`chat_history`)."""
        now = _now()
        with self._session() as session, session.begin():
            row = ChatRow(
                game_id=game_id,
                channel=channel,
                seat=seat,
                author=author,
                text=text,
                created_at=now,
            )
            session.add(row)
            session.flush()
            return _chat_message(row)

    def chat_history(self, game_id: str, channel: str, limit: int = 50) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a game's ``channel``, oldest first.

        Each is ``{"id", "channel", "seat", "author", "text", "at"}`` (plain text).
        """
        with self._session() as session:
            rows = list(
                session.scalars(
                    select(ChatRow)
                    .where(ChatRow.game_id == game_id, ChatRow.channel == channel)
                    .order_by(ChatRow.id.desc())
                    .limit(limit)
                )
            )
            return [_chat_message(r) for r in reversed(rows)]

    def open_game_ids(self, limit: int = 100) -> list[str]:
        """Games being played with at least one open seat, newest first."""
        with self._session() as session:
            query = (
                select(GameRow.id)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(GameRow.status == STATUS_PLAYING, SeatRow.kind == SEAT_OPEN)
                .group_by(GameRow.id, GameRow.updated_at)
                .order_by(GameRow.updated_at.desc())
                .limit(limit)
            )
            return list(session.scalars(query))

    def abandon_idle(self, before: datetime) -> list[str]:
        """Mark every game being played whose last action is older than ``before`` abandoned.

        Returns their ids. (The games keep their actions; they are over, with no result.)
        """
        with self._session() as session, session.begin():
            ids = list(
                session.scalars(
                    select(GameRow.id).where(
                        GameRow.status == STATUS_PLAYING, GameRow.updated_at < before
                    )
                )
            )
            if ids:
                session.execute(
                    update(GameRow)
                    .where(GameRow.id.in_(ids), GameRow.status == STATUS_PLAYING)
                    .values(status=STATUS_ABANDONED)
                )
            return ids

    def unfinished_by(self, creator: str) -> int:
        """How many games started by ``creator`` (a :func:`creator_tag`) are being played."""
        with self._session() as session:
            query = (
                select(func.count())
                .select_from(GameRow)
                .where(GameRow.creator == creator, GameRow.status == STATUS_PLAYING)
            )
            return int(session.scalar(query) or 0)

    # --- reading ------------------------------------------------------------
    def load_game(self, game_id: str) -> StoredGame | None:
        """The game ``game_id`` with its seats and actions, or ``None``."""
        with self._session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            return self._stored(session, row)

    def game_ids(self, status: str | None = None) -> list[str]:
        """The ids of every game (or those with ``status``), oldest first."""
        with self._session() as session:
            query = select(GameRow.id).order_by(GameRow.created_at, GameRow.id)
            if status is not None:
                query = query.where(GameRow.status == status)
            return list(session.scalars(query))

    def summaries(
        self, ids: list[str] | None = None, status: str | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        """Short public descriptions of games, newest first (no tokens, no actions).

        Each is ``{"id", "game", "variant", "status", "plies", "result",
        "seats": [{"seat", "kind", "label", "joined"}], "created_at", "updated_at",
        "seed_source", "seed", "seed_commitment"}``: the seed itself only when
        its creator chose it (else its commitment, see :func:`seed_commitment`).
        """
        with self._session() as session:
            query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
            if ids is not None:
                query = query.where(GameRow.id.in_(ids))
            if status is not None:
                query = query.where(GameRow.status == status)
            rows = list(session.scalars(query))
            seats: dict[str, list[SeatRow]] = {}
            if rows:
                seat_rows = session.scalars(
                    select(SeatRow)
                    .where(SeatRow.game_id.in_([r.id for r in rows]))
                    .order_by(SeatRow.seat)
                )
                for s in seat_rows:
                    seats.setdefault(s.game_id, []).append(s)
            return [
                {
                    "id": r.id,
                    "game": r.game,
                    "variant": r.variant,
                    "status": r.status,
                    "plies": r.plies,
                    "result": r.result,
                    "seats": [
                        {"seat": s.seat, "kind": s.kind, "label": s.label, "joined": s.joined}
                        for s in seats.get(r.id, [])
                    ],
                    "created_at": _iso(r.created_at),
                    "updated_at": _iso(r.updated_at),
                    "ending": r.ending,
                    "rematch_of": r.rematch_of,
                    "clock": r.clock,
                    **seed_fields(r.seed, r.seed_source),
                }
                for r in rows
            ]

    def _stored(self, session: Session, row: GameRow) -> StoredGame:
        seat_rows = session.scalars(
            select(SeatRow).where(SeatRow.game_id == row.id).order_by(SeatRow.seat)
        )
        action_rows = list(
            session.scalars(
                select(ActionRow).where(ActionRow.game_id == row.id).order_by(ActionRow.ply)
            )
        )
        return StoredGame(
            id=row.id,
            game=row.game,
            variant=dict(row.variant),
            seed=row.seed,
            chance=list(row.chance),
            rules_version=row.rules_version,
            status=row.status,
            result=list(row.result) if row.result is not None else None,
            seats=[
                SeatInfo(
                    seat=s.seat,
                    kind=s.kind,
                    label=s.label,
                    agent_spec=s.agent_spec,
                    token_hash=s.token_hash,
                    joined=s.joined,
                    zombie=s.zombie,
                )
                for s in seat_rows
            ],
            actions=[a.notation for a in action_rows],
            action_seats=[a.seat for a in action_rows],
            created_at=row.created_at,
            updated_at=row.updated_at,
            seed_source=row.seed_source or SEED_FROM_SERVER,
            ending=row.ending,
            rematch_of=row.rematch_of,
            clock=dict(row.clock) if row.clock is not None else None,
            clock_state=dict(row.clock_state) if row.clock_state is not None else None,
        )


class _Unchanged(Exception):
    """Rolls a transaction back when one of its conditional updates changed nothing."""


def _chat_message(row: ChatRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "channel": row.channel,
        "seat": row.seat,
        "author": row.author,
        "text": row.text,
        "at": _iso(row.created_at),
    }


def _rowcount(result: Any) -> int:
    count: int = result.rowcount
    return count


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


__all__ = [
    "CHANNEL_SEATS",
    "CHANNEL_SPECTATORS",
    "SEAT_COMPUTER",
    "SEAT_HUMAN",
    "SEAT_OPEN",
    "SEED_FROM_CREATOR",
    "SEED_FROM_SERVER",
    "STATUS_ABANDONED",
    "STATUS_FINISHED",
    "STATUS_PLAYING",
    "GameNotPlayingError",
    "SeatInfo",
    "Store",
    "StoredGame",
    "default_database_url",
    "hash_token",
    "make_engine",
    "migrate",
    "seed_commitment",
    "seed_fields",
    "token_matches",
]
