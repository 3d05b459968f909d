"""hex's per-size action indices and the batch's compiled tensors, against naive references.

The reference action list is built the slow, obvious way: every (from, to) pair of the ``T =
4 * size`` tiles in order, then every removal, then (2008) every window cell's tile and ball
placement, each as the kernel's integer (``from * 64 + to``, ``4096 + tile``: the codec's
documented numbers); an action's index is its position in that list.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limitgames.core import get_game
from limitgames.hex import encoding
from limitgames.hex.codec import ball_action, tile_action
from limitgames.hex.encoding import observation_tensor
from limitgames.hex.vector import HexVectorEnv


@lru_cache(maxsize=64)
def naive_actions(size: int, edition: str) -> tuple[int, ...]:
    """Every action of the size in index order (see the module docstring)."""
    tiles = 4 * size
    actions = [f * 64 + t for f in range(tiles) for t in range(tiles)]
    actions += [4096 + t for t in range(tiles)]
    if edition == "2008":
        radius = 2 * size
        cells = []
        for r in range(-radius, radius + 1):
            for q in range(-radius, radius + 1):
                s = -q - r
                if abs(q) <= radius and abs(r) <= radius and abs(s) <= radius:
                    cells.append((q, r))
        actions += [tile_action(c) for c in cells] + [ball_action(c) for c in cells]
    return tuple(actions)


def _variant(size: int, edition: str = "nestorgames", players: int = 2) -> dict[str, Any]:
    return get_game("hex").info.resolve_variant(
        {"size": size, "edition": edition, "players": players}
    )


def test_the_action_counts_by_size() -> None:
    # T = 4n tiles: T * T moves (a pair of tiles, the same tile twice included) and T removals
    for size, count in ((2, 72), (4, 272), (8, 1056), (16, 4160)):
        for players in (2, 3):
            assert encoding.num_distinct_actions(_variant(size, players=players)) == count
            assert len(naive_actions(size, "nestorgames")) == count


@settings(max_examples=300, deadline=None)
@given(
    size=st.integers(2, 16),
    edition=st.sampled_from(["nestorgames", "2008"]),
    data=st.data(),
)
def test_an_index_and_its_action_match_the_naive_list(size: int, edition: str, data: Any) -> None:
    variant = _variant(size, edition)
    reference = naive_actions(size, edition)
    assert encoding.num_distinct_actions(variant) == len(reference)
    index = data.draw(st.integers(0, len(reference) - 1))
    assert encoding.index_to_action(variant, index) == reference[index]
    assert encoding.action_to_index(variant, reference[index]) == index
    tiles = 4 * size
    if index < tiles * tiles + tiles:  # the compiled pair the batch uses
        assert encoding.action_of(index, tiles) == reference[index]
        assert encoding.index_of(reference[index], tiles) == index


@settings(max_examples=100, deadline=None)
@given(size=st.integers(2, 15), fr=st.integers(0, 63), to=st.integers(0, 63))
def test_tiles_beyond_the_size_have_no_index(size: int, fr: int, to: int) -> None:
    variant = _variant(size)
    tiles = 4 * size
    reference = naive_actions(size, "nestorgames")
    for action in (fr * 64 + to, 4096 + fr):
        if action not in reference:
            with pytest.raises(ValueError, match="beyond"):
                encoding.action_to_index(variant, action)
    assert encoding.action_of(len(reference), tiles) == -1
    assert encoding.action_of(-1, tiles) == -1


@pytest.mark.parametrize(
    ("size", "edition", "players"),
    [(3, "nestorgames", 2), (4, "nestorgames", 3), (8, "nestorgames", 2), (2, "2008", 2)],
)
def test_masks_and_indices_over_seeded_random_games(size: int, edition: str, players: int) -> None:
    game = get_game("hex")
    reference = naive_actions(size, edition)
    where = {a: i for i, a in enumerate(reference)}
    for seed in range(3):
        state = game.new_initial_state(seed=seed, size=size, edition=edition, players=players)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            expected = np.zeros(len(reference), np.bool_)
            expected[[where[a] for a in legal]] = True
            assert np.array_equal(state.legal_action_mask(), expected)
            for action in legal:
                index = state.action_to_index(action)
                assert index == where[action] and state.index_to_action(index) == action
            state.apply_index(where[rng.choice(legal)])


@pytest.mark.parametrize(("size", "players"), [(3, 2), (4, 3), (8, 2)])
def test_the_batch_tensors_equal_the_state_api(size: int, players: int) -> None:
    # the compiled step writes the observation and mask; the per-state Python path is the reference
    seed = 5
    env = HexVectorEnv(5, players=players, size=size, layouts=3, seed=seed, tensors=True)
    game = get_game("hex")
    pool = [game.new_initial_state(seed=seed * 1_000_003 + k, **env.variant) for k in range(3)]
    states = [pool[int(g)].clone() for g in env.game_of]
    plain = HexVectorEnv(5, players=players, size=size, layouts=3, seed=seed)
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(250):
        for b, state in enumerate(states):
            seat = state.current_player()
            assert np.array_equal(env.observation[b], observation_tensor(state, seat))
            assert np.array_equal(env.action_mask[b].astype(np.bool_), state.legal_action_mask())
        assert np.array_equal(plain.observations(), env.observation)
        assert np.array_equal(plain.legal_mask(), env.action_mask.astype(np.bool_))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_mask])
        result = env.step(actions)
        plain.step(actions)
        assert result.accepted.all()
        for b, state in enumerate(states):
            state.apply_index(int(actions[b]))
            if state.is_terminal():
                assert result.done[b]
                states[b] = pool[int(env.game_of[b])].clone()
                ended += 1
    assert ended > 0


def test_size_4_environment_has_a_few_hundred_actions() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import limitgames.gym  # noqa: F401

    env = gymnasium.make("limitgames/HexVsRandom-v0", size=4)
    assert env.action_space.n == 272 <= 600
    obs, _ = env.reset(seed=3)
    mask = env.get_wrapper_attr("action_masks")()
    assert obs["action_mask"].shape == (272,)
    assert np.array_equal(mask, obs["action_mask"].astype(np.bool_)) and mask.any()
