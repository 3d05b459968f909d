"""``limit serve``: options, the default database and clear errors (uvicorn itself is not started)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from limitgames.cli.serve_cmd import serve


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command()(serve)
    return app


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append({"app": app, **kwargs}))
    return calls


def test_defaults_store_games_in_the_user_data_dir(
    runs: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("LIMIT_DATABASE_URL", raising=False)
    result = CliRunner().invoke(_app(), [])
    assert result.exit_code == 0, result.output
    assert f"games are stored in {tmp_path}" in result.output
    assert "http://localhost:8000/" in result.output
    assert runs[0]["host"] == "127.0.0.1" and runs[0]["port"] == 8000
    assert runs[0]["ws_max_size"] <= 1 << 20


def test_options_and_a_database_url(runs: list[dict[str, Any]], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = CliRunner().invoke(_app(), ["--host", "0.0.0.0", "--port", "8123", "--db", db])
    assert result.exit_code == 0, result.output
    assert runs[0]["port"] == 8123 and runs[0]["host"] == "0.0.0.0"
    shown = CliRunner().invoke(
        _app(), ["--db", "postgresql+psycopg://ann:hunter2@db.example/limit"]
    )
    assert "hunter2" not in shown.output and "***" in shown.output


def test_bad_options_get_one_line_errors(runs: list[dict[str, Any]]) -> None:
    result = CliRunner().invoke(_app(), ["--db", "not a url"])
    assert result.exit_code == 2 and "is not a database URL" in result.output
    assert CliRunner().invoke(_app(), ["--port", "70000"]).exit_code == 2
    priority = CliRunner().invoke(_app(), ["--computer-priority", "banana"])
    assert priority.exit_code == 2
    assert "--computer-priority 'banana' is none of idle, low, normal" in priority.output
    assert not runs


def test_world_data_and_limits_are_options(runs: list[dict[str, Any]], tmp_path: Path) -> None:
    data = tmp_path / "short.toml"
    data.write_text("[end]\nstress_tests = 0\n", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    options = ["--db", db, "--world-data", f"short={data}", "--games-per-hour", "5"]
    result = CliRunner().invoke(_app(), [*options, "--abandon-hours", "2"])
    assert result.exit_code == 0, result.output
    assert "world data set offered: short" in result.output
    assert runs[0]["ws_ping_timeout"] > 0 and runs[0]["ws_per_message_deflate"] is False
    bad = CliRunner().invoke(_app(), ["--db", db, "--world-data", "fifo=/dev/zero"])
    assert bad.exit_code == 2 and "not a regular file" in bad.output
    assert CliRunner().invoke(_app(), ["--db", db, "--world-data", "nameonly"]).exit_code == 2
    assert CliRunner().invoke(_app(), ["--db", db, "--send-queue", "0"]).exit_code == 2
    assert len(runs) == 1
