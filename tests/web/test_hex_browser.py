"""The hex page in Debian's chromium: whole games by clicks on a laptop and a phone screen,
by keyboard alone, and axe-core's accessibility check (Playwright for Python).

My side prefers, among the legal decisions, one that captures (judged by the
engine in this process from the position the page was sent), so the games
meet captures and their announcements; the computer plays at random.
Screenshots go to ``artifacts/screenshots/``.
"""

# ruff: noqa: F811 - the server and browser fixtures are test_browser.py's, used by name

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from limitgames.core import get_game
from limitgames.hex.state import HexState
from tests.deadlines import scaled
from tests.web.conftest import Server
from tests.web.test_browser import (  # noqa: F401 - the shared fixtures
    CHROMIUM,
    browser,
    live_server,
    shot,
    start_from_lobby,
    wait_turn_or_end,
)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (run scripts/browser-deps.sh)"
)


class Views:
    """The view messages a page received over its websocket, newest last."""

    def __init__(self, page: Any) -> None:
        self.views: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: Any) -> None:
        if isinstance(payload, str) and payload.startswith('{"type": "view"'):
            self.views.append(json.loads(payload))

    def at(self, ply: int) -> dict[str, Any]:
        return next(v for v in reversed(self.views) if v["ply"] == ply)


def capturing_first(view: dict[str, Any], rng: random.Random) -> str:
    """A legal decision of the view, one that captures if there is any (asked of the engine)."""
    state = get_game("hex").state_from_position(view["observation"])
    assert isinstance(state, HexState)
    legal = list(view["legal"])
    rng.shuffle(legal)
    for text in legal:
        after = state.clone()
        after.apply(state.parse_action(text))
        if after.last_captured():
            return text
    return legal[0]


def assert_fits(page: Any, width: int, height: int) -> None:
    """Nothing overflows sideways, the page is not scrolled, and the tiles to click are on screen."""
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"the page is {scroll_width} px wide on a {width} px screen"
    assert page.evaluate("window.scrollY") == 0
    for box in page.eval_on_selector_all(
        ".tile.movable, .tile.removable, .tile.placeable",
        "nodes => nodes.map(n => { const b = n.getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom]; })",
    ):
        left, top, right, bottom = box
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (box, width, height)


