"""The rules pages in German, French and Spanish (``docs/rules/{game}.{code}.md``).

A translation is checked against its English reference, not against itself:
the same headings (count and levels), the same number of list items, every
code span (notation, JSON, file names) and every number unchanged, and the
same count of **[decision]** / **[reconstructed]** markers in the language's
words. ``/rules/{game}`` serves the page's language, else English with a note.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from markdown_it import MarkdownIt

from limitgames.web import rules_page

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"
GAMES = ("hex", "cards", "world")
TRANSLATED = ("de", "fr", "es")

# the markers of docs/rules/*.md in each language (English first); a marker opens with "["
MARKERS = {
    "decision": {"en": "[decision", "de": "[Entscheidung", "fr": "[décision", "es": "[decisión"},
    "reconstructed": {
        "en": "[reconstructed",
        "de": "[rekonstruiert",
        "fr": "[reconstitué",
        "es": "[reconstruido",
    },
}

# the note that opens each translation, linking to the English page
NOTES = {
    "de": "maßgeblich ist die [englische Fassung]",
    "fr": "la référence est la [version anglaise]",
    "es": "la referencia es la [versión inglesa]",
}

# each translation's title, as written by hand from the English one
TITLES = {
    ("hex", "de"): "Limit (Cameron Browne) — die Regeln, wie dieses Projekt sie spielt",
    ("hex", "fr"): "Limit (Cameron Browne) — les règles telles que ce projet les joue",
    ("hex", "es"): "Limit (Cameron Browne) — las reglas tal como las juega este proyecto",
}


def get(client: TestClient, path: str, cookie: str = "", accept: str = "") -> str:
    """The text of page ``path`` for a client with this language cookie and ``Accept-Language``."""
    headers = {"Accept-Language": accept}
    if cookie:
        headers["Cookie"] = f"limit_language={cookie}"
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.text


def structure(text: str) -> tuple[list[str], int, Counter[str], Counter[str]]:
    """Heading levels in order, list item count, code spans and blocks, numbers outside code."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    headings = [t.tag for t in tokens if t.type == "heading_open"]
    items = sum(1 for t in tokens if t.type == "list_item_open")
    code: Counter[str] = Counter()
    numbers: Counter[str] = Counter()
    for token in tokens:
        if token.type in ("fence", "code_block"):
            code[token.content] += 1
        for child in token.children or []:
            if child.type == "code_inline":
                code[child.content] += 1
            elif child.type == "text":
                numbers.update(re.findall(r"\d+", child.content))
    return headings, items, code, numbers


def body(path: Path) -> str:
    """The text without the leading source comment (English) or translation note (translations)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\A\s*<!--.*?-->\s*", "", text, flags=re.DOTALL)
    return re.sub(r"\A> [^\n]*\n", "", text)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_keeps_the_structure_of_the_english_rules(game: str, language: str) -> None:
    english = body(DOCS / f"{game}.md")
    path = DOCS / f"{game}.{language}.md"
    translated = body(path)
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    assert first_line.startswith("> ") and f"{NOTES[language]}({game}.md)" in first_line
    headings, items, code, numbers = structure(english)
    t_headings, t_items, t_code, t_numbers = structure(translated)
    assert t_headings == headings
    assert t_items == items
    assert t_code == code, (code - t_code, t_code - code)
    assert t_numbers == numbers, (numbers - t_numbers, t_numbers - numbers)
    for words in MARKERS.values():
        assert translated.count(words[language]) == english.count(words["en"]), words
    assert "[decision" not in translated and "[reconstructed" not in translated


def test_the_english_rules_are_not_trivially_matched() -> None:
    """The structure compared above is not empty: the checks can fail."""
    headings, items, code, numbers = structure(body(DOCS / "hex.md"))
    assert headings.count("h2") == 4 and items >= 20 and "c4-e5" not in code
    assert code["quiet_turns"] == 3 and numbers["2008"] >= 1
    _h, _i, _c, cut = structure(body(DOCS / "hex.md").replace("100 ms", "ms"))
    assert cut != numbers


def test_rules_pages_in_the_readers_language(client: TestClient) -> None:
    german = get(client, "/rules/hex", cookie="de")
    assert 'lang="de"' in german
    assert TITLES["hex", "de"] in german and "Plättchen" in german
    assert "the rules as this project plays them" not in german
    assert 'href="/rules/hex?language=en"' in german  # the note's link to the reference
    assert 'id="rules-untranslated"' not in german
    for game in GAMES:
        page = get(client, f"/rules/{game}", accept="es-ES,es;q=0.9")
        assert f'id="rules" data-game="{game}" lang="es"' in page
    french = get(client, "/rules/hex", accept="fr-CH, en;q=0.5")
    assert TITLES["hex", "fr"] in french
    # the English reference from the note's link: the page's own words stay German
    reference = get(client, "/rules/hex?language=en", cookie="de")
    assert "the rules as this project plays them" in reference
    assert 'lang="en"' in reference and "Lobby" in reference
    assert 'id="rules-untranslated"' not in reference


@pytest.mark.parametrize(
    ("cookie", "accept", "query"),
    [("xx", "ja, zh;q=0.8", ""), ("../../etc/passwd", "", ""), ("de", "", "?language=..%2Fhex")],
)
def test_unknown_languages_fall_back(
    client: TestClient, cookie: str, accept: str, query: str
) -> None:
    page = get(client, f"/rules/hex{query}", cookie=cookie, accept=accept)
    if cookie == "de":  # a language the server does not offer in the query is ignored
        assert TITLES["hex", "de"] in page
    else:
        assert "the rules as this project plays them" in page and 'lang="en"' in page


def test_a_missing_translation_gives_english_with_a_note(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "hex.md").write_text((DOCS / "hex.md").read_text(encoding="utf-8"))
    monkeypatch.setattr(rules_page, "_RULES", tmp_path)
    rules_page._render.cache_clear()
    try:
        assert rules_page.rules_file("hex", "de") == (tmp_path / "hex.md", "en")
        page = get(client, "/rules/hex", cookie="de")
        assert "the rules as this project plays them" in page
        assert 'id="rules-untranslated"' in page and 'html lang="de"' in page
        note = page.split('id="rules-untranslated">')[1].split("<")[0]
        assert "englische Text" in note  # the note itself is German
        assert rules_page.rules_games() == ["hex"]
    finally:
        rules_page._render.cache_clear()


def test_the_wheel_data_covers_the_translations() -> None:
    """pyproject's package-data globs ship every rules file (``**/*.md``)."""
    import tomllib

    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["limitgames"]
    shipped = ROOT / "src" / "limitgames"
    for game in GAMES:
        for language in TRANSLATED:
            relative = (shipped / "web" / "rules" / f"{game}.{language}.md").relative_to(shipped)
            assert any(relative.match(pattern) for pattern in globs), relative
