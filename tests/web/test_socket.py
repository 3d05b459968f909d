"""The WebSocket: tokens, turns, illegal and hostile messages, undo, error isolation."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from limitgames.agents import Agent, register_agent
from limitgames.core import State
from limitgames.web import live as live_module
from limitgames.web.app import create_app
from limitgames.web.computer import ComputerChoice
from tests.web.conftest import new_game, receive_until


def _is_view(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "view")


def _error(ws: Any) -> str:
    message = receive_until(ws, lambda m: m["type"] == "error")
    return str(message["message"])


def _hello(ws: Any, seat: int, token: str) -> None:
    ws.send_json({"type": "hello", "seats": [{"seat": seat, "token": token}]})
    receive_until(ws, lambda m: m["type"] == "welcome")


def _two_people(client: TestClient) -> dict[str, Any]:
    return new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}], seed=3)


def test_a_seat_acts_only_with_its_token(client: TestClient) -> None:
    game = _two_people(client)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        first = receive_until(ws, _is_view)
        assert first["seats"] == [] and first["legal"] == []
        ws.send_json({"type": "act", "action": "take 1"})
        assert "spectators cannot act" in _error(ws)
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": game["tokens"]["1"]}]})
        assert "wrong token for seat 0" in _error(ws)
        ws.send_json({"type": "hello", "seats": [{"seat": 5, "token": "x" * 20}]})
        assert "wrong token for seat 5" in _error(ws)
        ws.send_json({"type": "hello", "seats": [{"seat": 1, "token": game["tokens"]["1"]}]})
        assert receive_until(ws, lambda m: m["type"] == "welcome")["seats"] == [1]
        view = receive_until(ws, _is_view)
        assert view["seats"] == [1] and not view["your_turn"] and view["legal"] == []
        ws.send_json({"type": "act", "action": "take 1"})
        assert "not your turn" in _error(ws)
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["plies"] == 0 and summary["seats"][1]["joined"]


def test_illegal_and_unreadable_actions_change_nothing(client: TestClient) -> None:
    game = _two_people(client)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, 0, game["tokens"]["0"])
        view = receive_until(ws, _is_view)
        pile = view["observation"]["pile"]
        ws.send_json({"type": "act", "action": "take 4"})
        assert "illegal action take 4" in _error(ws)
        ws.send_json({"type": "act", "action": "take many"})
        assert "cannot read 'take many'" in _error(ws)
        ws.send_json({"type": "act", "action": "take 1", "ply": 5})
        assert "position has changed" in _error(ws)
        ws.send_json({"type": "act", "action": "take 1", "ply": 0})
        after = receive_until(ws, _is_view)
        assert after["ply"] == 1 and after["observation"]["pile"] == pile - 1
        assert after["moves"] == ["take 1"]
    assert client.get(f"/api/games/{game['id']}").json()["plies"] == 1


HOSTILE = [
    "{not json",
    "[]",
    "null",
    '"hello"',
    "{}",
    '{"type": "launch"}',
    '{"type": "act"}',
    '{"type": "act", "action": ""}',
    '{"type": "act", "action": 12}',
    '{"type": "act", "action": "take 1", "ply": -1}',
    '{"type": "act", "action": "take 1", "ply": 1e999}',
    '{"type": "hello", "seats": "all"}',
    '{"type": "hello", "seats": [{"seat": -1, "token": "aaaaaaaaaa"}]}',
    '{"type": "hello", "seats": [{"seat": 0, "token": "short"}]}',
    '{"type": "act", "action": "take 1", "admin": true}',
    '{"type": "act", "action": "' + "x" * 500 + '"}',
    "[" * 2000 + "]" * 2000,
    '{"type": "act", "action": "take\\u0000 1"}',
]


@pytest.mark.parametrize("text", HOSTILE)
def test_malformed_messages_are_answered_not_fatal(client: TestClient, text: str) -> None:
    game = _two_people(client)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, 0, game["tokens"]["0"])
        receive_until(ws, _is_view)
        ws.send_text(text)
        assert _error(ws)
        ws.send_json({"type": "ping"})
        assert receive_until(ws, lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    assert client.get(f"/api/games/{game['id']}").json()["plies"] == 0


def test_oversized_and_binary_messages(client: TestClient) -> None:
    game = _two_people(client)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        ws.send_bytes(b"\x00\x01")
        assert "text frames" in _error(ws)
        ws.send_text(json.dumps({"type": "act", "action": "take 1", "pad": "y" * 100_000}))
        assert "too large" in _error(ws)
    # the server and the game go on
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        assert receive_until(ws, _is_view)["ply"] == 0


def test_unknown_game_socket(client: TestClient) -> None:
    with client.websocket_connect("/games/nothere/ws") as ws:
        assert "no game" in ws.receive_json()["message"]


def test_computer_replies_and_undo(client: TestClient) -> None:
    game = new_game(
        client, "toy-nim", [{"kind": "me"}, {"kind": "computer", "level": "random"}], seed=5
    )
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, 0, game["tokens"]["0"])
        view = receive_until(ws, _is_view)
        assert view["can_undo"] is False
        ws.send_json({"type": "act", "action": "take 1", "ply": 0})
        thinking = receive_until(ws, lambda m: _is_view(m) and m["thinking"] == 1)
        assert thinking["legal"] == []
        view = receive_until(ws, lambda m: _is_view(m) and (m["your_turn"] or m["finished"]))
        assert view["ply"] == 2 and view["can_undo"]
        ws.send_json({"type": "undo"})
        view = receive_until(ws, lambda m: _is_view(m) and m["ply"] == 0)
        assert view["your_turn"] and view["moves"] == []
    assert client.get(f"/api/games/{game['id']}").json()["plies"] == 0


def test_undo_is_refused_between_people(client: TestClient) -> None:
    game = _two_people(client)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, 0, game["tokens"]["0"])
        ws.send_json({"type": "act", "action": "take 1"})
        receive_until(ws, lambda m: _is_view(m) and m["ply"] == 1)
        ws.send_json({"type": "undo"})
        assert "only for games against the computer" in _error(ws)


class CrashingAgent(Agent):
    """An agent that always fails, to show one game's failure stays in that game."""

    name = "crash"

    def choose(self, state: State) -> Any:
        raise RuntimeError("boom")


