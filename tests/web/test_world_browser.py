"""The world page in Debian's chromium: a whole 2-nation game against the easy computer by
clicks, on a laptop (1280x800) and a phone (390x844) screen; the 4- and 6-nation layouts;
axe-core on the world and the cards pages (Playwright for Python).

What a person needs is measured on the page itself, not on the code that draws it: the
page is never wider than the screen; with the page scrolled to its top every choice (its
button, or the number input and button of a quantity) lies inside the viewport; on the
laptop the page does not scroll at all, and with up to 4 nations every nation board is
whole on the screen. Screenshots go to ``artifacts/screenshots/``.
"""

# ruff: noqa: F811 - the server and browser fixtures are test_browser.py's, used by name

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
    live_server,
    needs_cards,
    shot,
    start_from_lobby,
    wait_turn_or_end,
)
from tests.web.test_hex_browser import serious_violations

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (run scripts/browser-deps.sh)"
)

LAYOUT = """() => {
  window.scrollTo(0, 0);
  const box = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  const choices = [...document.querySelectorAll(
    '.world-prompt button[data-action], .world-amount input, .world-amount button')].map(box);
  const boards = [...document.querySelectorAll('.nation-board')].map((b) => {
    // a board is whole if no ancestor panel clips it
    let r = box(b);
    for (let p = b.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const c = box(p);
        r = { left: Math.max(r.left, c.left), top: Math.max(r.top, c.top),
              right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom) };
      }
    }
    const whole = box(b);
    return { clipped: r.left > whole.left + 1 || r.top > whole.top + 1 ||
      r.right < whole.right - 1 || r.bottom < whole.bottom - 1, ...whole };
  });
  return { width: window.innerWidth, height: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight, choices, boards };
}"""
"""The page's size against the screen's, where each choice is with the page at its top, and
whether each nation board is whole (not cut by a scrolling panel)."""


def open_world(server: Server, browser: Any, width: int, height: int, players: int) -> Any:
    """A new world game (me against easy computers, seeded) opened at ``width`` x ``height``."""
    seats = [{"kind": "me", "name": "Ada"}] + [{"kind": "computer", "level": "easy"}] * (
        players - 1
    )
    with httpx.Client(base_url=server.base, timeout=scaled(60)) as client:
        game = new_game(client, "world", seats, {"players": players}, seed=11)
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(scaled(30_000))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.base + game["links"]["0"])
    page.wait_for_selector(".world-table")
    page.errors = errors  # type: ignore[attr-defined]
    return context, page


def check_layout(page: Any, laptop: bool, whole_boards: bool) -> dict[str, Any]:
    layout: dict[str, Any] = page.evaluate(LAYOUT)
    try:
        _check(layout, laptop, whole_boards)
    except AssertionError:
        shot(page, "world-layout-failed")  # the page that failed
        raise
    return layout


def _check(layout: dict[str, Any], laptop: bool, whole_boards: bool) -> None:
    assert layout["scrollWidth"] <= layout["width"], f"sideways overflow: {layout}"
    for c in layout["choices"]:
        inside = c["left"] >= 0 and c["right"] <= layout["width"] and c["top"] >= 0
        assert inside and c["bottom"] <= layout["height"], (c, layout["width"], layout["height"])
    if laptop:
        assert layout["scrollHeight"] <= layout["height"], "the page scrolls on a laptop"
    if whole_boards:
        assert not [b for b in layout["boards"] if b["clipped"]], layout["boards"]


def decide(page: Any, rng: random.Random) -> str:
    """Take one decision by clicking: a choice's button, a card's *Play* button in the hand, or
    a number typed in a quantity form."""
    ply = page.get_attribute("body", "data-ply")
    forms = page.locator("form.world-amount")
    options = page.locator(".world-prompt button.world-option")
    if forms.count() and (rng.random() < 0.6 or not options.count()):
        form = forms.nth(rng.randrange(forms.count()))
        low = int(form.get_attribute("data-minimum"))
        high = int(form.get_attribute("data-maximum"))
        amount = rng.randint(low, high)
        chosen = form.get_attribute("data-notation").replace("N", str(amount))
        form.locator("input").fill(str(amount))
        form.locator("button").click()
    elif page.locator(".world-hand .card-play").count() and rng.random() < 0.3:
        card = page.locator(".world-hand .card-play")  # a card played from the hand itself
        card = card.nth(rng.randrange(card.count()))
        chosen = card.get_attribute("data-action")
        assert page.locator(f'.world-prompt button[data-action="{chosen}"]').count() == 1
        card.click()
    else:
        assert options.count(), "my turn, but no choice on the page"
        # keep Market Access (never put it back) and play it often: transactions have quantities
        kept = page.locator(
            '.world-prompt button.world-option:not([data-action="discard market-access"])'
        )
        option = kept.nth(rng.randrange(kept.count())) if kept.count() else options.first
        market = page.locator('.world-prompt button[data-action="play market-access"]')
        if market.count() and rng.random() < 0.5:
            option = market  # a transaction: its quantities are number inputs
        chosen = option.get_attribute("data-action")
        option.click()
    page.wait_for_selector(f'body:not([data-ply="{ply}"])')
    return str(chosen)


