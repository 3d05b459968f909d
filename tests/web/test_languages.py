"""The browser app in German, French and Spanish: pages, views, reveals and end screens.

The check that no English is left does not rely on a list of known strings:
each page and view is drawn once in English and once in the other language
(the same game, the same seat, the same moment), and every piece of text a
player reads (text nodes, ``title``, ``placeholder``, ``aria-label``) that
comes out the same in both must be one whose translation is the English word
itself (``Chat``), or data (names, cell names, game titles). A string that
was never wrapped in ``_()`` comes out the same, so the test fails on it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from limitgames.core import get_game
from limitgames.translation import LANGUAGE_NAMES, gettext, translations, using
from limitgames.web.app import LANGUAGE_COOKIE, client_language, create_app, safe_next
from limitgames.web.limits import ServerLimits
from tests.web.conftest import new_game, receive_until
from tests.web.page_text import page_pieces

OTHERS = ("de", "fr", "es")


def words(html: str) -> set[str]:
    """The readable pieces of ``html`` that hold a word (three letters in a row)."""
    pieces = {" ".join(p.split()) for p in page_pieces(html)}
    return {p for p in pieces if re.search(r"[^\W\d_]{3}", p)}


def same_in_both(language: str) -> set[str]:
    """The messages whose translation in ``language`` is the English text itself, and data
    that is never translated: language names, the brand, game titles."""
    same = {str(key) for key, value in translations(language)._catalog.items() if key == value}  # type: ignore[attr-defined]
    same |= set(LANGUAGE_NAMES.values()) | {"limitgames"}
    for game in ("hex", "cards", "world", "toy-nim", "toy-secret"):
        title = get_game(game).info.title
        same |= {title, f"{title} ({game})"}
    return same


def assert_translated(
    english: str, translated: str, language: str, where: str, names: frozenset[str] = frozenset()
) -> None:
    """Every piece of text of ``translated`` that is also in ``english`` is a word that is
    the same in both languages, a player's ``names``, or a cell name or a number."""
    left = words(english) & words(translated)
    left -= same_in_both(language) | names
    left = {piece for piece in left if not re.fullmatch(r"[a-z]+\d+|\d.*", piece)}
    assert not left, f"{where} in {language}: still in English: {sorted(left)}"


def _page(client: TestClient, path: str, language: str) -> str:
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200, response.text
    assert f'<html lang="{language}">' in response.text
    assert response.headers["content-language"] == language
    return response.text


@pytest.mark.parametrize("language", OTHERS)
def test_the_lobby_in_each_language(client: TestClient, language: str) -> None:
    english, translated = _page(client, "/", "en"), _page(client, "/", language)
    assert_translated(english, translated, language, "the lobby")
    with using(language):
        assert gettext("New game") in translated
    assert f'src="/catalogue/{language}.js"' in translated


def _view(client: TestClient, url: str, tokens: dict[str, str], language: str) -> dict[str, Any]:
    """The view of a person playing every seat, in ``language`` (its tokens may be renewed)."""
    with client.websocket_connect(f"{url}/ws", headers={"Accept-Language": language}) as ws:
        seats = [{"seat": int(s), "token": t} for s, t in tokens.items()]
        ws.send_json({"type": "hello", "seats": seats})
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        tokens.update(welcome.get("tokens") or {})
        view: dict[str, Any] = receive_until(
            ws, lambda m: m["type"] == "view" and len(m["seats"]) == len(tokens)
        )
    return view


def _act(client: TestClient, url: str, tokens: dict[str, str], choose: Any) -> dict[str, Any]:
    """Take one decision (``choose(legal)``) for whichever seat is to move; the next view."""
    with client.websocket_connect(f"{url}/ws") as ws:
        ws.send_json(
            {"type": "hello", "seats": [{"seat": int(s), "token": t} for s, t in tokens.items()]}
        )
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        tokens.update(welcome.get("tokens") or {})
        view = receive_until(ws, lambda m: m["type"] == "view" and len(m["seats"]) == len(tokens))
        ws.send_json({"type": "act", "action": choose(view["legal"]), "ply": view["ply"]})
        after: dict[str, Any] = receive_until(
            ws, lambda m: m["type"] == "view" and m["ply"] > view["ply"]
        )
    return after


def _readable(view: dict[str, Any]) -> str:
    """Everything a view gives the page to show, as HTML."""
    ending = view.get("end_screen") or {}
    lines = [view["status"], *view.get("announcements", []), *ending.values()]
    return view["board"] + view["side"] + "".join(f"<p>{line}</p>" for line in lines)


