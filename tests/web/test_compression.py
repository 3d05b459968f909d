"""Responses are gzip-compressed (Starlette's GZipMiddleware); websockets are not affected."""

from __future__ import annotations

import gzip

from fastapi.testclient import TestClient

from limitgames.web.app import GZIP_MINIMUM_BYTES
from tests.web.conftest import new_game, receive_until


def test_pages_scripts_and_styles_come_compressed(client: TestClient) -> None:
    for path in ("/", "/static/game.js", "/static/hex_play.js", "/static/style.css"):
        response = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        assert response.headers["content-encoding"] == "gzip", path
        assert len(response.content) > GZIP_MINIMUM_BYTES  # httpx has already unpacked it
    # the bytes on the wire are gzip: ask without letting the client decode
    with client.stream("GET", "/static/game.js", headers={"Accept-Encoding": "gzip"}) as raw:
        body = b"".join(raw.iter_raw())
    # a client that does not accept gzip gets the plain text
    plain = client.get("/static/game.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert gzip.decompress(body) == plain.content and len(body) < len(plain.content) / 2


def test_a_small_answer_and_the_websocket_are_left_alone(client: TestClient) -> None:
    game = new_game(client, "hex", [{"kind": "me"}, {"kind": "computer", "level": "random"}])
    small = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
    if len(small.content) < GZIP_MINIMUM_BYTES:
        assert "content-encoding" not in small.headers
    with client.websocket_connect(f"/games/{game['id']}/ws") as ws:
        ws.send_json({"type": "hello", "seats": []})
        view = receive_until(ws, lambda m: m["type"] == "view")
        assert view["game"] == "hex" and "board" in view
