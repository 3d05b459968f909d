"""Gymnasium: the single-agent environments pass check_env; the self-play vector env works."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip(
    "gymnasium", reason="gymnasium is not installed (extra: pettingzoo)"
)

from gymnasium.utils.env_checker import check_env  # noqa: E402

import limitgames.gym  # noqa: E402, F401

IDS = [
    "limitgames/HexVsRandom-v0",
    "limitgames/HexVsHeuristic-v0",
    "limitgames/HexVsMCTS-v0",
    "limitgames/CardsVsRandom-v0",
    "limitgames/CardsVsISMCTS-v0",
    "limitgames/WorldVsRandom-v0",
    "limitgames/WorldVsHeuristic-v0",
]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env(env_id: str) -> None:
    kwargs = {"size": 4} if env_id.startswith("limitgames/Hex") else {"players": 3}
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)


def test_a_whole_episode_against_mcts() -> None:
    env = gymnasium.make("limitgames/HexVsMCTS-v0", size=3, opponent="mcts:iterations=20", seat=1)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    done = False
    reward = 0.0
    while not done:
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        assert not info.get("illegal")
    assert reward in (-1.0, 0.0, 1.0)


def test_illegal_action_ends_the_episode_with_a_loss() -> None:
    env = gymnasium.make("limitgames/CardsVsRandom-v0", players=3)
    obs, _ = env.reset(seed=1)
    wrong = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(wrong)
    assert terminated and reward == -1.0 and info["illegal"]


def test_self_play_vector_env() -> None:
    envs = gymnasium.make_vec(
        "limitgames/HexSelfPlay-v0",
        num_envs=4,
        vectorization_mode="vector_entry_point",
        size=3,
        layouts=4,
    )
    obs, info = envs.reset(seed=1)
    assert obs["observation"].shape == (4, 34, 64) and obs["action_mask"].shape == (4, 4160)
    ended = 0
    for _ in range(200):
        actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
        obs, reward, terminated, _truncated, info = envs.step(actions)
        assert info["accepted"].all()
        ended += int(terminated.sum())
        assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}
    assert ended > 0


def test_the_last_step_says_why_the_game_ended() -> None:
    env = gymnasium.make("limitgames/HexVsRandom-v0", size=3, seat=0)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done, info, reward = False, {}, 0.0
    while not done:
        obs, reward, terminated, truncated, info = env.step(
            rng.choice(np.flatnonzero(obs["action_mask"]))
        )
        done = terminated or truncated
        if not done:
            assert "termination" not in info
    assert info["termination"] in ("last_with_pawns", "table_emptied", "stalemate")
    assert (0 in info["outcome"]["winners"]) == (reward == max(info["outcome"]["returns"]))
