"""Several server processes on one database (issue 13, deliver 2).

Two kinds of tests:

- Two real ``limit serve`` processes on separate ports, one throwaway
  PostgreSQL cluster and one ``redis-server`` (``tests/web/services.py``),
  when those are installed (else skipped with the reason): a game played
  through both processes stays consistent, two processes racing for the same
  ply store it once, and ``kill -9`` of one loses nothing.
- In one process, two :class:`GameHub` on one SQLite file joined by an
  in-memory broker that can drop a message: the missed-message resync by
  sequence number, and a stale process's action refused by the database's
  ``(game, ply)`` key (no services needed).

The reference in each: the list of actions the test itself sent, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import ClientConnection, connect

from limitgames.web.computer import ComputerPool
from limitgames.web.fanout import Deliver, Resync, SharedGames
from limitgames.web.live import Connection, GameHub, RefusedError
from limitgames.web.live_game import LiveGame
from limitgames.web.messages import ClockChoice, NewGame, SeatChoice
from limitgames.web.storage import Store, hash_token
from tests.deadlines import scaled, wait_until
from tests.web.conftest import GENEROUS_LIMITS, Server, new_game, reset_database
from tests.web.services import PostgresCluster, RedisServer, free_port, missing

MISSING = missing()
needs_services = pytest.mark.skipif(MISSING is not None, reason=f"not installed: {MISSING}")


# --- two real processes on PostgreSQL and Redis ------------------------------------------


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def two_servers(postgres: PostgresCluster, redis_server: RedisServer) -> Iterator[list[Server]]:
    """Two server processes (separate ports) on one fresh PostgreSQL database and one Redis."""
    reset_database(postgres.url)
    options = [*GENEROUS_LIMITS, "--redis", redis_server.url, "--threads"]
    servers = [Server(postgres.url, move_seconds=2.0, options=options) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def _ws(server: Server, game_id: str) -> str:
    return f"ws://127.0.0.1:{server.port}/games/{game_id}/ws"


async def _join(server: Server, game: dict[str, Any], seats: list[int]) -> ClientConnection:
    ws = await connect(_ws(server, game["id"]), max_size=2**22, open_timeout=scaled(20))
    claims = [{"seat": s, "token": game["tokens"][str(s)]} for s in seats]
    await ws.send(json.dumps({"type": "hello", "seats": claims}))
    await _until(ws, lambda m: m["type"] == "welcome")
    return ws


async def _until(
    ws: ClientConnection, predicate: Any, seconds: float = 20.0, errors: list[str] | None = None
) -> dict[str, Any]:
    """The next message satisfying ``predicate``; error messages go to ``errors`` (else fail).
    ``seconds`` bounds the wait (scaled, see :mod:`tests.deadlines`)."""

    async def read() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] == "error":
                if errors is None:
                    raise AssertionError(message["message"])
                errors.append(message["message"])
            if predicate(message):
                return message

    return await asyncio.wait_for(read(), scaled(seconds))


def _view_at(ply: int) -> Any:
    return lambda m: m["type"] == "view" and m["ply"] >= ply


def _hot_seat_hex(server: Server, seed: int) -> dict[str, Any]:
    with httpx.Client(base_url=server.base, timeout=scaled(30)) as http:
        return new_game(http, "hex", [{"kind": "me"}, {"kind": "me"}], {"size": 4}, seed=seed)


@needs_services
def test_a_game_played_through_two_processes_stays_consistent(two_servers: list[Server]) -> None:
    a, b = two_servers
    game = _hot_seat_hex(a, seed=5)
    rng = random.Random(11)
    sent: list[str] = []

    async def play() -> tuple[dict[str, Any], dict[str, Any]]:
        sockets = [await _join(a, game, [0, 1]), await _join(b, game, [0, 1])]
        try:
            while True:
                ply = len(sent)
                ws = sockets[ply % 2]  # even plies through A, odd plies through B
                view = await _until(ws, _view_at(ply))
                assert view["ply"] == ply  # this process already shows the other's action
                if view["finished"]:
                    break
                action = rng.choice(view["legal"])
                await ws.send(json.dumps({"type": "act", "action": action, "ply": ply}))
                sent.append(action)
            other = await _until(sockets[(len(sent) + 1) % 2], _view_at(len(sent)))
            return (view, other) if len(sent) % 2 == 0 else (other, view)
        finally:
            for s in sockets:
                await s.close()

    end_a, end_b = asyncio.run(play())
    assert end_a["finished"] and end_b["finished"]
    assert end_a["moves"] == end_b["moves"] == sent
    assert end_a["observation"] == end_b["observation"]
    assert end_a["returns"] == end_b["returns"]
    for server in two_servers:
        record = httpx.get(
            f"{server.base}/games/{game['id']}/record.json", timeout=scaled(10)
        ).json()
        assert record["actions"] == sent


@needs_services
def test_two_processes_racing_for_one_ply_store_it_once(two_servers: list[Server]) -> None:
    a, b = two_servers
    game = _hot_seat_hex(a, seed=6)

    errors: list[str] = []

    async def race() -> list[dict[str, Any]]:
        sockets = [await _join(a, game, [0, 1]), await _join(b, game, [0, 1])]
        try:
            views = [await _until(s, _view_at(0)) for s in sockets]
            first, second = views[0]["legal"][:2]
            await asyncio.gather(
                sockets[0].send(json.dumps({"type": "act", "action": first, "ply": 0})),
                sockets[1].send(json.dumps({"type": "act", "action": second, "ply": 0})),
            )
            answers = [await _until(s, _view_at(1), errors=errors) for s in sockets]
            for s in sockets:  # a process answers a connection's messages in order: the refusal
                await s.send(json.dumps({"type": "ping"}))  # of the act comes before the pong
                await _until(s, lambda m: m["type"] == "pong", errors=errors)
            return answers
        finally:
            for s in sockets:
                await s.close()

    answers = asyncio.run(race())
    assert answers[0]["moves"] == answers[1]["moves"]
    assert len(answers[0]["moves"]) == 1
    assert len(errors) == 1 and "position has changed" in errors[0]
    summary = httpx.get(f"{a.base}/api/games/{game['id']}", timeout=scaled(10)).json()
    assert summary["plies"] == 1


@needs_services
def test_kill_9_of_one_process_loses_nothing(two_servers: list[Server]) -> None:
    a, b = two_servers
    game = _hot_seat_hex(a, seed=7)
    rng = random.Random(3)
    sent: list[str] = []

    async def before_kill() -> None:
        sockets = [await _join(a, game, [0, 1]), await _join(b, game, [0, 1])]
        try:
            for ply in range(6):
                view = await _until(sockets[ply % 2], _view_at(ply))
                action = rng.choice(view["legal"])
                await sockets[ply % 2].send(json.dumps({"type": "act", "action": action}))
                sent.append(action)
            await _until(sockets[1], _view_at(6))  # B has shown the last one
        finally:
            for s in sockets:
                await s.close()

    asyncio.run(before_kill())
    a.kill()  # SIGKILL: no shutdown of any kind

    async def after_kill() -> dict[str, Any]:
        ws = await _join(b, game, [0, 1])  # the client of A reconnects to B and resyncs
        try:
            view = await _until(ws, _view_at(0))
            assert view["ply"] == 6 and view["moves"] == sent
            while not view["finished"]:
                action = rng.choice(view["legal"])
                await ws.send(json.dumps({"type": "act", "action": action, "ply": view["ply"]}))
                sent.append(action)
                view = await _until(ws, _view_at(len(sent)))
            return view
        finally:
            await ws.close()

    end = asyncio.run(after_kill())
    assert end["finished"] and end["moves"] == sent
    record = httpx.get(f"{b.base}/games/{game['id']}/record.json", timeout=scaled(10)).json()
    assert record["actions"] == sent


@needs_services
def test_a_rematch_reaches_each_seat_on_its_own_process(two_servers: list[Server]) -> None:
    """Seat 0's person on A asks; seat 1's person on B is sent their own new token, and only it."""
    a, b = two_servers
    game = _hot_seat_hex(a, seed=8)

    async def run() -> None:
        red, blue = await _join(a, game, [0]), await _join(b, game, [1])
        try:
            await _until(blue, _view_at(0))
            await blue.send(json.dumps({"type": "resign"}))
            await _until(red, lambda m: m["type"] == "view" and m["finished"])
            await red.send(json.dumps({"type": "rematch"}))
            to_red = await _until(red, lambda m: m["type"] == "rematch")
            to_blue = await _until(blue, lambda m: m["type"] == "rematch")
            # seats rotate: red (old 0) plays new seat 1, blue (old 1) new seat 0
            assert set(to_red["tokens"]) == {"1"} and set(to_blue["tokens"]) == {"0"}
            assert to_red["game_id"] == to_blue["game_id"]
            rematch = {"id": to_red["game_id"], "tokens": {**to_red["tokens"], **to_blue["tokens"]}}
            for server, seat in ((b, 0), (a, 1)):  # each token opens its seat, on either process
                ws = await _join(server, rematch, [seat])
                await ws.close()
        finally:
            await red.close()
            await blue.close()

    asyncio.run(run())


@needs_services
def test_a_clock_running_out_across_two_processes_makes_one_zombie(
    two_servers: list[Server], redis_server: RedisServer
) -> None:
    """Per move 2 s, seat 0's person on A, seat 1's on B, neither acts.

    Both processes watch both clocks. Read on the Redis channel itself: each seat is made
    a zombie once (one announcement), every ply is stored once, and both processes show
    the same game.
    """
    import redis.asyncio as aioredis

    from limitgames.web.fanout import CHANNEL

    a, b = two_servers
    body = {
        "game": "hex",
        "variant": {"size": 4, "colours": "fixed"},
        "seats": [{"kind": "me"}, {"kind": "me"}],
        "seed": 12,
        "clock": {"kind": "move", "seconds": 2, "away": 0},
    }
    game = httpx.post(f"{a.base}/api/games", json=body, timeout=scaled(30)).json()
    changes: list[dict[str, Any]] = []
    marker = f"marker-{secrets.token_hex(4)}"  # a game no process holds: they ignore it
    heard_marker = asyncio.Event()

    async def listen(pubsub: Any) -> None:
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if message is not None:
                change = json.loads(bytes(message["data"]).decode().partition(" ")[2])
                if change.get("game") == game["id"]:
                    changes.append(change)
                elif change.get("game") == marker:
                    heard_marker.set()

    def both_zombies(m: dict[str, Any]) -> bool:
        return m["type"] == "view" and m["ply"] >= 4 and all(p["zombie"] for p in m["players"])

    async def run() -> list[dict[str, Any]]:
        client = aioredis.from_url(redis_server.url)
        pubsub = client.pubsub()
        await pubsub.subscribe(CHANNEL)
        listener = asyncio.get_running_loop().create_task(listen(pubsub))
        red, blue = await _join(a, game, [0]), await _join(b, game, [1])
        try:
            await _until(red, both_zombies, seconds=60)
            await red.send(json.dumps({"type": "resign"}))  # stop the two computers
            ends = [
                await _until(ws, lambda m: m["type"] == "view" and m["finished"])
                for ws in (red, blue)
            ]
            # B showed the end, so every announcement of the game was published before this
            # marker, and Redis delivers a channel's messages in the order they were published
            await client.publish(CHANNEL, f"1 {json.dumps({'kind': 'reload', 'game': marker})}")
            await asyncio.wait_for(heard_marker.wait(), scaled(20))
            return ends
        finally:
            await red.close()
            await blue.close()
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
            await pubsub.aclose()
            await client.aclose()

    end_a, end_b = asyncio.run(run())
    assert end_a["moves"] == end_b["moves"] and len(end_a["moves"]) >= 4
    assert end_a["move_seats"] == end_b["move_seats"]
    assert [p["zombie"] for p in end_a["players"]] == ["time", "time"]
    assert [p["zombie"] for p in end_b["players"]] == ["time", "time"]
    made = [change["zombies"] for change in changes if "zombies" in change]
    assert made == [[0], [1]]  # one takeover per seat, whichever process saw it first
    plies = [change["ply"] for change in changes if change["kind"] == "action"]
    assert plies == list(range(len(end_a["moves"])))  # one computer move per ply
    for server in two_servers:
        record = httpx.get(
            f"{server.base}/games/{game['id']}/record.json", timeout=scaled(10)
        ).json()
        assert record["actions"] == end_a["moves"]


@pytest.mark.slow  # waits out the 7 s after which a computer move counts as stalled
@needs_services
def test_a_computer_move_of_a_killed_process_is_taken_over(
    postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    reset_database(postgres.url)
    shared = [*GENEROUS_LIMITS, "--redis", redis_server.url, "--threads"]
    # A shows its computer's moves 5 s late (it is killed meanwhile); B takes the move over
    # once it has seen no change for 2 + 0 + 5 s (move seconds + its pause + the margin)
    a = Server(postgres.url, move_seconds=2.0, options=[*shared, "--computer-pause", "5"])
    b = Server(postgres.url, move_seconds=2.0, options=shared)
    try:
        a.start()
        b.start()
        with httpx.Client(base_url=a.base, timeout=scaled(30)) as http:
            game = new_game(
                http, "hex", [{"kind": "me"}, {"kind": "computer", "level": "random"}], {"size": 4}
            )

        async def run() -> dict[str, Any]:
            watcher = await _join(b, game, [0])  # B holds the game in memory
            player = await _join(a, game, [0])
            try:
                while True:  # a turn of hex may take several actions
                    view = await _until(player, lambda m: m["type"] == "view" and m["your_turn"])
                    ply = view["ply"]
                    await player.send(json.dumps({"type": "act", "action": view["legal"][0]}))
                    seen = await _until(watcher, _view_at(ply + 1))  # B shows what A stored
                    if seen["to_move"] == 1:
                        break
                a.kill()  # A's computer waits 5 s before storing its move: it never will
                return await _until(watcher, _view_at(ply + 2), seconds=30)
            finally:
                await watcher.close()
                with contextlib.suppress(Exception):
                    await player.close()

        answer = asyncio.run(run())
        assert answer["move_seats"][-2:] == [0, 1]  # the person's action, then the computer's
    finally:
        a.stop()
        b.stop()


@pytest.mark.slow  # uvicorn's manager starts (and restarts) whole server processes
@needs_services
def test_workers_share_one_port_and_a_killed_worker_is_replaced(
    postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    """``limit serve --workers 2``: uvicorn's manager starts the two, and a new one after kill -9."""
    server = _serve_two_workers(postgres, redis_server)
    try:
        assert server.process is not None
        workers = _workers(server.process.pid)
        game = _hot_seat_hex(server, seed=9)
        rng = random.Random(5)
        sent: list[str] = []

        async def play(actions: int) -> dict[str, Any]:
            """Each action on a new connection (the kernel picks the worker)."""
            for _ in range(actions):
                ws = await _join(server, game, [0, 1])
                try:
                    view = await _until(ws, _view_at(len(sent)))
                    assert view["moves"] == sent  # whichever worker it is, it has every action
                    action = rng.choice(view["legal"])
                    await ws.send(json.dumps({"type": "act", "action": action, "ply": len(sent)}))
                    sent.append(action)
                    await _until(ws, _view_at(len(sent)))
                finally:
                    await ws.close()
            ws = await _join(server, game, [0, 1])
            try:
                return await _until(ws, _view_at(len(sent)))
            finally:
                await ws.close()

        asyncio.run(play(4))
        os.kill(workers[0], signal.SIGKILL)
        supervisor = server.process.pid

        def replaced() -> None:
            now = _workers(supervisor)
            if workers[0] in now or len(now) != 2:
                raise AssertionError(f"server processes: {now} (killed {workers[0]})")

        wait_until(replaced, "a new server process in place of the killed one")
        view = asyncio.run(play(4))
        assert view["moves"] == sent and len(sent) == 8
    finally:
        server.stop()


