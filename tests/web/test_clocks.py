"""Clocks and zombie seats (issue 13, deliver 3): the arithmetic by hand, then over the WebSocket.

The clock arithmetic is checked with times chosen here (``now`` is passed in),
each expected value worked out by hand beside it. The live tests use toy-nim
(a pile of 5-15, take 1-3, seat 0 moves first) with short clocks.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from limitgames.web.app import create_app
from limitgames.web.clocks import ClockSettings, GameClock, after_decision, clock_from_stored
from limitgames.web.limits import ServerLimits
from tests.web.conftest import OLD_GAME_ROW, migrate, new_game, receive_until
from tests.web.conftest import receive_error as _error
from tests.web.conftest import say_hello as _hello

FISCHER_60_2 = ClockSettings("fischer", base_seconds=60.0, increment_seconds=2.0)
PER_MOVE_30 = ClockSettings("move", move_seconds=30.0)


# --- the arithmetic, by hand -------------------------------------------------------------------
def test_fischer_increment_by_hand() -> None:
    clock = GameClock.fresh(FISCHER_60_2, 2)
    assert clock.remaining == [60.0, 60.0]
    clock.start(0, now=100.0)
    assert clock.left(0, 110.0) == 50.0  # 10 s used of 60
    assert clock.left(1, 110.0) == 60.0  # seat 1's clock is not running
    # seat 0 decides at 110 after 10 s: 60 - 10 + 2 = 52
    clock = after_decision(clock, 0, 1, now=110.0)
    assert clock.remaining[0] == 52.0 and clock.running is None
    clock.start(1, now=110.0)
    # seat 1 decides at 115 after 5 s: 60 - 5 + 2 = 57
    clock = after_decision(clock, 1, 0, now=115.0)
    assert clock.remaining == [52.0, 57.0]
    clock.start(0, now=115.0)
    # a turn of two decisions (hex: a move, then its removal): the clock runs through both and
    # the increment is added once: 52 - (120 - 115) + 2 = 49
    clock = after_decision(clock, 0, 0, now=118.0)
    assert clock.running == 0 and clock.remaining[0] == 52.0
    clock = after_decision(clock, 0, 1, now=120.0)
    assert clock.remaining[0] == 49.0
    clock.start(1, now=120.0)
    assert clock.deadline() == 120.0 + 57.0  # seat 1's flag falls 57 s later
    # the last decision of the game (next seat None) ends the turn too: 57 - 7 + 2 = 52
    clock = after_decision(clock, 1, None, now=127.0)
    assert clock.remaining == [49.0, 52.0] and clock.deadline() is None


def test_per_move_clock_by_hand() -> None:
    clock = GameClock.fresh(PER_MOVE_30, 2)
    clock.start(0, now=0.0)
    assert clock.left(0, 12.0) == 18.0  # 30 - 12
    assert clock.left(0, 45.0) == 0.0  # never below 0
    clock = after_decision(clock, 0, 1, now=12.0)
    assert clock.remaining[0] == 30.0  # the next turn gets its 30 s again
    clock.start(1, now=12.0)
    clock.halt(now=20.0)  # a zombie or the end: what is left is kept, nothing added
    assert clock.remaining[1] == 22.0 and clock.running is None
    clock.start(1, now=50.0)  # a new turn per move: full time again
    assert clock.left(1, 50.0) == 30.0


def test_the_stored_clock_comes_back() -> None:
    clock = GameClock.fresh(FISCHER_60_2, 2)
    clock.start(1, now=5.0)
    stored = clock.snapshot(now=9.5)  # seat 1 used 4.5 s: 55.5 left
    assert stored == {"remaining": [60.0, 55.5]}
    back = clock_from_stored(FISCHER_60_2, stored, 2)
    assert back is not None and back.remaining == [60.0, 55.5] and back.running is None
    settings = ClockSettings.from_json(FISCHER_60_2.to_json(), default_away=300.0)
    assert settings == FISCHER_60_2
    assert clock_from_stored(ClockSettings(), None, 2) is None  # no clock


# --- live ------------------------------------------------------------------------------------
def _view(ws: Any, predicate: Any = lambda m: True) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "view" and predicate(m), limit=500)


def _nim(client: TestClient, clock: dict[str, Any], seats: list[str] | None = None) -> Any:
    body = {
        "game": "toy-nim",
        "variant": {},
        "seats": [{"kind": k} for k in (seats or ["me", "me"])],
        "seed": 3,
        "clock": clock,
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_clock_runs_out_and_the_computer_plays_the_seat(client: TestClient) -> None:
    game = _nim(client, {"kind": "move", "seconds": 1, "away": 0})
    before = time.monotonic()  # every view below is drawn after this
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        first = _view(ws0, lambda m: m["clock"]["running"] == 0)
        assert first["clock"]["kind"] == "move" and first["clock"]["seconds"] == 1
        left = first["clock"]["remaining"][0]
        assert 0 <= left <= 1.0 and first["your_turn"]
        zombie = _view(ws0, lambda m: m["players"][0]["zombie"] == "time")
        # not before the second is over: `first` was drawn after `before` with `left` to go
        # (stored to the ms), so the time-out came at least `left` after `before`
        assert time.monotonic() - before >= left - 0.011
        assert not zombie["your_turn"] and zombie["legal"] == []
        # not before the computer has played the turn the time ran out in
        assert zombie["can_reclaim"] == []
        assert _view(watcher, lambda m: m["players"][0]["zombie"] == "time")["can_reclaim"] == []
        ws0.send_json({"type": "act", "action": "take 1"})
        assert "the computer plays your seat now (time ran out)" in _error(ws0)
        # the computer (level medium) moves for seat 0; seat 1's clock starts
        moved = _view(ws1, lambda m: m["ply"] == 1)
        assert moved["move_seats"] == [0] and moved["your_turn"]
        assert moved["clock"]["running"] == 1
        # seat 0 takes its seat back: a clock per move gives its next turn the full second
        ws0.send_json({"type": "reclaim"})
        back = _view(ws0, lambda m: m["players"][0]["zombie"] is None)
        assert back["can_reclaim"] == [] and back["clock"]["remaining"][0] == 1.0
        ws1.send_json({"type": "act", "action": "take 1", "ply": 1})
        mine = _view(ws0, lambda m: m["ply"] == 2)
        assert mine["your_turn"] and mine["clock"]["running"] == 0
        ws0.send_json({"type": "act", "action": "take 1", "ply": 2})
        assert _view(ws1, lambda m: m["ply"] == 3)["move_seats"] == [0, 1, 0]
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["clock"]["kind"] == "move"


class _TestTime:
    """The clock service's time source, moved by the test (seconds)."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


