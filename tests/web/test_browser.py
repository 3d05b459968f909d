"""Browser tests in real Chromium: Playwright for Python driving Debian's /usr/bin/chromium.

Playwright never downloads a browser here: ``scripts/browser-deps.sh`` installs
Debian's chromium and these tests skip (saying so) when it is missing.
Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from limitgames.core import UnknownGameError, get_game
from tests.deadlines import scaled
from tests.web.conftest import ARTIFACTS, POSTGRES_URL, Server, new_game, reset_database

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = ARTIFACTS / "screenshots"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (run scripts/browser-deps.sh)"
)


def _cards_available() -> bool:
    try:
        get_game("cards")
    except UnknownGameError:
        return False
    return True


needs_cards = pytest.mark.skipif(
    not _cards_available(), reason="the cards engine (limitgames.cards) is not registered yet"
)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if POSTGRES_URL:
        reset_database(POSTGRES_URL)
        url = POSTGRES_URL
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('browser') / 'games.sqlite3'}"
    server = Server(url).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(scaled(60_000))
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def two(browser: Any) -> Iterator[tuple[Any, Any]]:
    """Two separate browsers' pages (separate storage: two people)."""
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    for ctx in contexts:
        ctx.set_default_timeout(scaled(60_000))
    try:
        yield contexts[0].new_page(), contexts[1].new_page()
    finally:
        for ctx in contexts:
            ctx.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def start_from_lobby(
    page: Any, base: str, game: str, variant: dict[str, str], seats: list[str], name: str = ""
) -> None:
    """Fill the lobby form and press Start; wait for the game page's first view."""
    page.goto(base + "/")
    page.fill("#player-name", name)
    page.select_option("#game-select", game)
    for name, value in variant.items():
        field = page.locator(f'#variant-fields [name="{name}"]')
        if page.locator(f'#variant-fields select[name="{name}"]').count():
            field.select_option(value)
        else:
            field.fill(value)
            field.dispatch_event("change")
    for seat, choice in enumerate(seats):
        page.select_option(f'#seat-fields select[name="seat-{seat}"]', choice)
    page.click("#start-button")
    page.wait_for_url("**/games/**")
    page.wait_for_selector("body[data-ply]")


def wait_turn_or_end(page: Any) -> bool:
    """Wait until it is my turn or the game is over; return whether it is over."""
    page.wait_for_selector(
        'body[data-your-turn="true"], body[data-finished="true"]', timeout=scaled(120_000)
    )
    return bool(page.get_attribute("body", "data-finished") == "true")


def click_hex_decision(page: Any, rng: random.Random) -> None:
    """Take one decision on the hex board by clicking: a pawn then a destination, or a tile to remove."""
    ply = page.get_attribute("body", "data-ply")
    movable = page.locator(".tile.movable")
    removable = page.locator(".tile.removable")
    placeable = page.locator(".tile.placeable")
    if movable.count():
        movable.nth(rng.randrange(movable.count())).click()
        reachable = page.locator(".tile.reachable")
        assert reachable.count() > 0, "a movable pawn must show its reachable tiles"
        reachable.nth(rng.randrange(reachable.count())).click()
    elif removable.count():
        removable.nth(rng.randrange(removable.count())).click()
    elif placeable.count():
        placeable.nth(rng.randrange(placeable.count())).click()
    else:
        raise AssertionError("my turn, but nothing on the board is highlighted")
    page.wait_for_selector(f'body:not([data-ply="{ply}"]), body[data-finished="true"]')


def test_hex_against_random_from_the_lobby(live_server: Server, context: Any) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    # fixed colours: I play red and move first, so the undo below goes back to ply 0
    start_from_lobby(
        page, live_server.base, "hex", {"size": "3", "colours": "fixed"}, ["me", "computer:random"]
    )
    page.wait_for_selector(".hex-board [data-cell]")
    shot(page, "hex-start")
    rng = random.Random(3)
    # undo against the computer: the first move is taken back
    wait_turn_or_end(page)
    click_hex_decision(page, rng)
    page.wait_for_selector("#undo-button:not([hidden])")
    page.click("#undo-button")
    page.wait_for_selector('body[data-ply="0"]')
    assert page.locator("#moves li").count() == 0
    decisions = 0
    while not wait_turn_or_end(page):
        click_hex_decision(page, rng)
        decisions += 1
        if decisions == 1:
            shot(page, "hex-after-first-move")
        assert decisions < 200
    page.wait_for_selector("#end-screen:not([hidden])")  # the end screen replaces the result line
    assert "Game over" in page.inner_text("#result")
    assert page.locator("#moves li").count() >= decisions
    shot(page, "hex-finished")
    page.click("#replay-link")
    page.wait_for_selector("#board [data-cell]")
    page.click("#next")
    page.wait_for_selector('body[data-ply="1"]')
    page.click("#last")
    page.wait_for_selector('body:not([data-ply="1"])')
    assert page.inner_text("#position").startswith("after ")
    shot(page, "hex-replay")
    with page.expect_download() as download:
        page.click("text=Download the record (JSON)")
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["game"] == "hex" and record["result"] is not None
    assert page.locator("#moves li").first.inner_text().startswith("red: ")
    page.goto(live_server.base + "/")
    page.wait_for_selector(f'#my-games a[href="/games/{record["meta"]["game_id"]}"]')
    shot(page, "lobby")
    assert not errors, errors