@pytest.mark.slow  # uvicorn's manager starts whole server processes
@needs_services
def test_workers_exit_when_their_supervisor_is_killed(
    postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    """kill -9 of ``limit serve --workers 2`` itself: its two server processes notice within
    seconds and exit (before, benchmark runs left such orphans serving and using CPU)."""
    server = _serve_two_workers(postgres, redis_server)
    try:
        assert server.process is not None
        workers = _workers(server.process.pid)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=scaled(10))
        deadline = time.monotonic() + scaled(30)  # watch_parent looks once a second
        while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
            time.sleep(0.2)
        left = [w for w in workers if Path(f"/proc/{w}").exists()]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, "server processes outlived their supervisor"
    finally:
        server.stop()


def _serve_two_workers(postgres: PostgresCluster, redis_server: RedisServer) -> Server:
    """``limit serve --workers 2`` started on a fresh database, its two processes running."""
    reset_database(postgres.url)
    options = [*GENEROUS_LIMITS, "--redis", redis_server.url, "--threads", "--workers", "2"]
    server = Server(postgres.url, options=options)
    server.start()
    assert server.process is not None
    if len(_workers(server.process.pid)) != 2:
        server.stop()
        raise AssertionError("limit serve --workers 2 did not start two server processes")
    return server


def _workers(parent: int) -> list[int]:
    """The server processes uvicorn's manager ``parent`` started (not its helpers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == parent and b"spawn_main" in command:
            found.append(int(entry.name))
    return sorted(found)


@pytest.mark.slow  # Redis is stopped for a few seconds
@needs_services
def test_processes_catch_up_after_redis_comes_back(
    two_servers: list[Server], redis_server: RedisServer
) -> None:
    """Redis stops; A stores an action meanwhile; once Redis is back, B shows it."""
    a, b = two_servers
    game = _hot_seat_hex(a, seed=4)

    async def run() -> dict[str, Any]:
        sockets = [await _join(a, game, [0, 1]), await _join(b, game, [0, 1])]
        try:
            view = await _until(sockets[0], _view_at(0))
            assert redis_server.process is not None
            redis_server.process.kill()  # no goodbye to its clients
            redis_server.process.wait(timeout=scaled(10))
            await sockets[0].send(json.dumps({"type": "act", "action": view["legal"][0]}))
            mine = await _until(sockets[0], _view_at(1))  # stored and shown on A regardless
            await asyncio.sleep(2.0)  # Redis stays away 2 s (the outage itself, not a wait)
            redis_server.start()  # the same port
            theirs = await _until(sockets[1], _view_at(1), seconds=30)
            assert theirs["moves"] == mine["moves"]
            return theirs
        finally:
            for ws in sockets:
                await ws.close()

    assert asyncio.run(run())["ply"] == 1


def test_several_processes_need_postgresql_and_redis(tmp_path: Path) -> None:
    import typer

    from limitgames.cli.serve_cmd import serve

    app = typer.Typer()
    app.command()(serve)
    sqlite = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = CliRunner().invoke(app, ["--workers", "2", "--db", sqlite])
    assert result.exit_code == 2 and "need a PostgreSQL database" in result.output
    result = CliRunner().invoke(app, ["--workers", "2", "--database", "postgresql+psycopg://x@h/d"])
    assert result.exit_code == 2 and "needs --redis" in result.output
    nobody = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    result = CliRunner().invoke(app, ["--db", "postgresql+psycopg://x@h/d", "--redis", nobody])
    assert result.exit_code == 1 and "cannot reach Redis at redis://:***@127.0.0.1" in result.output
    assert "hunter2" not in result.output


# --- two hubs in one process: missed messages, stale copies --------------------------------


class Broker:
    """An in-memory stand-in for the Redis channel: numbers each game's changes, may drop some."""

    def __init__(self) -> None:
        self.subscribers: list[Deliver] = []
        self.pending: list[tuple[str, dict[str, Any]]] = []
        self.seq: dict[str, int] = {}
        self.drop_next = 0

    async def flush(self) -> None:
        while self.pending:
            game_id, change = self.pending.pop(0)
            seq = self.seq[game_id] = self.seq.get(game_id, 0) + 1
            if self.drop_next > 0:
                self.drop_next -= 1
                continue
            for deliver in self.subscribers:
                await deliver(game_id, seq, dict(change))


