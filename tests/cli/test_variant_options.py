"""The terminal's variant options, built from ``GameInfo.parameters``: ``--layout uniform`` and
``-v layout=uniform`` reach the engine alike; unknown names and bad values give one line naming
the parameter; the options follow the declaration (nothing declared twice)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from limitgames.cli.app import build_app
from limitgames.cli.variant_options import metavar, offered, option_name, parse_variant
from limitgames.core import GameRecord, Parameter, VariantError, get_game
from tests.deadlines import scaled

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(build_app(), list(args))
    return result.exit_code, result.output


def unattended_hex(record: Path, *variant: str) -> GameRecord:
    """A size-3 hex game between two random seats, played with ``variant`` options."""
    code, out = invoke(
        "play",
        "hex",
        "-s",
        "random",
        "-s",
        "random",
        "--seed",
        "5",
        "--quiet",
        "--record",
        str(record),
        *variant,
    )
    assert code == 0, out
    return GameRecord.read(record)


@pytest.mark.parametrize(
    "variant",
    [
        ("--size", "3", "--layout", "uniform"),
        ("-v", "size=3", "-v", "layout=uniform"),
        ("--size", "3", "--variant", "layout=uniform"),
    ],
)
def test_an_option_and_a_variant_pair_reach_the_engine_alike(
    tmp_path: Path, variant: tuple[str, ...]
) -> None:
    """The record keeps the variant the engine was made with: the layout law given either way
    (the default law is grown, so uniform can only come from the command line)."""
    record = unattended_hex(tmp_path / "game.json", *variant)
    assert record.variant["layout"] == "uniform" and record.variant["size"] == 3
    assert get_game("hex").info.parameter("layout").default == "grown"


def test_without_options_the_declared_defaults_are_played(tmp_path: Path) -> None:
    record = unattended_hex(tmp_path / "game.json", "--size", "3")
    assert record.variant["layout"] == "grown" and record.variant["colours"] == "random"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("play", "hex", "-v", "sideways=1"), "sideways"),
        (("play", "hex", "--layout", "sideways"), "layout"),
        (("play", "hex", "-v", "size=x"), "size"),
        (("play", "hex", "--size", "40"), "size"),
        (("play", "hex", "--size", "4", "-v", "size=5"), "size"),
        (("play", "cards", "-v", "players=9"), "players"),
        (("play", "world", "--alliances", "sometimes"), "alliances"),
        (("bench", "world", "-n", "1"), "players"),
        (("bench", "hex", "-v", "edition=1999"), "edition"),
    ],
)
def test_a_bad_variant_is_one_line_naming_the_parameter(args: tuple[str, ...], named: str) -> None:
    code, out = invoke(*args)
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and named in lines[0], out


def test_a_pair_without_a_value_is_refused() -> None:
    code, out = invoke("play", "hex", "-v", "size")
    assert code == 1 and "NAME=VALUE" in out and len(out.strip().splitlines()) == 1


@pytest.mark.parametrize("game", ["hex", "cards", "world"])
def test_play_offers_each_declared_parameter_as_an_option(game: str) -> None:
    """Every parameter a person sets (not the program's ``local`` ones) has its option in
    ``limit play GAME --help``, with its choices or range, and ``-v`` is there too."""
    code, out = invoke("play", game, "--help")
    assert code == 0
    wide = " ".join(out.split())
    assert "--variant" in wide and "NAME=VALUE" in wide
    skipped = {"hex": set(), "cards": {"returns"}, "world": {"draws", "returns"}}[game]
    for p in get_game(game).info.parameters:
        if p.local or p.name in skipped:
            assert option_name(p) + " " not in wide
            continue
        assert option_name(p) in wide, p.name
        assert metavar(p) in wide or p.kind == "bool", p.name


def test_metavar_and_option_name_by_hand() -> None:
    size = Parameter("stress_tests", "int", 1, "h", minimum=0, maximum=2)
    assert option_name(size) == "--stress-tests" and metavar(size) == "0-2"
    law = Parameter("layout", "str", "grown", "h", choices=("grown", "uniform"))
    assert metavar(law) == "grown|uniform"
    assert metavar(Parameter("data", "path", None, "h")) == "FILE"


def test_parse_variant_coerces_and_refuses() -> None:
    assert parse_variant("hex", ["size=6"], {"layout": "uniform", "edition": None}) == {
        "size": 6,
        "layout": "uniform",
    }
    with pytest.raises(VariantError, match="given twice"):
        parse_variant("hex", ["size=6", "size=7"], {})
    with pytest.raises(VariantError, match="no parameter 'colour'"):
        parse_variant("hex", ["colour=red"], {})


def test_offered_leaves_out_local_and_excluded_parameters() -> None:
    names = [p.name for p in offered("world", exclude=("draws",))]
    assert "overrides" not in names and "draws" not in names and "alliances" in names
    assert [p.name for p in offered("world", only=("players",))] == ["players"]


def test_choice_labels_follow_the_choices() -> None:
    with pytest.raises(ValueError, match="one choice label per choice"):
        Parameter("x", "str", "a", "h", choices=("a", "b"), choice_labels=("A",))
    layout = get_game("hex").info.parameter("layout")
    assert layout.choice_label("uniform").startswith("uniform")
    assert layout.choice_label("other") == "other"


def test_the_referee_takes_the_world_options() -> None:
    code, out = invoke("referee", "world", "--help")
    wide = " ".join(out.split())
    assert code == 0 and "--stress-tests" in wide and "--alliances" in wide and "-v" in wide
    assert "--draws" not in wide  # the referee's cards are always drawn at the table


def test_limit_help_loads_no_game() -> None:
    """The per-game commands are built when asked for: ``limit --help`` and ``limit play
    --help``'s siblings load no engine (a fresh interpreter, so nothing else loaded them)."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from limitgames.cli.app import build_app\n"
        "result = CliRunner().invoke(build_app(), ['--help'])\n"
        "assert result.exit_code == 0 and 'referee' in result.output, result.output\n"
        "print(sorted(m for m in sys.modules if m.split('.')[:2] in (\n"
        "    ['limitgames', 'hex'], ['limitgames', 'cards'], ['limitgames', 'world'])))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=scaled(120),
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_a_bad_variant_is_told_in_the_command_language() -> None:
    """The parameter's name and value stay as typed; the sentence is German (by hand from the
    catalogue's entry)."""
    code, out = invoke("play", "hex", "--size", "40", "--language", "de")
    assert code == 1 and out.strip() == "Fehler: size: 40 liegt über dem Höchstwert 16"


def test_a_variant_error_keeps_its_template() -> None:
    """``VariantError.because`` keeps the English template and its values, so a surface can
    translate it; ``translated`` with a hand-made translation."""
    layout = get_game("hex").info.parameter("layout")
    with pytest.raises(VariantError) as caught:
        layout.coerce("sideways")
    error = caught.value
    assert str(error) == "layout: 'sideways' is not one of grown, uniform"
    shouting = {"%(name)s: %(value)r is not one of %(allowed)s": "%(name)s! %(value)r? %(allowed)s"}
    assert error.translated(lambda t: shouting.get(t, t)) == "layout! 'sideways'? grown, uniform"
    assert VariantError("written whole").translated(str.upper) == "written whole"


@pytest.mark.parametrize(
    "args",
    [
        ("arena", "hex", "-v", "size=x", "-a", "random", "-a", "random", "-n", "2"),
        ("agents", "--bench", "hex", "-v", "size=x", "--seconds", "0.05"),
    ],
)
def test_the_commands_taking_any_game_refuse_a_bad_variant_on_one_line(
    args: tuple[str, ...],
) -> None:
    code, out = invoke(*args)
    assert code == 1
    last = out.strip().splitlines()[-1]
    assert last == "error: size: 'x' is not a int", out