def _until_pong(ws: Any) -> list[dict[str, Any]]:
    """Every message up to the answer to a ping (the server answers in order)."""
    ws.send_json({"type": "ping"})
    seen: list[dict[str, Any]] = []
    while (message := ws.receive_json())["type"] != "pong":
        seen.append(message)
    return seen


@pytest.mark.parametrize(
    "clock",
    [
        {"kind": "move", "seconds": 3, "away": 0},
        {"kind": "fischer", "minutes": 0.05, "increment": 2},
    ],
    ids=["move-3s", "fischer-3s+2s"],
)
def test_a_player_cannot_freeze_their_clock_by_reclaiming(db_url: str, clock: Any) -> None:
    # Seat 0 lets its 3 s run out at ply 0; the computer's move for it is held back (a
    # pause of 60 s). Taking the seat back now would give seat 0 the same turn again with
    # fresh time (3 s, or the 2 s increment), again and again: the clock would never
    # count. The seat must stay the computer's until that turn is played.
    app = create_app(db_url, move_seconds=5.0, limits=ServerLimits(computer_pause=60.0))
    with TestClient(app) as client:
        hub = app.state.hub
        hub.clocks.now = test_time = _TestTime()
        game = _nim(client, clock)
        with (
            client.websocket_connect(f"{game['url']}/ws") as ws0,
            client.websocket_connect(f"{game['url']}/ws") as ws1,
        ):
            _hello(ws0, {0: game["tokens"]["0"]})
            _hello(ws1, {1: game["tokens"]["1"]})
            _view(ws0, lambda m: m["clock"]["running"] == 0)
            test_time.now += 3.5  # seat 0's 3 s are spent
            ws0.send_json({"type": "act", "action": "take 1"})
            # refused for the time either way: by the act itself ("your time ran out"), or, when
            # the clock's watcher saw the time out first (a busy machine), as a seat the
            # computer now plays ("the computer plays your seat now (time ran out)")
            assert "time ran out" in _error(ws0)
            zombie = _view(ws0, lambda m: m["players"][0]["zombie"] == "time")
            assert zombie["ply"] == 0 and zombie["can_reclaim"] == []
            ws0.send_json({"type": "reclaim"})
            errors = [m["message"] for m in _until_pong(ws0) if m["type"] == "error"]
            assert errors and "take your seat back once the computer has played" in errors[0]
            live = hub.games[game["id"]]
            assert live.seats[0].zombie == "time" and live.clock.running is None
            assert len(live.action_seats) == 0


