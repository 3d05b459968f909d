"""Test helpers for accounts and seeks: sign up through the form, post and accept seeks."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi.testclient import TestClient


class Person:
    """A signed-up person on a shared test client: ``with person:`` sends their cookies.

    One ``TestClient`` runs the app (and its event loop) once; each person's
    cookies (session, CSRF) are swapped in for the requests made as them.
    """

    def __init__(self, client: TestClient, name: str, password: str = "a long secret") -> None:
        self.client = client
        self.name = name
        client.cookies.clear()
        sign_up(client, name, password)
        self.cookies = dict(client.cookies)

    def __enter__(self) -> TestClient:
        self.client.cookies.clear()
        self.client.cookies.update(self.cookies)
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.cookies = dict(self.client.cookies)
        self.client.cookies.clear()


def csrf(client: TestClient | httpx.Client) -> str:
    """The CSRF token of this client (``GET /api/me`` sets its cookie)."""
    token: str = client.get("/api/me").json()["csrf"]
    return token


def sign_up(client: TestClient | httpx.Client, name: str, password: str = "a long secret") -> str:
    """Sign ``name`` up (and so in) through the form; return the CSRF token for the scripts."""
    token = csrf(client)
    answer = client.post(
        "/account/signup",
        data={"name": name, "password": password, "csrftoken": token},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    assert client.get("/api/me").json()["name"] == name
    return token


def post_json(client: TestClient | httpx.Client, path: str, body: Any = None) -> httpx.Response:
    """POST JSON with the client's CSRF token in the ``x-csrftoken`` header."""
    return client.post(path, json=body or {}, headers={"x-csrftoken": csrf(client)})


def seek_and_accept(
    author: Person,
    accepter: Person,
    game: str = "hex",
    variant: dict[str, Any] | None = None,
    rated: bool = True,
) -> dict[str, Any]:
    """``author`` posts a seek, ``accepter`` accepts it; return ``{"id", "tokens": {"0", "1"}}``."""
    with author as client:
        posted = post_json(
            client, "/api/seeks", {"game": game, "variant": variant or {"size": 3}, "rated": rated}
        )
    assert posted.status_code == 200, posted.text
    with accepter as client:
        accepted = post_json(client, f"/api/seeks/{posted.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    with author as client:
        matched = client.get("/api/seeks").json()["matched"]
    assert [m["game_id"] for m in matched] == [accepted.json()["id"]]
    tokens = {
        "0": matched[0]["link"].split("token=")[1],
        "1": accepted.json()["link"].split("token=")[1],
    }
    return {"id": accepted.json()["id"], "url": accepted.json()["url"], "tokens": tokens}
