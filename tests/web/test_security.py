"""The findings of the security probe (issue 13), each reproduced and shown fixed.

Every test sets small limits of its own, so each runs in about a second:
file read and FIFO through a variant, a slow reader, a ping flood, creation
spam and idle games, the unknown-id leak, token reuse, the creator's seed,
NaN in a request, a full disk, and the computer's clock counting queue time.
"""

from __future__ import annotations

import asyncio
import errno
import hashlib
import json
import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from limitgames.agents import Agent, register_agent
from limitgames.core import GameRecord, State
from limitgames.web import live as live_module
from limitgames.web.app import create_app
from limitgames.web.computer import ComputerChoice, ComputerPool
from limitgames.web.limits import ServerLimits, TokenBucket
from tests.deadlines import scaled
from tests.web.conftest import ThreadServer, new_game, receive_until


def _is_view(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "view")


def _hello(ws: Any, seats: dict[int, str]) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seats": [{"seat": s, "token": t} for s, t in seats.items()]})
    return receive_until(ws, lambda m: m["type"] in ("welcome", "error"))


def _app(db_url: str, **limits: Any) -> Any:
    return create_app(db_url, move_seconds=5.0, limits=ServerLimits(**limits))


# --- 1. file read and FIFO through the world's `data` parameter -------------------------------
def _world(client: TestClient | httpx.Client, data: Any) -> httpx.Response:
    body = {
        "game": "world",
        "variant": {"players": 2, "data": data},
        "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}],
    }
    return client.post("/api/games", json=body)


def test_a_client_cannot_name_a_file(client: TestClient, tmp_path: Path) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text('[credentials]\npassword = "hunter2"\n', encoding="utf-8")
    answers = [_world(client, str(p)) for p in (secret, "/etc/passwd", tmp_path / "missing")]
    assert [a.status_code for a in answers] == [400, 400, 400]
    details = {a.json()["detail"] for a in answers}
    # one and the same answer whether the file exists, is TOML or is missing: nothing is read
    assert len(details) == 1, details
    detail = details.pop()
    assert "credentials" not in detail and "No such file" not in detail and "TOML" not in detail
    assert "offered: none" in detail


def test_a_client_cannot_send_data_overrides(client: TestClient) -> None:
    # world's ``overrides`` (the game data as JSON, what a record embeds) is local only: a client
    # could otherwise set any value of the game data; the lobby does not offer it either
    body = {
        "game": "world",
        "variant": {"players": 2, "overrides": '{"money": {"start": 1000000000}}'},
        "seats": [{"kind": "me"}, {"kind": "computer", "level": "easy"}],
    }
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    assert "overrides: cannot be set over the network" in answer.json()["detail"]
    world = next(g for g in client.get("/api/catalog").json() if g["id"] == "world")
    assert "overrides" not in {p["name"] for p in world["parameters"]}


