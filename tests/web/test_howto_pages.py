"""The how-to-play pages in the browser: ``GET /howto/{game}`` in the reader's language, with
the diagrams the package ships, linked from the lobby and every game page."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def _get(client: TestClient, path: str, cookie: str = "") -> str:
    headers = {"Cookie": f"limit_language={cookie}"} if cookie else {}
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.text


def test_each_game_has_its_page_in_the_readers_language(client: TestClient) -> None:
    titles = {
        ("hex", "en"): "How to play Limit",
        ("hex", "de"): "So spielt man Limit",
        ("cards", "fr"): "Comment jouer à Limits",
        ("world", "es"): "Cómo se juega a LIMIT",
    }
    for (game, language), title in titles.items():
        page = _get(client, f"/howto/{game}", cookie=language)
        assert f"<h1>{title}</h1>" in page, (game, language)
        assert f'href="/rules/{game}"' in page  # the docs' link to the full rules, for the web
    english = _get(client, "/howto/cards?language=en", cookie="de")
    assert "<h1>How to play Limits</h1>" in english


def test_the_diagrams_are_served_and_each_language_shows_its_own(client: TestClient) -> None:
    german = _get(client, "/howto/world", cookie="de")
    images = re.findall(r'<img src="([^"]+)"', german)
    assert images == ["/static/howto/world-generation.de.svg"]
    hex_page = _get(client, "/howto/hex", cookie="fr")
    shown = re.findall(r'<img src="([^"]+)"', hex_page)
    assert shown == [f"/static/howto/hex-{n}.svg" for n in ("move", "capture", "removal")]
    for path in images + shown:
        answer = client.get(path)
        assert answer.status_code == 200 and answer.text.startswith("<svg"), path


def test_an_unknown_game_is_a_404_and_names_no_file(client: TestClient) -> None:
    answer = client.get("/howto/..%2Fsecrets")
    assert answer.status_code == 404
    answer = client.get("/howto/chess")
    assert answer.status_code == 404 and "chess" in answer.text


def test_the_lobby_links_each_games_how_to_play(client: TestClient) -> None:
    lobby = _get(client, "/", cookie="en")
    for game in ("hex", "cards", "world"):
        assert f'href="/howto/{game}"' in lobby
