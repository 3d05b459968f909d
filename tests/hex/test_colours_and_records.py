"""Colours dealt to seats by chance (nestorgames: "determine randomly the player's colours",
seeds/000 Placement Phase), and records that know the rules they were made under."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from limitgames.cli.app import build_app
from limitgames.core import GameRecord, RecordError, get_game
from limitgames.hex.state import HexState


def _owner_colours(state: HexState) -> dict[int, set[str | None]]:
    out: dict[int, set[str | None]] = {}
    for _, colour, owner in state.tiles():
        if owner is not None:
            out.setdefault(owner, set()).add(colour)
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_colours_are_dealt_by_chance_and_red_moves_first(players: int) -> None:
    game = get_game("hex")
    red_seats = []
    for seed in range(120):
        state = game.new_initial_state(seed=seed, players=players, size=6)
        assert isinstance(state, HexState)
        colours = state.seat_colours()
        assert sorted(colours) == sorted(["red", "blue", "yellow"][:players])
        # every seat's pawns stand on its own colour, and red's seat has the first decision
        assert _owner_colours(state) == {seat: {colour} for seat, colour in enumerate(colours)}
        if state.turn == 1:  # (a 3-player first turn may be skipped: no move can avoid capturing)
            assert state.current_player() == colours.index("red")
        assert state.chance_outcomes()[1] == {"kind": "colours", "value": colours}
        red_seats.append(colours.index("red"))
    # each seat gets red about 1/players of the time (120 deals: far inside 5 standard deviations)
    for seat in range(players):
        share = red_seats.count(seat) / len(red_seats)
        assert (
            abs(share - 1 / players) < 5 * (1 / players * (1 - 1 / players) / len(red_seats)) ** 0.5
        )


def test_three_player_turns_follow_the_colours() -> None:
    game = get_game("hex")
    state = next(
        s
        for seed in range(50)
        if (s := game.new_initial_state(seed=seed, players=3, size=4)).seat_colours()
        != ["red", "blue", "yellow"]
    )
    assert isinstance(state, HexState)
    colours = state.seat_colours()
    order = []
    while len(order) < 3:
        seat = state.current_player()
        if not order or order[-1] != seat:
            order.append(seat)
        state.apply(state.legal_actions()[0])
    assert [colours[s] for s in order] == ["red", "blue", "yellow"]


def test_fixed_colours_seat_red_first_and_draw_no_deal() -> None:
    state = get_game("hex").new_initial_state(seed=4, players=3, colours="fixed")
    assert isinstance(state, HexState)
    assert state.seat_colours() == ["red", "blue", "yellow"] and state.current_player() == 0
    assert [c["kind"] for c in state.chance_outcomes()] == ["layout"]


def test_a_dealt_game_round_trips_through_its_record_and_its_position() -> None:
    game = get_game("hex")
    state = next(
        s
        for seed in range(20)
        if (s := game.new_initial_state(seed=seed, size=4)).seat_colours()[0] == "blue"
    )
    for _ in range(7):
        state.apply(state.legal_actions()[-1])
    again = GameRecord.loads(GameRecord.of_state(state).dumps()).replay(verify_result=False)
    assert again.observation(None) == state.observation(None)
    position = state.observation(None)
    assert position["seat_colours"] == ["blue", "red"]
    loaded = game.state_from_position(position)
    assert loaded.observation(None) == state.observation(None)
    # (tile numbers start afresh on a loaded surface, so compare the notation)
    assert sorted(loaded.action_to_string(a) for a in loaded.legal_actions()) == sorted(
        state.action_to_string(a) for a in state.legal_actions()
    )


ROW = {  # a1 . | b1 R | c1 . | d1 R | e1 . | f1 B | g1 .  (red to move)
    "game": "hex",
    "edition": "nestorgames",
    "size": 8,
    "players": 2,
    "to_move": 0,
    "step": "move",
    "turn": 5,
    "quiet_turns": 0,
    "tiles": [
        {"q": q, "r": 0, "colour": "black", "pawn": p}
        for q, p in enumerate([None, 0, None, 0, None, 1, None])
    ],
}


def _old_record(actions: list[str], rules: str = "hex-1") -> GameRecord:
    return GameRecord(
        game="hex",
        variant={"edition": "nestorgames", "players": 2, "size": 8},
        seats=["a", "b"],
        actions=actions,
        start=ROW,
        rules_version=rules,
    )


def test_an_old_record_with_an_unreachable_move_is_refused_naming_the_action_and_the_rule() -> None:
    record = GameRecord.loads(_old_record(["d1-a1"]).dumps())
    with pytest.raises(RecordError) as info:
        record.replay()
    text = str(info.value)
    # d1-a1 must pass b1, which holds red's own pawn: only c1 and e1 are reachable from d1
    assert "hex-1" in text and "hex-2" in text
    assert "action 1 (d1-a1" in text and "line" in text
    assert "cannot be reached from d1 through empty tiles" in text


def test_an_old_record_that_is_still_legal_replays_with_a_note(tmp_path: Path) -> None:
    record = _old_record(["b1-c1"])
    assert record.replay() is not None
    assert "hex-1" in record.rules_note()
    path = record.write(tmp_path / "old.json")
    result = CliRunner().invoke(build_app(), ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "hex-1" in result.output and "verified" in result.output


def test_limit_replay_refuses_the_old_illegal_record(tmp_path: Path) -> None:
    path = _old_record(["d1-a1"]).write(tmp_path / "bad.json")
    result = CliRunner().invoke(build_app(), ["replay", str(path)])
    assert result.exit_code == 1
    assert (
        "d1-a1" in result.output
        and "cannot be reached" in result.output
        and "hex-1" in result.output
    )


def test_records_made_before_colours_were_dealt_replay_with_fixed_colours() -> None:
    fresh = get_game("hex").new_initial_state(seed=9, size=3, colours="fixed")
    data = json.loads(GameRecord.of_state(fresh).dumps())
    data["rules_version"] = "hex-1"
    data["variant"].pop("colours")  # hex-1 records had no colours parameter and no deal
    state = GameRecord.from_json(data).replay(verify_result=False)
    assert isinstance(state, HexState) and state.seat_colours() == ["red", "blue"]


def test_the_note_on_an_old_record_is_in_the_reader_s_language(tmp_path: Path) -> None:
    path = _old_record(["b1-c1"]).write(tmp_path / "old.json")
    result = CliRunner().invoke(build_app(), ["replay", str(path), "--language", "de"])
    assert result.exit_code == 0, result.output
    # written out by hand from the German catalogue's sentence
    assert "Hinweis: Diese Aufzeichnung entstand unter den Regeln hex-1" in " ".join(
        result.output.split()
    )
    assert "Note: this record" not in result.output