@pytest.mark.slow  # a whole world game clicked through in a browser (130-160 s under load)
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_a_whole_world_game_by_clicks(
    live_server: Server, browser: Any, width: int, height: int
) -> None:
    laptop = width >= 1000
    context, page = open_world(live_server, browser, width, height, 2)
    try:
        rng = random.Random(width)
        decisions = 0
        amounts = played = 0
        while not wait_turn_or_end(page):
            check_layout(page, laptop, whole_boards=laptop)
            chosen = decide(page, rng)
            amounts += chosen.split()[0] in ("buy", "sell", "spend", "give", "contribute", "aid")
            played += chosen.startswith("play ")
            decisions += 1
            if decisions == 3:
                shot(page, f"world-{width}x{height}-playing")
            assert decisions < 200, "a 2-nation game takes about 50 of my decisions"
        assert decisions > 10 and amounts > 0 and played > 0
        page.wait_for_selector("#end-screen:not([hidden])")
        assert page.locator(".scorecard").count() == 2
        assert page.locator(".scorecard li[data-part]").count() == 10
        layout = page.evaluate(LAYOUT)
        assert layout["scrollWidth"] <= layout["width"], f"sideways overflow: {layout}"
        shot(page, f"world-{width}x{height}-finished")
        assert serious_violations(page) == []  # axe-core on the end screen
        # the log reads back every generation
        generations = page.locator(".world-log details[data-log]")
        assert generations.count() >= 2
        generations.first.locator("summary").click()
        assert generations.first.locator("li").count() > 5
        page.click("#debrief-link")
        page.wait_for_selector(".debrief-plot svg")
        assert page.locator(".debrief-plot").count() == 5
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"world-{width}x{height}-debrief")
        assert serious_violations(page) == []
        assert not page.errors, page.errors
    finally:
        context.close()


@pytest.mark.slow  # games of 4 and 6 nations played up to their alliance step in a browser (93 s under load)
@pytest.mark.parametrize("players", [4, 6])
def test_the_table_of_4_and_6_nations_on_a_laptop(
    live_server: Server, browser: Any, players: int
) -> None:
    """Up to 4 nations the whole table is on one screen; 6 scroll inside their panel."""
    context, page = open_world(live_server, browser, 1280, 800, players)
    try:
        rng = random.Random(players)
        for decisions in range(40 if players == 4 else 8):  # 4: into generation 3
            if wait_turn_or_end(page):
                break
            check_layout(page, laptop=True, whole_boards=players <= 4)
            if decisions == 2:
                shot(page, f"world-{players}-nations-1280x800")
            decide(page, rng)
        assert page.locator(".nation-board").count() == players
        assert not page.errors, page.errors
    finally:
        context.close()


def test_axe_finds_no_serious_violation_on_the_world_page(
    live_server: Server, browser: Any
) -> None:
    context, page = open_world(live_server, browser, 1280, 800, 2)
    try:
        wait_turn_or_end(page)
        page.wait_for_selector(".world-prompt.mine")
        assert serious_violations(page) == []
        context.close()
        context, page = open_world(live_server, browser, 390, 844, 2)
        wait_turn_or_end(page)
        assert serious_violations(page) == []
    finally:
        context.close()


@needs_cards
def test_axe_finds_no_serious_violation_on_the_cards_page(
    live_server: Server, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(scaled(20_000))
    try:
        page = context.new_page()
        start_from_lobby(
            page, live_server.base, "cards", {"players": "2"}, ["me", "computer:random"], "Ada"
        )
        page.wait_for_selector(".cards-table")
        rng = random.Random(2)
        for _ in range(8):  # at the start, then after some rounds (a reveal, the scores)
            if wait_turn_or_end(page):
                break
            assert serious_violations(page) == []
            ply = page.get_attribute("body", "data-ply")
            buttons = page.locator("#actions .action-button")
            buttons.nth(rng.randrange(buttons.count())).click()
            page.wait_for_selector(f'body:not([data-ply="{ply}"])')
        assert serious_violations(page) == []
    finally:
        context.close()


CROWD = """(n) => {
  // the worst case of 4 nations late in a game: the alliance step's 9 choices (pass; to each of
  // 3 nations, per alliance, an offer or an exclusion; leave each alliance) with long labels,
  // and nation boards grown by a technology line of two lines and a permanent card
  const box = document.querySelector('.world-choices');
  const first = box.querySelector('.world-option');
  while (box.querySelectorAll('.world-option').length < n) {
    const c = first.cloneNode(true);
    c.querySelector('.option-label').textContent = 'Exclude diamond from the military alliance';
    c.querySelector('.option-preview').textContent =
      'proposes to exclude diamond from its military alliance; then square must answer';
    box.appendChild(c);
  }
  for (const b of document.querySelectorAll('.nation-board')) {
    for (const line of ['technology: Market Access, Robotization, Mass Production',
                        'permanent: Recycling.']) {
      const p = document.createElement('p'); p.textContent = line; b.appendChild(p);
    }
  }
}"""


def test_nine_choices_leave_the_4_nation_boards_whole_on_a_laptop(
    live_server: Server, browser: Any
) -> None:
    """The alliance step of 4 nations offers up to 9 choices; late in a game, with grown
    boards, 3 rows of them once pushed the boards below the panel's edge (seen in a run of
    the test above). The choices pack tighter from 9 on."""
    context, page = open_world(live_server, browser, 1280, 800, 4)
    try:
        assert not wait_turn_or_end(page)
        page.evaluate(CROWD, 9)
        assert page.locator(".world-option").count() >= 9
        check_layout(page, laptop=True, whole_boards=True)
    finally:
        context.close()
