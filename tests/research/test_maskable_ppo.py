"""The MaskablePPO example (examples/maskable_ppo_hex.py) trains, shortened and seeded, and never
plays an illegal action."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="needs limitgames[gymnasium]")
pytest.importorskip("sb3_contrib", reason="needs limitgames[rl] (sb3-contrib, torch)")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo_hex.py"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("maskable_ppo_hex", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_a_short_seeded_run_honours_the_masks_and_plays_the_games_asked(tmp_path: Path) -> None:
    example = _load()
    saved = tmp_path / "ppo.zip"
    run = example.train(
        minutes=None,
        timesteps=2048,
        size=4,
        seed=3,
        envs=4,
        n_steps=256,
        batch_size=256,
        n_epochs=2,
        threads=1,
        eval_every_minutes=1000.0,  # no evaluation in between, however busy the machine
        eval_games=12,
        save=str(saved),
        progress=False,
    )
    # 4 envs x 256 steps a rollout: 2 rollouts reach 2048 steps
    assert run.timesteps == 2048
    # a size-4 game against random lasts about ten of your decisions: 2048 steps end many games
    assert run.episodes > 50
    # the env itself (the rules engine's legality check) reports an illegal action with
    # info["illegal"]; with 272 actions and a few dozen legal at most, an untrained policy
    # that ignored the mask would choose illegal ones at almost every step
    assert run.illegal == 0
    # evaluated before training and after it, each time the number of games asked
    assert len(run.curve) == 2
    for point in run.curve:
        assert point.games == 12
        assert point.illegal == 0
        assert 0 <= point.wins <= point.games
    assert saved.is_file()


def test_an_untrained_policy_without_masks_plays_illegal_actions() -> None:
    """The control for the test above: the env's count of illegal actions can be non-zero."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    example = _load()
    env = gymnasium.make(example.ENV_ID, size=4)
    model = MaskablePPO("MultiInputPolicy", env, seed=0, device="cpu")
    obs, _ = env.reset(seed=0)
    illegal = 0
    for _ in range(20):
        action, _ = model.predict(obs, deterministic=False)  # no action_masks given
        obs, _, terminated, truncated, info = env.step(int(action))
        illegal += int(bool(info.get("illegal", False)))
        if terminated or truncated:
            obs, _ = env.reset()
    assert illegal > 0
