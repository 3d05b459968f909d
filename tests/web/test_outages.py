"""A worker of ``limit serve --workers 2`` killed while Redis or PostgreSQL is down.

Before, the replacement's start-up failed, uvicorn stopped every worker and the site
stayed down after the service came back. Now its start-up waits (``web/startup.py``):
the test kills one worker during each outage, brings the service back and checks,
with real PostgreSQL and Redis (``tests/web/services.py``):

- during the outage every answer is either served or a clear 503 (never a crash, never
  a refused TCP connection);
- within 30 s after the service returns, the server takes actions again on new
  connections (each may reach either worker) six times in a row;
- no action is lost or doubled: the reference is the list of actions this test saw
  confirmed, compared with the rows of the ``actions`` table.

The outages last a few seconds on purpose (the outage itself, not a wait for something).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.deadlines import scaled, wait_until
from tests.web.conftest import GENEROUS_LIMITS, Server, new_game, reset_database
from tests.web.services import PostgresCluster, RedisServer, missing
from tests.web.test_scaleout import _workers

MISSING = missing()
pytestmark = [
    pytest.mark.slow,  # whole server processes are started, killed and replaced
    pytest.mark.skipif(MISSING is not None, reason=f"not installed: {MISSING}"),
]

BACK_WITHIN_SECONDS = 30.0
"""How soon after the service returns the server must serve again (issue's bar)."""


@pytest.fixture
def services() -> Iterator[tuple[PostgresCluster, RedisServer]]:
    """A PostgreSQL cluster and a Redis of this test's own (they are stopped and started)."""
    postgres = PostgresCluster().start()
    redis_server = RedisServer()
    try:
        redis_server.start()
        yield postgres, redis_server
    finally:
        redis_server.stop()
        postgres.stop()


@pytest.fixture
def server(services: tuple[PostgresCluster, RedisServer]) -> Iterator[Server]:
    """``limit serve --workers 2`` on the test's PostgreSQL and Redis, its two workers up."""
    postgres, redis_server = services
    reset_database(postgres.url)
    options = [*GENEROUS_LIMITS, "--redis", redis_server.url, "--threads", "--workers", "2"]
    running = Server(postgres.url, move_seconds=2.0, options=options)
    try:
        running.start()
        wait_until(lambda: _two_workers(running), "two server processes")
        yield running
    finally:
        running.stop()


def _two_workers(server: Server) -> list[int]:
    assert server.process is not None
    workers = _workers(server.process.pid)
    if len(workers) != 2:
        raise AssertionError(f"server processes: {workers}")
    return workers


class Table:
    """A hot-seat hex game played one action per new connection (each may reach either worker).

    :attr:`sent` holds the actions the server confirmed (a view showed them), in order.
    """

    def __init__(self, server: Server) -> None:
        self.server = server
        with httpx.Client(base_url=server.base, timeout=scaled(30)) as http:
            self.game = new_game(http, "hex", [{"kind": "me"}, {"kind": "me"}], {"size": 5}, 3)
        self.sent: list[str] = []
        self.rng = random.Random(17)

    async def act_once(self) -> bool:
        """One action on a new connection: ``True`` once confirmed; ``False`` when the server
        said to try later (a 503 or close code 1013, or a refusal naming the database)."""
        url = f"ws://127.0.0.1:{self.server.port}/games/{self.game['id']}/ws"
        try:
            async with connect(url, open_timeout=scaled(20), max_size=2**22) as ws:
                claims = [{"seat": s, "token": self.game["tokens"][str(s)]} for s in (0, 1)]
                await ws.send(json.dumps({"type": "hello", "seats": claims}))
                if await self._next(ws, lambda m: m["type"] == "welcome") is None:
                    return False
                ply = len(self.sent)
                view = await self._next(ws, lambda m: m["type"] == "view" and m["ply"] >= ply)
                if view is None:
                    return False
                assert view["moves"] == self.sent, "an action was lost or doubled"
                assert not view["finished"], "the game ended: play a larger board"
                action = self.rng.choice(view["legal"])
                await ws.send(json.dumps({"type": "act", "action": action, "ply": ply}))
                after = await self._next(ws, lambda m: m["type"] == "view" and m["ply"] > ply)
                if after is None:
                    return False
                assert after["moves"] == [*self.sent, action]
                self.sent.append(action)
                return True
        except InvalidStatus as exc:  # the HTTP upgrade answered 503
            assert exc.response.status_code == 503, exc
            return False
        except ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 1013, exc
            return False

    async def _next(self, ws: Any, predicate: Any) -> dict[str, Any] | None:
        """The next message satisfying ``predicate``, or ``None`` after an error saying the
        database cannot store anything (the action was not taken)."""

        async def read() -> dict[str, Any] | None:
            while True:
                message: dict[str, Any] = json.loads(await ws.recv())
                if message["type"] == "error":
                    assert "database" in message["message"], message
                    return None
                if predicate(message):
                    return message

        return await asyncio.wait_for(read(), scaled(30))

    def play(self, actions: int) -> None:
        """``actions`` confirmed actions (the services are up: nothing may be refused)."""
        for _ in range(actions):
            assert asyncio.run(self.act_once()), "refused with every service up"

    def serves_again(self, since: float) -> float:
        """Seconds from ``since`` until six actions in a row were taken (at most 30 s, scaled)."""
        streak = 0
        deadline = since + scaled(BACK_WITHIN_SECONDS)
        while streak < 6:
            assert time.monotonic() < deadline, f"not serving {BACK_WITHIN_SECONDS} s after"
            streak = streak + 1 if asyncio.run(self.act_once()) else 0
            if streak == 0:
                time.sleep(0.2)  # a poll between tries
        return time.monotonic() - since

    def stored_actions(self, postgres: PostgresCluster) -> list[str]:
        """The actions of the game as the ``actions`` table holds them, by ply."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=postgres.port, user="postgres", dbname="postgres"
        ) as connection:
            rows = connection.execute(
                "SELECT notation FROM actions WHERE game_id = %s ORDER BY ply",
                (self.game["id"],),
            ).fetchall()
        return [str(row[0]) for row in rows]


def _kill_a_worker(server: Server) -> None:
    """``kill -9`` one worker and wait for its replacement process (not for its start-up)."""
    workers = _two_workers(server)
    os.kill(workers[0], signal.SIGKILL)

    def replaced() -> None:
        now = _two_workers(server)
        if workers[0] in now:
            raise AssertionError(f"{workers[0]} still listed")

    wait_until(replaced, "a new server process in place of the killed one")


def _answers_during_outage(server: Server, game_id: str) -> list[int]:
    """Status codes of a few requests during an outage; each must be 200 or a 503 with a reason."""
    codes = []
    for path in ("/api/open-games", f"/api/games/{game_id}", "/api/catalog") * 3:
        response = httpx.get(server.base + path, timeout=scaled(30))
        if response.status_code == 503:
            assert response.json()["detail"] and "Retry-After" in response.headers
        else:
            assert response.status_code == 200, response.text
        codes.append(response.status_code)
    return codes


def test_a_worker_killed_while_redis_is_down_serves_once_it_returns(
    services: tuple[PostgresCluster, RedisServer], server: Server
) -> None:
    postgres, redis_server = services
    table = Table(server)
    table.play(3)
    assert redis_server.process is not None
    redis_server.process.kill()  # no goodbye to its clients
    redis_server.process.wait(timeout=scaled(10))
    _kill_a_worker(server)
    # the surviving worker stores actions meanwhile; the new one answers 503 until Redis is back
    for _ in range(4):
        asyncio.run(table.act_once())
    _answers_during_outage(server, table.game["id"])
    time.sleep(2.0)  # the outage goes on a little (not a wait for anything)
    assert _two_workers(server)  # nobody stopped the server
    redis_server.start()  # on the same port
    table.serves_again(time.monotonic())
    assert table.stored_actions(postgres) == table.sent


def test_a_worker_killed_while_postgresql_is_down_serves_once_it_returns(
    services: tuple[PostgresCluster, RedisServer], server: Server
) -> None:
    postgres, _redis = services
    table = Table(server)
    table.play(3)
    postgres.halt()
    _kill_a_worker(server)
    for _ in range(3):  # refused with a reason naming the database, or by close code 1013
        assert not asyncio.run(table.act_once())
    codes = _answers_during_outage(server, table.game["id"])
    assert 503 in codes  # the open games come from the database
    time.sleep(2.0)  # the outage goes on a little (not a wait for anything)
    assert _two_workers(server)  # nobody stopped the server
    postgres.restart()
    table.serves_again(time.monotonic())
    assert table.stored_actions(postgres) == table.sent
