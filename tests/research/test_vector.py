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
                np.flatnonzero(env.legal_mask()[b]),
                sorted(state.action_to_index(a) for a in state.legal_actions()),
            )
        actions = env.sample_actions()
        result = env.step(actions)
        assert result.accepted.all()
        for b, state in enumerate(states):
            state.apply_index(int(actions[b]))
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
    # size 3 has 12 tiles, so indices 0..155: 156 and -1 are no action of this size
    result = env.step(np.array([156, -1, 156, 10**6]))
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


def test_sampling_never_changes_the_layouts_of_later_games() -> None:
    # Both batches play the same actions; one also samples 0-3 extra times per step. With one
    # stream for both, the extra draws would change which pool layout a finished game restarts on.
    plain = HexVectorEnv(4, size=3, layouts=16, seed=5)
    sampler = HexVectorEnv(4, size=3, layouts=16, seed=5)
    extra = np.random.default_rng(0)
    restarts = 0
    for _ in range(200):
        actions = plain.sample_actions()
        for _ in range(int(extra.integers(4))):
            sampler.sample_actions()
        result = plain.step(actions)
        sampler.step(actions)
        restarts += int(result.done.sum())
        assert np.array_equal(plain.game_of, sampler.game_of)
        assert np.array_equal(plain.states, sampler.states)
    assert restarts > 4


def test_each_game_has_its_own_seed() -> None:
    # Game b of a batch seeded [s0, s1, s2] plays like a batch of one seeded s_b (same pool).
    seeds = [11, 4, 11]
    batch = HexVectorEnv(3, size=3, layouts=16, seed=1)
    batch.reset(seed=seeds)
    alone = [HexVectorEnv(1, size=3, layouts=16, seed=1) for _ in seeds]
    for env, s in zip(alone, seeds, strict=True):
        env.reset(seed=[s])
    layouts: list[list[int]] = [[] for _ in seeds]
    for _ in range(150):
        actions = batch.sample_actions()
        assert list(actions) == [int(env.sample_actions()[0]) for env in alone]
        result = batch.step(actions)
        for b, env in enumerate(alone):
            env.step(actions[b : b + 1])
            assert np.array_equal(batch.states[b], env.states[0])
            if result.done[b]:
                layouts[b].append(int(batch.game_of[b]))
    assert layouts[0] == layouts[2] and layouts[0] != layouts[1]
    # an integer seed s seeds game b with s + b
    by_int = HexVectorEnv(3, size=3, layouts=16, seed=1)
    by_list = HexVectorEnv(3, size=3, layouts=16, seed=1)
    by_int.reset(seed=7)
    by_list.reset(seed=[7, 8, 9])
    assert np.array_equal(by_int.rngs, by_list.rngs)
    assert np.array_equal(by_int.sample_rngs, by_list.sample_rngs)
    with pytest.raises(ValueError, match="one seed per game"):
        batch.reset(seed=[1, 2])


def test_the_final_state_of_an_ended_game_is_kept() -> None:
    with pytest.raises(ValueError, match="keep_final"):
        HexVectorEnv(1, size=3, layouts=1).final_state(0)
    env = HexVectorEnv(4, size=3, layouts=4, seed=2, keep_final=True)
    with pytest.raises(ValueError, match="ended yet"):
        env.final_state(0)
    states = [_state_of(env, b, 2) for b in range(env.num_envs)]
    lengths = [0] * env.num_envs
    ended = 0
    for _ in range(150):
        actions = env.sample_actions()
        movers = [state.current_player() for state in states]
        result = env.step(actions)
        for b, state in enumerate(states):
            state.apply_index(int(actions[b]))
            lengths[b] += 1
            if result.done[b]:
                assert state.is_terminal()
                player = state.seat_order().index(movers[b])
                assert np.array_equal(
                    env.final_planes(b, player), observation_words(state, movers[b])
                )
                assert env.final_lengths[b] == lengths[b]
                assert np.array_equal(env.final_state(b), state.kernel_vector())
                ended += 1
                states[b] = _state_of(env, b, 2)
                lengths[b] = 0
    assert ended > 0