def test_a_spectator_cannot_stop_the_clock(client: TestClient) -> None:
    game = _nim(client, {"kind": "move", "seconds": 1, "away": 0})
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws1,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        _hello(ws1, {1: game["tokens"]["1"]})
        _hello(watcher, {})
        _view(watcher, lambda m: m["clock"]["running"] == 0)  # seat 0 ("me") is to move
        # a spectator can neither act, nor resign, nor take a seat back: the clock runs on
        for message, words in (
            ({"type": "act", "action": "take 1"}, "spectators cannot act"),
            ({"type": "resign"}, "spectators cannot resign"),
            ({"type": "reclaim"}, "spectators have no seat"),
            ({"type": "draw"}, "spectators cannot offer a draw"),
        ):
            watcher.send_json(message)
            assert words in _error(watcher)
        zombie = _view(watcher, lambda m: m["players"][0]["zombie"] == "time")
        assert zombie["can_reclaim"] == []


def test_a_player_away_too_long_becomes_a_zombie_and_comes_back(client: TestClient) -> None:
    game = _nim(client, {"kind": "none", "away": 1})
    with client.websocket_connect(f"{game['url']}/ws") as ws0:
        _hello(ws0, {0: game["tokens"]["0"]})
        with client.websocket_connect(f"{game['url']}/ws") as ws1:
            _hello(ws1, {1: game["tokens"]["1"]})
            _view(ws1)
        left = time.monotonic()
        zombie = _view(ws0, lambda m: m["players"][1]["zombie"] == "left")
        assert time.monotonic() - left >= 0.9  # away 1 s while seat 0's player is here
        assert zombie["clock"]["kind"] == "none" and zombie["clock"]["remaining"] is None
        ws0.send_json({"type": "act", "action": "take 1"})
        replied = _view(ws0, lambda m: m["ply"] == 2)  # the computer took seat 1's turn
        assert replied["move_seats"] == [0, 1] and replied["your_turn"]
        # seat 1's player opens the game again: the seat is theirs at once (hello)
        with client.websocket_connect(f"{game['url']}/ws") as ws1:
            _hello(ws1, {1: game["tokens"]["1"]})
            assert _view(ws1, lambda m: m["players"][1]["zombie"] is None)["seats"] == [1]
            ws0.send_json({"type": "act", "action": "take 1", "ply": 2})
            turn = _view(ws1, lambda m: m["ply"] == 3)
            assert turn["your_turn"] and turn["thinking"] is None


def test_nobody_waiting_means_no_zombie(client: TestClient) -> None:
    game = _nim(client, {"kind": "none", "away": 1})
    for seat in (0, 1):
        with client.websocket_connect(f"{game['url']}/ws") as ws:
            _hello(ws, {seat: game["tokens"][str(seat)]})
            _view(ws)
    time.sleep(1.5)
    # both left: nobody waits, so nobody becomes a zombie; a spectator is nobody either
    with client.websocket_connect(f"{game['url']}/ws") as watcher:
        _hello(watcher, {})
        time.sleep(1.3)
        watcher.send_json({"type": "ping"})
        views = []
        while (message := watcher.receive_json())["type"] != "pong":
            views.append(message)
        last = [m for m in views if m["type"] == "view"][-1]
        assert [p["zombie"] for p in last["players"]] == [None, None]


