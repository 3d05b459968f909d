"""In real Chromium: two people sign up, one posts a rated hex seek, the other accepts it,
they play it to its end through the pages (every decision clicked on the board), and both
ratings move as the Glicko-2 library computes on the same result; the game is in both
histories, and the leaderboard shows both (Playwright; the fixtures are test_browser.py's).
"""

# ruff: noqa: F811

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from glicko2 import Player

from tests.web.conftest import Server
from tests.web.test_browser import (  # noqa: F401 - the shared fixtures
    CHROMIUM,
    browser,
    click_hex_decision,
    live_server,
    shot,
    two,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed (run scripts/browser-deps.sh)",
    ),
]


def _sign_up(page: Any, server: Server, name: str) -> None:
    page.goto(server.base + "/account/signup")
    page.fill("#account-name", name)
    page.fill("#account-password", f"{name} plays hex well")
    page.click("#account-submit")
    page.wait_for_url(server.base + "/")
    page.locator("#my-page", has_text=name).wait_for()


def _expected(result: list[float]) -> tuple[float, float]:
    """Both new ratings from 1500/350/0.06, by the library on the game's one result."""
    score = 1.0 if result[0] > result[1] else 0.5 if result[0] == result[1] else 0.0
    first, second = Player(1500, 350, 0.06), Player(1500, 350, 0.06)
    first.update_player([1500], [350], [score])
    second.update_player([1500], [350], [1.0 - score])
    return first.rating, second.rating


def test_two_people_play_a_rated_seek_to_the_end(live_server: Server, two: Any) -> None:
    ann, bob = two
    _sign_up(ann, live_server, "Ann")
    _sign_up(bob, live_server, "Bob")
    # Ann's seek: hex on 3 cells a side, fixed colours (seat 1, Ann, plays red and starts)
    ann.select_option("#game-select", "hex")
    ann.select_option('#variant-fields [name="colours"]', "fixed")
    size = ann.locator('#variant-fields [name="size"]')
    size.fill("3")
    size.dispatch_event("change")
    assert ann.is_checked("#seek-rated")
    ann.click("#post-seek")
    ann.wait_for_selector('#seeks li[data-author="Ann"] button.withdraw-seek')
    # Bob sees it in his lobby (it asks every few seconds) and accepts
    bob.locator("#online", has_text="Ann").wait_for()
    bob.wait_for_selector('#seeks li[data-author="Ann"] button.accept-seek')
    shot(bob, "accounts-lobby-seek")
    bob.click('#seeks li[data-author="Ann"] button.accept-seek')
    bob.wait_for_url("**/games/**")
    bob.wait_for_selector("body[data-ply]")
    # Ann's lobby learns her seek was taken and opens the game in her seat
    ann.wait_for_url("**/games/**")
    ann.wait_for_selector("body[data-ply]")
    game_id = ann.url.split("/games/")[1].split("#")[0]
    assert bob.url.split("/games/")[1].split("#")[0] == game_id
    ann.locator("#me", has_text="You play red").wait_for()
    bob.locator("#me", has_text="You play blue").wait_for()
    rng = random.Random(23)
    mover, other = ann, bob
    mover.wait_for_selector('body[data-your-turn="true"]')
    for _ in range(300):  # decisions (a game on 3 cells a side takes far fewer)
        if mover.get_attribute("body", "data-finished") == "true":
            break
        click_hex_decision(mover, rng)
        if mover.get_attribute("body", "data-your-turn") != "true":
            other.wait_for_selector('body[data-your-turn="true"], body[data-finished="true"]')
            mover, other = other, mover
    for page in (ann, bob):
        page.wait_for_selector('body[data-finished="true"]')
    with httpx.Client(base_url=live_server.base) as client:
        summary = client.get(f"/api/games/{game_id}").json()
    assert summary["status"] == "finished" and summary["ending"] is None  # by the rules
    expected = _expected(summary["result"])
    for page, name, rating in ((ann, "Ann", expected[0]), (bob, "Bob", expected[1])):
        page.goto(f"{live_server.base}/people/{name}")
        # one game from 350: still provisional ("?"), rounded to the point
        assert page.inner_text('#ratings tr[data-game="hex"] .rating') == f"{rating:.0f}?"
        row = page.locator(f'#history tr[data-game-id="{game_id}"]')
        assert row.count() == 1
        assert "by the rules" in row.inner_text()
        assert ("Bob" if name == "Ann" else "Ann") in row.inner_text()
        shot(page, f"accounts-{name.lower()}-page")
    with httpx.Client(base_url=live_server.base) as client:
        people = {p: client.get(f"/api/people/{p}").json() for p in ("Ann", "Bob")}
    assert people["Ann"]["ratings"]["hex"]["rating"] == pytest.approx(expected[0], abs=0.01)
    assert people["Bob"]["ratings"]["hex"]["rating"] == pytest.approx(expected[1], abs=0.01)
    ann.goto(live_server.base + "/leaderboard")
    board = ann.locator("#leaderboard-hex")
    assert board.locator('tr[data-name="Ann"]').count() == 1
    assert board.locator('tr[data-name="Bob"]').count() == 1
    shot(ann, "accounts-leaderboard")


def test_play_now_pairs_two_people_through_the_pushed_lobby(live_server: Server, two: Any) -> None:
    ann, bob = two
    _sign_up(ann, live_server, "Ann2")
    _sign_up(bob, live_server, "Bob2")
    for page in (ann, bob):  # the same game and variant in both lobbies' forms
        page.select_option("#game-select", "hex")
        size = page.locator('#variant-fields [name="size"]')
        size.fill("3")
        size.dispatch_event("change")
    # nobody seeks yet: Ann's "Play now" posts a seek, pushed to Bob's lobby
    ann.click("#play-now")
    bob.wait_for_selector('#seeks li[data-author="Ann2"] button.accept-seek')
    # Bob's "Play now" takes it: both are seated in one game
    bob.click("#play-now")
    for page in (ann, bob):
        page.wait_for_url("**/games/**")
        page.wait_for_selector("body[data-ply]")
    assert ann.url.split("/games/")[1].split("#")[0] == bob.url.split("/games/")[1].split("#")[0]
