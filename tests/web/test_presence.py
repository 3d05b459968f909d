"""Presence over the WebSocket (``web/presence.py``): each seat's person is here (a page
open and in use), away (pages open, each hidden or idle) or gone (no page open)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import new_game, receive_until


def _view(ws: Any, predicate: Any = lambda m: True) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "view" and predicate(m))


def _hello(ws: Any, seats: dict[int, str]) -> None:
    ws.send_json({"type": "hello", "seats": [{"seat": s, "token": t} for s, t in seats.items()]})
    receive_until(ws, lambda m: m["type"] == "welcome")


def test_presence_is_pushed_to_the_table_and_the_spectators(client: TestClient) -> None:
    seats = [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer"}]
    game = new_game(client, "hex", seats, variant={"players": 3}, seed=5)
    with client.websocket_connect(f"{game['url']}/ws") as watcher:
        _hello(watcher, {})
        # nobody is here yet; a computer's seat has no presence
        assert _view(watcher)["presence"] == ["gone", "gone", None]
        with client.websocket_connect(f"{game['url']}/ws") as ws0:
            _hello(ws0, {0: game["tokens"]["0"]})
            _view(watcher, lambda m: m["presence"] == ["here", "gone", None])
            ws0.send_json({"type": "presence", "away": True})  # the page was hidden
            _view(watcher, lambda m: m["presence"] == ["away", "gone", None])
            # a spectator's own presence changes nothing (and is not refused)
            watcher.send_json({"type": "presence", "away": True})
            ws0.send_json({"type": "presence", "away": False})
            _view(watcher, lambda m: m["presence"] == ["here", "gone", None])
        _view(watcher, lambda m: m["presence"] == ["gone", "gone", None])
