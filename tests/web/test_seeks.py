"""Seeks: post, list, accept (both seated, each seat with its account), withdraw; who may;
a seek goes when its author signs out or is no longer seen."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from limitgames.web.seek_store import OPEN_SEEKS_PER_PERSON
from tests.web.people_client import Person, csrf, post_json, seek_and_accept


def test_a_guest_sees_seeks_but_cannot_post_or_accept(client: TestClient) -> None:
    ann = Person(client, "Ann")
    with ann as c:
        seek = post_json(c, "/api/seeks", {"game": "hex", "variant": {"size": 3}}).json()["id"]
    listed = client.get("/api/seeks").json()
    assert listed["me"] is None and [s["id"] for s in listed["seeks"]] == [seek]
    assert listed["seeks"][0]["author"] == "Ann" and listed["seeks"][0]["rating"] is None
    for path in ("/api/seeks", f"/api/seeks/{seek}/accept"):
        answer = post_json(client, path, {"game": "hex"})
        assert answer.status_code == 401 and answer.json()["detail"] == "sign in first"


def test_accepting_seats_both_with_their_accounts(client: TestClient, db_url: str) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    game = seek_and_accept(ann, bob, variant={"size": 3, "colours": "fixed"})
    summary = client.get(f"/api/games/{game['id']}").json()
    assert [s["label"] for s in summary["seats"]] == ["Ann", "Bob"]
    assert summary["variant"]["size"] == 3 and summary["variant"]["players"] == 2
    engine = create_engine(db_url)
    with engine.connect() as connection:
        seats = connection.execute(
            text(
                "SELECT seats.seat, accounts.name FROM seats JOIN accounts "
                "ON accounts.id = seats.account_id WHERE game_id = :g ORDER BY seat"
            ),
            {"g": game["id"]},
        ).all()
        rated = connection.execute(
            text("SELECT rated FROM games WHERE id = :g"), {"g": game["id"]}
        ).scalar_one()
    engine.dispose()
    assert [tuple(s) for s in seats] == [(0, "Ann"), (1, "Bob")] and rated
    # the seek is gone, and the author's link was given once
    with ann as c:
        answer = c.get("/api/seeks").json()
    assert answer["seeks"] == [] and answer["matched"] == []
    # both tokens open their seats
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        ws.send_json(
            {
                "type": "hello",
                "seats": [{"seat": 0, "token": game["tokens"]["0"]}],
            }
        )
        welcome = ws.receive_json()
        while welcome["type"] != "welcome":
            welcome = ws.receive_json()
        assert welcome["seats"] == [0]


def test_nobody_accepts_their_own_seek_and_a_seek_is_taken_once(client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy1")
    with ann as c:
        seek = post_json(c, "/api/seeks", {"game": "hex", "variant": {"size": 3}}).json()["id"]
        own = post_json(c, f"/api/seeks/{seek}/accept")
    assert own.status_code == 409
    with bob as c:
        assert post_json(c, f"/api/seeks/{seek}/accept").status_code == 200
    with cy as c:
        late = post_json(c, f"/api/seeks/{seek}/accept")
    assert late.status_code == 409 and "no longer open" in late.json()["detail"]


def test_withdraw_and_the_limits_of_a_seek(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    with ann as c:
        ids = [
            post_json(c, "/api/seeks", {"game": "hex", "variant": {"size": 3}}).json()["id"]
            for _ in range(OPEN_SEEKS_PER_PERSON)
        ]
        more = post_json(c, "/api/seeks", {"game": "hex"})
        assert more.status_code == 429
        bad = post_json(c, "/api/seeks", {"game": "hex", "variant": {"size": 99}})
        assert bad.status_code == 400 and "size" in bad.json()["detail"]
        unknown = post_json(c, "/api/seeks", {"game": "chess"})
        assert unknown.status_code == 400
        casual_only = post_json(c, "/api/seeks", {"game": "toy-nim", "rated": True})
        assert casual_only.status_code == 400 and "rated" in casual_only.json()["detail"]
    with bob as c:
        assert post_json(c, f"/api/seeks/{ids[0]}/withdraw").status_code == 404  # not his
    with ann as c:
        assert post_json(c, f"/api/seeks/{ids[0]}/withdraw").status_code == 200
        assert len(c.get("/api/seeks").json()["seeks"]) == OPEN_SEEKS_PER_PERSON - 1
        # signing out withdraws the rest
        c.post("/account/signout", data={"csrftoken": csrf(c)})
    assert client.get("/api/seeks").json()["seeks"] == []


def test_the_seek_of_someone_no_longer_seen_is_withdrawn(client: TestClient, db_url: str) -> None:
    ann = Person(client, "Ann")
    with ann as c:
        post_json(c, "/api/seeks", {"game": "hex", "variant": {"size": 3}})
    assert len(client.get("/api/seeks").json()["seeks"]) == 1
    engine = create_engine(db_url)
    with engine.begin() as connection:  # Ann closed her lobby long ago
        connection.execute(
            text("UPDATE account_sessions SET last_seen = :t"),
            {"t": datetime(2020, 1, 1, tzinfo=UTC)},
        )
    engine.dispose()
    listed = client.get("/api/seeks").json()
    assert listed["seeks"] == [] and listed["online"] == []


def test_a_rating_range_lets_only_people_within_it_accept(client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy1")
    # nobody is rated yet: each counts as 1500 (Glicko-2's start, ratings.START_RATING)
    with ann as c:
        backwards = post_json(
            c, "/api/seeks", {"game": "hex", "rating_min": 1600, "rating_max": 1400}
        )
        assert backwards.status_code == 422 and "lower to the higher" in backwards.text
        above = post_json(c, "/api/seeks", {"game": "hex", "rating_min": 1600}).json()["id"]
        around = post_json(
            c, "/api/seeks", {"game": "hex", "rating_min": 1400, "rating_max": 1600}
        ).json()["id"]
        listed = {s["id"]: s for s in c.get("/api/seeks").json()["seeks"]}
    assert (listed[above]["rating_min"], listed[above]["rating_max"]) == (1600, None)
    with bob as c:
        refused = post_json(c, f"/api/seeks/{above}/accept")
        assert refused.status_code == 403
        assert "(1500) is outside the seek's range 1600-" in refused.json()["detail"]
        assert post_json(c, f"/api/seeks/{around}/accept").status_code == 200
    # the refused seek stays open for someone within its range
    with cy as c:
        assert above in {s["id"] for s in c.get("/api/seeks").json()["seeks"]}
