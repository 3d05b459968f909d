"""``limit play world``, ``limit bench world``, ``limit rules world`` and the terminal view."""

from __future__ import annotations

import re
from pathlib import Path

import typer
from rich.console import Console
from typer.testing import CliRunner

from limitgames.cli import rules_cmd, world_play, world_view
from limitgames.core import GameRecord
from tests.world.scenario import at_policy, new_state, set_board

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("world")(world_play.play_world)
    app.command("bench")(world_play.bench_world)
    app.command("rules")(rules_cmd.rules_command)
    return app


def test_unattended_game_is_recorded_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        _app(),
        ["world", "--players", "3", "--seat", "random", "--seed", "4", "--record", str(path)],
    )
    assert result.exit_code == 0, result.output
    assert "Scores" in result.output and (
        "wins with" in result.output or "share the win" in result.output
    )
    record = GameRecord.read(path)
    assert record.game == "world" and len(record.seats) == 3
    final = record.replay()
    assert final.is_terminal() and record.result == final.returns()


def test_a_person_previews_confirms_and_quits(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    lines = ["moves", "deck society", "keep nonsense", "card education", "log", "quit"]
    result = runner.invoke(
        _app(),
        ["world", "--players", "2", "--seed", "1", "--record", str(path)],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Your hand" in result.output and "public-expenditure" in result.output
    assert "legal:" in result.output
    assert "Illegal" in result.output or "Not understood" in result.output
    assert "Education (society, instant, starter)" in result.output
    assert GameRecord.read(path).actions[0] == "deck society"


def test_play_is_previewed_before_confirmation() -> None:
    state = new_state(2)
    n = at_policy(state, 0, ["public-expenditure", "education"])
    set_board(n, population=4, money=12, unrest=6)
    lines = world_view.preview_lines(state, ("play", "public-expenditure"))
    text = "\n".join(lines)
    # population position 4 is worth 5: 1 $ per POP is 5 $, unrest -1 (rules/world.md)
    assert "you: money 12 -> 7 $" in text
    assert "you: social unrest 6 -> 5" in text
    assert "World Bank 218 -> 223 $" in text  # 2 nations x 109 $, plus the 5 $ paid
    assert "nations." not in text and "hand_by_deck" not in text  # game words, not state keys
    assert n.money == 12  # the state itself is unchanged
    answers = iter(["play public-expenditure", "n", "play public-expenditure", "y"])
    console = Console(record=True, width=120)
    reader = world_play.WorldInput(console, lambda: state, lambda prompt: next(answers))
    assert reader("> ") == "play public-expenditure"
    assert console.export_text().count("Preview of play public-expenditure") == 2


def test_render_shows_the_hand_the_world_and_the_choice() -> None:
    state = new_state(3, seed=2)
    console = Console(record=True, width=160)
    seat = state.current_player()
    world_view.render(console, state, seat)
    out = console.export_text()
    for words in (
        "World Bank",
        "market price",
        "standard of living A-E",
        "Your hand",
        "to decide",
        "Options:",
    ):
        assert words in out
    other = (seat + 1) % 3
    assert "Options:" not in _render(state, other)


def _render(state: object, seat: int) -> str:
    console = Console(record=True, width=160)
    world_view.render(console, state, seat)  # type: ignore[arg-type]
    return console.export_text()


def test_rules_lists_reconstructed_values() -> None:
    from limitgames.world.data import DEFAULT_DATA, iter_entries

    result = runner.invoke(_app(), ["rules", "world", "--reconstructed"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    supplied = [
        path
        for path, entry in iter_entries(DEFAULT_DATA.raw)
        if entry["source"] in ("reconstructed", "decision") or path.startswith("readings.")
    ]
    starts = {line.split(" = ")[0] for line in lines}
    assert set(supplied) <= starts  # every key whole, one per line, even at 80 columns
    assert "market.prices = [1, 1, 2, 3, 5, 10, 20]  # reconstructed" in lines
    assert not any(line.endswith("# rulebook") for line in lines)
    summary = runner.invoke(_app(), ["rules", "world"])
    assert "reconstructed" in summary.output
    other = runner.invoke(_app(), ["rules", "hex"])
    assert other.exit_code == 0 and "docs/rules/hex.md" in other.output
    assert "docs/rules/world.md" in summary.output
    assert runner.invoke(_app(), ["rules", "chess"]).exit_code == 1


def test_rules_toml_is_an_override_file_to_edit(tmp_path: Path) -> None:
    import tomllib

    from limitgames.world.data import DEFAULT_DATA, load_data

    result = runner.invoke(_app(), ["rules", "world", "--reconstructed", "--format", "toml"])
    assert result.exit_code == 0, result.output
    parsed = tomllib.loads(result.output)
    assert parsed["readings"]["war_plants"] == "industrial-or-military"
    assert parsed["cards"]["education"]["params"]["money_per_pop"] == 1
    edited = result.output.replace('war_plants = "industrial-or-military"', 'war_plants = "any"')
    path = tmp_path / "mine.toml"
    path.write_text(edited, encoding="utf-8")
    data = load_data(str(path))
    assert data.readings["war_plants"] == "any"
    assert data.scoring == DEFAULT_DATA.scoring and data.market_start_positions == [3, 4, 4, 4]


def test_rules_with_a_bad_override(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[scoring]\nterritory = 'five'\n", encoding="utf-8")
    result = runner.invoke(_app(), ["rules", "world", "--all", "--data", str(bad)])
    assert result.exit_code == 1
    assert "scoring.territory must be integer" in result.output


def test_bench_prints_games_per_second() -> None:
    result = runner.invoke(_app(), ["bench", "--players", "4", "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    assert "random games per second" in result.output


def test_computer_choices_in_hidden_steps_are_not_announced(tmp_path: Path) -> None:
    result = runner.invoke(
        _app(),
        [
            "world",
            "--players",
            "2",
            "--seat",
            "random",
            "--seed",
            "6",
            "--record",
            str(tmp_path / "g.json"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert ": a hidden choice (choose a deck to draw from)" in result.output
    assert ": keep " not in result.output and ": discard " not in result.output
    assert re.search(r"\b(circle|square): play ", result.output)  # decide policy is public


def test_opponent_level_and_bad_options(tmp_path: Path) -> None:
    result = runner.invoke(
        _app(),
        ["world", "--players", "2", "--opponent", "godlike", "--record", str(tmp_path / "g.json")],
    )
    assert result.exit_code == 1 and "unknown level" in result.output
    result = runner.invoke(
        _app(), ["world", "--players", "9", "--record", str(tmp_path / "g.json")]
    )
    assert result.exit_code == 1 and "players: 9 is above the maximum 6" in result.output
    result = runner.invoke(
        _app(), ["world", "--seat", "nobody", "--record", str(tmp_path / "g.json")]
    )
    assert result.exit_code == 1 and "unknown agent" in result.output


def test_save_a_position_and_play_on_from_it(tmp_path: Path) -> None:
    saved = tmp_path / "table.json"
    against_computers = runner.invoke(
        _app(),
        ["world", "--players", "3", "--seed", "2", "--record", str(tmp_path / "a.json")],
        input=f"position {saved}\nquit\n",
    )
    assert against_computers.exit_code == 0, against_computers.output
    assert "for a table of people only" in against_computers.output and not saved.exists()
    people = ["--seat", "human", "--seat", "human", "--seat", "human"]
    result = runner.invoke(
        _app(),
        ["world", "--players", "3", *people, "--seed", "2", "--record", str(tmp_path / "a.json")],
        input=f"position {saved}\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert saved.exists() and "saved to" in result.output
    again = runner.invoke(
        _app(),
        [
            "world",
            "--position",
            str(saved),
            "--seat",
            "random",
            "--record",
            str(tmp_path / "b.json"),
        ],
    )
    assert again.exit_code == 0, again.output
    record = GameRecord.read(tmp_path / "b.json")
    assert record.start is not None and record.replay().is_terminal()
    bad = runner.invoke(_app(), ["world", "--position", str(tmp_path / "none.json")])
    assert bad.exit_code == 1 and "cannot read the file" in bad.output


def test_undo_is_refused_once_cards_were_seen(tmp_path: Path) -> None:
    # the person draws first (seed 1): taking the draw back after seeing the cards would let
    # them choose another deck knowing what this one holds
    lines = ["deck society", "undo", "quit"]
    result = runner.invoke(
        _app(), ["world", "--players", "2", "--seed", "1", "--no-record"], input="\n".join(lines)
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Cannot undo:" in text and "Took back" not in text


def test_the_alliance_step_and_solo_mode_in_the_terminal(tmp_path: Path) -> None:
    """`--alliances on` at 3 nations: the alliance actions are announced; `--solo` plays one seat
    against the star nation and ends with the solo score line; both records replay."""
    path = tmp_path / "allied.json"
    args = ["world", "--players", "3", "--alliances", "on", "--seat", "random", "--seed", "2"]
    result = runner.invoke(_app(), [*args, "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "offer military" in result.output or "offer economic" in result.output
    assert GameRecord.read(path).replay().is_terminal()
    path = tmp_path / "solo.json"
    args = ["world", "--solo", "--seat", "random", "--seed", "2", "--record", str(path)]
    result = runner.invoke(_app(), args)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # Rich wraps at 80 columns
    assert "circle played a very good game with" in said or (
        "circle scored" in said and "victory points, not a very good game" in said
    )
    record = GameRecord.read(path)
    assert len(record.seats) == 1 and record.replay().is_terminal()