def test_clocks_start_once_the_table_is_complete(client: TestClient) -> None:
    game = _nim(client, {"kind": "fischer", "minutes": 1, "increment": 5}, ["me", "friend"])
    with client.websocket_connect(f"{game['url']}/ws") as ws0:
        _hello(ws0, {0: game["tokens"]["0"]})
        waiting = _view(ws0)
        # the friend has not opened the game: no clock runs, both have the full minute
        assert waiting["clock"]["running"] is None
        assert waiting["clock"]["remaining"] == [60.0, 60.0]
        with client.websocket_connect(f"{game['url']}/ws") as ws1:
            _hello(ws1, {1: game["tokens"]["1"]})
            assert _view(ws0, lambda m: m["clock"]["running"] == 0)["your_turn"]


def test_a_restart_keeps_the_clock(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        created = time.monotonic()  # seat 0's clock starts after this
        game = _nim(client, {"kind": "fischer", "minutes": 1, "increment": 5})
        with (
            client.websocket_connect(f"{game['url']}/ws") as ws0,
            client.websocket_connect(f"{game['url']}/ws") as ws1,
        ):
            _hello(ws0, {0: game["tokens"]["0"]})
            _hello(ws1, {1: game["tokens"]["1"]})
            _view(ws0, lambda m: m["clock"]["running"] == 0)
            sent = time.monotonic()  # seat 1's clock starts after this
            ws0.send_json({"type": "act", "action": "take 1"})
            after = _view(ws1, lambda m: m["ply"] == 1)
            moved = time.monotonic()  # ... and before this
            # seat 0 used u <= moved - created of its 60 and gained 5 (a busy machine makes u
            # longer, never the bound wrong)
            left0 = after["clock"]["remaining"][0]
            assert 65.0 - (moved - created) - 0.011 <= left0 <= 65.0
            assert after["clock"]["running"] == 1
            time.sleep(0.5)
        # the server stops while seat 1's clock runs: the time it used is stored
    stopped = time.monotonic()
    time.sleep(0.5)  # the server is down: nobody's time
    restarted = time.monotonic()  # seat 1's clock runs again from the game's loading, after this
    with (
        TestClient(create_app(db_url)) as client,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        view = _view(watcher)
        viewed = time.monotonic()  # ... until the view was drawn, before this
        clock = view["clock"]
        assert clock["kind"] == "fischer" and clock["increment"] == 5
        assert clock["remaining"][0] == pytest.approx(left0, abs=0.011)  # stored to the ms
        # seat 1's clock started between `sent` and `moved` and stopped with the server, at
        # least 0.5 s after `moved` and before `stopped`: it used u in [0.5, stopped - sent]
        # before the restart, and at most `viewed - restarted` since
        used_at_most = (stopped - sent) + (viewed - restarted)
        assert 60.0 - used_at_most - 0.011 <= clock["remaining"][1] <= 59.5 + 0.011
        assert clock["running"] == 1


def test_a_fischer_time_out_without_increment_stays_the_computers(client: TestClient) -> None:
    game = _nim(client, {"kind": "fischer", "minutes": 0.02, "away": 0})  # 1.2 s each
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        zombie = _view(ws0, lambda m: m["players"][0]["zombie"] == "time")
        assert zombie["clock"]["remaining"][0] == 0.0 and zombie["can_reclaim"] == []
        ws0.send_json({"type": "reclaim"})
        assert "no increment" in _error(ws0)


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"kind": "sudden"}, "clock.kind"),
        ({"kind": "move"}, "needs seconds"),
        ({"kind": "move", "seconds": 0}, "clock.seconds"),
        ({"kind": "move", "seconds": 10, "increment": 2}, "not minutes or increment"),
        ({"kind": "fischer", "increment": 2}, "needs minutes"),
        ({"kind": "fischer", "minutes": 0.001}, "at least 1 second"),
        ({"kind": "fischer", "minutes": 5, "increment": -1}, "clock.increment"),
        ({"kind": "fischer", "minutes": 99999}, "clock.minutes"),
        ({"kind": "none", "seconds": 5}, "leave out seconds"),
        ({"kind": "none", "away": -1}, "clock.away"),
        ({"kind": "move", "seconds": "10s"}, "clock.seconds"),
        ({"kind": "move", "seconds": 10, "flag": True}, "clock.flag"),
    ],
)
def test_bad_clock_parameters_are_refused_in_one_line(
    client: TestClient, clock: dict[str, Any], words: str
) -> None:
    body = {"game": "toy-nim", "seats": [{"kind": "me"}, {"kind": "me"}], "clock": clock}
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert words in detail and "\n" not in detail and detail.startswith("clock")


