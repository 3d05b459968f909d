"""Cards in the browser, through the API and the websocket: the lobby's names, computer pacing.

Issue 12 ("cards"): the lobby numbers seats 1-4 and asks for a name; the game
page must use that name (not the engine's ``seat 0``), and computer seats must
leave a person time to see each of their actions.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import new_game, receive_until


def _play_to_the_end(ws: Any, token: str) -> list[dict[str, Any]]:
    """Play seat 0 (the last legal action each turn); return every view received."""
    ws.receive_json()
    ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": token}]})
    views: list[dict[str, Any]] = []
    while True:
        view = receive_until(ws, lambda m: m["type"] == "view")
        views.append(view)
        if view["finished"]:
            return views
        if view["your_turn"]:
            ws.send_json({"type": "act", "action": view["legal"][-1], "ply": view["ply"]})


def test_the_lobby_names_are_used_everywhere_on_the_cards_page(client: TestClient) -> None:
    answer = new_game(
        client,
        "cards",
        [
            {"kind": "me", "name": "Ada"},
            {"kind": "computer", "level": "random"},
            {"kind": "friend"},
        ],
        {"players": 3},
        seed=None,
    )
    with client.websocket_connect(f"{answer['url']}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": answer["tokens"]["0"]}]})
        view = receive_until(ws, lambda m: m["type"] == "view")
    # Ada typed her name; the computer and the unnamed friend are numbered 1-3 like the lobby
    assert [p["name"] for p in view["players"]] == ["Ada", "seat 2", "seat 3"]
    assert "Ada (you)" in view["board"] and "Ada" in view["side"]
    page = view["board"] + view["side"] + view["status"]
    assert not re.search(r"seat 0\b", page), "the engine's 0-based seat names leaked"


def test_a_whole_game_says_the_names_and_never_seat_0(client: TestClient) -> None:
    answer = new_game(
        client,
        "cards",
        [{"kind": "me", "name": "Ada"}, {"kind": "computer", "level": "random"}],
        {"players": 2},
        seed=11,
    )
    with client.websocket_connect(f"{answer['url']}/ws") as ws:
        views = _play_to_the_end(ws, answer["tokens"]["0"])
    last = views[-1]
    assert "Ada" in last["status"] or "seat 2" in last["status"]
    # Ada is the lobby's seat 1 and the computer its seat 2: "seat 0" and "seat 1" never appear
    for view in views:
        text = view["board"] + view["side"] + view["status"]
        assert not re.search(r"seat [01]\b", text), text
    # every reveal names who suspected whom by these names
    reveals = re.findall(r"(Ada|seat 2) suspected (Ada|seat 2)&#39;s last card", last["side"])
    assert len(reveals) == last["side"].count("suspected") >= 1
    replay = client.get(f"/api/games/{answer['id']}/replay/1").json()
    assert replay["names"] == ["Ada", "seat 2"]