def test_a_hex_game_to_its_end_screen_in_each_language(client: TestClient) -> None:
    answer = new_game(
        client, "hex", [{"kind": "me"}, {"kind": "friend"}], {"size": 3, "players": 2}
    )
    url, tokens = answer["url"], dict(answer["tokens"])
    for language in OTHERS:
        page_en, page = _page(client, url, "en"), _page(client, url, language)
        assert_translated(page_en, page, language, "the hex page")
    # the first decision: a move, with its announcement
    _act(client, url, tokens, lambda legal: legal[0])
    for language in OTHERS:
        english, view = _view(client, url, tokens, "en"), _view(client, url, tokens, language)
        assert english["announcements"] and view["announcements"]
        assert view["announcements"] != english["announcements"]
        assert_translated(_readable(english), _readable(view), language, "a hex view")
    for _ in range(200):
        if _view(client, url, tokens, "en")["finished"]:
            break
        _act(client, url, tokens, lambda legal: legal[-1])
    english = _view(client, url, tokens, "en")
    assert english["finished"] and english["end_screen"]["reason"]
    for language in OTHERS:
        view = _view(client, url, tokens, language)
        assert view["end_screen"]["reason"] != english["end_screen"]["reason"]
        assert view["status"] != english["status"]
        assert_translated(_readable(english), _readable(view), language, "the hex end screen")


def test_a_cards_reveal_in_each_language(client: TestClient) -> None:
    answer = new_game(
        client,
        "cards",
        [{"kind": "me", "name": "Ada"}, {"kind": "friend"}],
        {"players": 2},
        seed=None,
    )
    url, tokens = answer["url"], dict(answer["tokens"])
    for language in OTHERS:
        page_en, page = _page(client, url, "en"), _page(client, url, language)
        assert_translated(page_en, page, language, "the cards page")
    view = _view(client, url, tokens, "en")
    for _ in range(60):  # hide, play, then suspect as soon as it is allowed: a reveal
        if view.get("observation", {}).get("rounds"):
            break
        view = _act(
            client,
            url,
            tokens,
            lambda legal: next((a for a in legal if a.startswith("suspect")), legal[0]),
        )
    english = _view(client, url, tokens, "en")
    assert "revealed" in english["board"] and "suspects" in english["board"]
    for language in OTHERS:
        view = _view(client, url, tokens, language)
        assert_translated(
            _readable(english), _readable(view), language, "a cards reveal", frozenset({"Ada"})
        )
    with using("de"):
        german = _view(client, url, tokens, "de")
        assert "Limitkarte" in german["board"] + german["side"]
    french = _view(client, url, tokens, "fr")
    assert "carte Limite" in french["board"] + french["side"]


def test_the_language_switch_remembers_the_choice(client: TestClient) -> None:
    answer = client.post(
        "/language",
        content="language=fr&next=%2Frules%2Fhex",
        headers={"Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "de"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == "/rules/hex"
    assert answer.cookies.get(LANGUAGE_COOKIE) == "fr"
    # the cookie wins over the browser's Accept-Language
    page = client.get("/", headers={"Accept-Language": "de"})
    assert '<html lang="fr">' in page.text
    # anything else than a known code is English; never a path from the client
    client.post(
        "/language",
        content="language=..%2F..%2Fetc&next=https%3A%2F%2Fevil.example",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    assert '<html lang="en">' in client.get("/").text


def test_the_browser_catalogue_is_one_of_the_known_languages(client: TestClient) -> None:
    german = client.get("/catalogue/de.js")
    assert german.status_code == 200
    assert german.headers["content-type"].startswith("text/javascript")
    assert '"Rematch": "Revanche"' in german.text
    for odd in ("xx", "..%2F..%2Fetc%2Fpasswd", "DE"):
        answer = client.get(f"/catalogue/{odd}.js")
        assert answer.status_code in (200, 404)
        assert "Revanche" not in answer.text


@pytest.mark.parametrize(
    ("cookie", "header", "expected"),
    [
        ("es", "de-DE,de;q=0.9", "es"),
        (None, "de-DE,de;q=0.9", "de"),
        ("xx", "fr", "fr"),
        (None, None, "en"),
        (None, "ja", "en"),
    ],
)
def test_client_language(cookie: str | None, header: str | None, expected: str) -> None:
    assert client_language(cookie, header) == expected


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        ("/games/abc", "/games/abc"),
        ("//evil.example/x", "/"),
        ("https://evil.example", "/"),
        ("/\\evil", "/"),
        ("games", "/"),
        (None, "/"),
    ],
)
def test_the_switch_goes_back_only_to_this_site(asked: str | None, expected: str) -> None:
    assert safe_next(asked) == expected


def test_the_engines_words_shown_in_the_lobby_are_in_the_catalogue(client: TestClient) -> None:
    """Every description, parameter label, help and choice label and every level the lobby
    shows is in the catalogue template (Babel extracts the games' declarations, marked ``N_``,
    and ``web/engine_words.py``) and reaches the page translated."""
    from babel.messages.pofile import read_po

    from limitgames.translation import LOCALE_DIR

    with (LOCALE_DIR / "messages.pot").open("rb") as handle:
        listed = {message.id for message in read_po(handle) if isinstance(message.id, str)}
    english = client.get("/api/catalog", headers={"Accept-Language": "en"}).json()
    shown = set()
    for game in english:
        if game["id"].startswith("toy-"):
            continue
        shown |= {game["description"], *game["levels"]}
        for p in game["parameters"]:
            shown |= {p["label"], p["help"], *(p["choice_labels"] or [])}
    missing = shown - listed
    assert not missing, f"mark with N_ and run scripts/translations.sh: {sorted(missing)}"
    german = client.get("/api/catalog", headers={"Accept-Language": "de"}).json()
    for before, after in zip(english, german, strict=True):
        if not before["id"].startswith("toy-"):
            assert after["description"] != before["description"]
            for p, q in zip(before["parameters"], after["parameters"], strict=True):
                assert q["help"] != p["help"], p["name"]
                assert q["label"] != p["label"], p["name"]


def test_one_broadcast_reaches_each_viewer_in_their_language(client: TestClient) -> None:
    """Views are computed once per set of seats and language: a German and a French spectator
    of the same game get the same decision told in their own words."""
    answer = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], {"size": 3})
    url, tokens = answer["url"], dict(answer["tokens"])
    with (
        client.websocket_connect(f"{url}/ws", headers={"Accept-Language": "de"}) as german,
        client.websocket_connect(f"{url}/ws", headers={"Accept-Language": "fr-FR"}) as french,
    ):
        for ws in (german, french):
            receive_until(ws, lambda m: m["type"] == "view")
        _act(client, url, tokens, lambda legal: legal[0])
        told = {
            language: receive_until(ws, lambda m: m["type"] == "view" and m["ply"] == 1)
            for language, ws in (("de", german), ("fr", french))
        }
    with using("de"):
        assert " zog von " in " ".join(told["de"]["announcements"])
    assert " a déplacé un pion de " in " ".join(told["fr"]["announcements"])
    assert told["de"]["board"] != told["fr"]["board"]  # the pawns' titles: "Figur von ..."


