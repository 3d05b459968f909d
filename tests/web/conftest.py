"""Fixtures of the web tests: a fresh database per test, the app in-process, a real server.

The database is a SQLite file in the test's temporary folder, or PostgreSQL
when ``LIMIT_TEST_DATABASE_URL`` is set (``postgresql+psycopg://...``): its
tables are dropped before each test, so give the tests a database of their
own. See ``docs/web.md``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

# Starlette's TestClient asks for "httpx2" (not needed: httpx works); keep the output clean.
warnings.filterwarnings("ignore", message=".*httpx.*starlette.testclient.*")
from fastapi.testclient import TestClient  # noqa: E402

import tests.core.toy  # noqa: E402 - registers toy-nim
import tests.web.secret_game  # noqa: E402, F401 - registers toy-secret
from limitgames.web.app import create_app, offer_in_lobby  # noqa: E402
from limitgames.web.game_socket import socket_options  # noqa: E402
from tests.deadlines import scaled, wait_until  # noqa: E402

offer_in_lobby("toy-nim")
offer_in_lobby("toy-secret")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
POSTGRES_URL = os.environ.get("LIMIT_TEST_DATABASE_URL")


def reset_database(url: str) -> None:
    """Drop the web app's tables (and Alembic's) from a shared test database."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as connection:
        for table in (
            "rating_changes",
            "seeks",
            "ratings",
            "account_sessions",
            "chat",
            "actions",
            "seats",
            "games",
            "accounts",
            "server_secrets",
            "alembic_version",
        ):
            connection.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))
    engine.dispose()


@pytest.fixture(autouse=True)
def repeatable_server_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeds the in-process server draws come from a seeded sequence, so each test plays
    the same games in every run (a test once passed or failed with the operating system's
    draw). Each game still gets a seed of its own; servers in subprocesses draw as in play."""
    import random

    import limitgames.web.live

    sequence = random.Random(20261127)
    monkeypatch.setattr(limitgames.web.live, "fresh_seed", lambda: sequence.getrandbits(63))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh, empty database for one test."""
    if POSTGRES_URL:
        reset_database(POSTGRES_URL)
        return POSTGRES_URL
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """The app in-process (computer moves limited to 5 s)."""
    app = create_app(db_url, move_seconds=5.0)
    with TestClient(app) as test_client:
        yield test_client


