"""What players read at the terminal: level names, seats counted from 1, no search figures
unless asked for, and the default opponent of ``limit play hex``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from limitgames.agents import level_spec
from limitgames.cards import CARDS
from limitgames.cards.notation import SUSPECT
from limitgames.cli.app import build_app
from limitgames.cli.cards_play import CardsTerminal
from limitgames.cli.seats import Seat, parse_seats, seats_line
from limitgames.core import GameRecord, NotationError


def test_limit_play_hex_without_seats_plays_medium(tmp_path: Path) -> None:
    record = tmp_path / "hex.json"
    result = CliRunner().invoke(
        build_app(), ["play", "hex", "--seed", "2", "--record", str(record)], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    # the record keeps the agent of hex's medium level (agents/levels.py), not random
    assert GameRecord.read(record).seats == ["human", level_spec("hex", "medium")]
    assert level_spec("hex", "medium") != "random"
    assert "computer (medium)" in " ".join(result.output.split())
    assert "seed 2" in result.output  # hex hides nothing: its seed may be read at the start


def test_suspect_n_counts_from_1_as_the_table_does() -> None:
    state = CARDS.new_initial_state(seed=1, players=3)
    terminal = CardsTerminal()
    terminal.names = ["You", "Barbara", "Clara"]
    # the table lists You as 1, Barbara as 2, Clara as 3; the record's notation counts from 0
    assert terminal.parse(state, "suspect 1") == SUSPECT + 0
    assert terminal.parse(state, "suspect 3") == SUSPECT + 2
    assert terminal.parse(state, "suspect clara") == SUSPECT + 2
    with pytest.raises(NotationError, match="no player 4 \\(the players are 1 to 3\\)"):
        terminal.parse(state, "suspect 4")
    assert state.action_to_string(SUSPECT + 0) == "suspect 0"  # the notation stays as it is


def test_illegal_actions_are_told_to_you_not_to_seat_0() -> None:
    state = CARDS.new_initial_state(seed=1, players=3)
    terminal = CardsTerminal()
    terminal.names = ["You", "Barbara", "Clara"]
    player = state.current_player()
    missing = next(c for c, n in state.observation(player)["hand"].items() if n == 0)
    try:
        state.clone().apply(state.parse_action(f"hide {missing}"))
    except Exception as exc:  # the engine's reason, about "seat N"
        told = terminal.illegal_reason(state, exc)
    else:
        pytest.fail("hiding a colour not held was accepted")
    assert told == f"you hold no {missing} card to hide"


def test_computers_are_named_by_level_not_by_agent() -> None:
    seats = parse_seats(["human", "hard", "random"], 3, game_id="cards", seed=1)
    seats[0].name, seats[1].name, seats[2].name = "You", "Barbara", "Clara"
    line = seats_line(seats)
    assert line == "Seats: You; Barbara (computer: hard); Clara (computer: random moves)."
    assert "ismcts" not in line
    typed = Seat("mcts:seconds=1", None, "Daniel")
    assert typed.level == ""


def test_search_figures_only_with_analysis(tmp_path: Path) -> None:
    from limitgames.core import get_game

    state = get_game("hex").new_initial_state(seed=3)
    first = state.action_to_string(state.legal_actions()[0])  # the person moves first

    def play(*extra: str) -> str:
        result = CliRunner().invoke(
            build_app(),
            [*("play", "hex", "--seed", "3", "--no-record", "-s", "human"), *extra],
            input=f"{first}\nquit\n",
            env={"COLUMNS": "200"},
        )
        assert result.exit_code == 0, result.output
        assert "blue" in result.output
        return result.output

    options = ("-s", "mcts:iterations=20")
    plain = play(*options)
    assert "win estimate" not in plain and "of visits" not in plain
    assert "win estimate" in play(*options, "--analysis")
