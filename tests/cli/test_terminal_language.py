"""``limit play`` in German (and the choice of language): every line the session and Browne's
Limit write is translated.

The check compares a whole computer-against-computer game told in English
with the same game (same seed, same agents) told in German: a line that
comes out the same in both, and is not a drawing of the board, was never
translated.
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from limitgames.cli.app import build_app
from limitgames.cli.session import choose_language
from limitgames.translation import current_language

runner = CliRunner()


def play(
    *args: str, input: str | None = None, env: dict[str, str] | None = None
) -> tuple[int, str]:
    result = runner.invoke(build_app(), ["play", "hex", *args], input=input, env=env)
    return result.exit_code, result.output


def _sentences(output: str) -> set[str]:
    """The lines that say something (a word of three letters; not a row of the board)."""
    lines = {" ".join(line.split()) for line in output.splitlines()}
    return {line for line in lines if re.search(r"[^\W\d_]{3}", line)}


def test_a_whole_game_told_in_german() -> None:
    args = ("-s", "random", "-s", "random", "--seed", "5", "--size", "3", "--no-record")
    code_en, english = play(*args, "--language", "en")
    code_de, german = play(*args, "--language", "de")
    assert code_en == code_de == 0
    assert "Partie zu Ende" in german and "Game over" in english
    assert "Plätze: Rot: Computer (random); Blau: Computer (random)." in german or (
        "Plätze: Blau: Computer (random); Rot: Computer (random)." in german
    )
    # the same game: as many decisions told (one line each: "Rot zieht ...", "... entfernt ...")
    assert len(re.findall(r" (?:moves|removes the tile) ", english)) == len(
        re.findall(r" (?:zieht|entfernt das Plättchen) ", german)
    )
    left = _sentences(english) & _sentences(german)
    assert not left, f"still in English: {sorted(left)}"


def test_a_person_at_the_terminal_in_german() -> None:
    code, out = play(
        "--language",
        "de",
        "--seed",
        "3",
        "--size",
        "4",
        "--no-record",
        input="moves\nzz\nundo\nquit\n",
    )
    assert code == 0
    assert "Plätze: " in out and "du" in out
    assert "Tippe help für die Befehle." in out
    assert "Dein Zug: " in out
    assert re.search(r"\d+ erlaubt: ", out)
    assert "Nicht verstanden:" in out and "Tippe help für Hilfe." in out
    assert "Figuren: " in out


def test_the_locale_variables_choose_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGUAGE")
    code, out = play(
        "-s",
        "random",
        "-s",
        "random",
        "--seed",
        "5",
        "--size",
        "3",
        "--no-record",
        env={"LANG": "es_ES.UTF-8", "LANGUAGE": ""},
    )
    assert code == 0
    assert "Fin de la partida" in out and "Asientos: " in out


def test_an_unknown_language_is_a_one_line_error() -> None:
    code, out = play("--language", "xx", "--no-record")
    assert code == 2
    assert "unknown language 'xx' (use en, de, fr or es)" in re.sub(r"[│\s]+", " ", out)


def test_choose_language() -> None:
    assert choose_language("fr-CA") == "fr" and current_language.get() == "fr"
    assert choose_language(None, {"LANG": "de_DE.UTF-8"}) == "de"
    assert choose_language(None, {}) == "en"


CARDS_GAME = ["play", "cards", "-n", "2", "-s", "random", "-s", "random", "--seed", "5"]
CARDS_GAME += ["--pause", "0", "--no-record"]


def test_a_cards_game_told_in_german() -> None:
    def cards(language: str) -> str:
        result = runner.invoke(
            build_app(),
            [*CARDS_GAME, "--language", language],
        )
        assert result.exit_code == 0, result.output
        return result.output

    english, german = cards("en"), cards("de")
    assert "Limitkarte" in german and "Spielrunde 1: " in german
    # each round's suspicion is told, in the rulebook's words (seed 002: verdächtigen)
    assert english.count(" suspected ") == german.count(" verdächtigte ") > 0
    left = _sentences(english) & _sentences(german)
    assert not left, f"still in English: {sorted(left)}"
