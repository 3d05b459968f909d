"""``limit play`` in German (and the choice of language): every line the session and Browne's
Limit write is translated.

The check compares a whole computer-against-computer game told in English
with the same game (same seed, same agents) told in German: a line that
comes out the same in both, and is not a drawing of the board, was never
translated.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from limitgames.cli.app import build_app
from limitgames.cli.options import choose_language, help_language
from limitgames.translation import current_language
from limitgames.world.data import DEFAULT_DATA

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
    assert "Plätze: Rot: Computer (Zufallszüge); Blau: Computer (Zufallszüge)." in german or (
        "Plätze: Blau: Computer (Zufallszüge); Rot: Computer (Zufallszüge)." in german
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
    code, out = play("--language", "xx", "--no-record", env={"LANGUAGE": "", "LANG": "C"})
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
    assert english.count(" suspects ") == german.count(" verdächtigt ") > 0
    # the end screen's score rows hold only the players' names and figures (no word)
    names = r"\b(?:Andreas|Barbara|Clara|Daniel|Emil|Frieda)\b|[\d\s+-]"
    left = {line for line in _sentences(english) & _sentences(german) if re.sub(names, "", line)}
    assert not left, f"still in English: {sorted(left)}"


WORLD_GAME = ["play", "world", "--players", "2", "--seed", "4", "--no-record"]
WORLD_PERSON = ["moves", "preview deck society", "deck society", "card education", "help"]
WORLD_PERSON += ["log", "zz", "quit"]


def _world(language: str, *args: str, input: str | None = None) -> str:
    result = runner.invoke(
        build_app(),
        [*WORLD_GAME, *args, "--language", language],
        input=input,
        env={"COLUMNS": "250"},
    )
    assert result.exit_code == 0, result.output
    return result.output


def _said(output: str) -> set[str]:
    """The sentences of a world game's output: table cells and panel lines one by one (Rich
    draws them between box characters), those with a word of three letters."""
    cells = {" ".join(c.split()) for line in output.splitlines() for c in re.split(r"[│┃║]", line)}
    words = {c for c in cells if re.search(r"[^\W\d_]{3}", c)}
    # nation names and card ids are names (the notation typed stays the games' own)
    ids = sorted(DEFAULT_DATA.cards, key=len, reverse=True)
    names = r"\b(?:circle|square|triangle|diamond|" + "|".join(ids) + r")\b"
    verbs = (
        "play|plant|deck|keep|discard|withdraw|raise|lower|target|gain|produce|recall|buy|sell"
        "|contribute|price|resist|spend|take|yield"
    )
    notation = rf"\b(?:(?:{verbs})(?: [a-z0-9-]+)*|pass)\b"
    # a long list of options wraps inside its cell: a lone argument of the notation is left
    lone = r"^(?:renewable|industrial|military|fossil|society|production)$"
    said = {re.sub(notation, "", re.sub(names, "", w)).strip() for w in words}
    return {w for w in said if re.search(r"[^\W\d_]{3}", w) and not re.match(lone, w)}


def test_a_whole_world_game_told_in_german() -> None:
    english = _world("en", "--seat", "random")
    german = _world("de", "--seat", "random")
    assert "Partie zu Ende" in german and "Punktestand" in german
    assert english.count("\n") == german.count("\n")
    left = _said(english) & _said(german)
    assert not left, f"still in English: {sorted(left)}"


def test_a_person_plays_the_world_in_german() -> None:
    english = _world("en", input="\n".join(WORLD_PERSON) + "\n")
    german = _world("de", input="\n".join(WORLD_PERSON) + "\n")
    assert "Deine Hand" in german and "Vorschau von deck society:" in german
    assert "Bildung (Gesellschaft, sofort, Start)" in german
    left = _said(english) & _said(german)
    assert not left, f"still in English: {sorted(left)}"


def test_a_world_card_preview_and_board_in_german() -> None:
    from rich.console import Console

    from limitgames.cli import world_view
    from limitgames.translation import using
    from tests.world.scenario import at_policy, new_state, set_board

    state = new_state(2)
    hand = ["public-expenditure", "education", "industrialization", "extraction", "surcharge"]
    n = at_policy(state, 0, hand)
    set_board(n, population=4, money=12, unrest=6)
    with using("de"):
        text = "\n".join(world_view.preview_lines(state, ("play", "public-expenditure")))
    # the same figures as test_play_is_previewed_before_confirmation (tests/world/test_cli.py),
    # in the catalogue's words: Geld, soziale Unruhe, Weltbank
    assert "du: Geld 12 -> 7 $" in text
    assert "du: soziale Unruhe 6 -> 5" in text
    assert "Weltbank 218 -> 223 $" in text

    def board(language: str) -> str:
        console = Console(record=True, width=250)
        with using(language):
            world_view.render(console, state, 0)
            world_view.render_full(console, state, 0)  # the tables behind world, nations, hand
        return console.export_text()

    english, german = board("en"), board("de")
    assert "Deine Hand" in german and "wenn jetzt gespielt" in german
    left = _said(english) & _said(german)
    assert not left, f"still in English: {sorted(left)}"


# --- the help of `limit play GAME` and the errors around a game ---------------------------------
def _flat(text: str) -> str:
    """``text`` without Rich's boxes and line breaks (one space between words)."""
    return " ".join(re.sub(r"[│╭╮╰╯─]+", " ", text).split())


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        # German by hand: the command's description and three option helps
        (
            ["hex", "--language", "de", "--help"],
            {},
            [
                "Spiele Brownes Limit im Terminal.",
                "2 (Rot, Blau / Weiß, Rot) oder 3 (+ Gelb / Schwarz)",
                "Plättchen pro Farbe und Figuren pro Spieler (4 x Größe Plättchen)",
                "Kein Partieprotokoll speichern.",
            ],
        ),
        # the locale variables choose French when --language is not given
        (
            ["world", "--help"],
            {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR.UTF-8"},
            ["Jouez à LIMIT de Poyé dans le terminal.", "nombre de nations", "mode solo"],
        ),
        (
            ["cards", "--language=es", "--help"],
            {},
            ["Juega a Limits de Rosenberg en el terminal.", "número de jugadores"],
        ),
    ],
)
def test_the_help_of_limit_play_in_the_chosen_language(
    args: list[str], env: dict[str, str], expected: list[str]
) -> None:
    result = runner.invoke(build_app(), ["play", *args], env=env)
    assert result.exit_code == 0, result.output
    shown = _flat(result.output)
    for text in expected:
        assert text in shown, (text, shown)
    assert "number of" not in shown and "Do not save" not in shown
    assert "tiles per colour" not in shown and "A variant parameter" not in shown


