"""Presence over the WebSocket (``web/presence.py``): each seat's person is here (a page
open and in use), away (pages open, each hidden or idle) or gone (no page open)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import new_game
from tests.web.conftest import receive_view as _view
from tests.web.conftest import say_hello as _hello


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
