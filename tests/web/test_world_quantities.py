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
    game = new_game(client, "world", people, {"players": 3}, seed=2)
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
