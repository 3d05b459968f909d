"""Browser tests of clocks, zombie seats and turn notifications in real Chromium (Playwright for
Python, Debian's /usr/bin/chromium; the server and browser fixtures are test_browser.py's).
"""

# ruff: noqa: F811

from __future__ import annotations

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

RECORDER = """
window.__notes = [];
window.__beeps = 0;
(() => {
  const Original = window.Notification;
  class Recorder {
    constructor(title, options) {
      window.__notes.push({ title, body: (options || {}).body, hidden: document.visibilityState });
    }
    close() {}
    static get permission() { return Original ? Original.permission : "default"; }
    static requestPermission() { return Original.requestPermission(); }
  }
  window.Notification = Recorder;
  let hidden = false;
  window.__setHidden = (value) => { hidden = value; };
  Object.defineProperty(document, "visibilityState", { get: () => (hidden ? "hidden" : "visible") });
  Object.defineProperty(document, "hidden", { get: () => hidden });
  const createOscillator = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    window.__beeps += 1;
    return createOscillator.call(this);
  };
})();
"""
"""Records every Notification the page creates and every beep, and lets the test hide the page."""


def _mover(ann: Any, bob: Any) -> tuple[Any, Any]:
    ann.wait_for_selector("#players li.to-move")
    if ann.get_attribute("body", "data-your-turn") == "true":
        return ann, bob
    return bob, ann


def test_a_clock_runs_out_and_the_computer_takes_over(
    live_server: Server, two: tuple[Any, Any]
) -> None:
    ann, bob = two
    errors: list[str] = []
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    # Ann starts from the lobby: hex, a friend, 3 s per move
    ann.goto(live_server.base + "/")
    ann.fill("#player-name", "Ann")
    ann.select_option("#game-select", "hex")
    ann.locator('#variant-fields [name="size"]').fill("4")
    ann.select_option('#seat-fields select[name="seat-1"]', "friend")
    assert ann.locator("#clock-seconds").is_hidden()
    ann.select_option("#clock-kind", "move")
    ann.fill("#clock-seconds", "3")
    ann.fill("#clock-away", "0")
    ann.click("#start-button")
    ann.wait_for_url("**/games/**")
    ann.wait_for_selector("body[data-ply]")
    assert ann.inner_text("#clock-info") == "Clock: 3 s per move"
    # no clock runs before the friend opens the game
    assert ann.locator("#players .clock.running").count() == 0
    link = ann.input_value(".invite-link")
    bob.goto(link)
    bob.wait_for_selector("body[data-ply]")
    mover, waiter = _mover(ann, bob)
    waiter.wait_for_selector("#players .clock.running")
    first = float(waiter.inner_text("#players .clock.running"))
    # the running clock counts down in the browser (read again until it has)
    waiter.wait_for_function(
        "first => parseFloat(document.querySelector('#players .clock.running').innerText) < first",
        arg=first,
    )
    later = float(waiter.inner_text("#players .clock.running"))
    assert 0 <= later < first <= 3.0, "the running clock counts down in the browser"
    shot(waiter, "clock-running")
    # the mover does nothing: after 3 s the computer plays that seat, marked in every view
    for page in (mover, waiter):
        page.wait_for_selector("#players .zombie", timeout=scaled(30_000))
        assert "played by the computer: time ran out" in page.inner_text("#players")
    assert "The computer plays your seat (time ran out)" in mover.inner_text("#zombie-note")
    assert waiter.locator("#reclaim-button").is_hidden()
    # the computer finishes the mover's turn: the other seat is to move (a generous wait: the
    # server's first computer move starts its worker processes)
    waiter.wait_for_selector('body[data-your-turn="true"]', timeout=scaled(120_000))
    shot(mover, "clock-zombie")
    mover.click("#reclaim-button")
    mover.wait_for_selector("#players .zombie", state="detached")
    assert mover.locator("#reclaim-button").is_hidden()
    assert mover.locator("#zombie-note").is_hidden()
    assert not errors, errors


