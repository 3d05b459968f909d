"""Platform features over the API and the WebSocket: resign, draw, rematch, chat, open seats, rules.

Expected results are reasoned by hand beside each test (the scale of returns:
+1 a sole winner, 0 each of several seats sharing the win, -1 the others).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from limitgames.web.live import clean_chat, draw_allowed, resign_result
from limitgames.web.rules_page import render_markdown, rules_games
from limitgames.web.storage import SeatInfo, Store
from tests.web.conftest import OLD_GAME_ROW, migrate, new_game, receive_until
from tests.web.conftest import receive_error as _error
from tests.web.conftest import receive_view as _view
from tests.web.conftest import say_hello as _hello

ROOT = Path(__file__).resolve().parents[2]


def _nim(client: TestClient, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return new_game(client, "toy-nim", seats or [{"kind": "me"}, {"kind": "me"}], seed=3)


# --- resign ------------------------------------------------------------------------------
def test_resign_results_by_hand() -> None:
    # two seats: the one left takes the win; three: the two left share it (0 each)
    assert resign_result(2, 1) == [1.0, -1.0]
    assert resign_result(2, 0) == [-1.0, 1.0]
    assert resign_result(3, 0) == [-1.0, 0.0, 0.0]


def test_a_seat_resigns_and_the_other_wins(client: TestClient) -> None:
    game = _nim(client)
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        _view(ws1)
        assert _view(ws0)["can_resign"]
        _view(watcher)
        watcher.send_json({"type": "resign"})
        assert "spectators cannot resign" in _error(watcher)
        ws1.send_json({"type": "resign", "seat": 0})
        assert "seat 0 is not yours" in _error(ws1)
        ws1.send_json({"type": "resign"})
        view = _view(ws0, lambda m: m["finished"])
        assert view["returns"] == [1.0, -1.0]
        assert view["ending"] == {"kind": "resign", "seat": 1}
        # the ending decided at the table, as an outcome and in words (seat 1 resigned)
        outcome = view["outcome"]
        assert (outcome["termination"], outcome["by"], outcome["winners"]) == (
            "resignation",
            1,
            [0],
        )
        players = [p["name"] for p in view["players"]]
        assert view["ending_words"] == f"{players[1]} resigned: {players[0]} wins."
        assert not view["your_turn"] and view["legal"] == [] and view["to_move"] is None
        ws0.send_json({"type": "act", "action": "take 1"})
        assert "the game is over" in _error(ws0)
        ws0.send_json({"type": "resign"})
        assert "the game is over" in _error(ws0)
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "finished" and summary["result"] == [1.0, -1.0]
    assert summary["ending"] == "resign:1"
    record = client.get(f"/games/{game['id']}/record.json").json()
    assert record["meta"]["ending"] == "resign:1" and record["result"] == [1.0, -1.0]
    replay = client.get(f"/api/games/{game['id']}/replay/0").json()
    names = replay["names"]
    assert replay["result"] == f"{names[1]} resigned: {names[0]} wins."


def test_a_resigned_game_stays_over_after_a_restart(db_url: str) -> None:
    from limitgames.web.app import create_app

    with TestClient(create_app(db_url)) as client:
        game = _nim(client)
        with client.websocket_connect(f"{game['url']}/ws") as ws:
            _hello(ws, {0: game["tokens"]["0"]})
            ws.send_json({"type": "resign", "seat": 0})
            _view(ws, lambda m: m["finished"])
    with (
        TestClient(create_app(db_url)) as client,
        client.websocket_connect(f"{game['url']}/ws") as ws,
    ):
        view = _view(ws)
        assert view["finished"] and view["returns"] == [-1.0, 1.0]
        assert view["ending"] == {"kind": "resign", "seat": 0}


def test_a_computer_stops_when_its_opponent_resigns(client: TestClient) -> None:
    game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer"}], seed=3)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {0: game["tokens"]["0"]})
        ws.send_json({"type": "resign"})
        view = _view(ws, lambda m: m["finished"])
        assert view["returns"] == [-1.0, 1.0] and view["thinking"] is None


# --- draw ----------------------------------------------------------------------------------
def test_draw_allowed_only_in_hex_between_two_people() -> None:
    people = [SeatInfo(0, "human", "a"), SeatInfo(1, "human", "b")]
    assert draw_allowed("hex", people)
    assert not draw_allowed("hex", [people[0], SeatInfo(1, "computer", "easy")])
    assert not draw_allowed("hex", [*people, SeatInfo(2, "human", "c")])
    assert not draw_allowed("cards", people)


def test_hex_draw_needs_both_and_an_action_withdraws_it(client: TestClient) -> None:
    game = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], seed=5)
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        first = _view(ws0)
        assert first["draw_allowed"] and first["draw_offer"] == []
        # the board's targets (what to click) are sent to the seat to move, each with its
        # action; nothing to click for the other seat
        mine, other = (first, _view(ws1)) if first["your_turn"] else (_view(ws1), first)
        targets = mine["targets"]
        clicks = {a for ends in targets["moves"].values() for a in ends.values()}
        assert clicks | set(targets["removals"].values()) == set(mine["legal"])
        assert other["targets"] is None
        ws1.send_json({"type": "draw", "accept": False})
        assert "no draw offer to decline" in _error(ws1)
        mover = ws0 if first["your_turn"] else ws1
        mover.send_json({"type": "draw"})
        offered = _view(mover, lambda m: m["draw_offer"] != [])
        assert offered["finished"] is False and offered["your_turn"]
        # the offerer moves: the offer is withdrawn
        mover.send_json({"type": "act", "action": offered["legal"][0]})
        assert _view(mover, lambda m: m["ply"] == 1)["draw_offer"] == []
        # offer, decline, offer again, accept
        ws0.send_json({"type": "draw"})
        _view(ws1, lambda m: m["draw_offer"] == [0])
        ws1.send_json({"type": "draw", "accept": False})
        _view(ws0, lambda m: m["draw_offer"] == [] and m["ply"] == 1)
        ws0.send_json({"type": "draw"})
        _view(ws1, lambda m: m["draw_offer"] == [0])
        ws1.send_json({"type": "draw"})
        final = _view(ws0, lambda m: m["finished"])
        assert final["returns"] == [0.0, 0.0] and final["ending"] == {"kind": "draw"}
        assert final["outcome"]["termination"] == "agreed_draw"
        assert final["ending_words"] == "The players agreed to a draw."
    assert client.get(f"/api/games/{game['id']}").json()["ending"] == "draw"


def test_a_draw_offer_can_be_withdrawn_by_its_offerer_only(client: TestClient) -> None:
    game = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], seed=5)
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        ws0.send_json({"type": "draw", "withdraw": True})
        assert "no draw offer of yours to withdraw" in _error(ws0)
        ws0.send_json({"type": "draw"})
        _view(ws1, lambda m: m["draw_offer"] == [0])
        # the other seat cannot withdraw it (it may decline it)
        ws1.send_json({"type": "draw", "withdraw": True})
        assert "no draw offer of yours to withdraw" in _error(ws1)
        ws0.send_json({"type": "draw", "withdraw": True})
        assert _view(ws1, lambda m: m["draw_offer"] == [])["finished"] is False
        # withdrawn, the other seat's agreement is an offer of its own, not a draw
        ws1.send_json({"type": "draw"})
        after = _view(ws0, lambda m: m["draw_offer"] == [1])
        assert after["finished"] is False and after["ply"] == 0
        ws0.send_json({"type": "draw", "accept": True, "withdraw": True})
        assert "either accept or withdraw" in _error(ws0)
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "playing"


def test_no_draw_where_the_game_has_none(client: TestClient) -> None:
    game = _nim(client)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {0: game["tokens"]["0"]})
        ws.send_json({"type": "draw"})
        assert "only in hex between two people" in _error(ws)


# --- rematch ---------------------------------------------------------------------------------
def test_rematch_rotates_the_seats_and_gives_each_their_own_token(client: TestClient) -> None:
    game = new_game(
        client,
        "toy-nim",
        [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "Bob"}],
        seed=3,
    )
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})  # the invite token is rotated: not needed later
        _hello(watcher, {})
        ws0.send_json({"type": "rematch"})
        assert "a game that is over" in _error(ws0)
        ws0.send_json({"type": "resign"})
        _view(ws1, lambda m: m["finished"] and m["can_rematch"])
        watcher.send_json({"type": "rematch"})
        assert "spectators cannot" in _error(watcher)
        ws1.send_json({"type": "rematch"})
        offer0 = receive_until(ws0, lambda m: m["type"] == "rematch")
        offer1 = receive_until(ws1, lambda m: m["type"] == "rematch")
        # Ann played seat 0: she plays seat 1 of the rematch; Bob seat 0
        assert list(offer0["tokens"]) == ["1"] and list(offer1["tokens"]) == ["0"]
        assert offer0["game_id"] == offer1["game_id"] != game["id"]
        assert (
            _view(watcher, lambda m: m["rematch_id"] is not None)["rematch_id"] == offer0["game_id"]
        )
        ws0.send_json({"type": "rematch"})  # asked again: the same game
        assert receive_until(ws0, lambda m: m["type"] == "rematch") == offer0
        # the spectator was sent no token: its next message after the views is the pong
        watcher.send_json({"type": "ping"})
        assert receive_until(watcher, lambda m: m["type"] != "view")["type"] == "pong"
    new_id = offer0["game_id"]
    summary = client.get(f"/api/games/{new_id}").json()
    assert [s["label"] for s in summary["seats"]] == ["Bob", "Ann"]
    assert summary["rematch_of"] == game["id"] and summary["status"] == "playing"
    assert summary["seed_source"] == "server"
    with client.websocket_connect(f"/games/{new_id}/ws") as ws:
        _hello(ws, {1: offer0["tokens"]["1"], 0: offer1["tokens"]["0"]})
        view = _view(ws)
        assert view["seats"] == [0, 1]
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": offer0["tokens"]["1"]}]})
        assert "wrong token for seat 0" in _error(ws)


def test_a_rematch_joins_only_the_people_who_asked_or_came(client: TestClient) -> None:
    # Ann asks for a rematch after Bob left: Bob's seat of the rematch waits for him (not
    # joined, so no clock runs and he cannot become a zombie of a game he never opened);
    # it is joined once he opens it with the token he was offered.
    game = new_game(
        client,
        "toy-nim",
        [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "Bob"}],
        seed=3,
    )
    # a spectator keeps the finished game (and its rematch) in the server's memory
    with client.websocket_connect(f"{game['url']}/ws") as watcher:
        receive_until(watcher, lambda m: m["type"] == "view")
        with client.websocket_connect(f"{game['url']}/ws") as bob:
            bob.send_json({"type": "hello", "seats": [{"seat": 1, "token": game["tokens"]["1"]}]})
            welcome = receive_until(bob, lambda m: m["type"] == "welcome")
            bob_token = welcome["tokens"]["1"]  # his invite token was rotated as he joined
            bob.send_json({"type": "resign"})
            _view(bob, lambda m: m["finished"])
        with client.websocket_connect(f"{game['url']}/ws") as ann:
            _hello(ann, {0: game["tokens"]["0"]})
            ann.send_json({"type": "rematch"})
            offer = receive_until(ann, lambda m: m["type"] == "rematch")
        new_id = offer["game_id"]
        seats = client.get(f"/api/games/{new_id}").json()["seats"]
        # Ann played seat 0: she plays seat 1 of the rematch (joined); Bob seat 0 (not yet)
        assert [(s["label"], s["joined"]) for s in seats] == [("Bob", False), ("Ann", True)]
        with client.websocket_connect(f"{game['url']}/ws") as bob:
            _hello(bob, {1: bob_token})
            bob_offer = receive_until(bob, lambda m: m["type"] == "rematch")  # sent as he came
        assert bob_offer["game_id"] == new_id and list(bob_offer["tokens"]) == ["0"]
    with client.websocket_connect(f"/games/{new_id}/ws") as bob:
        _hello(bob, {0: bob_offer["tokens"]["0"]})
    seats = client.get(f"/api/games/{new_id}").json()["seats"]
    assert [s["joined"] for s in seats] == [True, True]


def test_rematch_keeps_computers_at_their_level(client: TestClient) -> None:
    game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "computer"}], seed=3)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {0: game["tokens"]["0"]})
        ws.send_json({"type": "resign"})
        _view(ws, lambda m: m["finished"])
        ws.send_json({"type": "rematch"})
        offer = receive_until(ws, lambda m: m["type"] == "rematch")
    assert list(offer["tokens"]) == ["1"]
    seats = client.get(f"/api/games/{offer['game_id']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["computer", "human"]


# --- chat ------------------------------------------------------------------------------------
def test_chat_text_is_cleaned_not_rewritten() -> None:
    assert clean_chat("  <b>hi</b> & \u202eok\x00 ") == "<b>hi</b> & ok"


def test_seats_and_spectators_chat_apart(client: TestClient) -> None:
    game = _nim(client, [{"kind": "me", "name": "Ann"}, {"kind": "me", "name": "Bob"}])
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        watcher.send_json({"type": "chat", "text": "too early"})
        assert "say hello first" in _error(watcher)
        for ws, seats in ((ws0, {0: game["tokens"]["0"]}), (ws1, {1: game["tokens"]["1"]})):
            _hello(ws, seats)
            assert receive_until(ws, lambda m: m["type"] == "chat")["messages"] == []
        _hello(watcher, {})
        receive_until(watcher, lambda m: m["type"] == "chat" and m["history"])
        watcher.send_json({"type": "chat", "text": "I think Ann wins"})
        heard = receive_until(watcher, lambda m: m["type"] == "chat")["messages"][0]
        assert heard["channel"] == "spectators" and heard["author"] == "spectator"
        ws0.send_json({"type": "chat", "text": "<script>alert(1)</script> good luck"})
        got = receive_until(ws1, lambda m: m["type"] == "chat")["messages"][0]
        # plain text, stored and sent as written: the page shows it as text
        assert got["text"] == "<script>alert(1)</script> good luck"
        assert got["author"] == "Ann" and got["seat"] == 0 and got["channel"] == "seats"
        ws1.send_json({"type": "chat", "text": "thanks"})
        own = receive_until(ws0, lambda m: m["type"] == "chat")["messages"][0]
        assert own["text"].endswith("good luck")  # the writer gets its own message back
        last = receive_until(ws0, lambda m: m["type"] == "chat")["messages"][0]
        assert last["text"] == "thanks" and last["author"] == "Bob"
        # the spectator heard nothing of the seats, the seats nothing of the spectator
        watcher.send_json({"type": "ping"})
        assert receive_until(watcher, lambda m: m["type"] in ("chat", "pong"))["type"] == "pong"
        ws0.send_json({"type": "ping"})
        assert receive_until(ws0, lambda m: m["type"] in ("chat", "pong"))["type"] == "pong"
    # history goes to each channel only
    with client.websocket_connect(f"{game['url']}/ws") as late:
        _hello(late, {})
        history = receive_until(late, lambda m: m["type"] == "chat")["messages"]
        assert [m["text"] for m in history] == ["I think Ann wins"]
    with client.websocket_connect(f"{game['url']}/ws") as back:
        _hello(back, {1: game["tokens"]["1"]})
        history = receive_until(back, lambda m: m["type"] == "chat")["messages"]
        assert [m["text"] for m in history] == ["<script>alert(1)</script> good luck", "thanks"]


def test_two_seats_with_one_name_are_told_apart_in_chat(client: TestClient) -> None:
    # two people who both call themselves Ann: each line says which seat wrote it (the
    # seat's own name in the game), where "Ann" alone would look the same for both
    game = _nim(client, [{"kind": "me", "name": "Ann"}, {"kind": "me", "name": "Ann"}])
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
    ):
        for ws, seats in ((ws0, {0: game["tokens"]["0"]}), (ws1, {1: game["tokens"]["1"]})):
            _hello(ws, seats)
            receive_until(ws, lambda m: m["type"] == "chat")
        ws0.send_json({"type": "chat", "text": "hello"})
        first = receive_until(ws1, lambda m: m["type"] == "chat")["messages"][0]
        ws1.send_json({"type": "chat", "text": "hello too"})
        second = receive_until(ws0, lambda m: m["type"] == "chat" and m["messages"][0]["seat"] == 1)
        authors = [first["author"], second["messages"][0]["author"]]
        assert authors[0] != authors[1] and all(a.startswith("Ann (") for a in authors), authors
        # toy-nim's seats have no names of their own: the seat numbers (from 1) tell them apart
        assert authors == ["Ann (seat 1)", "Ann (seat 2)"]


def test_chat_is_length_capped_and_rate_limited(client: TestClient) -> None:
    game = _nim(client)
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {0: game["tokens"]["0"]})
        ws.send_json({"type": "chat", "text": "x" * 501})
        assert "text" in _error(ws)
        ws.send_json({"type": "chat", "text": " \x01 "})
        assert "empty" in _error(ws)
        # the default burst is 5 messages; the 6th at once is refused
        for i in range(5):
            ws.send_json({"type": "chat", "text": f"m{i}"})
            receive_until(ws, lambda m: m["type"] == "chat" and not m["history"])
        ws.send_json({"type": "chat", "text": "one too many"})
        assert "chatting too fast" in _error(ws)


# --- open seats ------------------------------------------------------------------------------
def test_an_open_seat_is_listed_and_taken_once(client: TestClient) -> None:
    game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "open"}], seed=None)
    assert list(game["tokens"]) == ["0"]
    listed = client.get("/api/open-games").json()
    assert [g["id"] for g in listed] == [game["id"]]
    assert [s["kind"] for s in listed[0]["seats"]] == ["human", "open"]
    assert client.post(f"/api/games/{game['id']}/seats/0", json={}).status_code == 409
    assert client.post(f"/api/games/{game['id']}/seats/7", json={}).status_code == 409
    taken = client.post(f"/api/games/{game['id']}/seats/1", json={"name": "Cy"})
    assert taken.status_code == 200, taken.text
    token = taken.json()["token"]
    again = client.post(f"/api/games/{game['id']}/seats/1", json={"name": "Dee"})
    assert again.status_code == 409 and "not open" in again.json()["detail"]
    assert client.get("/api/open-games").json() == []
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {1: token})
        view = _view(ws)
        assert view["seats"] == [1] and view["open_seats"] == []
        assert view["players"][1]["label"] == "Cy"
    assert client.post("/api/games/nosuchgame/seats/1", json={}).status_code == 404
    big = client.post(f"/api/games/{game['id']}/seats/1", content=b"{" + b" " * 20000 + b"}")
    assert big.status_code == 413
    nan = client.post(f"/api/games/{game['id']}/seats/1", content=b'{"name": NaN}')
    assert nan.status_code == 422


def test_taking_a_seat_is_atomic(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        store.create_game(
            "g1",
            "toy-nim",
            {},
            1,
            [],
            "",
            [SeatInfo(0, "open", "open"), SeatInfo(1, "open", "open")],
        )
        wins: list[bool] = []
        barrier = threading.Barrier(8)

        def take(i: int) -> None:
            barrier.wait()
            wins.append(store.take_seat("g1", 1, f"{i:064d}", f"p{i}"))

        threads = [threading.Thread(target=take, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert wins.count(True) == 1
        assert store.open_game_ids() == ["g1"]  # seat 0 is still open
    finally:
        store.close()


# --- rules -----------------------------------------------------------------------------------
def test_the_rules_pages(client: TestClient) -> None:
    assert set(rules_games()) >= {"hex", "cards", "world"}
    page = client.get("/rules/hex")
    assert page.status_code == 200 and "<h1>" in page.text and "Browne" in page.text
    for bad in ("toy-nim", "..%2F..%2Fetc%2Fpasswd", "hex.md", "HEX"):
        assert client.get(f"/rules/{bad}").status_code == 404
    assert 'href="/rules/' in client.get("/").text


def test_the_shipped_rules_are_the_docs() -> None:
    shipped = ROOT / "src" / "limitgames" / "web" / "rules"
    for doc in (ROOT / "docs" / "rules").glob("*.md"):
        assert (shipped / doc.name).read_text() == doc.read_text(), doc.name


def test_markdown_html_is_shown_as_text() -> None:
    html = render_markdown("# T\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html


# --- the migration ---------------------------------------------------------------------------
def test_migration_0003_keeps_older_games_and_goes_back(db_url: str) -> None:
    from sqlalchemy import inspect, text

    from limitgames.web import storage

    engine = storage.make_engine(db_url)

    migrate(engine, "upgrade", "0002")
    with engine.begin() as connection:
        connection.execute(text(OLD_GAME_ROW))
    engine.dispose()
    store = Store.open(db_url)  # upgrades to head
    try:
        old = store.load_game("old1")
        assert old is not None and old.ending is None and old.rematch_of is None
        assert store.chat_history("old1", "seats") == []
    finally:
        store.close()
    migrate(engine, "downgrade", "0002")
    assert "chat" not in inspect(engine).get_table_names()
    engine.dispose()


def test_taking_seats_is_rate_limited_per_address(db_url: str) -> None:
    from limitgames.web.app import create_app
    from limitgames.web.limits import ServerLimits

    app = create_app(db_url, limits=ServerLimits(games_per_hour=2))
    with TestClient(app) as client:
        game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "open"}], seed=None)
        # a bucket of 2 an hour: two tries (refused: seat 0 is not open), then 429
        for _ in range(2):
            assert client.post(f"/api/games/{game['id']}/seats/0", json={}).status_code == 409
        third = client.post(f"/api/games/{game['id']}/seats/1", json={})
        assert third.status_code == 429 and "too many seats" in third.json()["detail"]
