"""Browser tests of the platform features in real Chromium: resign, draw, rematch, open seats,
chat and the rules pages (Playwright for Python, Debian's /usr/bin/chromium; see test_browser.py).

The server and browser fixtures are test_browser.py's, imported by name (hence F811 below).
"""

# ruff: noqa: F811

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from tests.deadlines import scaled
from tests.web.conftest import Server, new_game
from tests.web.test_browser import (  # noqa: F401 - the shared fixtures
    CHROMIUM,
    browser,
    click_hex_decision,
    live_server,
    shot,
    two,
)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (run scripts/browser-deps.sh)"
)


def _hex_game(server: Server, seats: list[dict[str, Any]]) -> dict[str, Any]:
    with httpx.Client(base_url=server.base, timeout=scaled(60)) as client:
        return new_game(client, "hex", seats, variant={"size": 4}, seed=11)


def _open(page: Any, server: Server, link: str) -> None:
    page.goto(server.base + link)
    page.wait_for_selector("body[data-ply]")


_PLAYERS_LINE_HAS = (
    "([line, text]) => (document.querySelector('#players')?.innerText ?? '')"
    ".split('\\n')[line]?.includes(text) ?? false"
)
"""A page function: line ``line`` of the players list contains ``text``."""


def test_resign_then_rematch(live_server: Server, two: tuple[Any, Any]) -> None:
    ann, bob = two
    game = _hex_game(
        live_server, [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "Bob"}]
    )
    _open(ann, live_server, game["links"]["0"])
    _open(bob, live_server, game["links"]["1"])
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.click("#resign-button")
    for page, resigner in ((ann, "You"), (bob, None)):
        page.wait_for_selector('body[data-finished="true"]')
        # the players list reads "NAME: LABEL"; seat 0 (Ann) resigned, seat 1 (Bob) wins; the
        # one who resigned is told in the second person
        names = [line.split(":")[0] for line in page.inner_text("#players").splitlines()]
        who = resigner or names[0]
        assert page.inner_text("#result") == f"{who} resigned: {names[1]} wins."
    shot(bob, "platform-resigned")
    bob.click("#rematch-button")
    for page in (ann, bob):
        page.wait_for_selector("#rematch-link")
    ann.click("#rematch-link")
    ann.wait_for_url("**/games/*")
    ann.wait_for_selector("body[data-ply]")
    assert game["id"] not in ann.url
    # seats rotated: Ann, seat 0 before, plays seat 1 now ("(you)" once the page's hello is
    # answered: waited for, as the list is drawn from the spectator's view first)
    ann.wait_for_function(_PLAYERS_LINE_HAS, arg=[1, "Ann (you)"])
    bob.click("#rematch-link")
    bob.wait_for_function(_PLAYERS_LINE_HAS, arg=[0, "Bob (you)"])
    assert game["id"] not in bob.url
    shot(ann, "platform-rematch")


def test_draw_by_agreement(live_server: Server, two: tuple[Any, Any]) -> None:
    ann, bob = two
    game = _hex_game(live_server, [{"kind": "me"}, {"kind": "friend"}])
    _open(ann, live_server, game["links"]["0"])
    _open(bob, live_server, game["links"]["1"])
    ann.click("#offer-draw")
    bob.wait_for_selector("#draw-offered")
    bob.click("#accept-draw")
    for page in (ann, bob):
        page.wait_for_selector('body[data-finished="true"]')
        assert "draw" in page.inner_text("#result")


def test_a_takeback_asked_and_accepted_puts_the_board_back(
    live_server: Server, two: tuple[Any, Any]
) -> None:
    ann, bob = two
    with httpx.Client(base_url=live_server.base, timeout=scaled(60)) as client:
        # fixed colours: seat 0 (Ann) moves first
        game = new_game(
            client,
            "hex",
            [{"kind": "me"}, {"kind": "friend"}],
            variant={"size": 4, "colours": "fixed"},
            seed=11,
        )
    _open(ann, live_server, game["links"]["0"])
    _open(bob, live_server, game["links"]["1"])
    before = bob.inner_html("#board")  # the seat not to move: nothing highlighted
    ann.wait_for_selector('body[data-your-turn="true"]')
    click_hex_decision(ann, random.Random(5))
    ann.click("#ask-takeback")
    bob.wait_for_selector("#takeback-offered")
    bob.click("#accept-takeback")
    for page in (ann, bob):
        page.wait_for_selector('body[data-ply="0"]')
    assert bob.inner_html("#board") == before  # the board as it was before the move
    assert ann.locator("#moves li").count() == 0
    assert ann.get_attribute("body", "data-your-turn") == "true"


def test_presence_dots_follow_a_player_who_comes_and_goes(
    live_server: Server, two: tuple[Any, Any]
) -> None:
    ann, bob = two
    game = _hex_game(live_server, [{"kind": "me"}, {"kind": "friend"}])
    _open(ann, live_server, game["links"]["0"])
    # Bob's seat: nobody has opened it yet
    ann.wait_for_selector('#players li:nth-child(2) .presence[data-presence="gone"]')
    assert ann.get_attribute("#players li:nth-child(2) .presence", "aria-label") == "gone"
    _open(bob, live_server, game["links"]["1"])
    ann.wait_for_selector('#players li:nth-child(2) .presence[data-presence="here"]')
    bob.wait_for_selector('#players li:nth-child(1) .presence[data-presence="here"]')
    bob.close()  # Bob leaves: his seat has no connection any more
    ann.wait_for_selector('#players li:nth-child(2) .presence[data-presence="gone"]')