def test_a_fifo_as_data_never_blocks_the_server(client: TestClient, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    opened_by_server = threading.Event()
    answered = threading.Event()

    def writer() -> None:
        """Unblocks a server that opened the FIFO (the bug: it blocked), and notes that it did."""
        deadline = time.monotonic() + scaled(30)  # until the answer, however slow it is
        while time.monotonic() < deadline and not answered.is_set():
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                assert exc.errno == errno.ENXIO  # no reader yet
                time.sleep(0.02)
                continue
            opened_by_server.set()
            os.write(fd, b"[end]\n")
            os.close(fd)
            return

    thread = threading.Thread(target=writer)
    thread.start()
    answer = _world(client, str(fifo))
    answered.set()
    thread.join()
    assert answer.status_code == 400
    assert not opened_by_server.is_set(), "the server opened a file named by a client"


def test_an_admin_offers_data_files_by_name(db_url: str, tmp_path: Path) -> None:
    data = tmp_path / "two-tests.toml"
    data.write_text("[end]\nstress_tests = 2\n", encoding="utf-8")  # the shipped data says 1
    app = create_app(db_url, data_files={"world": {"two-tests": str(data)}})
    with TestClient(app) as client:
        world = next(g for g in client.get("/api/catalog").json() if g["id"] == "world")
        offered = next(p for p in world["parameters"] if p["name"] == "data")
        assert offered["choices"] == [None, "two-tests"] and str(tmp_path) not in json.dumps(world)
        answer = _world(client, "two-tests")
        assert answer.status_code == 200, answer.text
        game_id = answer.json()["id"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.games[game_id].state.variant["stress_tests"] == 2  # the admin's file was used
        summary = client.get(f"/api/games/{game_id}").json()
        assert summary["variant"]["data"] == "two-tests"
        page = client.get(f"/games/{game_id}").text
        with client.websocket_connect(f"/games/{game_id}/ws") as ws:
            view = ws.receive_text()
        for text in (json.dumps(summary), page, view):
            assert str(tmp_path) not in text
        assert "two-tests" in _world(client, str(data)).json()["detail"]  # the path is refused
        assert _world(client, "").status_code == 200  # "" (the lobby's "default"): shipped data
    with pytest.raises(ValueError, match="not a regular file"):
        create_app(db_url, data_files={"world": {"pipe": "/dev/zero"}})


# --- 2. a spectator that never reads -------------------------------------------------------
def test_a_slow_reader_is_told_to_resync_and_blocks_nobody(db_url: str) -> None:
    app = _app(db_url, send_queue=4, messages_per_second=1000, action_burst=1000)
    with ThreadServer(app, send_buffer=8192) as server:
        game = new_game(
            httpx.Client(base_url=server.base, timeout=scaled(60)),
            "hex",
            [{"kind": "me"}, {"kind": "friend"}],
            {"size": 10},
        )
        url = f"{server.ws_base}/games/{game['id']}/ws"
        seats = [{"seat": s, "token": game["tokens"][str(s)]} for s in (0, 1)]

        async def scenario() -> tuple[int, int | None, str]:
            raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            raw.connect(("127.0.0.1", server.port))
            # the spectator: its client buffers one message, then stops reading its socket
            spectator = await connect(
                url,
                sock=raw,
                max_queue=1,
                max_size=2**22,
                compression=None,
                open_timeout=scaled(20),
            )

            async def closing() -> tuple[int | None, str]:
                """Read the spectator's socket to its closing frame (the code and reason)."""
                try:
                    while True:
                        await asyncio.wait_for(spectator.recv(), timeout=scaled(10))
                except ConnectionClosed as exc:
                    return (exc.rcvd.code, exc.rcvd.reason) if exc.rcvd else (None, "")

            def dropped() -> bool:
                return len(app.state.hub.games[game["id"]].connections) == 1

            # once the server has dropped the spectator, its page reads again at once: the
            # server gives its closing frame CLOSE_SECONDS to get through the full socket
            drained: asyncio.Task[tuple[int | None, str]] | None = None
            played = 0
            async with connect(url, max_size=2**22, open_timeout=scaled(20)) as player:
                await player.send(json.dumps({"type": "hello", "seats": seats}))
                while played < 150:
                    if drained is None and dropped():
                        drained = asyncio.get_running_loop().create_task(closing())
                    try:
                        message = json.loads(
                            await asyncio.wait_for(player.recv(), timeout=scaled(10))
                        )
                    except TimeoutError:
                        raise AssertionError(
                            f"the player got nothing after {played} actions"
                        ) from None
                    assert message["type"] != "error", message
                    if message["type"] == "view" and message["finished"]:
                        break
                    if message["type"] != "view" or not message["your_turn"]:
                        continue
                    act = {"type": "act", "action": message["legal"][0], "ply": message["ply"]}
                    await player.send(json.dumps(act))
                    played += 1
                watchers = len(app.state.hub.games[game["id"]].connections)
            code, reason = await (drained or closing())
            return watchers, code, reason

        watchers, code, reason = asyncio.run(scenario())
        # the player played on (never a wait of 10 s for a view); the spectator was dropped and
        # told to resync
        assert watchers == 1
        assert (code, reason) == (4000, "resync")


# --- 3. rates and caps ---------------------------------------------------------------------
def test_a_ping_flood_is_read_no_faster_than_the_rate(db_url: str) -> None:
    app = _app(db_url, messages_per_second=40, message_burst=10)
    with ThreadServer(app) as server:
        game = new_game(
            httpx.Client(base_url=server.base, timeout=scaled(60)), "toy-nim", [{"kind": "me"}] * 2
        )

        async def flood() -> int:
            url = f"{server.ws_base}/games/{game['id']}/ws"
            async with connect(url, close_timeout=0.1, open_timeout=scaled(20)) as ws:
                await ws.recv()  # the first view
                started = time.monotonic()
                for _ in range(200):
                    await ws.send('{"type": "ping"}')
                pongs = 0
                while pongs < 10:  # the burst, however slow the machine
                    message = await asyncio.wait_for(ws.recv(), timeout=scaled(20))
                    pongs += json.loads(message)["type"] == "pong"
                deadline = time.monotonic() + 0.5  # and what the rate lets through meanwhile
                while (left := deadline - time.monotonic()) > 0:
                    try:
                        message = await asyncio.wait_for(ws.recv(), timeout=left)
                    except TimeoutError:
                        break
                    pongs += json.loads(message)["type"] == "pong"
                return pongs, time.monotonic() - started

        pongs, elapsed = asyncio.run(flood())
        # 10 at once, then 40 a second: at most 10 + 40 per second since the first ping was
        # sent (elapsed is at least 0.5 s, so about 30-40 on a quiet machine; without the
        # rate: all 200)
        assert 10 <= pongs <= 10 + 40 * elapsed + 1, (pongs, elapsed)
        assert pongs < 200


def test_actions_of_one_game_are_rate_limited(db_url: str) -> None:
    app = _app(db_url, actions_per_second=20, action_burst=2)
    with TestClient(app) as client:
        game = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], {"size": 6})
        with client.websocket_connect(f"{game['url']}/ws") as ws:
            receive_until(ws, _is_view)
            _hello(ws, {0: game["tokens"]["0"], 1: game["tokens"]["1"]})
            view = receive_until(ws, _is_view)
            started = time.monotonic()
            for _ in range(12):  # 12 actions: 2 at once, then 20 a second
                ws.send_json({"type": "act", "action": view["legal"][0], "ply": view["ply"]})
                view = receive_until(ws, lambda m, p=view["ply"]: _is_view(m) and m["ply"] > p)
            assert time.monotonic() - started >= 0.45


