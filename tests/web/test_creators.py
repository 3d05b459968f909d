"""The creator of a game is kept as a keyed hash of their address (``web/creators.py``).

The reference is the standard library's own HMAC computed here, with the key read
straight from the ``server_secrets`` table, and the unkeyed SHA-256 the server used
to store (which must no longer appear).
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from limitgames.web.app import create_app
from limitgames.web.creators import creator_tag, shared_secret
from limitgames.web.storage import Store
from tests.web.conftest import new_game


def _stored(db_url: str, sql: str) -> list[tuple[object, ...]]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql))]
    finally:
        engine.dispose()


def test_the_creator_is_stored_as_an_hmac_under_the_database_key(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer"}])
    [(stored,)] = _stored(db_url, f"SELECT creator FROM games WHERE id = '{game['id']}'")
    [(key_hex,)] = _stored(db_url, "SELECT value FROM server_secrets WHERE name = 'creator_key'")
    key = bytes.fromhex(str(key_hex))
    assert len(key) == 32
    # Starlette's TestClient connects from the address "testclient"
    assert stored == hmac.new(key, b"testclient", hashlib.sha256).hexdigest()
    assert stored != hashlib.sha256(b"testclient").hexdigest()


def test_every_process_on_one_database_shares_the_key_and_another_database_has_its_own(
    tmp_path: Path,
) -> None:
    one = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    first, second, third = Store.open(one), Store.open(one), Store.open(other)
    try:
        key = shared_secret(first.engine)
        assert shared_secret(second.engine) == key  # read, not made again
        assert first.creator_tag("203.0.113.7") == second.creator_tag("203.0.113.7")
        assert shared_secret(third.engine) != key
        assert third.creator_tag("203.0.113.7") != first.creator_tag("203.0.113.7")
        assert first.creator_tag("203.0.113.7") != first.creator_tag("203.0.113.8")
    finally:
        for store in (first, second, third):
            store.close()


def test_creator_tag_is_rfc_4231_hmac_sha256() -> None:
    # RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?"
    expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    assert creator_tag("what do ya want for nothing?", b"Jefe") == expected