def test_take_an_open_seat_from_the_lobby(live_server: Server, two: tuple[Any, Any]) -> None:
    ann, cy = two
    game = _hex_game(live_server, [{"kind": "me", "name": "Ann"}, {"kind": "open"}])
    _open(ann, live_server, game["links"]["0"])
    cy.goto(live_server.base + "/")
    cy.fill("#player-name", "Cy")
    cy.click(f'#seats-open li[data-game-id="{game["id"]}"] button.take-seat')
    cy.wait_for_url(f"**/games/{game['id']}")
    # waited for, not read once: the first view drawn may come before the hello with Cy's new
    # token is answered (on a busy machine the test read "You are watching (spectator).")
    cy.locator("#me", has_text="You play").wait_for()
    cy.locator("#players", has_text="Cy (you)").wait_for()
    # a selector wait: the page's Content-Security-Policy forbids the eval a string function needs
    ann.locator("#players", has_text="Cy").wait_for()
    with httpx.Client(base_url=live_server.base, timeout=scaled(60)) as client:
        assert game["id"] not in [g["id"] for g in client.get("/api/open-games").json()]
    shot(cy, "platform-open-seat")


def test_chat_for_seats_and_spectators(
    live_server: Server,
    two: tuple[Any, Any],
    browser: Any,
) -> None:
    ann, bob = two
    game = _hex_game(
        live_server, [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "Bob"}]
    )
    _open(ann, live_server, game["links"]["0"])
    _open(bob, live_server, game["links"]["1"])
    watcher_context = browser.new_context()
    try:
        watcher = watcher_context.new_page()
        _open(watcher, live_server, f"/games/{game['id']}")
        assert watcher.inner_text("#chat-title") == "Spectators' chat"
        assert "players only" in ann.inner_text("#chat-title")
        ann.fill("#chat-input", "<b id='bold'>hi</b> good luck")
        ann.press("#chat-input", "Enter")
        bob.wait_for_selector("#chat-messages li")
        # shown as text: the markup is visible, never an element
        assert bob.inner_text("#chat-messages li") == "Ann: <b id='bold'>hi</b> good luck"
        assert bob.locator("#bold").count() == 0
        watcher.fill("#chat-input", "nice opening")
        watcher.press("#chat-input", "Enter")
        watcher.wait_for_selector("#chat-messages li")
        assert watcher.inner_text("#chat-messages") == "spectator: nice opening"
        # Bob writes after the spectator's line was shown: Ann's page gets the server's
        # messages in order, so once Bob's line is there, a leaked spectator line would be too
        bob.fill("#chat-input", "thanks")
        bob.press("#chat-input", "Enter")
        ann.locator("#chat-messages", has_text="Bob: thanks").wait_for()
        assert "nice opening" not in ann.inner_text("#chat-messages")
        assert "good luck" not in watcher.inner_text("#chat-messages")
        shot(bob, "platform-chat")
    finally:
        watcher_context.close()


def test_rules_pages_are_linked(live_server: Server, two: tuple[Any, Any]) -> None:
    page, _ = two
    page.goto(live_server.base + "/")
    page.click('a[href="/rules/hex"]')
    page.wait_for_url("**/rules/hex")
    assert "Browne" in page.inner_text("h1")
    game = _hex_game(live_server, [{"kind": "me"}, {"kind": "friend"}])
    _open(page, live_server, game["links"]["0"])
    assert page.get_attribute("#rules-link", "href") == "/rules/hex"
    shot(page, "platform-game-page")


def test_a_missed_pong_shows_the_banner_and_reconnects(
    live_server: Server, two: tuple[Any, Any]
) -> None:
    page, _ = two
    game = _hex_game(live_server, [{"kind": "me"}, {"kind": "friend"}])
    page.add_init_script("window.limitPingMs = 400; window.limitPongMs = 600;")
    connections: list[Any] = []
    views_after: list[str] = []

    def route(ws: Any) -> None:
        index = len(connections)
        connections.append(ws)
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            if index == 0 and '"pong"' in text:
                return  # the first connection's pongs are lost (a silently dead network)
            if index > 0 and '"type": "view"' in text:
                views_after.append(text)
            ws.send(message)

        server.on_message(from_server)

    page.route_web_socket("**/ws", route)
    _open(page, live_server, game["links"]["0"])
    page.wait_for_selector('body[data-reconnects="1"]')
    page.wait_for_selector("#connection-banner", state="hidden")
    # the fresh connection said hello with the stored token: its view is seat 0's again (on a
    # busy machine a fresh connection too may miss a pong and be replaced: any of them counts)
    page.wait_for_function(
        "() => document.querySelector('#me')?.innerText.includes('You play') ?? false"
    )
    assert len(connections) >= 2, "the page reconnected"
    assert any(json.loads(view)["seats"] == [0] for view in views_after), views_after


def test_the_tab_title_says_whose_turn(live_server: Server, two: tuple[Any, Any]) -> None:
    ann, bob = two
    game = _hex_game(live_server, [{"kind": "me"}, {"kind": "friend"}])
    _open(ann, live_server, game["links"]["0"])
    _open(bob, live_server, game["links"]["1"])
    ann.wait_for_selector("#offer-draw")
    bob.wait_for_selector("#offer-draw")
    mover, waiter = (
        (ann, bob) if ann.get_attribute("body", "data-your-turn") == "true" else (bob, ann)
    )
    assert mover.title().startswith("● Your turn")
    assert not waiter.title().startswith("●")
