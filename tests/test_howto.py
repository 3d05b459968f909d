"""The how-to-play pages (``docs/howto/``): shipped copies, four languages, diagrams that show
what their captions say, and ``limit rules GAME --how-to``."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from limitgames.cli.app import build_app
from limitgames.howto import how_to_play, howto_games
from limitgames.translation import LANGUAGES
from tests.script_modules import load_script

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "howto"
PACKAGE = ROOT / "src" / "limitgames" / "howto"
STATIC = ROOT / "src" / "limitgames" / "web" / "static" / "howto"
GAMES = ("hex", "cards", "world")


def _name(game: str, language: str, ext: str = "md") -> str:
    return f"{game}.{ext}" if language == "en" else f"{game}.{language}.{ext}"


def _diagrams() -> ModuleType:
    return load_script("scripts/howto_diagrams.py")


def test_every_game_has_a_page_in_every_language_and_the_package_ships_the_docs() -> None:
    assert howto_games() == list(GAMES)
    for game in GAMES:
        for language in LANGUAGES:
            name = _name(game, language)
            assert (DOCS / name).read_text(encoding="utf-8") == (PACKAGE / name).read_text(
                encoding="utf-8"
            ), f"src/limitgames/howto/{name} differs from docs/howto/{name}: copy it"
            assert how_to_play(game, language).language == language


def test_translations_keep_the_english_pages_shape() -> None:
    """Same sections, the same diagrams (each in its language where it has words) and the
    same link to the full rules as the English page, which is the reference."""
    for game in GAMES:
        english = (DOCS / f"{game}.md").read_text(encoding="utf-8")
        sections = len(re.findall(r"^## ", english, flags=re.MULTILINE))
        images = re.findall(r"\]\((img/[^)]+)\)", english)
        for language in LANGUAGES[1:]:
            text = (DOCS / _name(game, language)).read_text(encoding="utf-8")
            assert len(re.findall(r"^## ", text, flags=re.MULTILINE)) == sections, (game, language)
            shown = re.findall(r"\]\((img/[^)]+)\)", text)
            assert len(shown) == len(images), (game, language)
            for ours, theirs in zip(images, shown, strict=True):
                localised = ours.replace(".svg", f".{language}.svg")
                assert theirs in (ours, localised), (game, language, theirs)
                assert (DOCS / theirs).is_file(), theirs
            assert f"](../rules/{game}.md)" in text


def test_an_unknown_language_is_english_and_an_unknown_game_is_refused() -> None:
    assert how_to_play("cards", "xx").language == "en"
    with pytest.raises(KeyError):
        how_to_play("chess")


def _cells(svg: str) -> dict[str, str]:
    """``{cell name: pawn owner seat or ""}`` of a board drawn by ``web.hex_svg``."""
    return dict(re.findall(r'data-cell="([a-z]\d+)" data-pawn="(\d*)"', svg))


def test_the_hex_diagrams_show_what_their_captions_say() -> None:
    """The captions (docs/howto/hex.md): blue (seat 0 of ``seat_names()``) moves c2 to b3
    through the empty c3; red's a4, whose last empty neighbour was b3, is captured; then
    blue removes the empty b2. Read off the drawn boards, not from the engine."""
    move = (DOCS / "img" / "hex-move.svg").read_text(encoding="utf-8")
    capture = (DOCS / "img" / "hex-capture.svg").read_text(encoding="utf-8")
    removal = (DOCS / "img" / "hex-removal.svg").read_text(encoding="utf-8")
    before, after = _cells(move), _cells(capture)
    blue = before["c2"]
    red = before["a4"]
    assert blue != red and blue != "" and red != ""
    assert before["c3"] == "" and before["b3"] == ""
    assert after["b3"] == blue and after["c2"] == "" and after["a4"] == ""
    assert 'class="tile tile-' in move and "last-from" in move and "last-to" in move
    assert 'data-removed="b2"' in removal and "b2" not in _cells(removal)
    # the seat that moved is blue: the pawn colour drawn for it
    assert re.search(rf'data-owner="{blue}" r="[\d.]+" fill="#[0-9a-f]+"', move)
    assert "pawn-blue" in move.split('data-cell="c2"')[1].split("</g>")[0]


def test_the_cards_diagram_reckons_as_the_rules_do() -> None:
    """rules/cards.md, "A round" step 4, counted by hand from the diagram's data: the limit
    card gives blue 3, two hidden blue cards make the limit 5; the pile holds blue cards
    1 (Ann), 3 (Cleo), 4 (Ann) and 5 (Bob's last) before or at Bob's last card: 4 blue, not
    above 5, so Cleo, who suspected, takes the limit card."""
    svg = (DOCS / "img" / "cards-round.svg").read_text(encoding="utf-8")
    for words in ("blue limit: 3 + 2 hidden = 5", "blue up to Bob's last card: 4"):
        assert words.replace("'", "&#39;") in svg
    blue = _diagrams().CARD_FILL["blue"]
    pile = svg.split("the pile, in the order played")[1]
    assert pile.count(f'fill="{blue}"') == 4
    hidden = svg.split("hidden cards, revealed")[1].split("the pile")[0]
    assert hidden.count(f'fill="{blue}"') == 2


def test_the_diagrams_are_current() -> None:
    """Drawn again by scripts/howto_diagrams.py, every diagram equals the committed one in the
    docs and in the web app's static files (run the script after changing either)."""
    module = _diagrams()
    files = dict(module.hex_turn())
    for language in LANGUAGES:
        suffix = "" if language == "en" else f".{language}"
        files[f"cards-round{suffix}.svg"] = module.cards_round(language)
        files[f"world-generation{suffix}.svg"] = module.world_generation(language)
    for name, svg in files.items():
        for folder in (DOCS / "img", STATIC):
            assert (folder / name).read_text(encoding="utf-8") == svg, (
                f"{folder / name}: run the script"
            )


runner = CliRunner()


def test_limit_rules_how_to_prints_the_page_in_the_language_asked() -> None:
    result = runner.invoke(build_app(), ["rules", "cards", "--how-to", "--language", "fr"])
    assert result.exit_code == 0, result.output
    assert "Comment jouer à Limits" in result.output
    assert "docs/rules/cards.md" in result.output  # the link, named for a terminal
    plain = runner.invoke(build_app(), ["rules", "hex", "--language", "en"])
    assert plain.exit_code == 0 and "limit rules hex --how-to" in plain.output
    mixed = runner.invoke(build_app(), ["rules", "world", "--how-to", "--reconstructed"])
    assert mixed.exit_code != 0 and "--how-to" in mixed.output
