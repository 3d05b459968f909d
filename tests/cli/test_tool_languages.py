"""The terminal commands around a game in German, French and Spanish: ``limit score``,
``limit referee``, ``limit replay``, ``limit rules``, ``limit debrief`` and their ``--help``
(and ``limit play --help``).

Each command runs once in English and once in another language on the same input. The
expected words are written by hand from the catalogues' vocabulary (docs/translations.md:
*Belastungsprobe*, *Territorium*, *test de résistance*...); the figures must be the same
in both runs (a translation changes words, never a number).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from limitgames.cli.app import build_app
from tests.world.test_referee import rulebook_example

runner = CliRunner()

ENV = {"COLUMNS": "80", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}
"""English unless ``--language`` says otherwise, at a width of 80 columns."""


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(build_app(), list(args), input=input, env={**ENV, **(env or {})})
    assert result.exit_code == 0, result.output
    return result.output


def flat(output: str) -> str:
    """The output as one line of words: Rich's boxes and line breaks removed."""
    return " ".join(re.sub(r"[│┃╭╮╰╯─━┏┓┗┛┡┩┠┨╇╈┳┻┯┷└┘┌┐├┤┼]", " ", output).split())


def figures(output: str) -> list[int]:
    """Every whole number of the output, in order."""
    return [int(n) for n in re.findall(r"-?\d+", output)]


def test_the_score_calculator_in_german_and_french(tmp_path: Path) -> None:
    # the rulebook's scoring example (tests/world/test_referee.py): circle scores
    # 32 + 15 + 20 + 1 - 18 = 50
    path = tmp_path / "table.json"
    path.write_text(json.dumps(rulebook_example()))
    english = run("score", "world", str(path), "--language", "en")
    german = run("score", "world", str(path), "--language", "de")
    french = run("score", "world", str(path), "--language", "fr")
    assert "circle: 50 points" in english and "Gross domestic happiness" in english
    words = flat(german)
    for expected in (
        "Belastungsprobe",
        "circle: 50 Punkte",
        "Bruttoinlandsglück",
        "Finanzkraft",
        "Territorium",
        "Militärmacht",
        "Historischer Einfluss",
        "demografischer Index 4",
        "5 - 4 Krisen = 1 je 10 $",
        "5 Verschmutzung x -2 + 8 Störung x -1 = -18",
        "Summe",
    ):
        assert expected in words, expected
    for expected in ("test de résistance", "circle : 50 points", "Bonheur intérieur brut"):
        assert expected.lower() in flat(french).lower(), expected
    assert "Gross domestic happiness" not in german + french
    assert figures(german) == figures(english) == figures(french)


REFEREE_INPUT = [
    "square",  # who holds the leadership tile
    "deck society",
    "surcharge nonsense",  # asked again: 2 cards for 5
    "surcharge vegetarianism conscription overconsumption political-reform",
    "keep surcharge",
    "undo",
    "keep vegetarianism",
    "quit",
]


def test_a_referee_session_in_spanish(tmp_path: Path) -> None:
    outputs = {}
    for language in ("en", "es"):
        record = tmp_path / f"{language}.json"
        outputs[language] = run(
            "referee",
            "world",
            "--players",
            "2",
            "--record",
            str(record),
            "--language",
            language,
            input="\n".join(REFEREE_INPUT) + "\n",
        )
    english, spanish = flat(outputs["en"]), flat(outputs["es"])
    assert "Not possible: 2 given, 5 expected" in english
    for expected in (
        "la nación que tiene la ficha de liderazgo (circle, square)",
        "Escribe cada decisión tomada en la mesa",
        "cuadrado roba 5 del mazo sociedad: las cartas robadas",  # the nation named in Spanish
        "No es posible: 2 indicados, 5 esperados",
        "Deshecho: keep surcharge",
        "square decide:",
        "Registro guardado en",
    ):
        assert expected in spanish, expected
    assert "Taken back" not in spanish and "draws 5" not in spanish
    # the same decisions kept in both records (what is typed stays the notation)
    en_record = json.loads((tmp_path / "en.json").read_text())
    es_record = json.loads((tmp_path / "es.json").read_text())
    assert en_record["actions"] == es_record["actions"] == ["deck society", "keep vegetarianism"]


