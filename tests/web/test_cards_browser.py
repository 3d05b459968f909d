"""The cards page in Debian's chromium: a whole 2-player game against the computer by clicks,
on a laptop (1280x800) and a phone (390x844) screen (Playwright for Python).

What a person needs is measured on the page itself, not on the code that draws
it: the page is never wider than the screen (no sideways scrolling), and with
the page scrolled to the top every action button lies inside the viewport.
Cards are played by clicking them in the hand (the buttons stay as a
fallback and are used every third turn). Screenshots go to ``artifacts/screenshots/``.
"""

# ruff: noqa: F811 - the server and browser fixtures are test_browser.py's, used by name

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.deadlines import scaled
from tests.web.conftest import Server
from tests.web.test_browser import (  # noqa: F401 - the shared fixtures
    CHROMIUM,
    browser,
    live_server,
    needs_cards,
    shot,
    start_from_lobby,
    wait_turn_or_end,
)

pytestmark = [
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed (run scripts/browser-deps.sh)",
    ),
    needs_cards,
]


LAYOUT = """() => {
  window.scrollTo(0, 0);
  const buttons = [...document.querySelectorAll('#actions .action-button')].map((b) => {
    const r = b.getBoundingClientRect();
    return { action: b.dataset.action, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
  return {
    width: window.innerWidth,
    height: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    buttons,
  };
}"""
"""The page's width against the screen's, and where each action button is with the page at its top."""


@pytest.mark.slow  # a whole cards game clicked through in a browser (90-130 s under load)
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_a_whole_cards_game_by_clicks(
    live_server: Server, browser: Any, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(scaled(60_000))
    try:
        page = context.new_page()
        start_from_lobby(
            page, live_server.base, "cards", {"players": "2"}, ["me", "computer:random"], "Ada"
        )
        page.wait_for_selector(".cards-table")
        assert "Ada (you)" in page.inner_text(".cards-seats")
        rng = random.Random(width)
        turns = clicked_cards = 0
        while not wait_turn_or_end(page):
            turns += 1
            assert turns < 80, "a 2-player game takes about 30 of my decisions"
            layout = page.evaluate(LAYOUT)
            assert layout["scrollWidth"] <= layout["width"], f"sideways overflow: {layout}"
            assert layout["buttons"], "my turn, but no action button"
            for b in layout["buttons"]:
                inside = b["left"] >= 0 and b["right"] <= layout["width"]
                assert inside and b["top"] >= 0 and b["bottom"] <= layout["height"], (b, layout)
            if turns == 2:
                shot(page, f"cards-{width}x{height}-playing")
            ply = page.get_attribute("body", "data-ply")
            playable = page.locator(".my-hand .colour-card.playable")
            if playable.count() and turns % 3:
                card = playable.nth(rng.randrange(playable.count()))
                action = card.get_attribute("data-action")
                assert action in {b["action"] for b in layout["buttons"]}
                card.click()
                clicked_cards += 1
            else:
                buttons = page.locator("#actions .action-button")
                buttons.nth(rng.randrange(buttons.count())).click()
            page.wait_for_selector(f'body:not([data-ply="{ply}"])')
        assert clicked_cards >= 5
        assert "Game over" in page.inner_text("#result")
        layout = page.evaluate(LAYOUT)
        assert layout["scrollWidth"] <= layout["width"], f"sideways overflow: {layout}"
        shot(page, f"cards-{width}x{height}-finished")
    finally:
        context.close()
