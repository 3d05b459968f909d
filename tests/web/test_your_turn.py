"""The "your turn" list across a person's games, ``GET /api/your-turn`` (``web/your_turn.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from limitgames.web import your_turn
from tests.web.conftest import new_game, receive_until
from tests.web.people_client import Person, seek_and_accept


def _to_move(client: TestClient, game_id: str) -> int:
    """The seat to move, as a spectator's view says."""
    with client.websocket_connect(f"/games/{game_id}/ws") as ws:
        view: dict[str, Any] = receive_until(ws, lambda m: m["type"] == "view")
    return int(view["to_move"])


def test_only_the_seat_to_move_is_listed(client: TestClient) -> None:
    game = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], seed=5)
    mover = _to_move(client, game["id"])
    answer = client.get(f"/api/your-turn?seats={game['id']}:0,{game['id']}:1,nonsense,x:y")
    games = answer.json()["games"]
    # two seats named, one is to move: one entry, that seat; no clock, no time, no reminder
    assert [(g["id"], g["seat"]) for g in games] == [(game["id"], mover)]
    assert games[0]["seconds_left"] is None and games[0]["remind"] is False
    assert client.get("/api/your-turn").json() == {"games": []}  # a guest naming no seat


def test_a_correspondence_turn_shows_its_time_and_the_reminder(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    response = client.post(
        "/api/games",
        json={
            "game": "hex",
            "seats": [{"kind": "me"}, {"kind": "friend"}],
            "seed": 5,
            "clock": {"kind": "days", "days": 2},
        },
    )
    game = response.json()
    mover = _to_move(client, game["id"])
    seats = f"{game['id']}:{mover}"
    entry = client.get(f"/api/your-turn?seats={seats}").json()["games"][0]
    # 2 days a move (172,800 s); the turn has just begun (the table is complete once both
    # seats joined: until then no clock runs, and the whole turn is left)
    assert entry["clock"] == "days"
    assert 172_000 < entry["seconds_left"] <= 172_800
    assert entry["remind"] is False  # far more than a quarter of the turn is left
    # the reminder shows once less than REMIND_SHARE of the turn is left: with the share set
    # above the whole turn, any time left is "low"
    monkeypatch.setattr(your_turn, "REMIND_SHARE", 1.01)
    assert client.get(f"/api/your-turn?seats={seats}").json()["games"][0]["remind"] is True


def test_a_signed_in_person_sees_their_accounts_games(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    game = seek_and_accept(ann, bob, rated=False)
    mover = _to_move(client, game["id"])
    listed = {}
    for name, person in (("Ann", ann), ("Bob", bob)):
        with person as c:
            listed[name] = [(g["id"], g["seat"]) for g in c.get("/api/your-turn").json()["games"]]
    # the seek's author holds seat 0, the one who accepted seat 1
    assert listed["Ann"] == ([(game["id"], 0)] if mover == 0 else [])
    assert listed["Bob"] == ([(game["id"], 1)] if mover == 1 else [])
