"""The commands that study and measure the games in German, French and Spanish: ``limit games``,
``limit perft``, ``limit solve``, ``limit bench ...``, ``limit arena``, ``limit agents`` and
``limit serve``: their ``--help`` and their words.

Each command runs once in English and once in another language on the same input. The expected
words are written by hand from the catalogues' vocabulary (an agent is a *Spieler-Programm*,
*programme*, *programa*; a seat a *Platz*, *place*, *asiento*; a seed a *Startwert*, *graine*,
*semilla*); the figures must be the same in every run (a translation changes words, never a
number), and what scripts read (``perft(3) = 4``, game ids, agent specs) stays as it is.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from limitgames.cli.app import build_app

runner = CliRunner()

HERE = Path(__file__).parent
LINE5 = json.loads((HERE.parent / "hex" / "perft_small.json").read_text())[0]
"""The hand-counted hex position ``line5`` (tests/hex/perft_small.json): red (0,0) and blue
(4,0) on a line of five tiles; perft 3, 3, 4 at depths 1, 2, 3."""

ENV = {"COLUMNS": "160", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}
"""English unless ``--language`` says otherwise, wide enough that few lines wrap."""


def run(*args: str, env: dict[str, str] | None = None, code: int = 0) -> str:
    result = runner.invoke(build_app(), list(args), env={**ENV, **(env or {})})
    assert result.exit_code == code, result.output
    return result.output


def flat(output: str) -> str:
    """The output as one line of words: Rich's boxes and line breaks removed."""
    return " ".join(re.sub(r"[│┃╭╮╰╯─━┏┓┗┛┡┩┠┨╇╈┳┻┯┷└┘┌┐├┤┼]", " ", output).split())


def figures(output: str) -> list[str]:
    """Every number of the output (decimals and thousands separators kept), in order."""
    return re.findall(r"\d[\d.,]*", output)


HELPS: dict[tuple[str, ...], dict[str, str]] = {
    ("games",): {
        "de": "Liste die Spiele, ihre Ausgaben",
        "fr": "Liste les jeux, leurs éditions",
        "es": "Lista los juegos, sus ediciones",
    },
    ("perft",): {
        "de": "Zähle die Entscheidungsfolgen",
        "fr": "Compter les suites d'exactement DEPTH décisions",
        "es": "Número de decisiones.",
    },
    ("solve",): {
        "de": "Gib nach so vielen Sekunden auf.",
        "fr": "minimax exact (victoire, match nul ou défaite)",
        "es": "Abandona tras estos segundos.",
    },
    ("bench", "hex"): {
        "de": "Plättchen pro Farbe und Figuren pro Spieler (4 x Größe Plättchen)",
        "fr": "tuiles par couleur et pions par joueur (4 x taille tuiles)",
        "es": "fichas por color y peones por jugador (4 x tamaño fichas)",
    },
    ("bench", "cards"): {
        "de": "Wie lange gemessen wird.",
        "fr": "Durée de la mesure.",
        "es": "Cuánto tiempo medir.",
    },
    ("bench", "world"): {
        "de": "Anzahl der Nationen",
        "fr": "Parties aléatoires par seconde",
        "es": "Partidas aleatorias por segundo",
    },
    ("arena",): {
        "de": "Spiele ein Turnier",
        "fr": "Jouer un tournoi",
        "es": "Juega un torneo",
    },
    ("agents",): {
        "de": "Schwierigkeitsstufen",
        "fr": "niveaux de difficulté",
        "es": "niveles de dificultad",
    },
    ("serve",): {
        "de": "TCP-Port.",
        "fr": "Servir le salon",
        "es": "Sirve la sala",
    },
}


@pytest.mark.parametrize("command", list(HELPS), ids=" ".join)
def test_help_in_german_french_and_spanish(command: tuple[str, ...]) -> None:
    english = flat(run(*command, "--help"))
    assert "--language CODE The language of this command's words" in english
    for language, expected in HELPS[command].items():
        translated = flat(run(*command, "--help", "--language", language))
        assert translated != english, (command, language)
        assert expected in translated, (command, language, expected)
    # the locale variables choose the language when --language is not given
    german = flat(run(*command, "--help", env={"LANGUAGE": "de"}))
    assert HELPS[command]["de"] in german and "Die Sprache dieses Befehls" in german


def test_the_bench_group_help_follows_the_locale_variables() -> None:
    assert "Measure an engine's speed" in flat(run("bench", "--help"))
    spanish = flat(run("bench", "--help", env={"LANGUAGE": "es"}))
    assert "Mide la velocidad de un motor" in spanish
    assert "Cuánto tiempo medir" not in spanish  # the commands' options are on their own help


