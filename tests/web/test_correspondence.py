"""Correspondence games: days per move, stored across restarts, one e-mail reminder per turn.

The mail server is aiosmtpd on a free loopback port (what it received is the reference);
time is simulated (:class:`SimulatedTime`, given to the hubs' clocks), so two days pass in
a moment. The expected hours left are worked out by hand beside each assertion.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import create_engine, text

from limitgames.web.app import create_app
from limitgames.web.computer import ComputerPool
from limitgames.web.correspondence import (
    Correspondence,
    SmtpMailer,
    check_email,
    mailer_from_environment,
    reminder_address,
)
from limitgames.web.live import Connection, GameHub, RefusedError
from limitgames.web.messages import ClockChoice, NewGame, SeatChoice
from limitgames.web.storage import Store
from tests.web.conftest import free_port, new_game, receive_until
from tests.web.test_scaleout import two_hubs

HOUR = 3600.0


class SimulatedTime:
    """The hubs' time, moved on by the test: monotonic seconds and the UTC date together."""

    def __init__(self) -> None:
        self.offset = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def wall(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset)

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Inbox:
    """aiosmtpd's handler: keeps every message it is given."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append((list(envelope.rcpt_tos), envelope.content.decode("utf-8")))
        return "250 OK"


def _use_time(hub: GameHub, simulated: SimulatedTime) -> None:
    hub.clocks.now = simulated.monotonic
    hub.clocks.wall = simulated.wall


def _correspondence_hex(days: int) -> NewGame:
    return NewGame(
        game="hex",
        variant={"size": 4, "colours": "fixed"},
        seats=[SeatChoice(kind="me")] * 2,
        seed=3,
        clock=ClockChoice(kind="days", days=days),
    )


def test_a_correspondence_game_sends_one_reminder_across_two_days_and_two_processes(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    simulated = SimulatedTime()
    addresses = {0: "red@example.org", 1: "blue@example.org"}

    async def run() -> None:
        async with two_hubs(url) as (_broker, hubs):
            for hub in hubs:
                _use_time(hub, simulated)
            mailer = SmtpMailer("127.0.0.1", smtp.port, sender="limit@example.org")
            reminders = [Correspondence(hub, mailer=mailer) for hub in hubs]  # share: a quarter
            game_id, tokens = await hubs[0].create(_correspondence_hex(days=2))
            lives = [await hub.get(game_id) for hub in hubs]
            for seat, (hub, live, service) in enumerate(zip(hubs, lives, reminders, strict=True)):
                assert live is not None
                connection = Connection(queue_size=1000)
                await hub.join(live, connection, [(seat, tokens[seat])])
                await service.give_address(live, connection, addresses[seat])
            live = lives[0]
            assert live is not None and live.clock is not None
            mover = live.clock.running
            assert mover is not None  # both seats joined: the clock of the seat to move runs

            async def both() -> list[tuple[str, int]]:
                sent = await asyncio.gather(*(service.remind() for service in reminders))
                return [s for one in sent for s in one]

            # day 1: 24 h of 48 used, 24 h left: not under a quarter (12 h); nothing is sent
            simulated.advance(24 * HOUR)
            assert await both() == []
            # day 2, 13 h later: 11 h left (48 - 37), under 12 h: one reminder, by one process
            simulated.advance(13 * HOUR)
            assert await both() == [(game_id, mover)]
            assert await both() == []  # the same turn: never again
            # a restarted server holds the game as stored, with the 37 h of this turn counted
            restarted = GameHub(Store.open(url), ComputerPool(workers=1))
            _use_time(restarted, simulated)
            try:
                again = await restarted.get(game_id)
                assert again is not None and again.clock is not None
                assert again.clock.running == mover
                left = again.clock.left(mover, simulated.monotonic())
                assert 11 * HOUR - 60 <= left <= 11 * HOUR + 1  # a minute of real test time at most
                assert await Correspondence(restarted, mailer=mailer).remind() == []
            finally:
                await restarted.close()
                restarted.store.close()
                restarted.computers.shutdown()

    try:
        asyncio.run(run())
    finally:
        smtp.stop()
    assert len(inbox.received) == 1
    recipients, content = inbox.received[0]
    assert recipients == [addresses[0]] or recipients == [addresses[1]]
    assert "Subject: Your move in hex: 11 h left" in content
    assert "From: limit@example.org" in content


def test_an_address_is_taken_only_from_a_seat_of_a_correspondence_game(db_url: str) -> None:
    with TestClient(create_app(db_url, move_seconds=5.0)) as client:
        body: dict[str, Any] = {
            "game": "hex",
            "variant": {"size": 4},
            "seats": [{"kind": "me"}, {"kind": "friend"}],
            "clock": {"kind": "days", "days": 3},
        }
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 200, answer.text
        game = answer.json()
        other = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], {"size": 4})
        with client.websocket_connect(f"{game['url']}/ws") as ws:
            receive_until(ws, lambda m: m["type"] == "view")
            ws.send_json({"type": "hello", "seats": [], "email": "a@example.org"})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert "spectators" in error["message"]
            claim = [{"seat": 0, "token": game["tokens"]["0"]}]
            ws.send_json({"type": "hello", "seats": claim, "email": "not an address"})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["message"] == "email: not an e-mail address"
            ws.send_json({"type": "hello", "seats": claim, "email": " red@example.org "})
            receive_until(ws, lambda m: m["type"] == "welcome")
            ws.send_json({"type": "ping"})  # answered after the hello's address is stored
            receive_until(ws, lambda m: m["type"] == "pong")
            # the game page's field changes it later (the answer goes to this page only)
            ws.send_json({"type": "email", "address": "seat0@example.org"})
            saved = receive_until(ws, lambda m: m["type"] == "reminders")
            assert saved == {"type": "reminders", "address": "seat0@example.org"}
        with client.websocket_connect(f"{other['url']}/ws") as ws:
            receive_until(ws, lambda m: m["type"] == "view")
            claim = [{"seat": 0, "token": other["tokens"]["0"]}]
            ws.send_json({"type": "hello", "seats": claim, "email": "red@example.org"})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert "only correspondence games" in error["message"]
        view = client.get(f"/api/games/{game['id']}").json()
        assert "red@example.org" not in str(view)  # nobody is shown the address
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT game_id, seat, email FROM seats WHERE email IS NOT NULL")
            ).all()
    finally:
        engine.dispose()
    assert [tuple(r) for r in rows] == [(game["id"], 0, "seat0@example.org")]


def test_the_days_clock_is_checked() -> None:
    assert ClockChoice(kind="days", days=3).days == 3
    for wrong in (
        {"kind": "days"},
        {"kind": "days", "days": 0},
        {"kind": "days", "days": 15},
        {"kind": "days", "days": 2, "seconds": 60},
        {"kind": "move", "seconds": 60, "days": 2},
    ):
        with pytest.raises(ValidationError):
            ClockChoice(**wrong)


def test_the_mailer_comes_from_the_environment() -> None:
    assert mailer_from_environment({}) is None
    mailer = mailer_from_environment(
        {
            "LIMIT_SMTP_HOST": "mail.example.org",
            "LIMIT_SMTP_PORT": "587",
            "LIMIT_SMTP_STARTTLS": "1",
        }
    )
    assert mailer == SmtpMailer("mail.example.org", 587, starttls=True)
    with pytest.raises(ValueError, match="LIMIT_SMTP_PORT"):
        mailer_from_environment({"LIMIT_SMTP_HOST": "h", "LIMIT_SMTP_PORT": "smtp"})
    with pytest.raises(RefusedError):
        check_email("two@at@example.org")
    assert check_email("  x.y+z@example.co.uk ") == "x.y+z@example.co.uk"


def test_the_reminder_goes_to_the_seat_s_address_else_to_its_account_s(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store.open(url)
    try:
        with store.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO accounts (id, name, name_key, password_hash, email, created_at) "
                    "VALUES (1, 'Ann', 'ann', 'x', 'ann@example.org', '2026-11-28'), "
                    "(2, 'Bob', 'bob', 'x', NULL, '2026-11-28')"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO games (id, game, variant, seed, chance, rules_version, status, "
                    "plies, created_at, updated_at, seed_source) VALUES ('g1', 'hex', '{}', 1, "
                    "'[]', '', 'playing', 0, '2026-11-28', '2026-11-28', 'server')"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO seats (game_id, seat, kind, label, joined, account_id, email) "
                    "VALUES ('g1', 0, 'human', 'Ann', 1, 1, NULL), "
                    "('g1', 1, 'human', 'Bob', 1, 2, NULL), "
                    "('g1', 2, 'human', 'Cy', 1, 1, 'cy@example.org')"
                )
            )
        assert reminder_address(store.engine, "g1", 0) == "ann@example.org"  # the account's
        assert reminder_address(store.engine, "g1", 1) is None  # an account without e-mail
        assert reminder_address(store.engine, "g1", 2) == "cy@example.org"  # given at the seat
        assert reminder_address(store.engine, "g1", 3) is None  # no such seat
    finally:
        store.close()
