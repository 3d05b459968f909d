"""No view or message served during play holds another seat's hidden information."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from limitgames.core import GameRecord, UnknownGameError, get_game
from limitgames.web.live import build_state
from tests.web.conftest import new_game, receive_until


def _collect(ws: Any, until: int, messages: list[str]) -> dict[str, Any]:
    """Read views into ``messages`` (raw text) until one at ply ``until``."""
    while True:
        text = ws.receive_text()
        messages.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "view" and message["ply"] >= until:
            return message


def test_secret_numbers_never_reach_other_seats(client: TestClient) -> None:
    # two people at a game with hidden information: the server draws the seed
    game = new_game(client, "toy-secret", [{"kind": "me"}, {"kind": "friend"}], seed=None)
    seen: dict[str, list[str]] = {"0": [], "1": [], "spectator": []}
    url = f"{game['url']}/ws"
    with (
        client.websocket_connect(url) as ws0,
        client.websocket_connect(url) as ws1,
        client.websocket_connect(url) as spec,
    ):
        for ws, seat in ((ws0, 0), (ws1, 1)):
            receive_until(ws, lambda m: m["type"] == "view")
            ws.send_json(
                {"type": "hello", "seats": [{"seat": seat, "token": game["tokens"][str(seat)]}]}
            )
            receive_until(ws, lambda m: m["type"] == "welcome")
        receive_until(spec, lambda m: m["type"] == "view")
        for ply in range(4):
            mover = ws0 if ply % 2 == 0 else ws1
            mover.send_json({"type": "act", "action": "bet 2", "ply": ply})
            _collect(ws0, ply + 1, seen["0"])
            _collect(ws1, ply + 1, seen["1"])
            _collect(spec, ply + 1, seen["spectator"])
        # the record is served once the game is over, with the secrets
        record = GameRecord.loads(client.get(f"/games/{game['id']}/record.json").text)
    secrets = [str(s) for s in record.chance[0]["value"]]
    assert all(secrets[0] in m for m in seen["0"] if '"view"' in m)
    assert not any(secrets[1] in m for m in seen["0"])
    assert not any(secrets[0] in m for m in seen["1"])
    assert not any(s in m for m in seen["spectator"] for s in secrets)


def test_the_record_of_a_hidden_game_is_not_served_during_play(client: TestClient) -> None:
    game = new_game(client, "toy-secret", [{"kind": "me"}, {"kind": "friend"}], seed=None)
    response = client.get(f"/games/{game['id']}/record.json")
    assert response.status_code == 403
    assert client.get(f"/api/games/{game['id']}/replay/0").status_code == 409
    summary = client.get(f"/api/games/{game['id']}").json()
    assert "chance" not in summary and "actions" not in summary


def _cards_available() -> bool:
    try:
        get_game("cards")
    except UnknownGameError:
        return False
    return True


@pytest.mark.skipif(
    not _cards_available(), reason="the cards engine (limitgames.cards) is not registered yet"
)
def test_cards_views_are_each_seats_own_observation(client: TestClient) -> None:
    """Every view seat 0 and a spectator get is exactly ``observation(seat)`` at that ply."""
    game = new_game(
        client,
        "cards",
        [
            {"kind": "me"},
            {"kind": "computer", "level": "random"},
            {"kind": "computer", "level": "random"},
        ],
        {"players": 3},
        seed=12,
    )
    url = f"{game['url']}/ws"
    views: list[tuple[int | None, dict[str, Any]]] = []
    with client.websocket_connect(url) as ws, client.websocket_connect(url) as spec:
        receive_until(ws, lambda m: m["type"] == "view")
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": game["tokens"]["0"]}]})
        for _ in range(12):
            view = receive_until(ws, lambda m: m["type"] == "view" and m["your_turn"])
            views.append((0, view))
            ws.send_json({"type": "act", "action": view["legal"][0], "ply": view["ply"]})
        ply = receive_until(ws, lambda m: m["type"] == "view")["ply"]
        while True:
            message = spec.receive_json()
            if message["type"] == "view":
                views.append((None, message))
                if message["ply"] >= ply:
                    break
    stored = client.app.state.hub.games[game["id"]].stored  # type: ignore[attr-defined]
    for seat, view in views:
        state = build_state(stored, plies=view["ply"])
        assert view["observation"] == json.loads(json.dumps(state.observation(seat)))
        if seat is None:
            assert 'data-card="' not in view["board"] and "data-hidden" not in view["board"]
        assert "hand" not in json.dumps(view.get("legal"))
