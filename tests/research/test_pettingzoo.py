"""PettingZoo: the AEC environments pass the library's own tests."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (extra: pettingzoo)")

from pettingzoo.test import api_test, seed_test

from limitgames.pettingzoo import cards_v0, hex_v0, world_v0

ENVS = [
    (hex_v0, {"size": 4}),
    (hex_v0, {"edition": "2008", "size": 2}),
    (cards_v0, {"players": 3}),
    (world_v0, {"players": 2}),
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("module", "variant"), ENVS)
def test_api_and_seed(module: object, variant: dict[str, object]) -> None:
    api_test(module.env(**variant), num_cycles=200)  # type: ignore[attr-defined]
    seed_test(lambda: module.env(**variant), num_cycles=50)  # type: ignore[attr-defined]


@pytest.mark.parametrize("module", [hex_v0, cards_v0, world_v0])
def test_render_rgb(module: object) -> None:
    env = module.env(render_mode="rgb_array")  # type: ignore[attr-defined]
    env.reset(seed=1)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3


def test_max_cycles_truncates() -> None:
    # pettingzoo.test.max_cycles_test needs a parallel env whose agents all act at once, which a
    # turn-based game is not; this is the same promise for the AEC env.
    env = cards_v0.env(players=3, max_cycles=5)
    env.reset(seed=2)
    decisions = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        decisions += 1
        del agent
    assert decisions == 5


def test_only_the_acting_agent_sees_a_mask() -> None:
    env = cards_v0.env(players=3)
    env.reset(seed=4)
    acting = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == acting)


def test_hex_layout_pool() -> None:
    env = hex_v0.env(size=4, layouts=3)
    starts = set()
    for seed in range(12):
        env.reset(seed=seed)
        starts.add(env.unwrapped.state.key())
    assert 1 < len(starts) <= 3 * 2  # three layouts, two colour deals


def test_the_termination_is_in_every_agents_info_at_the_end() -> None:
    # hex says why its games end: each agent's last info names the termination, and the
    # outcome's winners are the agents that got the best reward
    env = hex_v0.env(size=3)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent
    infos = env.unwrapped.infos
    rewards = env.unwrapped.rewards
    termination = {info["termination"] for info in infos.values()}
    assert termination <= {"last_with_pawns", "table_emptied", "stalemate"} and termination
    outcome = infos[env.unwrapped.possible_agents[0]]["outcome"]
    best = max(rewards.values())
    agents = env.unwrapped.possible_agents
    assert [agents[s] for s in outcome["winners"]] == [a for a in agents if rewards[a] == best]
