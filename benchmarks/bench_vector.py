"""Benchmark of the batched hex environment and the single-game PettingZoo environment.

Usage: ``python benchmarks/bench_vector.py [seconds] [threads] [num_envs]``

Prints decisions per second of :class:`limitgames.hex.vector.HexVectorEnv`
(one compiled call per step: play, auto-reset, next observation planes and
packed legal-action masks; actions drawn by the compiled uniform sampler),
then steps per second of ``limitgames.pettingzoo.hex_v0`` (one game, random
legal actions read from the action mask, resets included), with a pool of
layouts and with a fresh layout from the layout chain at every reset, if
PettingZoo is installed. With 2 threads the figure needs the second core
free: the threads meet at the end of every parallel step.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from limitgames.hex.vector import HexVectorEnv


def bench_vector(seconds: float, threads: int, num_envs: int) -> float:
    """Decisions per second of the vector env (after a warm-up)."""
    env = HexVectorEnv(num_envs, threads=threads, seed=1)
    actions = np.empty(num_envs, dtype=np.int64)
    for _ in range(20):  # warm-up (compilation is cached by setup.sh)
        env.step(env.sample_actions(actions))
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            env.sample_actions(actions)
            decisions += int(env.step(actions).accepted.sum())
    return decisions / (time.perf_counter() - start)


def bench_pettingzoo(seconds: float, layouts: int | None = None) -> float | None:
    """Steps per second of the PettingZoo AEC env (``None`` without PettingZoo)."""
    try:
        from limitgames.pettingzoo import hex_v0
    except ImportError:
        return None
    env = hex_v0.env(layouts=layouts)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            agent = env.agent_selection
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            del agent
    return steps / (time.perf_counter() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    num_envs = int(sys.argv[3]) if len(sys.argv) > 3 else 4096
    rate = bench_vector(seconds, threads, num_envs)
    print(f"HexVectorEnv, {num_envs} games, {threads} threads: {rate:,.0f} decisions/s")
    for layouts, words in (
        (64, "a pool of 64 layouts (layouts=64)"),
        (None, "a fresh layout each game"),
    ):
        pz = bench_pettingzoo(seconds, layouts)
        if pz is not None:
            print(f"pettingzoo hex_v0, one game, {words}: {pz:,.0f} steps/s")


if __name__ == "__main__":
    main()
