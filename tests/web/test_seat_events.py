"""Each connection receives only the events its seats may see (``view.events``).

Two checks, both independent of the server's filter: the rules (cards, "A round" 2: a
hidden card lies face down, so another seat never learns its colour), and a naive reference written here: the stored record replayed
with ``apply_with_events`` and filtered by each event's audience, compared with what each
connection received for every decision.
"""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient

from limitgames.core import GameRecord
from tests.web.conftest import new_game, receive_until
from tests.web.conftest import say_hello as _hello


def _at(ws: Any, ply: int) -> dict[str, Any]:
    """The view of ``ply`` (decisions so far) this connection receives."""
    return receive_until(ws, lambda m: m["type"] == "view" and m["ply"] >= ply, limit=400)


def naive_events(record: dict[str, Any], seat: int | None) -> list[list[dict[str, Any]]]:
    """For each decision of the record, its events as ``seat`` (``None``: a spectator) may
    see them: replayed here, and filtered by hand (public, or ``seat`` in the audience)."""
    rec = GameRecord.loads(json.dumps(record))
    told: list[list[dict[str, Any]]] = []
    for state, text in rec.positions():
        if text is None:
            break
        events = state.apply_with_events(state.parse_action(text))
        told.append(
            [
                e.to_json()
                for e in events
                if e.audience is None or (seat is not None and seat in e.audience)
            ]
        )
    return json.loads(json.dumps(told))  # as a connection reads it (tuples become lists)


def _without_sentences(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "sentence"} for e in events]


def test_a_cards_seat_never_receives_another_seats_hidden_card(client: TestClient) -> None:
    game = new_game(client, "cards", [{"kind": "me"}, {"kind": "friend"}], {"players": 2}, None)
    rng = random.Random(7)
    received: dict[str, list[list[dict[str, Any]]]] = {"0": [], "1": [], "spectator": []}
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        _hello(watcher, {})
        sockets = {"0": ws0, "1": ws1, "spectator": watcher}
        views = {name: _at(ws, 0) for name, ws in sockets.items()}
        for ply in range(1, 400):
            mover = next((n for n in ("0", "1") if views[n]["your_turn"]), None)
            if mover is None:
                assert views["0"]["finished"]
                break
            sockets[mover].send_json(
                {"type": "act", "action": rng.choice(views[mover]["legal"]), "ply": ply - 1}
            )
            for name, ws in sockets.items():
                views[name] = _at(ws, ply)
                assert views[name]["ply"] == ply
                received[name].append(views[name]["events"])
        else:
            raise AssertionError("a 2-player game of Limits ends in far fewer decisions")
    record = client.get(f"/games/{game['id']}/record.json").json()
    # the rules: the other seat and the spectator never see the colour of a card seat 0 hid
    # (a drawn card may be public: the pile's top card lies face up, so the reference decides)
    for name in ("1", "spectator"):
        for events in received[name]:
            for e in events:
                if e["kind"] == "Hid" and e["seat"] == 0:
                    assert e["colour"] is None, (name, e)
    # seat 0 itself sees the colour of every card it hid
    mine = [e for events in received["0"] for e in events if e["kind"] == "Hid"]
    assert any(e["seat"] == 0 and e["colour"] is not None for e in mine)
    # every decision, every connection: exactly the naive reference
    for name, seat in (("0", 0), ("1", 1), ("spectator", None)):
        expected = naive_events(record, seat)
        assert [_without_sentences(e) for e in received[name]] == expected, name


def test_a_world_nation_never_receives_another_nations_secret_decision(
    client: TestClient,
) -> None:
    game = new_game(
        client,
        "world",
        [{"kind": "me"}, {"kind": "computer", "level": "random"}],
        {"players": 2},
        seed=5,
    )
    rng = random.Random(3)
    received: dict[int, list[dict[str, Any]]] = {}  # {ply: the events of decision ply - 1}
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {0: game["tokens"]["0"]})
        view = _at(ws, 0)
        while view["ply"] < 40 and not view["finished"]:
            if view["your_turn"]:
                ws.send_json(
                    {"type": "act", "action": rng.choice(view["legal"]), "ply": view["ply"]}
                )
            ply = view["ply"]
            view = _at(ws, ply + 1)
            assert view["ply"] == ply + 1, "a view for every decision"
            received[view["ply"]] = view["events"]
        ws.send_json({"type": "resign"})
        receive_until(ws, lambda m: m["type"] == "view" and m["finished"])
    record = client.get(f"/games/{game['id']}/record.json").json()
    expected = naive_events(record, 0)
    assert len(received) >= 30
    for ply, events in received.items():
        assert _without_sentences(events) == expected[ply - 1], ply
    # the computer's secret choices never reached nation 0 (only their public twin, if any)
    decisions = [
        state.apply_with_events(state.parse_action(text))
        for state, text in GameRecord.loads(json.dumps(record)).positions()
        if text is not None
    ]
    secrets = 0
    for ply, events in received.items():
        got = _without_sentences(events)
        for e in decisions[ply - 1]:
            if e.audience is not None and 0 not in e.audience:
                secrets += 1
                told = json.loads(json.dumps(e.to_json()))
                public = [
                    json.loads(json.dumps(p.to_json()))
                    for p in decisions[ply - 1]
                    if p.audience is None
                ]
                assert got.count(told) <= public.count(told), (ply, told)
    assert secrets, "the computer's nation took secret decisions in these 40"
