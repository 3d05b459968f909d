"""The lobby's live feed, ``WS /lobby/ws`` (``web/lobby_feed.py``): seeks pushed, not polled.

The periodic refresh is set to an hour here, so every message after the first one is a push.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from limitgames.web import lobby_feed
from tests.web.conftest import receive_until
from tests.web.people_client import Person, post_json


@pytest.fixture(autouse=True)
def _no_refresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_feed, "REFRESH_SECONDS", 3600.0)


def test_a_seek_posted_accepted_and_its_link_are_pushed(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    client.cookies.clear()
    with client.websocket_connect("/lobby/ws") as guest:
        first = guest.receive_json()
        assert first["type"] == "lobby" and first["seeks"] == [] and first["me"] is None
        with ann as c, c.websocket_connect("/lobby/ws") as ann_feed:
            assert ann_feed.receive_json()["me"] == "Ann"
            posted = post_json(c, "/api/seeks", {"game": "hex", "variant": {"size": 3}})
            assert posted.status_code == 200, posted.text
            seek_id = posted.json()["id"]
            pushed = guest.receive_json()  # the next message: the push
            assert [s["id"] for s in pushed["seeks"]] == [seek_id]
            assert pushed["seeks"][0]["author"] == "Ann"
            assert "Ann" in pushed["online"]
            with bob as b:
                accepted = post_json(b, f"/api/seeks/{seek_id}/accept").json()
            # the seek is gone from every lobby; its author's feed brings her link, once
            assert guest.receive_json()["seeks"] == []
            mine = receive_until(ann_feed, lambda m: m["matched"] != [])
            assert mine["matched"][0]["game_id"] == accepted["id"]
            assert "token=" in mine["matched"][0]["link"]


def test_a_lobby_feed_answers_ping_and_ignores_the_rest(client: TestClient) -> None:
    with client.websocket_connect("/lobby/ws") as feed:
        feed.receive_json()
        feed.send_text('{"type": "seek everything"}')
        feed.send_text('{"type": "ping"}')
        assert feed.receive_json() == {"type": "pong"}
