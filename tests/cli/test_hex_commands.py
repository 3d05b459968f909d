"""The hex commands: play (people and computer), replay, perft, bench, games; one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from limitgames.cli.app import build_app
from limitgames.core import GameRecord

runner = CliRunner()
HERE = Path(__file__).parent
SMALL = json.loads((HERE.parent / "hex" / "perft_small.json").read_text())


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(build_app(), list(args), input=input)
    return result.exit_code, result.output


def test_games_lists_hex_with_its_parameters() -> None:
    code, out = invoke("games")
    assert code == 0
    assert "Cameron Browne" in out and "edition" in out and "nestorgames" in out


def test_unattended_game_saves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out = invoke(
        "play",
        "hex",
        "--seat",
        "random",
        "--seat",
        "random",
        "--size",
        "3",
        "--seed",
        "4",
        "--record",
        str(record),
    )
    assert code == 0, out
    assert "Game over" in out and f"Record saved to {record}" in out
    rec = GameRecord.read(record)
    assert rec.result is not None and rec.seats == ["random", "random"]
    code, out = invoke("replay", str(record))
    assert code == 0 and "replayed and verified" in out


def test_a_person_plays_asks_for_help_is_refused_and_undoes(tmp_path: Path) -> None:
    record = tmp_path / "human.json"
    from limitgames.core import get_game

    state = get_game("hex").new_initial_state(seed=9, size=3)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    tiles = state.observation(None)["tiles"]
    blue = next(t["name"] for t in tiles if t["pawn"] == 1)
    empty = next(t["name"] for t in tiles if t["pawn"] is None)
    lines = ["help", "moves", "nonsense", f"{blue}-{empty}", legal[0], "undo", "quit"]
    code, out = invoke(
        "play",
        "hex",
        "--seat",
        "human",
        "--size",
        "3",
        "--seed",
        "9",
        "--record",
        str(record),
        input="\n".join(lines) + "\n",
    )
    assert code == 0, out
    assert "undo" in out and "legal:" in out
    assert "Not understood" in out and f"Illegal: there is no red pawn on {blue}" in out
    assert "Took back your last decision" in out
    rec = GameRecord.read(record)
    assert rec.result is None, "the game was stopped before its end"
    assert rec.actions == [], "the undo took the move back before quitting"


def test_perft_and_divide(tmp_path: Path) -> None:
    pos = tmp_path / "line5.json"
    pos.write_text(json.dumps(SMALL[0]["position"]))
    code, out = invoke("perft", "hex", str(pos), "3")
    assert code == 0 and "perft(3) = 4" in out
    code, out = invoke("perft", "hex", str(pos), "2", "--divide")
    assert code == 0 and "perft(2) = 3" in out and out.count(": ") >= 3


def test_bad_files_get_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "hex", "tiles": [{"q": 0, "r": 0, "colour": "green", "pawn": null}]}')
    code, out = invoke("perft", "hex", str(bad), "1")
    assert code == 1 and "unknown colour 'green'" in out and "Traceback" not in out
    bad.write_text("{not json")
    code, out = invoke("perft", "hex", str(bad), "1")
    assert code == 1 and "not JSON" in out
    code, out = invoke("perft", "hex", str(tmp_path / "missing.json"), "1")
    assert code == 1 and "cannot read" in out
    # a record with a corrupt action names the action and its line
    record = tmp_path / "r.json"
    invoke(
        "play",
        "hex",
        "--seat",
        "random",
        "--seat",
        "random",
        "--size",
        "3",
        "--seed",
        "2",
        "--record",
        str(record),
    )
    rec = GameRecord.read(record)
    text = record.read_text().replace(json.dumps(rec.actions[2]), '"a1-z9"', 1)
    record.write_text(text)
    code, out = invoke("replay", str(record))
    assert code == 1 and "action 3 (a1-z9, line" in out and "Traceback" not in out


def test_bench_prints_the_figures() -> None:
    code, out = invoke("bench", "hex", "--seconds", "0.3", "--size", "3")
    assert code == 0
    for word in (
        "playouts per second",
        "decisions per second",
        "red wins",
        "draws",
        "layouts per second",
    ):
        assert word in out


def test_bad_variant_is_refused() -> None:
    code, out = invoke("play", "hex", "--players", "4", "--seat", "random")
    assert code == 1 and "players: 4 is above the maximum 3" in out and "Traceback" not in out
    code, out = invoke("play", "hex", "--edition", "1999", "--seat", "random", "--no-record")
    assert code == 1 and "edition" in out and "Traceback" not in out


def test_the_layout_law_is_chosen_and_recorded(tmp_path: Path) -> None:
    """--layout uniform reaches the game and its record; a record replays with its own layout."""
    for law in ("uniform", "grown"):
        record = tmp_path / f"{law}.json"
        code, out = invoke(
            "play", "hex", "--seat", "random", "--seat", "random", "--size", "4",
            "--seed", "5", "--layout", law, "--record", str(record), "--quiet",
        )  # fmt: skip
        assert code == 0, out
        rec = GameRecord.read(record)
        assert rec.variant["layout"] == law
        assert invoke("replay", str(record))[0] == 0
    code, out = invoke("play", "hex", "--layout", "square", "--seat", "random", "--no-record")
    assert code == 1 and "layout" in out and "grown, uniform" in out and "Traceback" not in out
    code, out = invoke("bench", "hex", "--seconds", "0.2", "--size", "3", "--layout", "uniform")
    assert code == 0 and "layouts per second" in out


def test_a_game_from_a_position_file_is_recorded_and_replays(tmp_path: Path) -> None:
    # a generated layout saved as a position file (seat colours dealt at random included),
    # played to the end by the computer: the record keeps the position and replays, with the
    # reason the game ended (the record's outcome) checked on the way
    from limitgames.core import get_game

    start = get_game("hex").new_initial_state(seed=3, size=3)
    position = tmp_path / "position.json"
    position.write_text(json.dumps(start.position()))
    record = tmp_path / "game.json"
    code, out = invoke(
        *["play", "hex", "--position", str(position), "-s", "random", "-s", "random"],
        *["--seed", "1", "--record", str(record)],
    )
    assert code == 0, out
    assert f"Record saved to {record}" in out
    rec = GameRecord.read(record)
    assert rec.start is not None and rec.result is not None and rec.outcome is not None
    final = rec.replay()
    outcome = final.outcome()
    assert outcome is not None and outcome.to_json() == rec.outcome
    code, out = invoke("replay", str(record))
    assert code == 0 and "replayed and verified" in out, out


def test_divide_at_depth_one_counts_the_game_ending_move(tmp_path: Path) -> None:
    """line5 (tests/hex/perft_small.json, see its "why"): three moves, one captures the last
    blue pawn; at depth 1 each is a whole sequence, so the divide total is perft(1) = 3."""
    pos = tmp_path / "line5.json"
    pos.write_text(json.dumps(SMALL[0]["position"]))
    code, out = invoke("perft", "hex", str(pos), "1", "--divide")
    assert code == 0
    assert "a1-d1: 1" in out and "perft(1) = 3" in out


def test_bracketed_error_text_survives(tmp_path: Path) -> None:
    position = dict(SMALL[0]["position"], frame="nowhere")
    pos = tmp_path / "frame.json"
    pos.write_text(json.dumps(position))
    code, out = invoke("perft", "hex", str(pos), "1")
    assert code == 1 and "'frame' must be [row0, col0]" in " ".join(out.split())


def test_deeply_nested_json_gets_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short file name: the line fits the test terminal's width
    Path("deep.json").write_text("[" * 10_000 + "]" * 10_000)
    Path("deep-record.json").write_text('{"actions": [], "x": ' + "[" * 10_000 + "]" * 10_000 + "}")
    for args in (
        ("perft", "hex", "deep.json", "1"),
        ("solve", "hex", "deep.json"),
        ("play", "hex", "--position", "deep.json", "--seat", "random", "--seat", "random"),
        ("play", "hex", "--position", "deep-record.json", "--seat", "random", "--seat", "random"),
        ("replay", "deep-record.json"),
    ):
        result = runner.invoke(build_app(), list(args))
        assert result.exit_code == 1, (args, result.exception)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "nested too deeply" in lines[0], (args, result.output)
        assert "Traceback" not in result.output
