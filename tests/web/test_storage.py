"""Storage: migrations, the stored record, undo truncation, tokens."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError

from limitgames.core import GameRecord
from limitgames.web.live import build_state
from limitgames.web.storage import (
    STATUS_FINISHED,
    GameNotPlayingError,
    SeatInfo,
    Store,
    default_database_url,
    hash_token,
    migrate,
    token_matches,
)
from tests.web.services import PostgresCluster, missing


def _store_with_game(url: str) -> Store:
    store = Store.open(url)
    store.create_game(
        "g1",
        "toy-nim",
        {"players": 2},
        11,
        [{"kind": "pile", "value": 5}],
        "toy-1",
        [
            SeatInfo(0, "human", "me", token_hash=hash_token("secret-token-0"), joined=True),
            SeatInfo(1, "computer", "random", agent_spec="random"),
        ],
    )
    return store


def test_migrations_create_the_tables_and_run_twice(db_url: str) -> None:
    store = Store.open(db_url)
    migrate(store.engine)  # a second run is a no-op
    tables = set(inspect(store.engine).get_table_names())
    assert {"games", "seats", "actions", "alembic_version"} <= tables
    store.close()


def test_actions_are_stored_in_order_and_replay(db_url: str) -> None:
    store = _store_with_game(db_url)
    chance = [{"kind": "pile", "value": 5}]
    for ply, (seat, text) in enumerate([(0, "take 2"), (1, "take 1"), (0, "take 2")]):
        result = [1.0, -1.0] if ply == 2 else None
        store.append_action("g1", ply, seat, text, chance, result)
    stored = store.load_game("g1")
    assert stored is not None
    assert stored.actions == ["take 2", "take 1", "take 2"]
    assert stored.action_seats == [0, 1, 0]
    assert stored.status == STATUS_FINISHED
    record = stored.record()
    assert record.seats == ["human:me", "random"]
    again = GameRecord.loads(record.dumps())
    assert again.replay().is_terminal()
    assert build_state(stored).returns() == [1.0, -1.0]
    with pytest.raises(IntegrityError):
        store.append_action("g1", 1, 1, "take 1", chance, None)
    store.close()


def test_truncate_is_an_undo(db_url: str) -> None:
    store = _store_with_game(db_url)
    chance = [{"kind": "pile", "value": 5}]
    store.append_action("g1", 0, 0, "take 1", chance, None)
    store.append_action("g1", 1, 1, "take 1", chance, None)
    store.truncate_actions("g1", 1, chance)
    stored = store.load_game("g1")
    assert stored is not None and stored.actions == ["take 1"]
    assert store.summaries(["g1"])[0]["plies"] == 1
    store.close()


def test_summaries_hold_no_secret(db_url: str) -> None:
    store = _store_with_game(db_url)
    summary = store.summaries()[0]
    assert summary["id"] == "g1"
    assert "token_hash" not in str(summary) and hash_token("secret-token-0") not in str(summary)
    assert store.load_game("missing") is None
    store.close()


def test_tokens_compare_by_hash() -> None:
    digest = hash_token("abcdefgh12345678")
    assert token_matches("abcdefgh12345678", digest)
    assert not token_matches("abcdefgh12345679", digest)
    assert not token_matches("abcdefgh12345678", None)


def test_default_database_is_in_the_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url, path = default_database_url()
    assert path.parent.is_dir() and str(path).startswith(str(tmp_path))
    assert url == f"sqlite:///{path}"


@pytest.mark.skipif(missing() is not None, reason=f"not installed: {missing()}")
def test_on_postgresql_an_action_is_stored_in_one_statement_with_the_same_refusals() -> None:
    """``Store._append_in_one_statement``: the same outcomes as the two-statement transaction
    (SQLite's path, tested above): actions in order, a ply stored twice refused with
    IntegrityError (also when that ply ended the game), a game no longer played refused with
    GameNotPlayingError and nothing stored."""
    cluster = PostgresCluster().start()
    try:
        store = _store_with_game(cluster.url)
        chance = [{"kind": "pile", "value": 5}]
        store.append_action("g1", 0, 0, "take 2", chance, None)
        with pytest.raises(IntegrityError):  # a second process storing ply 0 too
            store.append_action("g1", 0, 1, "take 1", chance, None)
        store.append_action("g1", 1, 1, "take 1", chance, None)
        store.append_action("g1", 2, 0, "take 2", chance, [1.0, -1.0])  # the last ply
        with pytest.raises(IntegrityError):  # ... raced by another process: the game is over
            store.append_action("g1", 2, 1, "take 1", chance, [-1.0, 1.0])
        with pytest.raises(GameNotPlayingError):  # a ply after the end: not a race
            store.append_action("g1", 3, 1, "take 1", chance, None)
        stored = store.load_game("g1")
        assert stored is not None
        assert stored.actions == ["take 2", "take 1", "take 2"]
        assert stored.action_seats == [0, 1, 0]
        assert stored.status == STATUS_FINISHED and stored.result == [1.0, -1.0]
        assert store.summaries(["g1"])[0]["plies"] == 3
        store.close()
    finally:
        cluster.stop()


def test_upgrading_sqlite_keeps_every_seat_and_action_and_the_foreign_keys(tmp_path: Path) -> None:
    """The accounts migration rebuilds ``games`` and ``seats`` on SQLite (batch mode); with the
    foreign keys on, dropping the old ``games`` table deleted every seat and action of every
    stored game (ON DELETE CASCADE). A game stored at schema 0004 keeps its seat and action."""
    from sqlalchemy import text

    from limitgames.web import storage
    from tests.web.conftest import OLD_GAME_ROW, migrate

    engine = storage.make_engine(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    migrate(engine, "upgrade", "0004")
    with engine.begin() as connection:
        connection.execute(text(OLD_GAME_ROW))
        connection.execute(
            text(
                "INSERT INTO seats (game_id, seat, kind, label, joined) "
                "VALUES ('old1', 0, 'human', 'Ann', 1)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO actions (game_id, ply, seat, notation, created_at) "
                "VALUES ('old1', 0, 0, 'take 1', '2026-11-01')"
            )
        )
    migrate(engine, "upgrade", "head")
    with engine.begin() as connection:
        assert connection.execute(text("SELECT count(*) FROM seats")).scalar() == 1
        assert connection.execute(text("SELECT count(*) FROM actions")).scalar() == 1
        # the connection goes back to the pool with its foreign keys on again
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    engine.dispose()