class _CountingBucket(TokenBucket):
    """A bucket that never makes anyone wait and counts what is taken from it."""

    def __init__(self) -> None:
        super().__init__(rate=1e9, capacity=1e9)
        self.taken = 0

    def reserve(self) -> float:
        self.taken += 1
        return super().reserve()


def test_spectators_do_not_spend_the_players_action_budget(db_url: str) -> None:
    # 30 messages from a spectator, of every kind a game counts (resign, draw,
    # rematch, reclaim, undo, a hello with a wrong token): none may be taken
    # from the game's action budget; the player's one action is.
    app = _app(db_url)
    with TestClient(app) as client:
        game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}], seed=3)
        with client.websocket_connect(f"{game['url']}/ws") as spectator:
            receive_until(spectator, _is_view)
            bucket = app.state.hub.games[game["id"]].actions = _CountingBucket()
            for kind in ("resign", "draw", "rematch", "reclaim", "undo"):
                for _ in range(5):
                    spectator.send_json({"type": kind})
                    receive_until(spectator, lambda m: m["type"] == "error")
            for _ in range(5):
                assert _hello(spectator, {0: "x" * 20})["type"] == "error"
            assert bucket.taken == 0
        with client.websocket_connect(f"{game['url']}/ws") as player:
            receive_until(player, _is_view)
            _hello(player, {0: game["tokens"]["0"]})
            view = receive_until(player, _is_view)
            player.send_json({"type": "act", "action": view["legal"][0], "ply": 0})
            receive_until(player, lambda m: _is_view(m) and m["ply"] == 1)
            assert bucket.taken == 1


def test_connections_are_capped_per_game_and_per_address(db_url: str) -> None:
    app = _app(db_url, connections_per_game=2, connections_per_address=3)
    with TestClient(app) as client:
        a = new_game(client, "toy-nim", [{"kind": "me"}] * 2)
        b = new_game(client, "toy-nim", [{"kind": "me"}] * 2)
        with (
            client.websocket_connect(f"{a['url']}/ws") as w1,
            client.websocket_connect(f"{a['url']}/ws") as w2,
        ):
            receive_until(w1, _is_view)
            receive_until(w2, _is_view)
            with client.websocket_connect(f"{a['url']}/ws") as w3:
                assert "viewers" in w3.receive_json()["message"]
            with client.websocket_connect(f"{b['url']}/ws") as w4:
                receive_until(w4, _is_view)
                with client.websocket_connect(f"{b['url']}/ws") as w5:
                    assert "your address" in w5.receive_json()["message"]
        # closed connections are counted out again
        with client.websocket_connect(f"{a['url']}/ws") as w6:
            assert receive_until(w6, _is_view)["ply"] == 0