def click_decision(page: Any, text: str, see_slide: bool = False) -> None:
    ply = page.get_attribute("body", "data-ply")
    if "-" in text:
        start, end = text.split("-")
        page.click(f'.tile[data-cell="{start}"]')
        page.click(f'.tile.reachable[data-cell="{end}"]')
        if see_slide:  # the pawn slides over the board still shown before the new one is drawn
            page.wait_for_selector(
                f'.tile[data-cell="{start}"] .pawn.sliding', timeout=scaled(3000)
            )
    else:
        page.click(f'.tile[data-cell="{text.removeprefix("x").strip()}"]')
    page.wait_for_selector(f'body:not([data-ply="{ply}"]), body[data-finished="true"]')


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_a_whole_hex_game_by_clicks(
    live_server: Server, browser: Any, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(scaled(60_000))
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        views = Views(page)
        page.goto(live_server.base + "/")
        page.wait_for_selector("#game-select option", state="attached")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, "the lobby"
        start_from_lobby(
            page,
            live_server.base,
            "hex",
            {"size": "3", "colours": "fixed"},
            ["me", "computer:random"],
        )
        rng = random.Random(width)
        told: list[str] = []
        decisions = 0
        while not wait_turn_or_end(page):
            assert_fits(page, width, height)
            ply = int(page.get_attribute("body", "data-ply") or "0")
            last = views.at(ply)["last"]
            if last and last["from"]:  # the last move's two tiles are ringed (if still there)
                cells = set(page.eval_on_selector_all(".tile", "ns => ns.map(n => n.dataset.cell)"))
                ringed = page.eval_on_selector_all(
                    ".tile:has(.last-ring)", "ns => ns.map(n => n.dataset.cell)"
                )
                assert sorted(ringed) == sorted({last["from"], last["to"]} & cells)
                assert last["to"] not in cells or page.locator(".tile.last-to").count() == 1
            click_decision(page, capturing_first(views.at(ply), rng), see_slide=decisions == 0)
            told.append(page.inner_text("#announcements"))
            decisions += 1
            if decisions == 3:
                shot(page, f"hex-clicks-{width}x{height}")
            assert decisions < 100
        page.wait_for_selector("#end-screen:not([hidden])")
        # the announcements: a capture by either side was told in words on the page
        page_text = " ".join(told) + page.inner_text("#announcements")
        captures = [
            line
            for v in views.views
            for line in v.get("announcements") or []
            if " captured " in line or "self-capture" in line
        ]
        assert captures, "no capture in the whole game (my side prefers capturing decisions)"
        assert any(line in page_text for line in captures), (captures, told)
        # the end screen: my result, the reason as the engine gives it, replay and download
        final = views.views[-1]
        outcome = page.inner_text("#end-outcome")
        assert outcome == {1.0: "You won", 0.0: "Draw", -1.0: "You lost"}[final["returns"][0]]
        assert page.inner_text("#end-reason") == final["end_screen"]["reason"] != ""
        assert page.locator("#end-screen a", has_text="Replay").is_visible()
        assert page.locator("#end-screen a[download]", has_text="Download").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        end_box = page.locator("#end-screen").bounding_box()
        assert end_box is not None and end_box["y"] + end_box["height"] <= height
        shot(page, f"hex-end-{width}x{height}")
        assert not errors, errors
    finally:
        context.close()


def tab_to(page: Any, selector: str, limit: int = 60) -> None:
    """Press Tab until the element matching ``selector`` has the focus."""
    for _ in range(limit):
        if page.evaluate(f"document.activeElement.matches({json.dumps(selector)})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def arrows_to(page: Any, selector: str, limit: int = 80) -> None:
    """Move the board's focus ring with the arrow keys onto a tile matching ``selector``:
    towards it, or a random arrow when that leads back to a tile already seen."""
    rng = random.Random(0)
    seen: set[str] = set()
    for _ in range(limit):
        if page.evaluate(f"document.activeElement.matches({json.dumps(selector)})"):
            return
        cell = page.evaluate("document.activeElement.dataset.cell")
        if cell in seen:
            page.keyboard.press(rng.choice(["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown"]))
            continue
        seen.add(cell)
        dx, dy = page.evaluate(
            """sel => {
              const at = g => g.getAttribute("transform").match(/[-\\d.]+/g).map(Number);
              const [x, y] = at(document.activeElement);
              const [tx, ty] = at(document.querySelector(sel));
              return [tx - x, ty - y];
            }""",
            selector,
        )
        if abs(dx) >= abs(dy):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    raise AssertionError(f"the arrow keys never reached {selector}")


def test_a_hex_game_by_keyboard_alone(live_server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(scaled(60_000))
    try:
        page = context.new_page()
        views = Views(page)
        start_from_lobby(
            page,
            live_server.base,
            "hex",
            {"size": "3", "colours": "fixed"},
            ["me", "computer:random"],
        )
        wait_turn_or_end(page)
        # a refused move: the engine's reason is shown, the game goes on
        tiles = views.at(0)["observation"]["tiles"]
        blue = next(t["name"] for t in tiles if t["pawn"] == 1)
        empty = next(t["name"] for t in tiles if t["pawn"] is None)
        tab_to(page, "#action-input")
        page.keyboard.type(f"{blue}-{empty}")
        page.keyboard.press("Enter")
        page.wait_for_selector("#flash:not(:empty)")
        assert page.inner_text("#flash") == (
            f"illegal action {blue}-{empty}: there is no red pawn on {blue}"
        )
        assert page.get_attribute("body", "data-ply") == "0"
        # the first move with the arrow keys and Enter: a pawn, then one of its destinations
        tab_to(page, ".hex-board g.tile")
        arrows_to(page, ".tile.movable")
        page.keyboard.press("Enter")
        page.wait_for_selector(".tile.selected")
        arrows_to(page, ".tile.reachable")
        page.keyboard.press("Enter")
        page.wait_for_selector('body[data-ply="1"]')
        rng = random.Random(2)
        decisions = 1
        while not wait_turn_or_end(page):
            ply = int(page.get_attribute("body", "data-ply") or "0")
            tab_to(page, "#action-input")
            page.keyboard.type(capturing_first(views.at(ply), rng))
            page.keyboard.press("Enter")
            page.wait_for_selector(f'body:not([data-ply="{ply}"]), body[data-finished="true"]')
            decisions += 1
            assert decisions < 100
        page.wait_for_selector("#end-screen:not([hidden])")
        assert page.inner_text("#end-outcome") in {"You won", "You lost", "Draw"}
        tab_to(page, "#end-screen a")
        shot(page, "hex-keyboard-end")
    finally:
        context.close()


def serious_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} -- {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_axe_finds_no_serious_violation_on_the_lobby_and_the_hex_page(
    live_server: Server, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(scaled(60_000))
    try:
        page = context.new_page()
        page.goto(live_server.base + "/")
        page.wait_for_selector("#game-select option", state="attached")
        assert serious_violations(page) == []
        start_from_lobby(
            page,
            live_server.base,
            "hex",
            {"size": "3", "colours": "fixed"},
            ["me", "computer:random"],
        )
        page.wait_for_selector(".tile.movable")
        assert serious_violations(page) == []
        page.click(".tile.movable")
        page.wait_for_selector(".tile.reachable")
        assert serious_violations(page) == []
        # the check can fail: grey on grey is a serious colour-contrast violation
        page.set_content(
            '<html lang="en"><title>t</title><p style="color:#777;background:#888">low</p>'
        )
        assert any(v.startswith("color-contrast") for v in serious_violations(page))
    finally:
        context.close()
