"""Accounts: sign up, sign in, sign out; passwords, sessions, who is online.

A person may play as a guest (a seat token, as always) or sign up with a
name, a password and, if they like, an e-mail address. What is kept:

- the password as an Argon2id hash (``argon2-cffi``'s :class:`PasswordHasher`,
  its default parameters, RFC 9106's second recommended set; a hash made with
  other parameters is made again at the next sign-in); never the password;
- a session per browser that signed in: a random key in the session cookie
  (Starlette's ``SessionMiddleware``, signed with the server's secret, see
  :func:`server_secret`) and its SHA-256 in ``account_sessions``, so a session
  ends on the server (signing out deletes its row) and can be listed;
- each session's start, listed on the person's own page, where they can
  end them all ("sign out everywhere"), download all that is kept of them and
  delete their account (:meth:`Accounts.delete`);
- when each session was last seen (refreshed at most every
  :data:`SEEN_EVERY_SECONDS`): who is online is who was seen in the last
  :data:`ONLINE_SECONDS`.

A signed-in person's seat carries their account (``seats.account_id``), which
is what their history and their ratings are made of (``ratings.py``).
The pages and forms are in :mod:`limitgames.web.account_pages`.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from limitgames.translation import gettext
from limitgames.web.refusals import RefusedError
from limitgames.web.schema import (
    STATUS_PLAYING,
    AccountRow,
    AccountSessionRow,
    GameRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    SeekRow,
    aware,
    utc_now,
    utc_text,
)

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
"""An account name: 3-20 letters, digits, ``-`` or ``_``, starting with a letter or digit."""
PASSWORD_LENGTH = (8, 200)
"""The shortest and longest password accepted, in characters."""
EMAIL_LENGTH = 200
ONLINE_SECONDS = 60.0
"""A person seen (any request of a signed-in session) this recently is online."""
SEEN_EVERY_SECONDS = 10.0
"""A session's ``last_seen`` is written at most this often (one write per request would be a lot)."""
SESSION_KEY = "account"
"""The entry of the signed session cookie that holds the session key."""
SECRET_VARIABLE = "LIMIT_SECRET_KEY"
"""The environment variable that gives the server's secret (several machines: set it on each)."""
SECRET_FILE = "server-secret"

HASHER = PasswordHasher()
"""Argon2id with argon2-cffi's defaults (time cost 3, 64 MiB, 4 lanes)."""

_DUMMY_HASH = HASHER.hash("not a password anybody has")
"""Verified against when a name is unknown, so a wrong name takes as long as a wrong password."""


class NameTakenError(RefusedError):
    """An account with that name (in any case) exists."""


@dataclass(frozen=True)
class Account:
    """A signed-in person: the account's id and name."""

    id: int
    name: str