def test_creation_spam_is_refused(db_url: str) -> None:
    app = _app(db_url, games_per_hour=3)
    with TestClient(app) as client:
        for _ in range(3):
            new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer"}])
        refused = client.post(
            "/api/games", json={"game": "toy-nim", "seats": [{"kind": "me"}, {"kind": "computer"}]}
        )
        assert refused.status_code == 429 and "an hour" in refused.json()["detail"]


def test_unfinished_games_per_creator_are_capped(db_url: str) -> None:
    app = _app(db_url, unfinished_per_creator=2)
    with TestClient(app) as client:
        first = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}])
        new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}])
        body = {"game": "toy-nim", "seats": [{"kind": "me"}, {"kind": "friend"}]}
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 429 and "unfinished" in refused.json()["detail"]
        with client.websocket_connect(f"{first['url']}/ws") as ws:  # finish the first game
            receive_until(ws, _is_view)
            _hello(ws, {0: first["tokens"]["0"], 1: first["tokens"]["1"]})
            while True:
                view = receive_until(
                    ws, lambda m: _is_view(m) and (m["your_turn"] or m["finished"])
                )
                if view["finished"]:
                    break
                ws.send_json({"type": "act", "action": view["legal"][0], "ply": view["ply"]})
        assert client.post("/api/games", json=body).status_code == 200


def test_idle_games_are_abandoned_and_not_resumed(db_url: str) -> None:
    with TestClient(_app(db_url, abandon_after=3600)) as client:
        kept = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer"}])
    time.sleep(0.3)
    app = _app(db_url, abandon_after=0.2)
    with TestClient(app) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert kept["id"] not in hub.games  # abandoned at start-up, not replayed
        assert client.get(f"/api/games/{kept['id']}").json()["status"] == "abandoned"
        game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}])
        with client.websocket_connect(f"{game['url']}/ws") as ws:
            receive_until(ws, _is_view)
            _hello(ws, {0: game["tokens"]["0"]})
            # nobody acts: the sweeper abandons the game and tells its viewers
            ended = receive_until(ws, lambda m: _is_view(m) and m["game_status"] == "abandoned")
            assert "abandoned" in ended["error"]
            ws.send_json({"type": "act", "action": "take 1"})
            assert "abandoned" in receive_until(ws, lambda m: m["type"] == "error")["message"]
        assert client.get(f"/api/games/{game['id']}").json()["status"] == "abandoned"
        assert GameRecord.loads(client.get(f"/games/{game['id']}/record.json").text).result is None
    with TestClient(_app(db_url, abandon_after=3600)) as client:
        assert client.app.state.hub.games == {}  # type: ignore[attr-defined]


# --- 4. unknown ids ---------------------------------------------------------------------------
def test_unknown_game_ids_leak_nothing(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for i in range(100):
        assert client.get(f"/games/nothere{i}").status_code == 404
        assert client.get(f"/games/nothere{i}/record.json").status_code == 404
        assert client.get(f"/api/games/{'x' * 300}{i}").status_code == 404
    for i in range(20):
        with client.websocket_connect(f"/games/gone{i}/ws") as ws:
            assert "no game" in ws.receive_json()["message"]
    assert hub._loading == {} and hub.games == {}


# --- 5. tokens ---------------------------------------------------------------------------------
def test_a_friends_token_is_rotated_when_the_friend_joins(client: TestClient) -> None:
    game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}])
    invite = game["tokens"]["1"]  # the creator saw it (it is in the invite link)
    with client.websocket_connect(f"{game['url']}/ws") as friend:
        receive_until(friend, _is_view)
        welcome = _hello(friend, {1: invite})
        assert welcome["type"] == "welcome" and welcome["seats"] == [1]
        fresh = welcome["tokens"]["1"]
        assert fresh != invite
    with client.websocket_connect(f"{game['url']}/ws") as creator:
        receive_until(creator, _is_view)
        refused = _hello(creator, {1: invite})
        assert refused["type"] == "error" and "works once" in refused["message"]
    with client.websocket_connect(f"{game['url']}/ws") as friend_again:
        receive_until(friend_again, _is_view)
        again = _hello(friend_again, {1: fresh})
        assert again["type"] == "welcome" and "tokens" not in again