def test_the_help_stays_english_without_a_language() -> None:
    env = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}
    result = runner.invoke(build_app(), ["play", "hex", "--help"], env=env)
    shown = _flat(result.output)
    assert "Play Browne's Limit in the terminal." in shown
    assert "tiles per colour and pawns per player (4 x size tiles)" in shown
    # and the English texts are back for the next help drawn
    again = runner.invoke(build_app(), ["play", "hex", "--language", "de", "--help"], env=env)
    assert "Plättchen pro Farbe" in _flat(again.output)
    third = runner.invoke(build_app(), ["play", "hex", "--help"], env=env)
    assert "tiles per colour and pawns per player" in _flat(third.output)


def test_help_language() -> None:
    assert help_language(["--language", "de-AT", "--help"], {}) == "de"
    assert help_language(["--language=es"], {"LANG": "fr_FR"}) == "es"
    assert help_language(["--help"], {"LANG": "fr_FR.UTF-8"}) == "fr"
    # an unknown code counts as not given (the command itself says it is unknown)
    assert help_language(["--language", "xx"], {"LANG": "C"}) == "en"


@pytest.mark.parametrize(
    ("args", "german"),
    [
        (["--opponent", "grandmaster"], "Fehler: unbekannte Stufe 'grandmaster'"),
        (["-s", "frog"], "Fehler: unbekannter Spieler 'frog'"),
        (
            ["-n", "2", "-s", "human", "-s", "human", "-s", "human"],
            "3 Angaben --seat für 2 Spieler",
        ),
    ],
)
def test_the_errors_around_a_game_in_german(args: list[str], german: str) -> None:
    code, out = play(*args, "--language", "de", "--no-record")
    assert code == 1
    assert german in _flat(out)


def test_a_bad_position_file_in_german(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    code, out = play("--position", str(broken), "--language", "de", "--no-record")
    assert code == 1
    # Rich wraps a long path at any character, so compare without the spaces
    assert f"Fehler:{broken}:keinJSON:" in "".join(_flat(out).split())
    code, out = play("--position", str(tmp_path / "missing.json"), "--language", "de")
    assert code == 1
    assert "die Datei kann nicht gelesen werden" in _flat(out)
