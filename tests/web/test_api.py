"""The HTTP side: lobby, catalog, starting games, summaries, records, replays."""

from __future__ import annotations

from fastapi.testclient import TestClient

from limitgames.core import GameRecord
from tests.web.conftest import new_game, receive_until


def test_lobby_page_lists_the_games(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "New game" in page.text and "toy-nim" in page.text
    catalog = client.get("/api/catalog").json()
    nim = next(g for g in catalog if g["id"] == "toy-nim")
    assert [p["name"] for p in nim["parameters"]] == ["players"]
    assert set(nim["levels"]) == {"random", "easy", "medium", "hard", "expert"}
    assert client.get("/static/game.js").status_code == 200
    assert client.get("/favicon.ico").status_code == 200


def test_start_game_returns_tokens_only_for_people(client: TestClient) -> None:
    answer = new_game(
        client,
        "toy-nim",
        [{"kind": "me"}, {"kind": "friend"}, {"kind": "computer", "level": "random"}],
        {"players": 3},
    )
    assert set(answer["tokens"]) == {"0", "1"}
    assert answer["links"]["1"] == f"/games/{answer['id']}#seat=1&token={answer['tokens']['1']}"
    summary = client.get(f"/api/games/{answer['id']}").json()
    assert summary["status"] == "playing"
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "computer"]
    assert [s["joined"] for s in summary["seats"]] == [True, False, False]
    assert answer["tokens"]["0"] not in str(summary)
    page = client.get(answer["url"])
    assert page.status_code == 200 and answer["tokens"]["0"] not in page.text


def test_bad_requests_get_clear_errors(client: TestClient) -> None:
    def refused(body: object) -> str:
        response = client.post("/api/games", json=body)
        assert response.status_code in (400, 422), response.text
        return str(response.json()["detail"])

    assert "unknown game" in refused({"game": "chess", "seats": [{"kind": "me"}]})
    assert "players" in refused(
        {"game": "toy-nim", "variant": {"players": 9}, "seats": [{"kind": "me"}] * 2}
    )
    assert "2 seats" in refused({"game": "toy-nim", "seats": [{"kind": "me"}]})
    assert "level" in refused(
        {"game": "toy-nim", "seats": [{"kind": "me"}, {"kind": "computer", "level": "godlike"}]}
    )
    refused({"game": "toy-nim", "seats": [{"kind": "robot"}, {"kind": "me"}]})
    refused({"game": "toy-nim", "seats": [{"kind": "me"}] * 2, "extra": 1})
    assert (
        client.post(
            "/api/games", content=b"{not json", headers={"content-type": "application/json"}
        ).status_code
        == 422
    )
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/games/nope").status_code == 404
    assert client.get("/api/games?status=weird").status_code == 400


def test_open_games_and_my_games(client: TestClient) -> None:
    a = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}])
    b = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}])
    playing = {g["id"] for g in client.get("/api/games?status=playing").json()}
    assert {a["id"], b["id"]} <= playing
    mine = client.get(f"/api/games?ids={a['id']}").json()
    assert [g["id"] for g in mine] == [a["id"]]


def test_record_and_replay_of_a_finished_game(client: TestClient) -> None:
    answer = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer", "level": "random"}])
    game_id = answer["id"]
    assert client.get(f"/games/{game_id}/replay").status_code == 200
    assert client.get(f"/api/games/{game_id}/replay/0").status_code == 409
    with client.websocket_connect(f"/games/{game_id}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": answer["tokens"]["0"]}]})
        while True:
            view = receive_until(
                ws, lambda m: m["type"] == "view" and (m["your_turn"] or m["finished"])
            )
            if view["finished"]:
                break
            ws.send_json({"type": "act", "action": view["legal"][0], "ply": view["ply"]})
    response = client.get(f"/games/{game_id}/record.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = GameRecord.loads(response.text)
    state = record.replay()
    assert state.is_terminal() and record.result == state.returns()
    assert record.seats == ["human:me", "random"]
    plies = len(record.actions)
    first = client.get(f"/api/games/{game_id}/replay/0").json()
    last = client.get(f"/api/games/{game_id}/replay/{plies}").json()
    assert first["plies"] == plies and first["moves"] == record.actions
    assert "Game over" in last["status"] and "Game over" not in first["status"]
    assert client.get(f"/api/games/{game_id}/replay/{plies + 1}").status_code == 400
    page = client.get(f"/games/{game_id}/replay")
    assert "replay.js" in page.text


def test_a_whole_cards_game_against_two_computers(client: TestClient) -> None:
    answer = new_game(
        client,
        "cards",
        [
            {"kind": "me"},
            {"kind": "computer", "level": "random"},
            {"kind": "computer", "level": "random"},
        ],
        {"players": 3},
        seed=31,
    )
    with client.websocket_connect(f"{answer['url']}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": answer["tokens"]["0"]}]})
        while True:
            view = receive_until(
                ws, lambda m: m["type"] == "view" and (m["your_turn"] or m["finished"])
            )
            if view["finished"]:
                break
            ws.send_json({"type": "act", "action": view["legal"][-1], "ply": view["ply"]})
    assert "Game over" in view["status"] and view["moves"] is None
    rounds = view["observation"]["rounds"]
    assert len(rounds) >= 1 and "Rounds" in view["side"]
    record = GameRecord.loads(client.get(f"/games/{answer['id']}/record.json").text)
    assert record.replay().returns() == view["returns"]


def test_pages_carry_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/catalog", "/static/game.js"):
        headers = client.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_after_start_up_the_server_keeps_its_long_lived_objects_out_of_the_collector(
    client: TestClient,
) -> None:
    """``app.settle_memory``: once started, the objects of the imports are frozen, so a full
    collection does not stop the event loop for about 100 ms (``docs/web.md``, Load)."""
    import gc
    import time

    deadline = time.monotonic() + 30
    while gc.get_freeze_count() == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    frozen = gc.get_freeze_count()
    gc.unfreeze()  # the other tests of this process run with the usual collector
    assert frozen > 50_000  # the imports (about 120,000 objects with the agents) are frozen