# --- 6. seeds ---------------------------------------------------------------------------------
def test_the_server_draws_the_seed_of_hidden_games_between_people(client: TestClient) -> None:
    people = [{"kind": "me"}, {"kind": "friend"}]
    chosen = client.post("/api/games", json={"game": "toy-secret", "seats": people, "seed": 424242})
    assert chosen.status_code == 400 and "server draws the seed" in chosen.json()["detail"]
    cards = {"game": "cards", "variant": {"players": 2}, "seats": people, "seed": 424242}
    assert client.post("/api/games", json=cards).status_code == 400  # the probe's own attack
    game = new_game(client, "toy-secret", people, seed=None)
    summary = client.get(f"/api/games/{game['id']}").json()
    commitment = summary["seed_commitment"]
    assert summary["seed"] is None and summary["seed_source"] == "server" and len(commitment) == 64
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, {0: game["tokens"]["0"], 1: game["tokens"]["1"]})
        for ply in range(4):
            view = receive_until(ws, lambda m, p=ply: _is_view(m) and m["ply"] == p)
            assert view["seed"] is None and view["seed_commitment"] == commitment
            ws.send_json({"type": "act", "action": "bet 1", "ply": ply})
        receive_until(ws, lambda m: _is_view(m) and m["finished"])
    record = GameRecord.loads(client.get(f"/games/{game['id']}/record.json").text)
    assert record.seed is not None
    assert hashlib.sha256(str(record.seed).encode("ascii")).hexdigest() == commitment
    assert record.meta["seed_commitment"] == commitment


def test_a_seed_chosen_by_the_creator_is_shown_to_every_seat(client: TestClient) -> None:
    game = new_game(
        client, "toy-secret", [{"kind": "me"}, {"kind": "computer", "level": "random"}], seed=424242
    )
    with client.websocket_connect(f"{game['url']}/ws") as spectator:
        view = receive_until(spectator, _is_view)
        assert (view["seed"], view["seed_source"]) == (424242, "creator")
    with client.websocket_connect(f"{game['url']}/ws") as player:
        receive_until(player, _is_view)
        _hello(player, {0: game["tokens"]["0"]})
        assert receive_until(player, _is_view)["seed"] == 424242
    perfect = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}], seed=5)
    assert client.get(f"/api/games/{perfect['id']}").json()["seed"] == 5


# --- 7. malformed JSON and a full disk ---------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        b'{"game": "toy-nim", "seats": NaN}',
        b'{"game": "toy-nim", "seats": [{"kind": "me"}, {"kind": "me"}], "seed": NaN}',
        b'{"game": "toy-nim", "variant": {"players": Infinity}, "seats": [{"kind": "me"}]}',
        b'{"game": "toy-nim", "variant": {"players": 1e999}, "seats": [{"kind": "me"}]}',
        b'{"game": NaN}',
        b'{"game": "toy-nim", "seats": [{"kind": "me"}, {"kind": -Infinity}]}',
        b"[" * 5000,
        b"\xff\xfe",
    ],
)
def test_nan_and_malformed_json_get_a_clear_4xx(
    client: TestClient, caplog: pytest.LogCaptureFixture, body: bytes
) -> None:
    with caplog.at_level(logging.INFO):
        answer = client.post(
            "/api/games", content=body, headers={"content-type": "application/json"}
        )
    assert answer.status_code in (400, 422), answer.text
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail
    assert "Traceback" not in caplog.text and not [r for r in caplog.records if r.exc_info]


def test_nan_in_a_websocket_message_is_an_error(client: TestClient) -> None:
    game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}])
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, {0: game["tokens"]["0"]})
        ws.send_text('{"type": "act", "action": "take 1", "ply": NaN}')
        assert receive_until(ws, lambda m: m["type"] == "error")["message"]
        ws.send_json({"type": "act", "action": "take 1", "ply": 0})
        assert receive_until(ws, lambda m: _is_view(m) and m["ply"] == 1)


