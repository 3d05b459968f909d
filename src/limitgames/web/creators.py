"""Who started a game, as the database keeps it: a keyed hash of the creator's address.

The per-creator cap (``ServerLimits.unfinished_per_creator``) counts a
creator's unfinished games by what the database keeps of their network
address. An unkeyed SHA-256 of an IPv4 address is undone by trying all 2^32
addresses in minutes; so the address is hashed with HMAC-SHA-256 (RFC 2104)
under a server secret: 32 random bytes from :mod:`secrets`, made on the first
start and stored in the database (``server_secrets``), so that every server
process on that database (``limit serve --workers N``, several machines)
tags one address alike. Without the database's secret the tags say nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from limitgames.web.schema import ServerSecretRow

CREATOR_KEY = "creator_key"
"""The name of the creators' hash key in ``server_secrets``."""

KEY_BYTES = 32


def creator_tag(address: str, key: bytes) -> str:
    """HMAC-SHA-256 of ``address`` (UTF-8) under ``key``, as 64 hex characters (RFC 2104)."""
    return hmac.new(key, address.encode("utf-8"), hashlib.sha256).hexdigest()


def shared_secret(engine: Engine, name: str = CREATOR_KEY) -> bytes:
    """The secret ``name`` of the database at ``engine``, made (``secrets.token_bytes``) if missing.

    Several processes starting together all get the one that was stored
    first (an insert that loses the race reads the winner's).

    Raises:
        sqlalchemy.exc.DBAPIError: the database cannot be reached or written.
    """
    with Session(engine) as session:
        stored = session.scalar(select(ServerSecretRow.value).where(ServerSecretRow.name == name))
    if stored is not None:
        return bytes.fromhex(stored)
    try:
        with Session(engine) as session, session.begin():
            session.add(ServerSecretRow(name=name, value=secrets.token_hex(KEY_BYTES)))
    except IntegrityError:
        pass  # another process stored one first
    with Session(engine) as session:
        value = session.scalar(select(ServerSecretRow.value).where(ServerSecretRow.name == name))
    if value is None:  # pragma: no cover - just stored
        raise RuntimeError(f"the server secret {name} could not be stored")
    return bytes.fromhex(value)


__all__ = ["CREATOR_KEY", "KEY_BYTES", "creator_tag", "shared_secret"]