# --- the server's refusals, in the language of whoever is refused --------------------------------
def test_a_refusal_over_the_websocket_in_french(db_url: str) -> None:
    """A viewer turned away by the per-game cap reads why in French, and a malformed message
    gets a French error (the reason's first words; pydantic's own detail stays English)."""
    app = create_app(db_url, move_seconds=5.0, limits=ServerLimits(connections_per_game=1))
    with TestClient(app) as client:
        game = new_game(client, "toy-nim", [{"kind": "me"}] * 2)
        with client.websocket_connect(f"{game['url']}/ws") as first:
            receive_until(first, lambda m: m["type"] == "view")
            first.send_json({"type": "act"})  # no action: refused in English (no language asked)
            assert receive_until(first, lambda m: m["type"] == "error")["message"].startswith(
                "bad message: "
            )
            with client.websocket_connect(
                f"{game['url']}/ws", headers={"Accept-Language": "fr-FR,fr;q=0.9"}
            ) as second:
                refusal = second.receive_json()
    assert refusal == {
        "type": "error",
        # written by hand from the English "this game has as many viewers as this server
        # allows (1): try again later", in the catalogues' French ("vous")
        "message": "cette partie a autant de spectateurs que ce serveur le permet (1) : "
        "réessayez plus tard",
    }
    with TestClient(app) as client:
        game = new_game(client, "toy-nim", [{"kind": "me"}] * 2)
        with client.websocket_connect(f"{game['url']}/ws", headers={"Accept-Language": "fr"}) as ws:
            receive_until(ws, lambda m: m["type"] == "view")
            ws.send_json({"type": "act"})
            error = receive_until(ws, lambda m: m["type"] == "error")["message"]
            ws.send_bytes(b"{}")
            frames = receive_until(ws, lambda m: m["type"] == "error")["message"]
    assert error.startswith("message incorrect : ")
    assert frames == "envoyez du JSON en trames texte"


@pytest.mark.parametrize(
    ("body", "status", "german"),
    [
        # hex has two or three seats; three filled for a two-player variant
        (
            {"game": "hex", "variant": {"players": 2}, "seats": [{"kind": "me"}] * 3},
            400,
            "diese Partie hat 2 Plätze, aber 3 wurden besetzt",
        ),
        (
            {
                "game": "hex",
                "seats": [{"kind": "me"}, {"kind": "computer", "level": "grandmaster"}],
            },
            400,
            "unbekannte Computerstufe 'grandmaster' (bekannt: random, easy, medium, hard, expert)",
        ),
    ],
)
def test_the_lobby_refusals_in_german(
    client: TestClient, body: dict[str, Any], status: int, german: str
) -> None:
    answer = client.post("/api/games", json=body, headers={"Accept-Language": "de-DE"})
    assert answer.status_code == status
    assert answer.json()["detail"] == german


def test_a_body_too_large_and_not_json_in_spanish(client: TestClient) -> None:
    headers = {"Accept-Language": "es", "Content-Type": "application/json"}
    answer = client.post("/api/games", content=b"{", headers=headers)
    assert answer.status_code == 422
    assert answer.json()["detail"] == "el cuerpo de la petición no es JSON válido"
    answer = client.post("/api/games", content=b'{"seed": NaN}', headers=headers)
    assert answer.json()["detail"] == (
        "el cuerpo de la petición no es JSON válido: NaN no es un número JSON"
    )
