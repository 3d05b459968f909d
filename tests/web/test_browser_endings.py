"""Every end screen in Debian's chromium, at 1280x800 and 390x844 (Playwright for Python).

hex, cards and world each played to the end against the computer (short variants, so a
test stays near a minute: hex on a board of size 3 against ``random``; cards with 2
players against ``random``; world with 2 nations and a data set ending after the first
generation, offered to this server as ``short`` with ``--world-data``), and a
resignation, an agreed draw and a time-out each ending a game of hex. Every end screen
shows the winner, the reason and the scores, and its Rematch button lies inside the
screen with the page at its top (the page is opened afresh once the game is over: no
scrolling).

Expected texts are the words modules' sentences read by hand (``hex/words.py``,
``cards/words.py``, ``world/words.py``, ``core/outcome.py``), filled with the seats'
names; scores are recomputed here by the rulebooks' arithmetic from the outcome's
details (cards: points - 2 per limit card; world: the five parts of a scorecard).
"""

# ruff: noqa: F811 - the browser fixture is test_browser.py's, used by name

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.deadlines import scaled
from tests.web.conftest import GENEROUS_LIMITS, POSTGRES_URL, Server, reset_database
from tests.web.test_browser import (  # noqa: F401 - the shared fixtures
    CHROMIUM,
    browser,
    click_hex_decision,
    shot,
    wait_turn_or_end,
)
from tests.web.test_hex_browser import Views
from tests.web.test_world_browser import decide as decide_world

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (run scripts/browser-deps.sh)"
)

SCREENS = pytest.mark.parametrize(
    ("width", "height"), [(1280, 800), (390, 844)], ids=["laptop", "phone"]
)

SHORT_WORLD = "[end]\ngenerations = 1\n"
"""A world data set whose game ends after its first generation (``docs/world.md``, data files)."""


@pytest.fixture(scope="module")
def ending_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("endings")
    short = Path(folder / "short.toml")
    short.write_text(SHORT_WORLD, encoding="utf-8")
    if POSTGRES_URL:
        reset_database(POSTGRES_URL)
        url = POSTGRES_URL
    else:
        url = f"sqlite:///{folder / 'games.sqlite3'}"
    server = Server(url, options=[*GENEROUS_LIMITS, "--world-data", f"short={short}"]).start()
    try:
        yield server
    finally:
        server.stop()


