"""A whole world game through the web hub with amounts drawn from each whole legal range.

The view lists a sample of a quantity's range (``legal``) and declares the range itself
(``forms``); the hub must accept every amount in range (it once answered "sell 11 renewable
... not among the legal actions" at seed 0, ply 121).
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import new_game, receive_until


def _pick(view: dict[str, Any], rng: random.Random) -> str:
    forms = view["forms"]
    if forms and rng.random() < 0.8:
        form = rng.choice(forms)
        amount = rng.randint(form["minimum"], form["maximum"])
        return str(form["notation"]).replace("N", str(amount))
    return str(rng.choice(view["legal"]))


def test_a_whole_world_game_with_amounts_from_the_whole_range(client: TestClient) -> None:
    people = [{"kind": "me"}, {"kind": "friend"}, {"kind": "friend"}]
    # (the server draws the seed: a chosen one is refused with hidden cards between people)
    game = new_game(client, "world", people, {"players": 3}, seed=None)
    rng = random.Random(2)
    hello = [{"seat": s, "token": game["tokens"][str(s)]} for s in (0, 1, 2)]
    long_ranges = 0
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, lambda m: m["type"] == "view")
        ws.send_json({"type": "hello", "seats": hello})
        receive_until(ws, lambda m: m["type"] == "welcome")
        while True:
            view = receive_until(ws, lambda m: m["type"] in ("view", "error"), limit=50)
            assert view["type"] == "view", view  # never refused
            if view["finished"]:
                break
            if view["your_turn"]:
                long_ranges += any(f["maximum"] - f["minimum"] >= 12 for f in view["forms"])
                ws.send_json({"type": "act", "action": _pick(view, rng), "ply": view["ply"]})
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["plies"] > 100
    assert long_ranges > 0  # some range was longer than the sample the view lists


def _play_through(client: TestClient, people: list[dict[str, str]], variant: dict[str, Any]) -> str:
    game = new_game(client, "world", people, variant, seed=3 if len(people) == 1 else None)
    rng = random.Random(3)
    seats = range(len(people))
    hello = [{"seat": s, "token": game["tokens"][str(s)]} for s in seats]
    verbs: set[str] = set()
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, lambda m: m["type"] == "view")
        ws.send_json({"type": "hello", "seats": hello})
        receive_until(ws, lambda m: m["type"] == "welcome")
        while True:
            view = receive_until(ws, lambda m: m["type"] in ("view", "error"), limit=50)
            assert view["type"] == "view", view  # never refused
            if view["finished"]:
                break
            if view["your_turn"]:
                action = _pick(view, rng)
                verbs.add(action.split()[0])
                ws.send_json({"type": "act", "action": action, "ply": view["ply"]})
    return " ".join(sorted(verbs))


def test_the_alliance_step_and_solo_mode_through_the_hub(client: TestClient) -> None:
    """The generic action lists carry the new phases: a 4-nation game with the alliance step
    (on by default) sees offers made; a solo game has one seat and ends."""
    people = [{"kind": "me"}] + [{"kind": "friend"}] * 3
    verbs = _play_through(client, people, {"players": 4})
    assert "offer" in verbs.split()
    verbs = _play_through(client, [{"kind": "me"}], {"solo": True})
    assert "play" in verbs.split()
