"""The web app's database schema: the names stored, the SQLAlchemy 2 tables, the engine.

Tables (created and upgraded by Alembic, see ``migrations/``, whose
``env.py`` reads :class:`Base`):

- ``games``: one row per game (``id`` is a short random URL-safe string).
- ``seats``: one row per seat: ``kind`` is ``"human"``, ``"computer"`` or
  ``"open"``; humans have the SHA-256 of their secret token (the token
  itself is never stored), computers their agent spec.
- ``actions``: ``(game_id, ply)`` -> the seat that acted and the notation.
- ``chat``: the chat messages of a game, in two channels (:data:`CHANNEL_SEATS`,
  :data:`CHANNEL_SPECTATORS`), stored as the plain text that was sent.
- ``accounts``, ``account_sessions``: the people who signed up (an Argon2id hash
  of the password, never the password) and their signed-in sessions (the SHA-256
  of each session key); a seat taken by a signed-in person has ``seats.account_id``.
- ``ratings``, ``rating_changes``: each person's Glicko-2 rating per game, and
  what each rated game changed (``games.rated``; ``games.rating_done`` once counted).
- ``seeks``: the games people offer in the lobby, open until accepted or withdrawn.
- ``server_secrets``: secrets every server process on the database shares
  (``creators.py``: the key of the creators' address hashes), made on first start.

The default database is a SQLite file in the user's data directory
(:func:`default_database_url`); any SQLAlchemy URL works, PostgreSQL included
(``postgresql+psycopg://user@host/dbname``). What is done with the tables is
:class:`~limitgames.web.storage.Store`'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

STATUS_PLAYING = "playing"
STATUS_FINISHED = "finished"
STATUS_ABANDONED = "abandoned"
"""An unfinished game nobody acted in for ``ServerLimits.abandon_after``: over, with no result."""

SEED_FROM_SERVER = "server"
SEED_FROM_CREATOR = "creator"

SEAT_HUMAN = "human"
SEAT_COMPUTER = "computer"
SEAT_OPEN = "open"
"""A seat left open at creation: listed in the lobby, taken by the first who asks."""

CHANNEL_SEATS = "seats"
CHANNEL_SPECTATORS = "spectators"


class Base(DeclarativeBase):
    """The declarative base of the web app's tables."""


class GameRow(Base):
    """One game: what it is and the chance outcomes drawn so far."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    variant: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    chance: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    rules_version: Mapped[str] = mapped_column(String(64), default="")
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    plies: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seed_source: Mapped[str] = mapped_column(String(16), default=SEED_FROM_SERVER)
    ending: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    clock_state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    reminded_ply: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    rating_done: Mapped[bool] = mapped_column(Boolean, default=False)

    # the rated games not yet counted (``ratings.Ratings.settle``), among many casual ones
    __table_args__ = (Index("ix_games_rated_rating_done", "rated", "rating_done"),)


class SeatRow(Base):
    """One seat of a game: a person (with a token hash) or a computer (with a spec)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    label: Mapped[str] = mapped_column(String(64))
    agent_spec: Mapped[str | None] = mapped_column(String(200), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    zombie: Mapped[str | None] = mapped_column(String(16), nullable=True)
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)


class ActionRow(Base):
    """One action of a game, in notation, with the seat that took it."""

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat message: its game, channel, the seat that wrote it (``None``: a spectator)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    author: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(1000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A person who signed up: a name (unique whatever its case), an Argon2id hash, an e-mail."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountSessionRow(Base):
    """A signed-in session: the SHA-256 of its key (the key itself is only in the cookie)."""

    __tablename__ = "account_sessions"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class RatingRow(Base):
    """One person's Glicko-2 rating in one game (rating and deviation in rating points)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """What one rated game did to one person's rating."""

    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


class SeekRow(Base):
    """A game offered in the lobby by a signed-in person, until accepted or withdrawn."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    variant: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    rating_min: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating_max: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The ratings in the seek's game its accepter must have (``None``: no bound)."""
    status: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    author_link: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerSecretRow(Base):
    """A secret shared by every server process on the database (hex text), by name."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


def default_database_url() -> tuple[str, Path]:
    """The default database: a SQLite file in the user's data directory.

    Returns ``(url, path)``; the directory is created if missing.
    """
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("limitgames", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "limitgames.sqlite3"
    return f"sqlite:///{path}", path


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``; SQLite gets WAL, a busy timeout and foreign keys.

    Raises ``sqlalchemy.exc.ArgumentError`` for a malformed URL.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if database and database != ":memory:":
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    # as many pooled connections as a server process has database threads (app.DB_THREADS) and
    # a few for the rest: a connection above pool_size is closed when given back, and a new
    # PostgreSQL backend for every commit cost more CPU than the commit itself
    return create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=10)


def utc_now() -> datetime:
    """Now, in UTC (what every time column stores)."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """``moment`` with its time zone: SQLite gives back naive datetimes, which are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def utc_text(moment: datetime) -> str:
    """``moment`` as the API writes times: ISO 8601 in UTC to the second (``2026-11-28T20:41:05Z``)."""
    return aware(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


POOL_SIZE = 12
"""Connections a server process keeps open to PostgreSQL (its 8 database threads and a few more)."""


MIGRATION_LOCK = 0x6C696D6974
"""The PostgreSQL advisory lock taken while migrating (several processes may start at once)."""


@contextmanager
def migration_connection(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction for Alembic's migrations on ``engine``.

    On SQLite the foreign keys are switched off while the migrations run and on again after
    (the pragma only takes effect outside a transaction): a batch migration rebuilds a table
    by copying it and dropping the old one, and with foreign keys on, dropping ``games``
    deletes every seat and action of every stored game through ``ON DELETE CASCADE``.
    """
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                yield connection
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with the migrations shipped in the package (Alembic).

    On PostgreSQL the upgrade holds a transaction-level advisory lock
    (:data:`MIGRATION_LOCK`), so server processes started together
    (``limit serve --workers N``, or on several machines) migrate one after
    another: the first upgrades, the others find the schema current.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with migration_connection(engine) as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
