"""`GameRecord.positions()`: every position of a recorded game, in order, as copies."""

from __future__ import annotations

import random

import pytest

from limitgames.core import Chance
from limitgames.core.errors import RecordError
from limitgames.core.record import GameRecord
from limitgames.core.registry import get_game


@pytest.mark.parametrize("game_id", ["hex", "cards", "world"])
def test_positions_walk_the_game_played(game_id: str) -> None:
    # Play a seeded random game, remembering each position's information state for
    # seat 0 as the game went; the record's positions must show the same sequence.
    rng = random.Random(7)
    state = get_game(game_id).new_initial_state(chance=Chance(seed=3))
    seen = []
    for _ in range(40):
        if state.is_terminal():
            break
        seen.append(state.information_state_string(0))
        state.apply(rng.choice(state.legal_actions()))
    seen.append(state.information_state_string(0))
    record = GameRecord.of_state(state)
    walked = list(record.positions())
    assert [s.information_state_string(0) for s, _ in walked] == seen
    assert [text for _, text in walked] == [*record.actions, None]


def test_positions_are_copies_and_a_bad_action_names_its_index() -> None:
    rng = random.Random(1)
    state = get_game("hex").new_initial_state(chance=Chance(seed=5))
    for _ in range(6):
        state.apply(rng.choice(state.legal_actions()))
    record = GameRecord.of_state(state)
    first, _ = next(record.positions())
    first.apply(first.legal_actions()[0])  # changing a yielded copy changes nothing else
    assert len(list(record.positions())) == 7
    broken = GameRecord.from_json({**record.to_json(), "actions": [*record.actions[:3], "zz99"]})
    with pytest.raises(RecordError, match="action 4"):
        list(broken.positions())
