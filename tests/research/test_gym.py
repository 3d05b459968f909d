"""Gymnasium: the single-agent environments pass check_env; the self-play vector env works."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip(
    "gymnasium", reason="gymnasium is not installed (extra: pettingzoo)"
)

from gymnasium.utils.env_checker import check_env  # noqa: E402

import limitgames.gym  # noqa: E402

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
    # size 3: T = 12 tiles, 12 * 12 moves and 12 removals = 156 action indices
    assert obs["observation"].shape == (4, 34, 64) and obs["action_mask"].shape == (4, 156)
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


MASK_CASES = [
    ("limitgames/HexVsRandom-v0", {"size": 4}),
    ("limitgames/HexVsHeuristic-v0", {"size": 3}),
    ("limitgames/HexVsMCTS-v0", {"size": 3, "opponent": "hexmcts:iterations=10"}),
    ("limitgames/CardsVsRandom-v0", {"players": 3}),
    ("limitgames/CardsVsISMCTS-v0", {"players": 3, "opponent": "ismcts:iterations=10"}),
    ("limitgames/WorldVsRandom-v0", {"players": 3}),
    ("limitgames/WorldVsHeuristic-v0", {"players": 3}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "kwargs"), MASK_CASES)
def test_action_masks_are_the_legal_actions(env_id: str, kwargs: dict[str, object]) -> None:
    # The naive reading: the engine's legal actions, each mapped to its index.
    env = gymnasium.make(env_id, **kwargs)
    action_masks = env.get_wrapper_attr("action_masks")
    raw = env.unwrapped
    rng = np.random.default_rng(1)
    steps = 0
    for seed in (1, 2):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done and steps < 150:
            mask = action_masks()
            state = raw.state  # type: ignore[attr-defined]
            expected = np.zeros(raw.action_space.n, np.bool_)  # type: ignore[attr-defined]
            expected[[state.action_to_index(a) for a in state.legal_actions()]] = True
            assert mask.dtype == np.bool_ and np.array_equal(mask, expected)
            assert np.array_equal(mask, obs["action_mask"].astype(np.bool_))
            obs, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask)))
            assert not info.get("illegal")
            done = terminated or truncated
            steps += 1
        if done:
            assert not action_masks().any() and not obs["action_mask"].any()


def test_action_masks_need_a_reset() -> None:
    env = limitgames.gym.LimitVsAgentEnv("hex", size=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.action_masks()


def test_self_play_gives_the_final_observation_of_an_ended_game() -> None:
    from limitgames.hex import HexGame
    from limitgames.hex.encoding import observation_words, unpack_planes

    envs = gymnasium.make_vec(
        "limitgames/HexSelfPlay-v0",
        num_envs=3,
        vectorization_mode="vector_entry_point",
        size=3,
        layouts=4,
        seed=4,
    )
    raw = envs.unwrapped
    envs.reset(seed=[5, 6, 7])
    game = HexGame()
    variant = raw.env.variant  # type: ignore[attr-defined]
    pool = [game.new_initial_state(seed=4 * 1_000_003 + k, **variant) for k in range(4)]
    states = [pool[int(g)].clone() for g in raw.env.game_of]  # type: ignore[attr-defined]
    ended = 0
    for _ in range(120):
        actions = raw.sample_actions()  # type: ignore[attr-defined]
        movers = [state.current_player() for state in states]
        _obs, reward, terminated, _truncated, info = envs.step(actions)
        assert ("final_obs" in info) == terminated.any()
        for b, state in enumerate(states):
            state.apply_index(int(actions[b]))
            assert bool(terminated[b]) == state.is_terminal()
            if not terminated[b]:
                continue
            assert info["_final_obs"][b] and info["_final_info"][b]
            final = info["final_obs"][b]
            expected = unpack_planes(observation_words(state, movers[b]))
            assert np.array_equal(final["observation"], expected)
            assert not final["action_mask"].any()
            assert raw.single_observation_space.contains(final)
            returns = [state.returns()[seat] for seat in state.seat_order()]
            assert list(info["final_info"]["rewards"][b, :2]) == returns
            assert reward[b] == state.returns()[movers[b]]
            ended += 1
            states[b] = pool[int(raw.env.game_of[b])].clone()  # type: ignore[attr-defined]
        if terminated.any():
            assert not info["_final_obs"][~terminated].any()
    assert ended > 0
