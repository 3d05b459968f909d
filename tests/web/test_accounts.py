"""Accounts: sign up, sign in, sign out, the errors, CSRF, the sign-in rate limit, the secret,
and the migration against the tables the code declares."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from limitgames.web.accounts import SECRET_FILE, SECRET_VARIABLE, server_secret
from limitgames.web.limits import AddressBuckets
from limitgames.web.people import SIGN_INS_PER_MINUTE
from tests.web.conftest import new_game, receive_until
from tests.web.people_client import Person, csrf, post_json, sign_up


def test_sign_up_sign_out_sign_in(client: TestClient, db_url: str) -> None:
    assert client.get("/api/me").json()["name"] is None
    assert client.get("/account/signup").status_code == 200
    sign_up(client, "Ann", "correct horse")
    assert client.get("/api/me").json()["name"] == "Ann"
    # the password is kept as an Argon2id hash, never as itself
    engine = create_engine(db_url)
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT password_hash FROM accounts")).scalar_one()
        sessions = connection.execute(text("SELECT count(*) FROM account_sessions")).scalar_one()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert sessions == 1
    out = client.post("/account/signout", data={"csrftoken": csrf(client)}, follow_redirects=False)
    assert out.status_code == 303
    assert client.get("/api/me").json()["name"] is None
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM account_sessions")).scalar_one() == 0
    engine.dispose()
    signed = client.post(
        "/account/signin",
        data={"name": "ann", "password": "correct horse", "csrftoken": csrf(client)},
        follow_redirects=False,
    )
    assert signed.status_code == 303
    assert client.get("/api/me").json()["name"] == "Ann"  # the name as it was signed up


def test_a_stolen_cookie_stops_working_after_sign_out(client: TestClient) -> None:
    sign_up(client, "Ann")
    stolen = dict(client.cookies)
    client.post("/account/signout", data={"csrftoken": csrf(client)})
    client.cookies.clear()
    client.cookies.update(stolen)  # the signed cookie is still valid, its session is not
    assert client.get("/api/me").json()["name"] is None


def test_refusals_are_one_line_and_sign_in_does_not_tell_which(client: TestClient) -> None:
    sign_up(client, "Ann", "correct horse")
    client.cookies.clear()
    token = csrf(client)
    taken = client.post(
        "/account/signup", data={"name": "ANN", "password": "another one", "csrftoken": token}
    )
    assert taken.status_code == 409 and "the name ANN is taken" in taken.text
    short = client.post("/account/signup", data={"name": "Cy", "password": "x", "csrftoken": token})
    assert short.status_code == 400 and "a name is 3-20 letters" in short.text
    weak = client.post(
        "/account/signup", data={"name": "Cyd", "password": "short", "csrftoken": token}
    )
    assert weak.status_code == 400 and "a password is 8-200 characters long" in weak.text
    answers = [
        client.post("/account/signin", data={"name": n, "password": p, "csrftoken": token})
        for n, p in (("Ann", "wrong password"), ("Nobody", "correct horse"))
    ]
    assert [a.status_code for a in answers] == [401, 401]
    assert all("wrong name or password" in a.text for a in answers)


def test_every_form_and_seek_post_needs_the_csrf_token(client: TestClient) -> None:
    # no cookie at all: the sign-up and sign-in forms are still checked
    refused = client.post("/account/signup", data={"name": "Ann", "password": "long enough"})
    assert refused.status_code == 403
    assert refused.json()["detail"].startswith("this form has expired")
    sign_up(client, "Ann")
    for path in ("/account/signout", "/api/seeks", "/api/seeks/x/accept"):
        answer = client.post(path, json={}, headers={"x-csrftoken": "forged"})
        assert answer.status_code == 403, path
    assert client.get("/api/me").json()["name"] == "Ann"  # not signed out by the forgery
    # the guests' API is as before
    assert client.get("/api/catalog").status_code == 200


def test_sign_in_attempts_are_rate_limited(client: TestClient) -> None:
    sign_up(client, "Ann", "correct horse")
    client.cookies.clear()
    # a clock that stands still: no attempt comes back however slow the machine is
    people = client.app.state.people  # type: ignore[attr-defined]
    people.sign_ins = AddressBuckets(
        SIGN_INS_PER_MINUTE / 60, SIGN_INS_PER_MINUTE, clock=lambda: 0.0
    )
    token = csrf(client)
    codes = [
        client.post(
            "/account/signin", data={"name": "Ann", "password": "guess", "csrftoken": token}
        ).status_code
        for _ in range(SIGN_INS_PER_MINUTE + 1)
    ]
    assert codes[:SIGN_INS_PER_MINUTE] == [401] * SIGN_INS_PER_MINUTE
    assert codes[-1] == 429
    # even the right password waits now
    right = client.post(
        "/account/signin", data={"name": "Ann", "password": "correct horse", "csrftoken": token}
    )
    assert right.status_code == 429 and "too many attempts" in right.text


def test_the_secret_is_made_once_beside_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SECRET_VARIABLE, raising=False)
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    first = server_secret(url)
    assert len(first) >= 60 and server_secret(url) == first  # a second worker reads the same
    assert (tmp_path / SECRET_FILE).stat().st_mode & 0o777 == 0o600
    # workers starting together all read the one secret the first of them linked into place
    from concurrent.futures import ThreadPoolExecutor

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    with ThreadPoolExecutor(8) as pool:
        secrets = set(pool.map(server_secret, [f"sqlite:///{fresh / 'games.sqlite3'}"] * 16))
    assert len(secrets) == 1 and [p.name for p in fresh.iterdir()] == [SECRET_FILE]
    monkeypatch.setenv(SECRET_VARIABLE, "from the environment")
    assert server_secret(url) == "from the environment"


def test_online_lists_who_was_seen(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "bob")
    with ann as c:
        assert c.get("/api/seeks").json()["online"] == ["Ann", "bob"]
    with bob as c:
        post_json(c, "/account/signout")
        c.post("/account/signout", data={"csrftoken": csrf(c)})
    with ann as c:
        assert c.get("/api/seeks").json()["online"] == ["Ann"]


def test_the_migrations_make_the_tables_the_code_declares(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from limitgames.web.schema import Base
    from limitgames.web.storage import Store

    store = Store.open(db_url)
    try:
        with store.engine.connect() as connection:
            context = MigrationContext.configure(connection)
            differences = compare_metadata(context, Base.metadata)
    finally:
        store.close()
    # everything as declared, but two indexes older migrations make that the models do not
    # declare (not this test's business)
    older = {"ix_chat_game_channel", "ix_games_creator_status"}
    assert [d for d in differences if not (d[0] == "remove_index" and d[1].name in older)] == []


def test_sign_out_everywhere_ends_every_session(client: TestClient) -> None:
    sign_up(client, "Ann", "correct horse")
    first = dict(client.cookies)
    client.cookies.clear()
    client.post(
        "/account/signin",
        data={"name": "Ann", "password": "correct horse", "csrftoken": csrf(client)},
    )
    page = client.get("/people/Ann").text
    assert page.count(" UTC") == 2  # two browsers signed in, listed on her own page
    client.post("/account/signout", data={"everywhere": "1", "csrftoken": csrf(client)})
    client.cookies.clear()
    client.cookies.update(first)
    assert client.get("/api/me").json()["name"] is None


def test_a_signed_in_persons_seats_carry_their_account(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    with ann as c:
        game = new_game(c, "toy-nim", [{"kind": "me"}, {"kind": "open"}], seed=3)
    with bob as c:
        taken = post_json(c, f"/api/games/{game['id']}/seats/1", {"name": "Bob"})
        assert taken.status_code == 200, taken.text
    # a guest's game carries no account
    client.cookies.clear()
    new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "me"}], seed=4)
    for name, seat, opponent in (("Ann", 0, "Bob"), ("Bob", 1, "Ann")):  # account names
        [entry] = client.get(f"/api/people/{name}").json()["games"]
        assert (entry["id"], entry["seat"], entry["rated"]) == (game["id"], seat, False)
        assert entry["opponents"] == [opponent]


def test_a_hash_made_with_older_parameters_is_made_again_at_sign_in(
    client: TestClient, db_url: str
) -> None:
    from argon2 import PasswordHasher

    sign_up(client, "Ann", "correct horse")
    client.cookies.clear()
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash("correct horse")
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE accounts SET password_hash = :h"), {"h": weak})
    signed = client.post(
        "/account/signin",
        data={"name": "Ann", "password": "correct horse", "csrftoken": csrf(client)},
        follow_redirects=False,
    )
    assert signed.status_code == 303
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT password_hash FROM accounts")).scalar_one()
    engine.dispose()
    # argon2-cffi's defaults (RFC 9106's second recommended set): t=3, m=64 MiB, p=4
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_the_export_holds_the_account_and_its_games_but_no_hash(client: TestClient) -> None:
    assert client.get("/account/export").status_code == 401
    ann = Person(client, "Ann")
    with ann as c:
        game = new_game(c, "toy-nim", [{"kind": "me"}, {"kind": "computer"}], seed=3)
        answer = c.get("/account/export")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == 'attachment; filename="limit-Ann.json"'
    exported = answer.json()
    assert exported["account"]["name"] == "Ann" and exported["account"]["email"] is None
    assert [g["record"] for g in exported["games"]] == [f"/games/{game['id']}/record.json"]
    assert len(exported["sessions"]) == 1 and exported["ratings"] == {}
    assert "argon2" not in answer.text


def test_deleting_an_account_keeps_the_games_as_a_guests(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    with ann as c:
        game = new_game(c, "toy-nim", [{"kind": "me"}, {"kind": "open"}], seed=3)
    with bob as c:
        post_json(c, f"/api/games/{game['id']}/seats/1", {"name": "Bob"})
        playing = c.post(
            "/account/delete", data={"password": "a long secret", "csrftoken": csrf(c)}
        )
        assert playing.status_code == 409  # the game is being played
    with ann as c, c.websocket_connect(f"{game['url']}/ws") as ws:
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": game["tokens"]["0"]}]})
        receive_until(ws, lambda m: m["type"] == "welcome")
        ws.send_json({"type": "resign"})
        receive_until(ws, lambda m: m["type"] == "view" and m["finished"])
    with bob as c:
        wrong = c.post("/account/delete", data={"password": "not it", "csrftoken": csrf(c)})
        assert wrong.status_code == 401
        done = c.post(
            "/account/delete",
            data={"password": "a long secret", "csrftoken": csrf(c)},
            follow_redirects=False,
        )
        assert done.status_code == 303
        assert c.get("/api/me").json()["name"] is None
    assert client.get("/api/people/Bob").status_code == 404
    [entry] = client.get("/api/people/Ann").json()["games"]
    assert entry["id"] == game["id"] and entry["opponents"] == ["Bob"]  # the seat's label
    Person(client, "Bob")  # the name is free again
