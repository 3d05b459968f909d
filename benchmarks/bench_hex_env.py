"""Benchmark of the batched hex environment with its observations and masks written every step.

Usage: ``python benchmarks/bench_hex_env.py [seconds] [num_envs] [size] [players] [repeats]``
(defaults 5, 1024, 8, 2, 3). Runs on one thread (``numba.set_num_threads(1)``).

Decisions per second of CPU time (``time.process_time``: the CPU this process used, so the
figure means the same on a busy machine; wall-clock time there also counts other processes'
turns), each step playing one uniformly random legal action per game (the compiled sampler),
auto-resets included, measured three ways:

- ``HexVectorEnv(tensors=True)``: the compiled step also writes the dense observation
  ``float32[B, 34, 64]`` and the per-size mask ``int8[B, A]`` (:mod:`limitgames.hex.tensors`);
  the loop reads both arrays' first entries each step;
- ``HexSelfPlay-v0`` through ``gymnasium.make_vec`` with ``copy=False`` (the same arrays
  handed out) and with ``copy=True`` (Gymnasium's default: a copy of each every step), if
  Gymnasium is installed;
- for comparison, ``HexVectorEnv`` without tensors, unpacking them after each step with
  ``observations()`` and ``legal_mask()`` (new arrays each time).

Each row prints the median and the range over ``repeats`` runs.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import numba
import numpy as np

from limitgames.hex.vector import HexVectorEnv


def _rate(step: Callable[[], int], seconds: float) -> float:
    """Decisions per CPU second of ``step`` (which returns the decisions it made)."""
    for _ in range(5):
        step()
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(10):
            decisions += step()
    return decisions / (time.process_time() - start)


def tensors_rate(seconds: float, num_envs: int, size: int, players: int) -> float:
    """``HexVectorEnv(tensors=True)``, the arrays read each step."""
    env = HexVectorEnv(num_envs, players=players, size=size, seed=1, tensors=True)
    actions = np.empty(num_envs, dtype=np.int64)

    def step() -> int:
        env.sample_actions(actions)
        result = env.step(actions)
        _ = float(result.observation[0, 0, 0]) + int(result.action_mask[0, 0])
        return int(result.accepted.sum())

    return _rate(step, seconds)


def unpacked_rate(seconds: float, num_envs: int, size: int, players: int) -> float:
    """``HexVectorEnv`` without tensors, ``observations()`` and ``legal_mask()`` each step."""
    env = HexVectorEnv(num_envs, players=players, size=size, seed=1)
    actions = np.empty(num_envs, dtype=np.int64)

    def step() -> int:
        env.sample_actions(actions)
        result = env.step(actions)
        env.observations()
        env.legal_mask()
        return int(result.accepted.sum())

    return _rate(step, seconds)


def gymnasium_rate(
    seconds: float, num_envs: int, size: int, players: int, copy: bool
) -> float | None:
    """``HexSelfPlay-v0`` through ``gymnasium.make_vec`` (``None`` without Gymnasium)."""
    try:
        import gymnasium

        import limitgames.gym  # noqa: F401
    except ImportError:
        return None
    envs = gymnasium.make_vec(
        "limitgames/HexSelfPlay-v0",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        size=size,
        players=players,
        copy=copy,
    )
    raw = envs.unwrapped
    envs.reset(seed=1)

    def step() -> int:
        _obs, _reward, _done, _trunc, info = envs.step(raw.sample_actions())  # type: ignore[attr-defined]
        return int(info["accepted"].sum())

    return _rate(step, seconds)


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 5.0
    num_envs = int(argv[1]) if len(argv) > 1 else 1024
    size = int(argv[2]) if len(argv) > 2 else 8
    players = int(argv[3]) if len(argv) > 3 else 2
    repeats = int(argv[4]) if len(argv) > 4 else 3
    numba.set_num_threads(1)
    rows: list[tuple[str, Callable[[], float | None]]] = [
        (
            "HexVectorEnv(tensors=True)",
            lambda: tensors_rate(seconds, num_envs, size, players),
        ),
        (
            "HexSelfPlay-v0, copy=False",
            lambda: gymnasium_rate(seconds, num_envs, size, players, False),
        ),
        (
            "HexSelfPlay-v0, copy=True",
            lambda: gymnasium_rate(seconds, num_envs, size, players, True),
        ),
        (
            "HexVectorEnv, observations() + legal_mask()",
            lambda: unpacked_rate(seconds, num_envs, size, players),
        ),
    ]
    print(
        f"size {size}, {players} players, {num_envs} games, 1 thread, "
        f"{repeats} x {seconds:g} s of CPU each; decisions per CPU second"
    )
    for name, measure in rows:
        rates = [measure() for _ in range(repeats)]
        if any(r is None for r in rates):
            print(f"{name:45} (not installed)")
            continue
        values = [float(r) for r in rates if r is not None]
        print(
            f"{name:45} median {statistics.median(values):11,.0f}"
            f"  range {min(values):,.0f}-{max(values):,.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