class MemoryFanout:
    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.origin = secrets.token_hex(4)

    async def start(self, deliver: Deliver, resync: Resync) -> None:
        self.broker.subscribers.append(deliver)

    def publish(self, game_id: str, change: dict[str, Any]) -> None:
        self.broker.pending.append((game_id, {**change, "origin": self.origin}))

    async def close(self) -> None:
        pass


@contextlib.asynccontextmanager
async def two_hubs(url: str) -> AsyncIterator[tuple[Broker, list[GameHub]]]:
    """Two hubs ("processes") on the database at ``url``, joined by one :class:`Broker`."""
    broker = Broker()
    hubs, shares = [], []
    for _ in range(2):
        hub = GameHub(Store.open(url), ComputerPool(workers=1))
        shares.append(SharedGames(hub, MemoryFanout(broker), stall_after=60))
        await shares[-1].start()
        hubs.append(hub)
    try:
        yield broker, hubs
    finally:
        for share, hub in zip(shares, hubs, strict=True):
            await share.close()
            await hub.close()
            hub.store.close()
            hub.computers.shutdown()


def test_a_missed_message_is_noticed_by_its_sequence_number(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            game_id, _tokens = await a.create(
                NewGame(game="hex", variant={"size": 4}, seats=[SeatChoice(kind="me")] * 2, seed=3)
            )
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None
            conn = Connection()
            conn.seats = frozenset({0, 1})
            live_b.connections.add(Connection())  # somebody watches on B: B keeps its copy in step
            sent: list[str] = []

            async def act_on_a() -> None:
                action = live_a.state.action_to_string(live_a.state.legal_actions()[0])
                await a.act(live_a, conn, action, None)
                sent.append(action)

            await act_on_a()
            await broker.flush()
            assert live_b.notations == sent  # applied as sent (seq 1 follows nothing)
            broker.drop_next = 1
            await act_on_a()
            await broker.flush()  # seq 2 lost on the way to B
            assert live_b.notations == sent[:1]
            await act_on_a()
            await broker.flush()  # seq 3: B sees the jump and reloads from the database
            assert live_b.notations == sent and len(sent) == 3
            assert live_b.state.observation(None) == live_a.state.observation(None)

            # B misses ply 3 altogether, then a person acts on B at the ply B still shows
            broker.drop_next = 1
            await act_on_a()
            await broker.flush()
            assert len(live_b.notations) == 3
            stale = live_b.state.action_to_string(live_b.state.legal_actions()[-1])
            with pytest.raises(RefusedError, match="position has changed"):
                await b.act(live_b, conn, stale, 3)  # the database's (game, ply) key refuses it
            assert live_b.notations == sent  # ... and B reloaded
            stored = await b.db(b.store.load_game, game_id)
            assert stored is not None and stored.actions == sent
            # nobody watches on A: A forgets the game when B changes it (and loads it again on demand)
            live_b.connections.add(conn)
            await b.act(
                live_b, conn, live_b.state.action_to_string(live_b.state.legal_actions()[0]), 4
            )
            await broker.flush()
            assert game_id not in a.games
            again = await a.get(game_id)
            assert again is not None and again.notations == live_b.notations
            assert again.notations[:4] == sent and len(again.notations) == 5

    asyncio.run(run())


def test_a_draw_offered_on_one_process_is_agreed_on_the_other(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            game_id, _tokens = await a.create(
                NewGame(game="hex", variant={"size": 4}, seats=[SeatChoice(kind="me")] * 2, seed=3)
            )
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None
            red, blue = Connection(), Connection()
            red.seats, blue.seats = frozenset({0}), frozenset({1})
            live_a.connections.add(red)
            live_b.connections.add(blue)
            await a.endings.draw(live_a, red, accept=True)  # seat 0 offers, on A
            await broker.flush()
            assert live_b.draw_offer == {0}
            await b.endings.draw(live_b, blue, accept=True)  # seat 1 agrees, on B: a draw (0 each)
            await broker.flush()
            assert live_a.over and live_a.stored.ending == "draw"
            assert live_a.stored.result == [0.0, 0.0]

    asyncio.run(run())


def test_a_token_rotated_on_one_process_opens_the_seat_on_the_other(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (_broker, hubs):
            a, b = hubs
            seats = [SeatChoice(kind="me"), SeatChoice(kind="friend")]
            game_id, tokens = await a.create(NewGame(game="hex", variant={"size": 4}, seats=seats))
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None
            live_b.connections.add(Connection())
            friend = Connection()
            await a.join(live_a, friend, [(1, tokens[1])])  # the invite link, opened on A
            welcome = json.loads(friend.queue.get_nowait())
            assert welcome["type"] == "welcome"
            rotated = welcome["tokens"]["1"]
            # before B hears of it, the friend's page reconnects to B with the new token
            again = Connection()
            await b.join(live_b, again, [(1, rotated)])
            assert again.seats == {1}
            with pytest.raises(RefusedError, match="wrong token"):
                await b.join(live_b, Connection(), [(1, tokens[1])])  # the old link is dead

    asyncio.run(run())


def test_a_clock_follows_a_decision_taken_on_another_process(tmp_path: Path) -> None:
    """Fischer 5 min + 3 s: after seat 0's turn (taken at once, on A), B shows 300 - u + 3 s,
    where u, the time seat 0 used, is at most the time since the game was created."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            clock = ClockChoice(kind="fischer", minutes=5, increment=3)
            request = NewGame(
                game="hex", variant={"size": 4}, seats=[SeatChoice(kind="me")] * 2, clock=clock
            )
            created = time.monotonic()
            game_id, _tokens = await a.create(request)
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None
            live_b.connections.add(Connection())
            conn = Connection()
            conn.seats = frozenset({0, 1})
            first = live_a.state.current_player()
            while live_a.state.current_player() == first:  # a turn of hex may take two actions
                action = live_a.state.action_to_string(live_a.state.legal_actions()[0])
                await a.act(live_a, conn, action, None)
            await broker.flush()
            assert live_b.notations == live_a.notations
            assert live_b.clock is not None and live_b.clock.running == 1 - first
            now = time.monotonic()
            left = live_b.clock.left(first, now)
            assert 300 + 3 - (now - created) <= left <= 300 + 3

    asyncio.run(run())


def _messages(connection: Connection, kind: str) -> list[dict[str, Any]]:
    """The messages of type ``kind`` queued for ``connection`` (the queue is emptied)."""
    found = []
    while not connection.queue.empty():
        message = json.loads(connection.queue.get_nowait())
        if message["type"] == kind:
            found.append(message)
    return found


def test_a_rematch_asked_on_one_process_gives_each_person_their_own_token(tmp_path: Path) -> None:
    """Seat 0 on A, seat 1 on B, a spectator on B; seat 0 asks for the rematch on A.

    Seats rotate (rules of ``GameHub.rematch``): old seat 0 plays new seat 1, old seat 1
    new seat 0. Each token is checked against the hash the database stored for that seat.
    """
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            game_id, _tokens = await a.create(
                NewGame(game="hex", variant={"size": 4}, seats=[SeatChoice(kind="me")] * 2)
            )
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None
            red, blue, watcher = (Connection(queue_size=1000) for _ in range(3))
            red.seats, blue.seats = frozenset({0}), frozenset({1})
            live_a.connections.add(red)
            live_b.connections.update({blue, watcher})
            await b.endings.resign(live_b, blue, None)  # seat 1 resigns on B
            await broker.flush()
            assert live_a.over
            await a.endings.rematch(live_a, red)
            await broker.flush()
            to_red, to_blue = _messages(red, "rematch"), _messages(blue, "rematch")
            assert _messages(watcher, "rematch") == []  # a spectator gets no token
            assert len(to_red) == len(to_blue) == 1
            assert to_red[0]["game_id"] == to_blue[0]["game_id"] == live_a.rematch_id
            assert set(to_red[0]["tokens"]) == {"1"} and set(to_blue[0]["tokens"]) == {"0"}
            rematch = await a.db(a.store.load_game, to_red[0]["game_id"])
            assert rematch is not None and rematch.rematch_of == game_id
            hashes = {s.seat: s.token_hash for s in rematch.seats}
            assert hash_token(to_red[0]["tokens"]["1"]) == hashes[1]
            assert hash_token(to_blue[0]["tokens"]["0"]) == hashes[0]
            # blue asks too, on B: the same rematch, no second game
            await b.endings.rematch(live_b, blue)
            await broker.flush()
            again = _messages(blue, "rematch")
            assert [m["game_id"] for m in again] == [to_blue[0]["game_id"]]
            assert _messages(red, "rematch") == []

    asyncio.run(run())


def _per_move_hex(seconds: float) -> NewGame:
    clock = ClockChoice(kind="move", seconds=seconds, away=0)
    return NewGame(
        game="hex",
        variant={"size": 4, "colours": "fixed"},
        seats=[SeatChoice(kind="me")] * 2,
        seed=3,
        clock=clock,
    )


def test_two_processes_whose_clock_runs_out_together_make_one_zombie(tmp_path: Path) -> None:
    """Both copies see seat 0's 60 s run out at the same moment; the database picks one."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            game_id, _tokens = await a.create(_per_move_hex(60))
            lives = [await a.get(game_id), await b.get(game_id)]
            await asyncio.sleep(0.05)  # both clock watchers start, and sleep (60 s to go)
            for live, seat in zip(lives, (0, 1), strict=True):
                assert live is not None and live.clock is not None
                connection = Connection(queue_size=1000)
                connection.seats = frozenset({seat})
                live.connections.add(connection)  # (the watchers are not woken)
                assert live.clock.running == 0  # seat 0 is to move on both
                live.clock.since -= 61  # its minute ran out a second ago, on both
            live_a, live_b = lives
            assert live_a is not None and live_b is not None
            made = await asyncio.gather(a.clocks.check(live_a), b.clocks.check(live_b))
            assert sorted(made, key=len) == [[], [(0, "time")]]
            announced = [c for _game, c in broker.pending if "zombies" in c]
            assert [c["zombies"] for c in announced] == [[0]]
            winner, loser = (a, b) if made[0] else (b, a)
            stored = await a.db(a.store.load_game, game_id)
            assert stored is not None and stored.seats[0].zombie == "time"
            assert live_a.seats[0].zombie == live_b.seats[0].zombie == "time"
            held = {hub: hub.games[game_id] for hub in hubs}
            task = held[winner].computer_task
            assert task is not None  # the winner plays the zombie's turn ...
            assert held[loser].computer_task is None  # ... and only the winner
            await asyncio.wait_for(task, 30)
            await broker.flush()
            stored = await a.db(a.store.load_game, game_id)
            assert stored is not None and stored.actions and set(live_a.action_seats) == {0}
            assert live_a.notations == live_b.notations == stored.actions

    asyncio.run(run())


def test_a_stale_copy_makes_no_zombie_of_a_seat_that_has_moved(tmp_path: Path) -> None:
    """Seat 0 moves on A; B has not heard and sees seat 0's clock run out: the database refuses."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            game_id, _tokens = await a.create(_per_move_hex(60))
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None and live_b.clock is not None
            person = Connection(queue_size=1000)
            person.seats = frozenset({0, 1})
            live_a.connections.add(person)
            live_b.connections.add(Connection(queue_size=1000))
            move = live_a.state.action_to_string(live_a.state.legal_actions()[0])
            await a.act(live_a, person, move, 0)  # stored; B not told yet
            await asyncio.sleep(0.05)  # both clock watchers start, and sleep (60 s to go)
            live_b.clock.since -= 61
            assert await b.clocks.check(live_b) == []
            assert live_b.notations == [move]  # B reloaded instead
            stored = await b.db(b.store.load_game, game_id)
            assert stored is not None and stored.seats[0].zombie is None
            await broker.flush()

    asyncio.run(run())


def test_a_person_connected_to_another_process_is_not_away(tmp_path: Path) -> None:
    """Away 1 s: seat 0's person on A, seat 1's on B. Neither is away, so no zombie, until
    seat 1's person closes their page: then, 1 s later, A gives seat 1 to the computer."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            request = NewGame(
                game="hex",
                variant={"size": 4},
                seats=[SeatChoice(kind="me")] * 2,
                clock=ClockChoice(kind="none", away=1),
            )
            game_id, tokens = await a.create(request)
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None
            red, blue = Connection(queue_size=1000), Connection(queue_size=1000)
            await a.join(live_a, red, [(0, tokens[0])])
            live_a.connections.add(red)
            await b.join(live_b, blue, [(1, tokens[1])])
            live_b.connections.add(blue)
            b.clocks.presence(live_b)
            a.clocks.presence(live_a)

            async def zombies() -> list[str | None]:
                stored = await a.db(a.store.load_game, game_id)
                assert stored is not None
                return [s.zombie for s in stored.seats]

            async def wait(seconds: float, until: list[str | None] | None = None) -> None:
                """Deliver the announcements for ``seconds``, or until the stored zombie seats are
                ``until`` (at most ``seconds`` scaled)."""
                deadline = time.monotonic() + (seconds if until is None else scaled(seconds))
                while time.monotonic() < deadline:
                    await broker.flush()
                    if until is not None and await zombies() == until:
                        return
                    await asyncio.sleep(0.1)

            await wait(2.0)  # twice the time away (elapsed, however busy the machine)
            assert live_a.away_since == live_b.away_since == {}
            assert await zombies() == [None, None]
            b.detach(live_b, blue)  # seat 1's person leaves
            await wait(30.0, until=[None, "left"])  # due 1 s after that
            assert await zombies() == [None, "left"]
            again = await b.get(game_id)  # B, with nobody left there, forgot its copy
            assert again is not None and live_a.seats[1].zombie == again.seats[1].zombie == "left"

    asyncio.run(run())


def test_a_process_without_a_connection_to_a_game_draws_no_view_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fan-out costs a process that nobody watches a game on nothing but reading the
    message: B holds a copy of A's game (loaded, no connection); six actions on A are drawn
    for A's connection only (counted per copy), B forgets its copy at the first, and a
    connection opened on B afterwards gets the game as stored (ply 6)."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    drawn: list[Any] = []
    view_for = LiveGame.view_for

    def counted(self: LiveGame, seats: frozenset[int]) -> dict[str, Any]:
        drawn.append(self)
        return view_for(self, seats)

    monkeypatch.setattr(LiveGame, "view_for", counted)

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            request = NewGame(game="hex", variant={"size": 4}, seats=[SeatChoice(kind="me")] * 2)
            game_id, tokens = await a.create(request)
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None and live_a is not live_b
            both = Connection(queue_size=1000)
            await a.join(live_a, both, [(0, tokens[0]), (1, tokens[1])])
            live_a.connections.add(both)
            await broker.flush()
            drawn.clear()
            rng = random.Random(3)
            for ply in range(6):
                legal = live_a.state.legal_actions()
                action = live_a.state.action_to_string(legal[rng.randrange(len(legal))])
                await a.act(live_a, both, action, ply)
                await broker.flush()
            assert len(drawn) >= 6 and all(live is live_a for live in drawn)
            assert game_id not in b.games  # forgotten, not kept in step
            again = await b.get(game_id)
            assert again is not None and len(again.action_seats) == 6
            assert again.notations == live_a.notations

    asyncio.run(run())
