"""The protocol, records and conformance suite on a toy game."""

from __future__ import annotations

import json

import pytest

from limitgames.core import (
    GameRecord,
    Parameter,
    RecordError,
    VariantError,
    get_game,
    parse_variant_options,
)
from limitgames.core.perft import divide, perft
from limitgames.core.registry import UnknownGameError
from limitgames.testing import check_game, check_illegal_is_harmless
from tests.core.toy import NIM


def test_parameter_coercion_and_errors() -> None:
    p = Parameter("size", "int", 8, "tiles per colour", minimum=2, maximum=8)
    assert p.coerce("5") == 5
    with pytest.raises(VariantError, match="below the minimum"):
        p.coerce(1)
    with pytest.raises(VariantError, match="not a int"):
        p.coerce("big")
    e = Parameter("edition", "str", "a", "edition", choices=("a", "b"))
    with pytest.raises(VariantError, match="not one of a, b"):
        e.coerce("c")
    b = Parameter("flag", "bool", False, "a flag")
    assert b.coerce("yes") is True and b.coerce("off") is False


def test_resolve_variant_rejects_unknown_keys() -> None:
    assert NIM.info.resolve_variant({}) == {"players": 2}
    with pytest.raises(VariantError, match="no parameter 'colour'"):
        NIM.info.resolve_variant({"colour": "red"})
    assert parse_variant_options(["a=1", "b = x"]) == {"a": "1", "b": "x"}
    with pytest.raises(VariantError):
        parse_variant_options(["novalue"])


def test_registry() -> None:
    assert get_game("toy-nim") is NIM
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        get_game("chess")


def test_conformance_on_toy_game() -> None:
    check_game(NIM, {"players": 3}, games=5)


def test_illegal_action_changes_nothing() -> None:
    state = NIM.new_initial_state(seed=1)
    check_illegal_is_harmless(state, 7)


def test_record_round_trip_and_replay() -> None:
    state = NIM.new_initial_state(seed=3)
    while not state.is_terminal():
        state.apply(1)
    record = GameRecord.of_state(state, seats=["random", "random"], seed=3)
    text = record.dumps()
    again = GameRecord.loads(text)
    assert again.actions == record.actions and again.chance == record.chance
    final = again.replay()
    assert final.returns() == state.returns()
    assert again.action_lines is not None and len(again.action_lines) == len(again.actions)
    # every action sits on its own line
    lines = text.splitlines()
    for i, line_no in enumerate(again.action_lines):
        assert json.loads(lines[line_no - 1].strip().rstrip(",")) == again.actions[i]


def test_corrupt_record_names_the_line() -> None:
    state = NIM.new_initial_state(seed=3)
    state.apply(1)
    state.apply(2)
    text = GameRecord.of_state(state).dumps().replace('"take 2"', '"take 9"')
    record = GameRecord.loads(text)
    with pytest.raises(RecordError) as info:
        record.replay()
    line = record.action_lines[1] if record.action_lines else None
    assert info.value.where == f"action 2 (take 9, line {line})"
    with pytest.raises(RecordError, match="line 1"):
        GameRecord.loads("{not json")
    with pytest.raises(RecordError, match="field 'game'"):
        GameRecord.loads('{"variant": {}}')
    with pytest.raises(RecordError, match="take X"):
        GameRecord.loads(text.replace('"take 1"', '"take X"')).replay()


def test_result_mismatch_is_reported() -> None:
    state = NIM.new_initial_state(seed=4)
    while not state.is_terminal():
        state.apply(1)
    record = GameRecord.of_state(state)
    assert record.result is not None
    record.result = [-x for x in record.result]
    with pytest.raises(RecordError, match="field 'result'"):
        record.replay()


def test_chance_replay_mismatch() -> None:
    record = GameRecord(
        game="toy-nim", variant={"players": 2}, seats=[], chance=[{"kind": "deal", "value": 3}]
    )
    with pytest.raises(RecordError, match="chance 0"):
        record.replay()


def test_perft_and_divide() -> None:
    state = NIM.new_initial_state(seed=5)
    assert perft(state, 0) == 1
    assert perft(state, 1) == 3
    assert perft(state, 2) == 9
    assert sum(c for _, c in divide(state, 2)) == 9