def test_hex_2008_edition_placement_by_clicking(live_server: Server, context: Any) -> None:
    page = context.new_page()
    start_from_lobby(
        page, live_server.base, "hex", {"edition": "2008", "size": "2"}, ["me", "computer:random"]
    )
    page.wait_for_selector(".hex-board .tile.placeable")
    shot(page, "hex-2008-start")
    rng = random.Random(8)
    decisions = 0
    while not wait_turn_or_end(page):
        click_hex_decision(page, rng)
        decisions += 1
        if decisions == 4:
            shot(page, "hex-2008-placing")
        assert decisions < 200
    assert "Game over" in page.inner_text("#result")
    shot(page, "hex-2008-finished")


@needs_cards
def test_a_cards_round_against_two_computers(live_server: Server, context: Any) -> None:
    page = context.new_page()
    start_from_lobby(
        page,
        live_server.base,
        "cards",
        {"players": "3"},
        ["me", "computer:random", "computer:random"],
    )
    page.wait_for_selector(".cards-table")
    shot(page, "cards-start")
    rng = random.Random(5)
    for _ in range(60):
        if wait_turn_or_end(page) or page.locator("#last-reveal").count():
            break
        assert (
            page.locator(".my-hand [data-card]").count() > 0
            or page.locator(".action-suspect").count()
        )
        ply = page.get_attribute("body", "data-ply")
        suspect = page.locator(".action-suspect .action-button")
        buttons = page.locator(".action-button")
        if suspect.count() and rng.random() < 0.4:
            suspect.first.click()
        else:
            buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_selector(f'body:not([data-ply="{ply}"])')
    page.wait_for_selector("#last-reveal")
    text = page.inner_text("#last-reveal")
    assert "takes the limit card" in text or "without a suspicion" in text
    assert page.locator(".round-history li").count() >= 1
    shot(page, "cards-after-a-round")


def test_two_people_through_an_invite_link(live_server: Server, browser: Any) -> None:
    host = browser.new_context(viewport={"width": 1100, "height": 850})
    guest = browser.new_context(viewport={"width": 1100, "height": 850})
    try:
        host.set_default_timeout(scaled(60_000))
        guest.set_default_timeout(scaled(60_000))
        alice = host.new_page()
        start_from_lobby(  # fixed colours: the host plays red, the guest blue
            alice,
            live_server.base,
            "hex",
            {"size": "3", "colours": "fixed"},
            ["me", "friend"],
            name="Alice",
        )
        link = alice.locator(".invite-link").input_value()
        assert "#seat=1&token=" in link
        bob = guest.new_page()
        bob.goto(link)
        bob.wait_for_selector(".hex-board [data-cell]")
        assert "#" not in bob.url, "the token leaves the address bar once stored"
        # the first view may come before the server's welcome to the invited seat
        bob.locator("#me", has_text="You play blue").wait_for()
        assert "You play red" in alice.inner_text("#me")
        assert "red: Alice" in bob.inner_text("#players")
        rng = random.Random(11)
        mover, other = alice, bob  # fixed colours: red (Alice) moves first
        mover.wait_for_selector('body[data-your-turn="true"]')
        for _ in range(300):  # decisions (a game on 3 cells takes far fewer)
            if mover.get_attribute("body", "data-finished") == "true":
                break
            click_hex_decision(mover, rng)
            if mover.get_attribute("body", "data-your-turn") != "true":
                # the turn passed: the other page shows it once the view reaches it
                other.wait_for_selector('body[data-your-turn="true"], body[data-finished="true"]')
                mover, other = other, mover
        alice.wait_for_selector("#end-screen:not([hidden])")
        bob.wait_for_selector("#end-screen:not([hidden])")
        assert alice.inner_text("#result") == bob.inner_text("#result")
        assert alice.inner_text("#end-winners") == bob.inner_text("#end-winners")
        shot(alice, "invite-host-finished")
        shot(bob, "invite-guest-finished")
    finally:
        host.close()
        guest.close()


@needs_cards
def test_a_spectator_sees_no_hidden_card(live_server: Server, context: Any) -> None:
    with httpx.Client(base_url=live_server.base, timeout=scaled(30)) as http:
        game = new_game(
            http,
            "cards",
            [
                {"kind": "computer", "level": "random"},
                {"kind": "computer", "level": "random"},
                {"kind": "friend"},
            ],
            {"players": 3},
            seed=21,
        )
    page = context.new_page()
    frames: list[str] = []
    page.on(
        "websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload)))
    )
    page.goto(live_server.base + game["url"])
    page.wait_for_selector(".cards-table")
    assert "You are watching" in page.inner_text("#me")
    assert page.locator("[data-card]").count() == 0
    assert page.locator("[data-hidden]").count() == 0
    assert "Spectators see no hand" in page.inner_text("#board")
    assert page.locator("#action-form").is_hidden()
    # the computers have hidden their cards: the spectator sees only their backs
    page.wait_for_selector(".cards-seats .colour-card.back")
    views = [json.loads(f) for f in frames if '"view"' in f]
    assert views
    for view in views:
        assert view["observation"]["hand"] is None and view["observation"]["hidden"] is None
        assert view["legal"] == [] and view["seats"] == []
    shot(page, "cards-spectator")