register_agent(
    "crash", lambda spec, options, seed: CrashingAgent(spec, seed), "fails on purpose (tests)"
)


def test_a_failing_computer_stops_only_its_own_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    healthy = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer", "level": "random"}])
    monkeypatch.setattr(
        live_module, "resolve_level", lambda game, level: ComputerChoice(level, "crash")
    )
    broken = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer", "level": "easy"}])
    monkeypatch.undo()
    with client.websocket_connect(f"{broken['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, 0, broken["tokens"]["0"])
        ws.send_json({"type": "act", "action": "take 1"})
        failed = receive_until(ws, lambda m: _is_view(m) and m["error"] is not None)
        assert "computer player failed" in failed["error"] and "boom" in failed["error"]
        ws.send_json({"type": "act", "action": "take 1"})
        assert _error(ws)
    with client.websocket_connect(f"{healthy['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, 0, healthy["tokens"]["0"])
        ws.send_json({"type": "act", "action": "take 1"})
        view = receive_until(ws, lambda m: _is_view(m) and m["ply"] == 2)
        assert view["error"] is None


def test_nothing_is_announced_before_it_is_committed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While an action is being written, a new viewer still sees the stored position."""
    game = _two_people(client)
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    writing = threading.Event()
    release = threading.Event()
    original = store.append_action

    def slow_append(*args: Any) -> None:
        writing.set()
        release.wait(10)
        original(*args)

    monkeypatch.setattr(store, "append_action", slow_append)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, 0, game["tokens"]["0"])
        pile = receive_until(ws, _is_view)["observation"]["pile"]
        ws.send_json({"type": "act", "action": "take 2", "ply": 0})
        assert writing.wait(10)
        with client.websocket_connect(f"{game['url']}/ws") as watcher:
            view = receive_until(watcher, _is_view)
            assert view["ply"] == 0 and view["observation"]["pile"] == pile
            release.set()
            after = receive_until(watcher, lambda m: _is_view(m) and m["ply"] == 1)
            assert after["observation"]["pile"] == pile - 2


class SleepyAgent(Agent):
    """Thinks for 1.5 s, longer than the test server's time limit (0.6 s)."""

    name = "sleepy"

    def choose(self, state: State) -> Any:
        time.sleep(1.5)
        return state.legal_actions()[0]


register_agent("sleepy", lambda spec, options, seed: SleepyAgent(spec, seed), "sleeps (tests)")


def test_a_slow_computer_neither_blocks_the_server_nor_the_game(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        live_module, "resolve_level", lambda game, level: ComputerChoice(level, "sleepy")
    )
    app = create_app(db_url, move_seconds=0.6)
    with TestClient(app) as client:
        game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer", "level": "hard"}])
        with client.websocket_connect(f"{game['url']}/ws") as ws:
            receive_until(ws, _is_view)
            _hello(ws, 0, game["tokens"]["0"])
            ws.send_json({"type": "act", "action": "take 1", "ply": 0})
            receive_until(ws, lambda m: _is_view(m) and m["thinking"] == 1)
            # the server answers while the computer thinks: the game is still at the person's
            # move (a blocked server would answer only after the computer's move)
            assert client.get("/api/catalog").status_code == 200
            assert client.get(f"/api/games/{game['id']}").json()["plies"] == 1, (
                "the server waited for the computer"
            )
            view = receive_until(ws, lambda m: _is_view(m) and m["ply"] == 2)
            assert view["error"] is None and view["thinking"] is None


def test_no_undo_in_a_game_with_hidden_information(client: TestClient) -> None:
    game = new_game(client, "toy-secret", [{"kind": "me"}, {"kind": "computer", "level": "random"}])
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, _is_view)
        _hello(ws, 0, game["tokens"]["0"])
        ws.send_json({"type": "act", "action": "bet 1", "ply": 0})
        view = receive_until(ws, lambda m: _is_view(m) and m["ply"] == 2)
        assert view["can_undo"] is False
        ws.send_json({"type": "undo"})
        assert "without hidden cards" in _error(ws)