def test_a_rematch_keeps_the_clock(client: TestClient) -> None:
    game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer"}], seed=3)
    assert client.get(f"/api/games/{game['id']}").json()["clock"]["kind"] == "none"
    timed = _nim(client, {"kind": "move", "seconds": 20}, ["me", "computer"])
    with client.websocket_connect(f"{timed['url']}/ws") as ws:
        _hello(ws, {0: timed["tokens"]["0"]})
        assert not _view(ws)["can_undo"]  # no undo against a clock
        ws.send_json({"type": "resign"})
        _view(ws, lambda m: m["finished"])
        ws.send_json({"type": "rematch"})
        offer = receive_until(ws, lambda m: m["type"] == "rematch")
    clock = client.get(f"/api/games/{offer['game_id']}").json()["clock"]
    assert clock["kind"] == "move" and clock["seconds"] == 20


def test_migration_0004_keeps_older_games_and_goes_back(db_url: str) -> None:

    from sqlalchemy import inspect, text

    from limitgames.web import storage

    engine = storage.make_engine(db_url)

    migrate(engine, "upgrade", "0003")
    with engine.begin() as connection:
        connection.execute(text(OLD_GAME_ROW))
        connection.execute(
            text(
                "INSERT INTO seats (game_id, seat, kind, label, joined) "
                "VALUES ('old1', 0, 'human', 'Ann', 1)"
            )
        )
    engine.dispose()
    store = storage.Store.open(db_url)  # upgrades to head
    try:
        old = store.load_game("old1")
        assert old is not None and old.clock is None and old.clock_state is None
        assert old.seats[0].zombie is None
        # an older game has no clock and the server's default time away
        assert ClockSettings.from_json(old.clock, 300.0) == ClockSettings(away_seconds=300.0)
    finally:
        store.close()
    migrate(engine, "downgrade", "0003")
    assert "zombie" not in {c["name"] for c in inspect(engine).get_columns("seats")}
    assert "clock" not in {c["name"] for c in inspect(engine).get_columns("games")}
    engine.dispose()


def test_a_hex_turn_of_two_decisions_earns_one_increment(client: TestClient) -> None:
    timed = client.post(
        "/api/games",
        json={
            "game": "hex",
            "variant": {"size": 4, "colours": "fixed"},
            "seats": [{"kind": "me"}, {"kind": "me"}],
            "clock": {"kind": "fischer", "minutes": 1, "increment": 10},
        },
    ).json()
    with client.websocket_connect(f"{timed['url']}/ws") as ws:
        _hello(ws, {0: timed["tokens"]["0"], 1: timed["tokens"]["1"]})
        view = _view(ws, lambda m: m["clock"]["running"] == 0)
        ws.send_json({"type": "act", "action": view["legal"][0], "ply": 0})  # the move
        mid = _view(ws, lambda m: m["ply"] == 1)
        # the same seat removes a tile next: its clock runs on, nothing added yet (< 60 s)
        assert mid["to_move"] == 0 and mid["clock"]["running"] == 0
        assert mid["clock"]["remaining"][0] < 60.0
        ws.send_json({"type": "act", "action": mid["legal"][0], "ply": 1})  # the removal
        after = _view(ws, lambda m: m["ply"] == 2)
        # one turn, one increment: 60 - used + 10 with used < 2 s is in (68, 70]
        # (two increments would give more than 78)
        assert after["to_move"] == 1 and after["clock"]["running"] == 1
        assert 68.0 < after["clock"]["remaining"][0] <= 70.0