def test_a_replay_in_german(tmp_path: Path) -> None:
    record = tmp_path / "hex.json"
    args = ("-s", "random", "-s", "random", "--seed", "5", "--size", "3", "-q")
    run("play", "hex", *args, "--record", str(record))
    actions = len(json.loads(record.read_text())["actions"])
    english = run("replay", str(record), "--language", "en")
    german = run("replay", str(record), "--language", "de")
    assert f"{actions} actions replayed and verified." in english and "Result: " in english
    assert f"{actions} Aktionen nachgespielt und geprüft." in german
    assert "Ergebnis: " in german and "Result" not in german
    assert figures(german) == figures(english)


def test_rules_in_german_and_spanish() -> None:
    english = flat(run("rules", "world", "--language", "en"))
    german = flat(run("rules", "world", "--language", "de"))
    assert "Values by source:" in english
    assert "die Regeln, wie sie gespielt werden, stehen in docs/rules/world.md" in german
    assert "Werte nach Quelle:" in german and "rekonstruiert" in german
    assert "Mit --reconstructed listest du auf" in german
    assert figures(german) == figures(english)
    spanish = flat(run("rules", "hex", "--language", "es"))
    assert "Las reglas de hex tal como las juega este proyecto: docs/rules/hex.md" in spanish
    listing = run("rules", "world", "--reconstructed", "--language", "fr")
    assert listing.rstrip().splitlines()[-1].startswith("# ") and "valeurs. Modifiez" in listing


def test_debrief_paragraphs_in_french() -> None:
    from limitgames.core import GameRecord
    from limitgames.translation import using
    from limitgames.world.debrief import debrief_texts, game_rows, reference_runs
    from tests.world.scenario import new_state
    from tests.world.test_debrief import _random_until

    state = new_state(3, seed=4)
    _random_until(state, 99, seed=4)
    rows = game_rows(GameRecord.of_state(state))
    runs = reference_runs()
    english = debrief_texts(rows, runs)
    with using("fr"):
        french = debrief_texts(rows, runs)
    assert [p.name for p in french] == [p.name for p in english]
    assert [p.title for p in french] == [
        "Population",
        "Pollution",
        "Ressources fossiles et non renouvelables",
        "Production",
        "Crises",
    ]
    text = " ".join(p.text for p in french)
    for expected in (
        "les nations ensemble ont atteint",
        "de 1,6 milliard en 1900 à un maximum de 7,06 milliards en 2027",
        "L'indice de pollution persistante de World3 (1970 = 1) culmine à",
        "n'étaient pas brûlés en",
        "World3 n'a pas de secteur militaire",
        "World3 n'a pas d'événements de crise",
    ):
        assert expected in text, expected
    # the same figures, paragraph by paragraph, in the order each language puts them
    # (French writes 7,06 for 7.06: both are 7 and 06 to figures())
    for en, fr in zip(english, french, strict=True):
        assert sorted(figures(fr.text)) == sorted(figures(en.text)), en.name


def test_a_debrief_error_in_german(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "hex", "variant": {}, "actions": []}')
    result = runner.invoke(build_app(), ["debrief", str(bad), "--language", "de"], env=ENV)
    assert result.exit_code == 1 and "Fehler:" in result.output


def test_help_in_german() -> None:
    helps = {
        ("referee", "--help", "--language", "de"): (
            "Führe Buch über eine Partie an einem echten Tisch",
            "Anzahl der Nationen",
        ),
        ("score", "--help", "--language", "de"): ("Der Punkterechner", "Eine Stellungsdatei"),
        ("replay", "--help", "--language", "de"): ("Spiele ein Protokoll nach", "Partieprotokoll"),
        ("debrief", "--help", "--language", "de"): ("Vergleiche eine world-Partie mit World3",),
        ("rules", "--help", "--language", "de"): ("Wo die Regeln", "liste jeden Wert"),
    }
    for args, expected in helps.items():
        text = flat(run(*args))
        for words in expected:
            assert words in text, (args, words)
    english = flat(run("referee", "--help"))
    assert "Keep the books of a game played at a real table" in english
    # the group's own help follows the locale variables
    group = flat(run("play", "--help", env={"LANGUAGE": "de"}))
    assert "Spiele eine Partie im Terminal" in group and "Spiele Poyés LIMIT" in group
    assert "Play a game in the terminal" in flat(run("play", "--help"))