def test_games_in_german_and_french() -> None:
    english = run("games")
    german = run("games", "--language", "de")
    french = run("games", "--language", "fr")
    # hex is for 2 or 3 players (docs/rules/hex.md), its rules version hex-2
    assert "players 2-3; rules hex-2" in flat(english)
    assert "Spieler 2-3; Regeln hex-2" in flat(german)
    assert "joueurs 2-3 ; règles hex-2" in flat(french)
    for heading in ("Parameter", "Werte", "Bedeutung"):
        assert heading in german, heading
    assert "signification" in french
    # the ids and the parameters' names stay, and so does every figure
    for text in (german, french):
        for word in ("hex:", "cards:", "world:", "edition", "nestorgames"):
            assert word in text, word
    assert figures(german) == figures(english) == figures(french)


def test_agents_in_spanish() -> None:
    english = run("agents")
    spanish = run("agents", "--language", "es")
    assert "Levels (--opponent LEVEL)" in english
    words = flat(spanish)
    for expected in (
        "Programas (spec: name:key=value,...)",
        "Niveles (--opponent LEVEL)",
        "Ejemplos:",
    ):
        assert expected in words, expected
    assert "Levels (--opponent LEVEL)" not in spanish
    # the specs stay as they are typed
    for spec in ("mcts:seconds=1", "alphabeta:depth=4", "heuristic:epsilon=0.3"):
        assert spec in words
    # the figures (budgets in the specs) are the same; a terminal wide enough that Rich wraps no
    # spec, since the columns' widths depend on the language's headings
    wide = {"COLUMNS": "240"}
    assert figures(run("agents", "--language", "es", env=wide)) == figures(run("agents", env=wide))


def test_perft_is_the_same_in_every_language_and_its_errors_are_translated(
    tmp_path: Path,
) -> None:
    position = tmp_path / "line5.json"
    position.write_text(json.dumps(LINE5["position"]))
    # perft(3) = 4 and, at depth 2, a1-b1: 1, a1-c1: 2, a1-d1: 0 (d1 captures blue: the end),
    # as counted by hand in perft_small.json
    for language in ("en", "de", "fr", "es"):
        assert run("perft", "hex", str(position), "3", "--language", language).strip() == (
            "perft(3) = 4"
        )
        divided = run("perft", "hex", str(position), "2", "--divide", "--language", language)
        assert divided.split("\n") == ["a1-b1: 1", "a1-c1: 2", "a1-d1: 0", "", "perft(2) = 3", ""]
    missing = str(tmp_path / "missing.json")
    german = run("perft", "hex", missing, "1", "--language", "de", code=1)
    assert "Fehler:" in german and "die Datei lässt sich nicht lesen" in german
    english = run("perft", "hex", missing, "1", code=1)
    assert "error:" in english and "cannot read the file" in english


def test_solve_in_german(tmp_path: Path) -> None:
    position = tmp_path / "line5.json"
    position.write_text(json.dumps(LINE5["position"]))
    # red moves a1-d1 next to blue and captures it: a win for red at once
    english = run("solve", "hex", str(position))
    german = run("solve", "hex", str(position), "--language", "de")
    assert "red to move: win." in english and "best action: a1-d1" in english
    assert "Rot am Zug: Sieg." in german and "beste Aktion: a1-d1" in german
    assert "Größe des Beweises:" in german and "Stellungen" in german
    number = r"(\d+) (?:positions|Stellungen)"
    assert re.findall(number, english) == re.findall(number, german)


def test_a_tiny_arena_in_german(tmp_path: Path) -> None:
    args = ("arena", "hex", "-a", "random", "-a", "random", "-n", "2", "-v", "size=4")
    english = run(*args, "--out", str(tmp_path / "en"))
    german = run(*args, "--out", str(tmp_path / "de"), "--language", "de")
    # 2 agents in 2 seats: one rotation is 2 games, so -n 2 is not rounded up
    assert "hex: 2 games, seed 1" in english and "wins-draws-losses by seat" in english
    words = flat(german)
    for expected in (
        "hex: 2 Partien, Startwert 1",
        "Programm",
        "S-U-N",
        "95%-KI",
        "Elo",
        "Siege-Unentschieden-Niederlagen je Platz",
        "Platz 0",
        "Platz 1",
        "Protokolle in",
    ):
        assert expected in words, expected
    assert "2 games" not in german and "wins-draws-losses" not in german

    def tables(output: str) -> str:
        """The results: from the first table's title to the last table's bottom corner
        (without the timings and the paths after it)."""
        return output[output.index("hex: 2") : output.rindex("┘") + 1]

    # the same seed plays the same games: the same standings in both languages
    assert figures(tables(german)) == figures(tables(english))
    assert json.loads((tmp_path / "de" / "summary.json").read_text())["games"] == 2


def test_bench_world_in_french() -> None:
    french = flat(run("bench", "world", "--players", "3", "--seconds", "0.1", "--language", "fr"))
    assert "world, 3 nations : chronométrage de 0.1 s de parties aléatoires" in french
    for expected in ("parties aléatoires par seconde", "décisions par partie", "parties jouées"):
        assert expected in french, expected
    refused = run("bench", "world", "--players", "7", "--language", "fr", code=1)
    assert "erreur :" in refused and "players : 7 dépasse le maximum 6" in refused
