"""The language switch in real Chromium (Playwright), and the pages after their scripts ran.

The browser's own language (``Accept-Language``, from the context's locale)
picks the first page's language; the switch on every page changes it, and
the cookie keeps it for the next page. The game page is then compared with
the same page in English once its scripts have drawn it: a string that a
script shows without ``t()`` is the same in both and fails the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.deadlines import scaled
from tests.web.conftest import Server, new_game
from tests.web.test_browser import (  # noqa: F401 - the shared fixtures
    CHROMIUM,
    browser,
    live_server,
    shot,
    start_from_lobby,
)
from tests.web.test_languages import assert_translated

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (run scripts/browser-deps.sh)"
)


@pytest.fixture
def french_browser(browser: Any) -> Iterator[Any]:  # noqa: F811 - the shared fixture
    """A browser context whose person reads French first (``Accept-Language: fr-FR``)."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, locale="fr-FR")
    ctx.set_default_timeout(scaled(60_000))
    try:
        yield ctx
    finally:
        ctx.close()


def _watch(browser: Any, url: str, locale: str) -> tuple[Any, str]:  # noqa: F811
    """A spectator's page of ``url`` in a fresh context reading ``locale``; its drawn HTML."""
    ctx = browser.new_context(locale=locale)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ply] #board .board")
    return ctx, page.content()


def test_the_language_switch(live_server: Server, french_browser: Any, browser: Any) -> None:  # noqa: F811
    page = french_browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_server.base + "/")
    # the browser asks for French: the server's words and the scripts' words are French
    page.wait_for_selector('html[lang="fr"]')
    assert page.inner_text("#new-game h1") == "Nouvelle partie"
    page.wait_for_selector("#seat-fields legend")
    assert page.inner_text("#seat-fields legend") == "Places"
    assert page.locator("#language-button").is_hidden()  # the select submits by itself
    # the switch: German, on the same page
    page.select_option("#language-select", "de")
    page.wait_for_selector('html[lang="de"]')
    assert page.url.rstrip("/") == live_server.base
    assert page.inner_text("#new-game h1") == "Neue Partie"
    page.wait_for_selector("#seat-fields select")
    assert page.locator('#seat-fields option[value="friend"]').first.inner_text() == (
        "ein Freund (Einladungslink)"
    )
    shot(page, "lobby-german")
    # a game from the lobby, in German: the server's status and the scripts' words
    start_from_lobby(page, live_server.base, "hex", {"size": "3"}, ["me", "computer:random"])
    page.wait_for_selector('html[lang="de"]')
    page.wait_for_selector("#me:has-text('Du spielst')")
    status = page.inner_text("#status") + page.inner_text("#result")
    assert "ist am Zug" in status or "Partie zu Ende" in status, status
    assert page.inner_text("#chat-title") == "Tischchat (nur Spieler)"
    shot(page, "hex-german")
    # the cookie keeps German for the next page, whatever the browser asks for
    other = french_browser.new_page()
    other.goto(live_server.base + "/rules/hex")
    other.wait_for_selector('html[lang="de"]')
    # and the switch on the game page brings the person back to the same game, in Spanish
    game_url = page.url
    page.select_option("#language-select", "es")
    page.wait_for_selector('html[lang="es"]')
    assert page.url == game_url
    page.wait_for_selector("#me:has-text('Juegas con')")
    assert not errors, errors


def test_a_drawn_game_page_has_no_english_left(live_server: Server, browser: Any) -> None:  # noqa: F811
    import httpx

    with httpx.Client(base_url=live_server.base, timeout=scaled(60)) as http:
        answer = new_game(
            http,
            "cards",
            [{"kind": "me", "name": "Ada"}, {"kind": "me"}],
            {"players": 2},
            seed=None,
        )
    url = live_server.base + answer["url"]
    contexts = []
    try:
        english_context, english = _watch(browser, url, "en-GB")
        contexts.append(english_context)
        for locale, language in (("de-DE", "de"), ("fr-FR", "fr"), ("es-ES", "es")):
            ctx, translated = _watch(browser, url, locale)
            contexts.append(ctx)
            assert f'lang="{language}"' in translated
            assert_translated(
                english,
                translated,
                language,
                "the cards page after its scripts",
                frozenset({"Ada"}),
            )
    finally:
        for ctx in contexts:
            ctx.close()


def test_computer_seats_read_in_german_in_the_lobby_and_the_game(
    live_server: Server,  # noqa: F811 - the shared fixture
    browser: Any,  # noqa: F811
) -> None:
    """A computer seat's level is a word of the page's language wherever a seat is listed: the
    lobby's open games and the game page's players (German by hand: "Computer (leicht)")."""
    import httpx

    with httpx.Client(base_url=live_server.base, timeout=scaled(60)) as http:
        answer = new_game(
            http, "hex", [{"kind": "open"}, {"kind": "computer", "level": "easy"}], {"size": 3}
        )
    ctx = browser.new_context(locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(live_server.base + "/")
        item = page.locator(f'#seats-open li[data-game-id="{answer["id"]}"]')
        item.wait_for()
        listed = item.inner_text()
        assert "Computer (leicht)" in listed, listed
        assert "easy" not in listed and "computer" not in listed, listed
        page.goto(live_server.base + answer["url"])
        page.wait_for_selector("#players li")
        players = page.inner_text("#players")
        assert "Computer (leicht)" in players, players
        assert "easy" not in players, players
    finally:
        ctx.close()
