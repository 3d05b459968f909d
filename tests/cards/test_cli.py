"""``limit play cards``, ``limit bench cards`` and the terminal view."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from limitgames.cards import CARDS
from limitgames.cards.words import suspicion_sentence
from limitgames.cli import cards_play, cards_view
from limitgames.core import GameRecord
from tests.deadlines import scaled

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("cards")(cards_play.play_cards)
    app.command("bench")(cards_play.bench_cards)
    return app


def test_a_suspicion_in_words() -> None:
    # Daniel (seat 3) suspects Barbara (seat 1), whose last card was green: 4 green cards
    # counted, limit card 3 + 1 hidden green = 4, not exceeded (rules/cards.md, "A round" 4)
    check = {
        "colour": "green",
        "counted": 4,
        "card_limit": 3,
        "hidden": 1,
        "limit": 4,
        "exceeded": False,
        "by": 3,
        "suspect": 1,
        "scorer": 1,
        "taker": 3,
    }
    names = cards_view.RULEBOOK_NAMES
    assert suspicion_sentence({"suspicion": check}, names) == (
        "Daniel suspects Barbara. Counted up to the last card of Barbara: 4 green cards; "
        "limit 3 + 1 hidden = 4, not exceeded: Barbara scores +1. Daniel takes the limit card."
    )
    no_limit = dict(check, card_limit="X", limit=None)
    told = suspicion_sentence({"suspicion": no_limit}, names)
    assert "limit X (no limit), not exceeded" in told


def test_unattended_game_is_narrated_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        _app(),
        ["cards", "--players", "4", "--seat", "random", "--seed", "5", "--record", str(path)],
    )
    assert result.exit_code == 0, result.output
    assert "Round 1: limit card" in result.output
    assert re.search(r"\w+ hides a card", result.output)
    assert "hides a red card" not in result.output  # nobody sees another's hidden card
    text = " ".join(result.output.split())  # Rich wraps at 80 columns
    assert re.search(r"Counted up to the last card of \w+: \d+ \w+ cards?; limit", text)
    assert re.search(r"(wins|share the win) with", result.output)
    record = GameRecord.read(path)
    assert record.seats == ["random"] * 4 and record.game == "cards"
    final = record.replay()
    assert final.is_terminal() and record.result == final.returns()


def test_a_person_plays_by_number_and_quits(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    lines = "hide pink\nsuspect 0\n1\n1\n1\nmoves\npile\nquit\n"
    result = runner.invoke(
        _app(),
        [
            "cards",
            "-n",
            "3",
            "-s",
            "human:Ann",
            "--seed",
            "2",
            "--pause",
            "0",
            "--record",
            str(path),
        ],
        input=lines,
    )
    assert result.exit_code == 0, result.output
    assert "Your hand:" in result.output and "Ann, your move" in result.output
    assert "'pink' is not a colour" in result.output
    assert "may not be looked through" in result.output
    record = GameRecord.read(path)
    assert record.seats[0] == "human:Ann" and record.result is None
    state = record.replay()
    assert not state.is_terminal() and len(record.actions) >= 3


def test_show_pile_and_end_of_input(tmp_path: Path) -> None:
    result = runner.invoke(
        _app(),
        ["cards", "-n", "2", "--seed", "4", "--show-pile", "--no-record", "--pause", "0"],
        input="1\n1\n1\n1\n1\n1\n",
    )
    assert result.exit_code == 0, result.output
    assert "Pile:" in result.output


def test_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"cards": [{"red": 12}]}), encoding="utf-8")
    result = runner.invoke(_app(), ["cards", "--limit-cards", str(bad), "--no-record"])
    assert result.exit_code == 1 and "card 1: red is 12, must be 0-9" in result.output
    result = runner.invoke(
        _app(), ["cards", "-n", "2", "-s", "random", "-s", "random", "-s", "random"]
    )
    assert result.exit_code == 1 and "3 --seat options for 2 players" in result.output
    result = runner.invoke(_app(), ["cards", "-s", "chess-master", "--no-record"])
    assert result.exit_code == 1 and "unknown agent 'chess-master'" in result.output


def test_another_limit_card_set(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    path.write_text(json.dumps(["00000"] * 8), encoding="utf-8")
    record = tmp_path / "game.json"
    result = runner.invoke(
        _app(),
        [
            "cards",
            "-s",
            "random",
            "--limit-cards",
            str(path),
            "--seed",
            "1",
            "--quiet",
            "--record",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("takes the limit card") == 2  # 8 cards - 6 put aside
    assert GameRecord.read(record).variant["limit_cards"] == str(path)


def test_bench(tmp_path: Path) -> None:
    result = runner.invoke(_app(), ["bench", "--players", "4", "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    assert re.search(r"\d+ games/s", result.output)
    figures = cards_play.measure_random_games(3, 0.05, seed=1)
    assert figures["games"] >= 1 and figures["decisions_per_game"] > 0


def test_render_for_a_seat_hides_other_hands() -> None:
    state = CARDS.new_initial_state(seed=9, players=4)
    console = Console(record=True, width=120)
    cards_view.render(console, state, 0)
    text = console.export_text()
    assert "Your hand:" in text and "Limit card:" in text
    spectator = Console(record=True, width=120)
    cards_view.render(spectator, state, None)
    assert "Your hand:" not in spectator.export_text()


def test_limit_command_lists_cards() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from limitgames.cli.app import main; main()",
            "play",
            "cards",
            "--help",
        ],
        capture_output=True,
        text=True,
        timeout=scaled(60),
    )
    assert out.returncode == 0, out.stderr
    assert "--limit-cards" in out.stdout and "--show-pile" in out.stdout


def test_suspect_by_name() -> None:
    lines = "suspect barbara\n1\n" * 6 + "quit\n"
    result = runner.invoke(
        _app(), ["cards", "-n", "3", "--seed", "6", "--no-record", "--pause", "0"], input=lines
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # Rich wraps at 80 columns
    assert "You suspect Barbara" in text
    assert re.search(
        r"You suspect Barbara Hidden cards: .* Counted up to the last card of Barbara", text
    )
    assert re.search(r"You score \+1|You take the limit card", text)


def test_ctrl_c_saves_the_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from limitgames.agents import Agent, make_agent
    from limitgames.core import Action, State

    class Interrupting(Agent):
        calls = 0

        def choose(self, state: State) -> Action:
            Interrupting.calls += 1
            if Interrupting.calls > 10:
                raise KeyboardInterrupt
            return state.legal_actions()[0]

    def fake_make_agent(spec: str, seed: int | None = None, game: str | None = None) -> Agent:
        if spec == "interrupting":
            return Interrupting(spec, seed)
        return make_agent(spec, seed, game=game)

    from limitgames.cli import seats

    monkeypatch.setattr(seats, "make_agent", fake_make_agent)
    path = tmp_path / "cut.json"
    result = runner.invoke(
        _app(),
        [
            "cards",
            "-n",
            "2",
            "-s",
            "interrupting",
            "-s",
            "random",
            "--seed",
            "1",
            "--record",
            str(path),
        ],
    )
    assert result.exit_code == 130, result.output
    assert "Interrupted" in result.output
    record = GameRecord.read(path)
    assert record.result is None and len(record.actions) >= 10
    assert not record.replay().is_terminal()


def test_levels_fill_the_computer_seats() -> None:
    seats = cards_play.make_seats(["human"], 3, seed=1, fill="heuristic")
    assert [s.is_human for s in seats] == [True, False, False]
    assert seats[1].label == "heuristic" and seats[0].name == "You"
    assert seats[1].name == "Barbara"
    seats = cards_play.make_seats(["easy"], 2, seed=1)
    assert seats[0].agent is not None and seats[0].label != "easy"


def test_computers_pace_themselves_when_a_person_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    from limitgames.cli import session

    waits: list[float] = []
    monkeypatch.setattr(session.time, "sleep", waits.append)
    lines = "1\n" * 4 + "quit\n"
    result = runner.invoke(_app(), ["cards", "-n", "3", "--seed", "6", "--no-record"], input=lines)
    assert result.exit_code == 0, result.output
    assert waits and set(waits) == {cards_play.COMPUTER_PACE} and cards_play.COMPUTER_PACE >= 0.8
    waits.clear()
    alone = runner.invoke(
        _app(), ["cards", "-n", "2", "-s", "random", "--seed", "6", "--no-record"]
    )
    assert alone.exit_code == 0 and waits == [], "no waiting when nobody watches"