class DiskFull:
    """Makes the database refuse every write, as a full disk (or a read-only file) does."""

    def __init__(self, store: Any) -> None:
        self.on = threading.Event()
        self.refused = 0
        dbapi = store.engine.dialect.loaded_dbapi

        def refuse(cursor: Any, statement: str, parameters: Any, context: Any) -> None:
            if self.on.is_set() and statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
                self.refused += 1
                raise dbapi.OperationalError("database or disk is full")

        event.listen(store.engine, "do_execute", refuse)
        event.listen(store.engine, "do_executemany", refuse)


class FillsTheDisk(Agent):
    """A computer whose move comes just as the disk fills up."""

    name = "fills-disk"
    disk: DiskFull | None = None

    def choose(self, state: State) -> Any:
        assert FillsTheDisk.disk is not None
        FillsTheDisk.disk.on.set()
        return state.legal_actions()[0]


register_agent(
    "fills-disk", lambda spec, options, seed: FillsTheDisk(spec, seed), "fills the disk (tests)"
)


def test_a_full_disk_gives_a_clear_error_and_the_game_recovers(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    disk = FillsTheDisk.disk = DiskFull(hub.store)
    body = {"game": "toy-nim", "seats": [{"kind": "me"}, {"kind": "friend"}]}
    disk.on.set()
    with caplog.at_level(logging.INFO):
        full = client.post("/api/games", json=body)
    assert full.status_code == 503 and full.headers["retry-after"]
    assert "cannot store" in full.json()["detail"] and "/" not in full.json()["detail"]
    assert not [r for r in caplog.records if r.exc_info]
    disk.on.clear()
    assert client.post("/api/games", json=body).status_code == 200  # back by itself

    monkeypatch.setattr(
        live_module, "resolve_level", lambda game, level: ComputerChoice(level, "fills-disk")
    )
    game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer", "level": "hard"}])
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, {0: game["tokens"]["0"]})
        ws.send_json({"type": "act", "action": "take 1", "ply": 0})
        # the computer chose as the disk filled: the page says so, the game waits
        stuck = receive_until(ws, lambda m: _is_view(m) and m["notice"] is not None)
        assert "cannot store" in stuck["notice"] and stuck["error"] is None and stuck["ply"] == 1
        disk.on.clear()  # space is back: the move is stored and the game goes on, no restart
        after = receive_until(ws, lambda m: _is_view(m) and m["ply"] == 2)
        assert after["notice"] is None and after["error"] is None
        disk.on.set()  # a person's action on a full disk: refused in one line, game unchanged
        ws.send_json({"type": "act", "action": "take 1", "ply": 2})
        assert "cannot store" in receive_until(ws, lambda m: m["type"] == "error")["message"]
        disk.on.clear()
        ws.send_json({"type": "act", "action": "take 1", "ply": 2})
        assert receive_until(ws, lambda m: _is_view(m) and m["ply"] >= 3)
    assert disk.refused >= 3


# --- 8. the computer's clock -------------------------------------------------------------------
class HalfSecondAgent(Agent):
    """Thinks for 0.5 s: well within a 1.2-s limit, unless the queue counts too."""

    name = "half-second"

    def choose(self, state: State) -> Any:
        time.sleep(0.5)
        return state.legal_actions()[0]


def test_the_computer_time_limit_counts_thinking_only() -> None:
    import tests.core.toy  # noqa: F401 - toy-nim
    from limitgames.core import get_game

    state = get_game("toy-nim").new_initial_state(seed=1)

    async def four_games_one_worker() -> list[dict[str, Any]]:
        pool = ComputerPool(workers=1, move_seconds=1.2)
        try:
            agents = [HalfSecondAgent("half-second", seed=i) for i in range(4)]
            answers = await asyncio.gather(*(pool.choose(a, state) for a in agents))
        finally:
            pool.shutdown()
        return [info for _, info in answers]

    infos = asyncio.run(four_games_one_worker())
    # each waited for the one worker (the last 1.5 s: with its thinking 2 s, past the limit
    # if the queue counted) but thought 0.5 s (0.7 s to spare on a busy machine): none ran
    # out of time
    assert not any(info.get("timeout") for info in infos), infos