def test_a_notification_when_it_becomes_my_turn(live_server: Server, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    try:
        for ctx in contexts:
            ctx.set_default_timeout(scaled(60_000))
        ann, bob = (ctx.new_page() for ctx in contexts)
        bob.add_init_script(RECORDER)
        with httpx.Client(base_url=live_server.base, timeout=scaled(60)) as client:
            game = new_game(
                client,
                "hex",
                [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "Bob"}],
                variant={"size": 4, "colours": "fixed"},
                seed=11,
            )
        ann.goto(live_server.base + game["links"]["0"])
        bob.goto(live_server.base + game["links"]["1"])
        for page in (ann, bob):
            page.wait_for_selector("body[data-ply]")
        # sound: off by default, remembered once on
        assert not bob.is_checked("#sound-toggle")
        bob.check("#sound-toggle")
        # the button asks for the permission; the browser grants it (the test plays the person)
        assert bob.is_visible("#notify-button")
        contexts[1].grant_permissions(["notifications"], origin=live_server.base)
        bob.click("#notify-button")
        bob.wait_for_selector("#notify-button", state="hidden")
        assert "Notifications on" in bob.inner_text("#notify-state")
        bob.reload()
        bob.wait_for_selector("body[data-ply]")
        assert bob.is_checked("#sound-toggle")
        mover, _ = _mover(ann, bob)
        assert mover is ann  # fixed colours: red (seat 0) moves first
        assert bob.evaluate("window.__notes.length") == 0  # the first view never notifies
        bob.evaluate("window.__setHidden(true)")
        rng = random.Random(5)
        _ann_plays_until_bobs_turn(ann, bob, rng)
        bob.wait_for_function("() => window.__notes.length === 1")
        note = bob.evaluate("window.__notes[0]")
        assert note["title"] == "Your turn"
        assert note["body"] == f"Limit: game {game['id']}"  # hex's title
        assert note["hidden"] == "hidden"
        assert bob.evaluate("window.__beeps") == 1
        # a visible page beeps but shows no notification
        bob.evaluate("window.__setHidden(false)")
        while bob.get_attribute("body", "data-your-turn") == "true":
            click_hex_decision(bob, rng)
        _ann_plays_until_bobs_turn(ann, bob, rng)
        if bob.get_attribute("body", "data-your-turn") == "true":
            bob.wait_for_function("() => window.__beeps === 2")
        assert bob.evaluate("window.__notes.length") == 1
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_correspondence_turn_notifies_like_any_other(live_server: Server, browser: Any) -> None:
    # a days clock changes nothing in the page's notification: it comes when the view says
    # it became this page's turn while the tab is hidden (notify.js), whatever the clock
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    try:
        for ctx in contexts:
            ctx.set_default_timeout(scaled(60_000))
        contexts[1].grant_permissions(["notifications"], origin=live_server.base)
        ann, bob = (ctx.new_page() for ctx in contexts)
        bob.add_init_script(RECORDER)
        with httpx.Client(base_url=live_server.base, timeout=scaled(60)) as client:
            response = client.post(
                "/api/games",
                json={
                    "game": "hex",
                    "variant": {"size": 4, "colours": "fixed"},
                    "seats": [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "Bob"}],
                    "seed": 11,
                    "clock": {"kind": "days", "days": 3},
                },
            )
            assert response.status_code == 200, response.text
            game = response.json()
        ann.goto(live_server.base + game["links"]["0"])
        bob.goto(live_server.base + game["links"]["1"])
        for page in (ann, bob):
            page.wait_for_selector("body[data-ply]")
        bob.evaluate("window.__setHidden(true)")
        _ann_plays_until_bobs_turn(ann, bob, random.Random(5))
        bob.wait_for_function("() => window.__notes.length === 1")
        assert bob.evaluate("window.__notes[0]")["title"] == "Your turn"
    finally:
        for ctx in contexts:
            ctx.close()


def _ann_plays_until_bobs_turn(ann: Any, bob: Any, rng: random.Random) -> None:
    """Ann (seat 0) takes decisions until it is Bob's turn on Bob's page, or the game ends.

    A turn of hex may take several decisions; when Ann's page says her turn is over, Bob's
    page is waited for until it shows his turn (the view reaches it a moment later).
    """
    while bob.get_attribute("body", "data-your-turn") != "true":
        ann.wait_for_selector('body[data-your-turn="true"], body[data-finished="true"]')
        if ann.get_attribute("body", "data-finished") == "true":
            return
        click_hex_decision(ann, rng)
        if ann.get_attribute("body", "data-your-turn") != "true":
            bob.wait_for_selector('body[data-your-turn="true"], body[data-finished="true"]')
            if bob.get_attribute("body", "data-finished") == "true":
                return


def test_a_correspondence_game_from_the_lobby_takes_an_address_for_reminders(
    live_server: Server, two: tuple[Any, Any]
) -> None:
    ann, _bob = two
    errors: list[str] = []
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    ann.goto(live_server.base + "/")
    ann.select_option("#game-select", "cards")
    ann.select_option('#seat-fields select[name="seat-1"]', "friend")
    assert ann.locator("#clock-days").is_hidden()
    ann.select_option("#clock-kind", "days")
    ann.select_option("#clock-days", "3")
    ann.click("#start-button")
    ann.wait_for_url("**/games/**")
    ann.wait_for_selector("body[data-ply]")
    assert ann.inner_text("#clock-info") == "Clock: 3 days per move (correspondence)"
    ann.fill("#reminder-address", "ann@example.org")
    ann.click("#reminder-form button")
    ann.wait_for_selector("#reminder-saved:has-text('Reminders go to ann@example.org.')")
    assert not errors, errors