def server_secret(database_url: str) -> str:
    """The server's secret, which signs the session and CSRF cookies.

    From :data:`SECRET_VARIABLE` when set; else the file :data:`SECRET_FILE`
    in the data directory (beside a SQLite database file, else the user's data
    directory), made with 48 random bytes on first start (mode 0600, linked into
    place whole, the first process's), so every worker process of the server
    reads the same secret.

    Raises:
        OSError: the file can be neither read nor made.
    """
    given = os.environ.get(SECRET_VARIABLE, "").strip()
    if given:
        return given
    parsed = make_url(database_url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(str(parsed.database)).expanduser().resolve().parent
    else:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("limitgames", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_FILE
    if not path.exists():
        # written whole under a name of its own, then linked into place: a process that
        # starts meanwhile sees no file or the whole file, and the first link wins
        draft = folder / f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_urlsafe(48))
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink(missing_ok=True)
    return path.read_text().strip()


def check_sign_up(name: str, password: str, email: str) -> None:
    """Check what a person signs up with.

    Raises:
        RefusedError: a one-line reason (the name, the password's length, the e-mail).
    """
    if not NAME.fullmatch(name):
        raise RefusedError(
            gettext("a name is 3-20 letters, digits, - or _, starting with a letter or digit")
        )
    shortest, longest = PASSWORD_LENGTH
    if not shortest <= len(password) <= longest:
        raise RefusedError(
            gettext("a password is %(shortest)d-%(longest)d characters long")
            % {"shortest": shortest, "longest": longest}
        )
    if email and (len(email) > EMAIL_LENGTH or not re.fullmatch(r"[^@\s]+@[^@\s]+", email)):
        raise RefusedError(gettext("that is not an e-mail address"))


def _key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (64 MiB and a noticeable time: run it off the event loop)."""
    return HASHER.hash(password)


def password_matches(password_hash: str, password: str) -> bool:
    """Whether ``password`` is the one ``password_hash`` was made from (Argon2 verification)."""
    try:
        return HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """Whether ``password_hash`` was made with other parameters than :data:`HASHER`'s (an older
    default): it is then hashed again at the next sign-in."""
    return HASHER.check_needs_rehash(password_hash)


class Accounts:
    """The accounts and sessions in one database; every method is one transaction.

    Methods are synchronous: the server runs them on its database threads (and
    hashes passwords on other threads, :func:`hash_password`, :func:`password_matches`).
    """

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def create(self, name: str, password_hash: str, email: str = "") -> Account:
        """Store a new account (its password already hashed by :func:`hash_password`).

        Raises:
            NameTakenError: the name is taken, in any case.
        """
        row = AccountRow(
            name=name,
            name_key=name.lower(),
            password_hash=password_hash,
            email=email or None,
            created_at=utc_now(),
        )
        try:
            with self._sessions() as session, session.begin():
                session.add(row)
                session.flush()
                return Account(row.id, row.name)
        except IntegrityError:
            raise NameTakenError(gettext("the name %(name)s is taken") % {"name": name}) from None

    def password_hash(self, name: str) -> tuple[Account | None, str]:
        """The account called ``name`` (any case) and its password hash; an unknown name
        gives ``(None, a hash nobody's password matches)``, to be verified all the same."""
        with self._sessions() as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name.lower()))
        if row is None:
            return None, _DUMMY_HASH
        return Account(row.id, row.name), row.password_hash

    def set_password_hash(self, account: Account, password_hash: str) -> None:
        """Store a new hash of ``account``'s password (see :func:`needs_rehash`)."""
        with self._sessions() as session, session.begin():
            row = session.get(AccountRow, account.id)
            if row is not None:
                row.password_hash = password_hash

    def open_session(self, account: Account) -> str:
        """A new session for ``account``; returns its key (for the cookie; only its hash is kept)."""
        key = secrets.token_urlsafe(32)
        now = utc_now()
        with self._sessions() as session, session.begin():
            session.add(
                AccountSessionRow(
                    key_hash=_key_hash(key), account_id=account.id, created_at=now, last_seen=now
                )
            )
        return key

    def session_account(self, key: str) -> Account | None:
        """The account of the session ``key`` (``None``: ended or unknown); notes it was seen."""
        now = utc_now()
        with self._sessions() as session, session.begin():
            found = session.execute(
                select(AccountSessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == AccountSessionRow.account_id)
                .where(AccountSessionRow.key_hash == _key_hash(key))
            ).first()
            if found is None:
                return None
            row, account = found
            if now - aware(row.last_seen) > timedelta(seconds=SEEN_EVERY_SECONDS):
                row.last_seen = now
            return Account(account.id, account.name)

    def end_session(self, key: str) -> None:
        """Sign the session ``key`` out (its row is deleted)."""
        with self._sessions() as session, session.begin():
            session.execute(
                delete(AccountSessionRow).where(AccountSessionRow.key_hash == _key_hash(key))
            )

    def sessions_of(self, account: Account) -> list[dict[str, str]]:
        """The signed-in sessions of ``account``, newest first: ``{"since", "seen"}`` (ISO UTC)."""
        with self._sessions() as session:
            rows = session.scalars(
                select(AccountSessionRow)
                .where(AccountSessionRow.account_id == account.id)
                .order_by(AccountSessionRow.created_at.desc())
            )
            return [
                {
                    "since": utc_text(r.created_at),
                    "seen": utc_text(r.last_seen),
                }
                for r in rows
            ]

    def end_all_sessions(self, account: Account) -> None:
        """Sign ``account`` out everywhere (every session's row is deleted)."""
        with self._sessions() as session, session.begin():
            session.execute(
                delete(AccountSessionRow).where(AccountSessionRow.account_id == account.id)
            )

    def online(self, seconds: float = ONLINE_SECONDS) -> list[str]:
        """The names of the people seen in the last ``seconds``, sorted (case-blind)."""
        since = utc_now() - timedelta(seconds=seconds)
        with self._sessions() as session:
            names = set(
                session.scalars(
                    select(AccountRow.name)
                    .join(AccountSessionRow, AccountSessionRow.account_id == AccountRow.id)
                    .where(AccountSessionRow.last_seen >= since)
                )
            )
        return sorted(names, key=str.lower)

    def delete(self, account: Account) -> bool:
        """Delete ``account`` with its sessions, ratings, rating changes and seeks; its seats
        become guests' seats (the games stay, with the name shown at the table).

        Returns ``False`` (nothing deleted) while one of its games is being played.
        """
        with self._sessions() as session, session.begin():
            playing = session.scalar(
                select(SeatRow.game_id)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.account_id == account.id, GameRow.status == STATUS_PLAYING)
                .limit(1)
            )
            if playing is not None:
                return False
            for table in (AccountSessionRow, RatingRow, RatingChangeRow, SeekRow):
                session.execute(delete(table).where(table.account_id == account.id))
            session.execute(
                update(SeatRow).where(SeatRow.account_id == account.id).values(account_id=None)
            )
            session.execute(delete(AccountRow).where(AccountRow.id == account.id))
        return True

    def profile(self, account: Account) -> dict[str, str | None]:
        """What an account holds beside its password: ``{"name", "email", "created_at"}``."""
        with self._sessions() as session:
            row = session.get(AccountRow, account.id)
            if row is None:
                return {"name": account.name, "email": None, "created_at": None}
            return {
                "name": row.name,
                "email": row.email,
                "created_at": utc_text(row.created_at),
            }

    def name_of(self, account_id: int) -> str | None:
        """The name of the account ``account_id``, or ``None``."""
        with self._sessions() as session:
            row = session.get(AccountRow, account_id)
            return row.name if row is not None else None

    def by_name(self, name: str) -> Account | None:
        """The account called ``name`` (any case), or ``None``."""
        with self._sessions() as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name.lower()))
            return Account(row.id, row.name) if row is not None else None


__all__ = [
    "EMAIL_LENGTH",
    "HASHER",
    "NAME",
    "ONLINE_SECONDS",
    "PASSWORD_LENGTH",
    "SECRET_FILE",
    "SECRET_VARIABLE",
    "SEEN_EVERY_SECONDS",
    "SESSION_KEY",
    "Account",
    "Accounts",
    "NameTakenError",
    "check_sign_up",
    "hash_password",
    "needs_rehash",
    "password_matches",
    "server_secret",
]
