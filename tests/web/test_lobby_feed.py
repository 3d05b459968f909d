"""The lobby's live feed, ``WS /lobby/ws`` (``web/lobby_feed.py``): seeks pushed, not polled.

The periodic refresh is set to an hour here, so every message after the first one is a push.
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from fastapi.testclient import TestClient

from limitgames.web import lobby_feed
from limitgames.web.seek_store import Seeks
from limitgames.web.viewers import LobbySignal
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


def test_the_sockets_a_change_wakes_share_one_read_of_the_seeks(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three lobby pages: without sharing, each page's first message and each push would read
    the open seeks once per page (3 + 3 reads); shared, the three first messages read them once
    and the push of one posted seek once more (``BOARD_SECONDS`` raised so that a slow machine
    cannot let the shared answer age out between two pages)."""
    monkeypatch.setattr(lobby_feed, "BOARD_SECONDS", 3600.0)
    reads = []
    open_seeks = Seeks.open_seeks

    def counted(self: Seeks) -> list[dict[str, object]]:
        reads.append(1)
        return open_seeks(self)

    monkeypatch.setattr(Seeks, "open_seeks", counted)
    ann = Person(client, "Ann")
    client.cookies.clear()
    with contextlib.ExitStack() as stack:
        pages = [stack.enter_context(client.websocket_connect("/lobby/ws")) for _ in range(3)]
        assert all(page.receive_json()["seeks"] == [] for page in pages)
        assert len(reads) == 1
        with ann as c:
            posted = post_json(c, "/api/seeks", {"game": "hex", "variant": {"size": 3}})
            assert posted.status_code == 200, posted.text
        pushed = [page.receive_json() for page in pages]
        assert all([s["id"] for s in p["seeks"]] == [posted.json()["id"]] for p in pushed)
        assert len(reads) == 2


def test_a_shared_read_that_failed_is_not_kept_and_a_change_reads_again() -> None:
    async def run() -> None:
        signal = LobbySignal()
        reads: list[int] = []

        async def read() -> int:
            reads.append(1)
            if len(reads) == 1:
                raise RuntimeError("the database is away")
            return len(reads)

        with pytest.raises(RuntimeError, match="away"):
            await signal.shared(read, 60.0)
        assert await signal.shared(read, 60.0) == 2  # read again: the failure was not kept
        assert await signal.shared(read, 60.0) == 2  # kept
        signal.touch()
        assert await signal.shared(read, 60.0) == 3  # the seeks changed
        assert await signal.shared(read, 0.0) == 4  # aged out

    asyncio.run(run())
