"""The engines' research encodings: round trips, masks, tensors that reveal nothing hidden, chance."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from limitgames.core import get_game
from limitgames.hex.codec import KERNEL_ACTIONS
from limitgames.testing import check_encodings

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("hex", {"size": 4}),
    ("hex", {"size": 3, "players": 3}),
    ("hex", {"edition": "2008", "size": 3}),
    ("hex", {"edition": "2008", "size": 2, "players": 3}),
    ("cards", {"players": 2}),
    ("cards", {"players": 5}),
    ("world", {"players": 2}),
    ("world", {"players": 4}),
]


@pytest.mark.parametrize(("game_id", "variant"), VARIANTS)
def test_encodings_round_trip_and_hide_nothing_wrong(game_id: str, variant: dict[str, Any]) -> None:
    check_encodings(get_game(game_id), variant, games=2, seed=3)


@pytest.mark.parametrize(("game_id", "variant"), VARIANTS)
def test_setup_chance_deals_a_game(game_id: str, variant: dict[str, Any]) -> None:
    game = get_game(game_id)
    spec = game.encoding_spec(**variant)
    setup = game.setup_chance(**variant)
    rng = random.Random(5)
    nodes = 0
    while not setup.is_done():
        outcomes = setup.outcomes()
        assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(0 <= i < spec.max_chance_outcomes for i, _ in outcomes)
        index = rng.choice(outcomes)[0]
        assert setup.outcome_to_string(index)
        twin = setup.copy()
        setup.apply(index)
        assert len(twin.applied) == len(setup.applied) - 1  # copies are independent
        nodes += 1
    assert nodes <= spec.max_chance_nodes
    assert (spec.chance_mode == "deterministic") == (nodes == 0)
    state = setup.initial_state()
    assert state.chance_outcomes() == setup.records()
    state.playout(random.Random(1))
    assert state.is_terminal() and set(state.returns()) <= {-1.0, 0.0, 1.0}
    with pytest.raises(ValueError):
        setup.outcomes()


def test_hex_indices_do_not_depend_on_the_layout() -> None:
    # size 8: T = 32 tiles, so 32 * 32 moves and 32 removals = 1056 indices; index 1 * 32 + 2
    # moves tile 1 to tile 2 (kernel integer 1 * 64 + 2 = 66), 1024 + 5 removes tile 5 (4101)
    game = get_game("hex")
    a = game.new_initial_state(seed=1)
    b = game.new_initial_state(seed=2)
    for index, action in ((0, 0), (34, 66), (1023, 31 * 64 + 31), (1024, 4096), (1029, 4101)):
        assert a.index_to_action(index) == b.index_to_action(index) == action
        assert a.action_to_index(action) == index
    assert game.encoding_spec().num_distinct_actions == 1056
    with pytest.raises(ValueError):
        a.index_to_action(1056)
    with pytest.raises(ValueError):
        a.action_to_index(-1)
    with pytest.raises(ValueError, match="beyond"):
        a.action_to_index(32 * 64)  # a move from tile 32: no such tile at size 8


def test_hex_size_16_indices_are_the_kernel_integers() -> None:
    # T = 64: f * 64 + t and 4096 + t, exactly the kernel's integers, 4160 in all
    game = get_game("hex")
    state = game.new_initial_state(seed=1, size=16)
    assert game.encoding_spec(size=16).num_distinct_actions == KERNEL_ACTIONS == 4160
    for index in (0, 65, 4095, 4096, 4159):
        assert state.index_to_action(index) == index


def test_hex_placement_window_holds_every_reachable_cell() -> None:
    # a two-row strip is the farthest a 2008 placement reaches: each step out costs two tiles
    from limitgames.hex.encoding import placement_window

    cells, index = placement_window(2)
    assert (4, 0) in index and (5, 0) not in index and len(cells) == 3 * 4 * 5 + 1


def test_world_observation_does_not_grow_with_the_log() -> None:
    import json

    state = get_game("world").new_initial_state(seed=2, players=3)
    sizes = []
    rng = random.Random(2)
    while not state.is_terminal():
        sizes.append(len(json.dumps(state.observation(0))))
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert "log" not in state.observation(0)
    assert max(sizes) < 2 * min(sizes)


def test_returns_share_one_scale() -> None:
    for game_id, variant in (("cards", {"players": 3}), ("world", {"players": 3}), ("hex", {})):
        game = get_game(game_id)
        for seed in range(3):
            state = game.new_initial_state(seed=seed, **variant)
            returns = state.playout(random.Random(seed))
            assert set(returns) <= {-1.0, 0.0, 1.0}
            assert max(returns) >= 0.0
            if returns.count(1.0):
                assert returns.count(1.0) == 1 and 0.0 not in returns
    score = get_game("cards").new_initial_state(seed=1, players=3, returns="score")
    assert score.playout(random.Random(1)) == [float(x) for x in score.scores()]


def test_observation_tensor_equals_the_batch_planes() -> None:
    from limitgames.hex.encoding import observation_words, unpack_planes

    state = get_game("hex").new_initial_state(seed=4, size=4)
    words = observation_words(state, 1)
    assert np.array_equal(unpack_planes(words), state.observation_tensor(1))