def _start(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    with httpx.Client(base_url=server.base, timeout=scaled(30)) as client:
        response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _open(browser: Any, server: Server, link: str, width: int, height: int) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(scaled(60_000))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(server.base + link)
    page.wait_for_selector("body[data-ply]")
    return context, page


def _final_view(page: Any, views: Views) -> dict[str, Any]:
    """The last view the page received (the game over)."""
    page.wait_for_selector("#end-screen:not([hidden])")
    final = views.views[-1]
    assert final["outcome"] is not None, "a finished game's view carries its outcome"
    return final


def check_end_screen(
    page: Any, width: int, height: int, title: str, winners: str, reason: str, name: str
) -> None:
    """Open the page afresh (at its top, no scrolling) and check the end screen: its title, the
    winners, the reason, a scores table, and Rematch inside the screen."""
    page.reload()
    page.wait_for_selector("#end-screen:not([hidden])")
    page.wait_for_selector("#end-rematch:not([hidden])")
    assert page.evaluate("window.scrollY") == 0
    assert page.inner_text("#end-outcome") == title
    assert page.inner_text("#end-winners") == winners
    assert page.inner_text("#end-reason") == reason
    assert page.locator("#end-scores table.end-scores tbody tr").count() >= 2
    box = page.locator("#end-rematch").bounding_box()
    assert box is not None
    inside = box["x"] >= 0 and box["y"] >= 0
    assert inside and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, (
        box,
        width,
        height,
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"{name}-end-{width}x{height}")
    assert not page.errors, page.errors


def winners_line(outcome: dict[str, Any], names: list[str]) -> str:
    """``Winner: X`` / ``Draw`` / ``Nobody won`` (the end screen's line, ``web/end_screen.py``)."""
    if not outcome["winners"]:
        return "Nobody won"
    if len(set(outcome["returns"])) <= 1:
        return "Draw"
    won = [names[s] for s in outcome["winners"]]
    if len(won) == 1:
        return f"Winner: {won[0]}"
    together = f"{', '.join(won[:-1])} and {won[-1]} share the win"
    return together[:1].upper() + together[1:]


def title_for(outcome: dict[str, Any], seat: int) -> str:
    if len(set(outcome["returns"])) <= 1:
        return "Draw"
    return "You won" if seat in outcome["winners"] else "You lost"


# --- whole games against the computer ---------------------------------------------------------
HEX_REASONS = {
    # hex/words.py end_reason, nestorgames edition, read by hand (seat 0 is "you")
    ("last_with_pawns", True): "You are the only player with pawns left and win.",
    ("last_with_pawns", False): "{winner} is the only player with pawns left and wins.",
    ("table_emptied", True): "No pawn is left on the table: you took the last turn and lose.",
    ("table_emptied", False): (
        "No pawn is left on the table: {mover}, who took the last turn, loses."
    ),
}


@pytest.mark.slow  # a whole game clicked in a browser
@SCREENS
def test_a_whole_hex_game_ends_on_its_end_screen(
    ending_server: Server, browser: Any, width: int, height: int
) -> None:
    body = {
        "game": "hex",
        "variant": {"size": 3, "colours": "fixed"},
        "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}],
        "seed": width,
    }
    game = _start(ending_server, body)
    context, page = _open(browser, ending_server, game["links"]["0"], width, height)
    try:
        views = Views(page)
        page.reload()
        rng = random.Random(width)
        for _ in range(100):
            if wait_turn_or_end(page):
                break
            click_hex_decision(page, rng)
        final = _final_view(page, views)
        outcome = final["outcome"]
        names = [p["name"] for p in final["players"]]
        termination = outcome["termination"]
        if termination == "stalemate":  # hex/words.py: the draw after turns without a removal
            quiet = outcome.get("details", {}).get("quiet_turns", 2)
            reason = (
                f"{quiet} turns in a row without a removal, as many as players still holding "
                f"pawns: a draw between {names[0]} and {names[1]}."
            )
        else:
            mine = (
                (outcome["winners"] == [0])
                if termination == "last_with_pawns"
                else (outcome["by"] == 0)
            )
            mover = names[outcome["by"]] if outcome["by"] is not None else ""
            reason = HEX_REASONS[(termination, mine)].format(
                winner=names[outcome["winners"][0]] if outcome["winners"] else "", mover=mover
            )
        reason = reason[:1].upper() + reason[1:]  # hex/words.py: a sentence begins with a capital
        check_end_screen(
            page,
            width,
            height,
            title_for(outcome, 0),
            winners_line(outcome, names),
            reason,
            "hex",
        )
        # hex counts no points: the table gives each seat's result
        rows = page.locator("#end-scores tbody tr")
        assert rows.count() == 2
        expected = ["won" if s in outcome["winners"] else "lost" for s in (0, 1)]
        if len(set(outcome["returns"])) <= 1:
            expected = ["draw", "draw"]
        assert [rows.nth(s).locator("td").inner_text() for s in (0, 1)] == expected
    finally:
        context.close()


@pytest.mark.slow  # a whole game clicked in a browser
@SCREENS
def test_a_whole_cards_game_ends_on_its_end_screen(
    ending_server: Server, browser: Any, width: int, height: int
) -> None:
    body = {
        "game": "cards",
        "variant": {"players": 2},
        "seats": [{"kind": "me", "name": "Ann"}, {"kind": "computer", "level": "random"}],
        "seed": width,
    }
    game = _start(ending_server, body)
    context, page = _open(browser, ending_server, game["links"]["0"], width, height)
    try:
        views = Views(page)
        page.reload()
        rng = random.Random(width)
        for _ in range(200):
            if wait_turn_or_end(page):
                break
            ply = page.get_attribute("body", "data-ply")
            buttons = page.locator(".action-button")
            buttons.nth(rng.randrange(buttons.count())).click()
            page.wait_for_selector(f'body:not([data-ply="{ply}"]), body[data-finished="true"]')
        final = _final_view(page, views)
        outcome = final["outcome"]
        names = [p["name"] for p in final["players"]]
        assert outcome["termination"] == "limit_cards_taken"
        details = outcome["details"]
        # rules/cards.md "End": score = points - 2 x limit cards taken; the best score wins
        scores = [int(details["points"][s]) - 2 * len(details["limit_cards"][s]) for s in (0, 1)]
        best = max(scores)
        winners = [s for s in (0, 1) if scores[s] == best]
        assert outcome["winners"] == winners
        # cards/words.py outcome_sentence, read by hand ("You" for the page's seat 0)
        table = ", ".join(f"{names[s]} {scores[s]:+d}" for s in (0, 1))
        if len(winners) == 2:
            head = f"{names[0]} and {names[1]} share the win with {best:+d}"
        elif winners == [0]:
            head = f"You win with {best:+d}"
        else:
            head = f"{names[1]} wins with {best:+d}"
        reason = f"The last limit card has been taken. {head} (scores: {table})"
        check_end_screen(
            page,
            width,
            height,
            title_for(outcome, 0),
            winners_line(outcome, names),
            reason,
            "cards",
        )
        for seat in (0, 1):  # points, limit cards taken, score
            cells = page.locator("#end-scores tbody tr").nth(seat).locator("td")
            assert [cells.nth(i).inner_text() for i in range(3)] == [
                str(details["points"][seat]),
                str(len(details["limit_cards"][seat])),
                f"{scores[seat]:+d}",
            ]
        assert page.locator("#end-scores .end-rounds li").count() == len(details["rounds"]) > 0
    finally:
        context.close()


@pytest.mark.slow  # a whole game clicked in a browser
@SCREENS
def test_a_whole_short_world_game_ends_on_its_end_screen(
    ending_server: Server, browser: Any, width: int, height: int
) -> None:
    body = {
        "game": "world",
        "variant": {"players": 2, "data": "short"},
        "seats": [{"kind": "me", "name": "Ada"}, {"kind": "computer", "level": "easy"}],
        "seed": 11,
    }
    game = _start(ending_server, body)
    context, page = _open(browser, ending_server, game["links"]["0"], width, height)
    try:
        views = Views(page)
        page.reload()
        rng = random.Random(width)
        for _ in range(60):
            if wait_turn_or_end(page):
                break
            decide_world(page, rng)
        final = _final_view(page, views)
        outcome = final["outcome"]
        assert outcome["termination"] == "seventh_generation"  # the data set's last generation
        cards = outcome["details"]["scorecards"]
        parts = ("happiness", "financial", "territory", "military", "impact")
        # each nation's total is the sum of its scorecard's five parts (rulebook p23)
        totals = [sum(int(card[p]) for p in parts) for card in cards]
        assert totals == [int(x) for x in outcome["scores"]]
        rows = page.locator("#end-scores tbody tr")
        assert rows.count() == 2
        for seat in (0, 1):
            cells = rows.nth(seat).locator("td")
            assert cells.nth(cells.count() - 1).inner_text() == str(totals[seat])
        reason = page.inner_text("#end-reason")
        # world/words.py: the reason, then the result with every score
        assert reason.startswith(
            "The seventh generation is over; after the stress test, the nations are scored."
        )
        assert all(f" {t}" in reason for t in totals)
        names = [p["name"] for p in final["players"]]
        check_end_screen(
            page,
            width,
            height,
            title_for(outcome, 0),
            winners_line(outcome, names),
            reason,
            "world",
        )
    finally:
        context.close()


# --- endings at the table -----------------------------------------------------------------------
def _hex_two_people(server: Server) -> dict[str, Any]:
    return _start(
        server,
        {
            "game": "hex",
            "variant": {"size": 4},
            "seats": [{"kind": "me", "name": "Ann"}, {"kind": "friend", "name": "Bob"}],
        },
    )


@SCREENS
def test_a_resignation_ends_the_game(
    ending_server: Server, browser: Any, width: int, height: int
) -> None:
    game = _start(
        ending_server,
        {
            "game": "hex",
            "variant": {"size": 4},
            "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}],
        },
    )
    context, page = _open(browser, ending_server, game["links"]["0"], width, height)
    try:
        views = Views(page)
        page.reload()
        page.wait_for_selector("#resign-button")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign-button")
        final = _final_view(page, views)
        names = [p["name"] for p in final["players"]]
        # core/outcome.py ending_at_table, told to the one who resigned
        check_end_screen(
            page,
            width,
            height,
            "You lost",
            f"Winner: {names[1]}",
            f"You resigned: {names[1]} wins.",
            "resigned",
        )
        rows = page.locator("#end-scores tbody tr")
        assert [rows.nth(s).locator("td").inner_text() for s in (0, 1)] == ["lost", "won"]
    finally:
        context.close()


@SCREENS
def test_an_agreed_draw_ends_the_game(
    ending_server: Server, browser: Any, width: int, height: int
) -> None:
    game = _hex_two_people(ending_server)
    ann_context, ann = _open(browser, ending_server, game["links"]["0"], width, height)
    bob_context, bob = _open(browser, ending_server, game["links"]["1"], width, height)
    try:
        ann.click("#offer-draw")
        bob.click("#accept-draw")
        for page in (ann, bob):
            page.wait_for_selector("#end-screen:not([hidden])")
            # core/outcome.py ending_at_table: an agreed draw
            check_end_screen(
                page, width, height, "Draw", "Draw", "The players agreed to a draw.", "draw"
            )
            rows = page.locator("#end-scores tbody tr")
            assert [rows.nth(s).locator("td").inner_text() for s in (0, 1)] == ["draw", "draw"]
    finally:
        ann_context.close()
        bob_context.close()


@SCREENS
def test_a_time_out_ends_the_game(
    ending_server: Server, browser: Any, width: int, height: int
) -> None:
    # started from the lobby: a clock of 2 s per move, and a player whose time runs out loses
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(scaled(60_000))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    try:
        views = Views(page)
        page.goto(ending_server.base + "/")
        page.wait_for_selector("#game-select option", state="attached")
        page.select_option("#game-select", "hex")
        page.locator('#variant-fields [name="size"]').fill("4")
        page.locator('#variant-fields [name="size"]').dispatch_event("change")
        page.select_option('#seat-fields select[name="seat-0"]', "me")
        page.select_option('#seat-fields select[name="seat-1"]', "computer:random")
        page.select_option("#clock-kind", "move")
        page.fill("#clock-seconds", "2")
        page.check("#clock-forfeit")
        page.click("#start-button")
        page.wait_for_url("**/games/**")
        game_id = page.url.split("/games/", 1)[1].split("#", 1)[0]
        # my seat moves first (hex: seat 0) and does not: its 2 s run out and it loses
        final = _final_view(page, views)
        names = [p["name"] for p in final["players"]]
        assert final["outcome"]["termination"] == "time_forfeit"
        check_end_screen(
            page,
            width,
            height,
            "You lost",
            f"Winner: {names[1]}",
            f"Your clock ran out: {names[1]} wins.",
            "time-out",
        )
        # the record says so too (and replays: tests/web/test_end_screen.py)
        with httpx.Client(base_url=ending_server.base, timeout=scaled(30)) as client:
            record = client.get(f"/games/{game_id}/record.json").json()
        assert record["outcome"]["termination"] == "time_forfeit"
        assert json.dumps(record["result"]) == "[-1.0, 1.0]"
    finally:
        context.close()
