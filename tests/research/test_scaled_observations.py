"""cards and world observations scaled into the declared range, checked over seeded random games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from limitgames.core import get_game

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("cards", {"players": 2}),
    ("cards", {"players": 6}),
    ("cards", {"players": 3, "hand": 9}),  # a full hand of 9 is the hand sizes' divisor
    ("cards", {"players": 2, "colours": 2, "cards_per_colour": 4, "hand": 3, "limit_pile": 1}),
    ("world", {"players": 2}),
    ("world", {"players": 5}),
]


@pytest.mark.parametrize(("game_id", "variant"), VARIANTS)
def test_every_feature_stays_in_the_declared_range(game_id: str, variant: dict[str, Any]) -> None:
    game = get_game(game_id)
    players = int(variant["players"])
    low, high = game.encoding_spec(**variant).observation_range
    assert (low, high) == (-1.0, 1.0)
    module = __import__(f"limitgames.{game_id}.encoding", fromlist=["raw_observation_tensor"])
    seen_high = 0.0
    for seed in range(3):
        state = game.new_initial_state(seed=seed, **variant)
        rng = random.Random(seed)
        decisions = 0
        while decisions < 400:
            for seat in range(players):
                scaled = state.observation_tensor(seat)
                raw = module.raw_observation_tensor(state, seat)
                assert scaled.dtype == np.float32
                assert scaled.min() >= low and scaled.max() <= high
                # scaling keeps zeros, signs and which features are set
                assert np.array_equal(np.sign(scaled), np.sign(raw))
                seen_high = max(seen_high, float(np.abs(raw).max()))
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    assert seen_high > 1.0  # the raw counts did leave [-1, 1]: the scaling had work to do


def test_cards_hand_sizes_are_divided_by_the_full_hand() -> None:
    # hand=9 with 3 players: each seat is dealt 9 cards (rules/cards.md, Setup, with the
    # variant's hand), so its hand_sizes feature starts at 9 / 9 = 1
    from limitgames.cards.encoding import OFFSETS

    state = get_game("cards").new_initial_state(seed=2, players=3, hand=9)
    assert state.observation_tensor(1)[OFFSETS["hand_sizes"]] == pytest.approx(1.0)


def test_cards_bounded_counts_are_divided_by_their_bound() -> None:
    # hand-reasoned: a 2-player deal gives each seat 6 cards (rules/cards.md, Setup), so its
    # hand_sizes feature is 6 / 6 = 1; 14 of the 24 limit cards are put aside: 14 / 24
    from limitgames.cards.encoding import OFFSETS

    state = get_game("cards").new_initial_state(seed=1, players=2)
    scaled = state.observation_tensor(0)
    assert scaled[OFFSETS["hand_sizes"]] == pytest.approx(1.0)
    assert scaled[OFFSETS["put_aside"]] == pytest.approx(14 / 24)
    assert scaled[OFFSETS["draw_pile"]] == pytest.approx((60 - 12) / 60)


def test_gymnasium_spaces_hold_the_scaled_observations() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import limitgames.gym  # noqa: F401

    for env_id in ("limitgames/CardsVsRandom-v0", "limitgames/WorldVsRandom-v0"):
        env = gymnasium.make(env_id, players=3)
        obs, _ = env.reset(seed=4)
        space = env.observation_space["observation"]  # type: ignore[index]
        assert float(space.low.min()) == -1.0 and float(space.high.max()) == 1.0
        for _ in range(30):
            assert env.observation_space.contains(obs)
            mask = env.get_wrapper_attr("action_masks")()
            obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
            if terminated or truncated:
                obs, _ = env.reset()
