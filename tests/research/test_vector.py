"""The batched hex environment against the state API, game by game."""

from __future__ import annotations

import numpy as np
import pytest

from limitgames.core import Chance
from limitgames.hex import HexGame
from limitgames.hex.encoding import observation_words
from limitgames.hex.state import HexState
from limitgames.hex.vector import HexVectorEnv


def _state_of(env: HexVectorEnv, b: int, seed: int) -> HexState:
    """The pool game of env ``b`` as a fresh HexState (the pool is seeded like this)."""
    game = HexGame()
    return game.new_initial_state(seed=seed * 1_000_003 + int(env.game_of[b]), **env.variant)


@pytest.mark.parametrize("players", [2, 3])
def test_vector_env_follows_the_state_api(players: int) -> None:
    seed = 3
    env = HexVectorEnv(6, players=players, size=4, layouts=4, seed=seed)
    states = [_state_of(env, b, seed) for b in range(env.num_envs)]
    finished = 0
    for _ in range(300):
        for b, state in enumerate(states):
            player = state.seat_order().index(state.current_player())
            assert env.to_move[b] == player
            assert np.array_equal(env.planes[b], observation_words(state, state.current_player()))
            assert np.array_equal(
                np.flatnonzero(env.legal_mask()[b]), sorted(state.legal_actions())
            )
        actions = env.sample_actions()
        result = env.step(actions)
        assert result.accepted.all()
        for b, state in enumerate(states):
            state.apply(int(actions[b]))
            if state.is_terminal():
                assert result.done[b]
                returns = state.returns()
                expected = [returns[seat] for seat in state.seat_order()]
                assert list(result.rewards[b, :players]) == expected
                finished += 1
                states[b] = _state_of(env, b, seed)
            else:
                assert not result.done[b] and not result.rewards[b].any()
    assert finished > 0


def test_illegal_actions_are_refused_and_leave_the_game() -> None:
    env = HexVectorEnv(4, size=3, layouts=2, seed=1)
    before = env.states.copy()
    result = env.step(np.full(4, 4159))  # removal of tile 63: no such tile at size 3
    assert not result.accepted.any() and np.array_equal(env.states, before)
    with pytest.raises(ValueError):
        env.step(np.zeros(3, dtype=np.int64))


def test_reset_is_reproducible() -> None:
    one = HexVectorEnv(8, size=4, layouts=8, seed=2)
    two = HexVectorEnv(8, size=4, layouts=8, seed=2)
    for _ in range(50):
        a = one.sample_actions()
        b = two.sample_actions()
        assert np.array_equal(a, b)
        one.step(a)
        two.step(b)
    assert np.array_equal(one.states, two.states)
    unpacked = one.observations()
    assert unpacked.shape == (8, 34, 64) and unpacked.dtype == np.float32


def test_layout_numbers_replay_as_records() -> None:
    from limitgames.hex.game import state_from_layout_number

    state = state_from_layout_number(HexGame.info.resolve_variant({"size": 4}), 7, 1, seed=5)
    again = HexGame().new_initial_state(chance=Chance(replay=state.chance_outcomes()), size=4)
    assert again.key() == state.key() and again.seat_colours() == ["blue", "red"]