def new_game(
    client: TestClient | httpx.Client,
    game: str,
    seats: list[dict[str, Any]],
    variant: dict[str, Any] | None = None,
    seed: int | None = 7,
) -> dict[str, Any]:
    """Start a game through the API; return its answer (id, url, tokens, links)."""
    body: dict[str, Any] = {"game": game, "variant": variant or {}, "seats": seats}
    if seed is not None:
        body["seed"] = seed
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def receive_until(
    ws: Any, predicate: Callable[[dict[str, Any]], bool], limit: int = 200
) -> dict[str, Any]:
    """Read messages from a TestClient websocket until one satisfies ``predicate``."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("the expected message never came")


def receive_view(ws: Any, predicate: Any = lambda m: True) -> dict[str, Any]:
    """The next ``view`` message on a TestClient websocket that satisfies ``predicate``."""
    return receive_until(ws, lambda m: m["type"] == "view" and predicate(m))


def receive_error(ws: Any) -> str:
    """The text of the next ``error`` message on a TestClient websocket."""
    return str(receive_until(ws, lambda m: m["type"] == "error")["message"])


def say_hello(ws: Any, seats: dict[int, str]) -> None:
    """Claim ``{seat: token}`` on a TestClient websocket and wait for the ``welcome``."""
    ws.send_json({"type": "hello", "seats": [{"seat": s, "token": t} for s, t in seats.items()]})
    receive_until(ws, lambda m: m["type"] == "welcome")


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


GENEROUS_LIMITS = [
    "--games-per-hour",
    "100000",
    "--unfinished-per-creator",
    "100000",
    "--connections-per-address",
    "100000",
    "--computer-pause",
    "0",
    "--computer-priority",
    "normal",
]
"""Every test client comes from 127.0.0.1: the load tests start more games than one person would;
computers do not pause for the eye (``limit serve`` pauses 0.8 s between their decisions); they
think at the server's priority, so that other busy programs on the machine do not starve them
(``idle``, the default, would leave a computer move waiting until its time limit)."""


class Server:
    """``python -m limitgames.web`` as a subprocess on a free loopback port.

    ``options`` are more ``limit serve`` options (default: :data:`GENEROUS_LIMITS`).
    """

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        move_seconds: float = 10.0,
        options: list[str] | None = None,
    ) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.move_seconds = move_seconds
        self.options = GENEROUS_LIMITS if options is None else options
        self.process: subprocess.Popen[bytes] | None = None
        self.log = ARTIFACTS / "logs" / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "limitgames.web",
                    "--port",
                    str(self.port),
                    "--db",
                    self.db_url,
                    "--move-seconds",
                    str(self.move_seconds),
                    "--log-level",
                    "warning",
                    *self.options,
                ],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        process = self.process

        def catalog() -> None:
            response = httpx.get(self.base + "/api/catalog", timeout=scaled(10))
            response.raise_for_status()

        def gone() -> str | None:
            return None if process.poll() is None else f"it exited: see {self.log}"

        # a real request answered (its port opens before the app has started up)
        wait_until(
            catalog, f"the server on port {self.port} (log: {self.log})", seconds=120, gone=gone
        )
        return self

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no clean shutdown)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=scaled(10))

    def stop(self) -> None:
        stop_process(self.process)


class ThreadServer:
    """The app under a real uvicorn in a thread of the test (real sockets, fast to start).

    Args:
        app: the app (``create_app(...)`` with the limits under test).
        send_buffer: the kernel's send buffer of each connection (bytes; default: the
            kernel's, which grows to megabytes), to see a client that stops reading soon.
    """

    def __init__(self, app: Any, send_buffer: int | None = None) -> None:
        import uvicorn

        self.app = app
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if send_buffer is not None:  # accepted connections inherit it (and lose autotuning)
            self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        self.listener.bind(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=65536,
            timeout_graceful_shutdown=2,
            **socket_options(),  # as limit serve: a client gone without a close frame is closed
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, args=([self.listener],), name="test-uvicorn", daemon=True
        )

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> ThreadServer:
        self.thread.start()

        def started() -> None:  # uvicorn's own flag: listening, and the app has started up
            if not self.server.started:
                raise RuntimeError("not started yet")

        def gone() -> str | None:
            return None if self.thread.is_alive() else "its thread ended"

        wait_until(started, "the in-thread server", gone=gone, interval=0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=scaled(20))
        self.listener.close()


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    """A real server (uvicorn subprocess) on a fresh database."""
    s = Server(db_url).start()
    try:
        yield s
    finally:
        s.stop()


def migrate(engine: Any, command_name: str, revision: str) -> None:
    """Run Alembic's ``upgrade`` or ``downgrade`` (``command_name``) to ``revision`` on
    ``engine``, with the migrations shipped in the package."""
    from alembic import command
    from alembic.config import Config

    from limitgames.web import storage
    from limitgames.web.schema import migration_connection

    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    with migration_connection(engine) as connection:
        config.attributes["connection"] = connection
        getattr(command, command_name)(config, revision)


OLD_GAME_ROW = (
    "INSERT INTO games (id, game, variant, seed, chance, rules_version, status, "
    "result, plies, created_at, updated_at, seed_source) VALUES ('old1', 'toy-nim', "
    "'{}', 1, '[]', '', 'playing', NULL, 0, '2026-11-01', '2026-11-01', 'server')"
)
"""A game row as schema 0002 and 0003 store it (for the migration tests)."""


def stop_process(process: subprocess.Popen[Any] | None) -> None:
    """Stop ``process`` if it still runs: terminate, then kill after 10 s (scaled)."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=scaled(10))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=scaled(10))
