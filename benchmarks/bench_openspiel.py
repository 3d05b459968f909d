"""Benchmark of the OpenSpiel adapter: one random rollout through ``pyspiel`` against the same
rollout through the project's own API.

Usage: ``python benchmarks/bench_openspiel.py [seconds] [repeats] [game ...]`` (default 3 s,
5 repeats; hex, cards, world); needs the ``openspiel`` extra.

For each game it plays random rollouts from a state after the setup's chance nodes, each
for ``seconds`` of CPU time (``time.process_time``, so other processes on the machine count
little), in two ways:

- through the adapter, with OpenSpiel's own ``RandomRolloutEvaluator`` (what ``MCTSBot``
  calls for every simulation: ``clone``, then ``is_terminal``, ``is_chance_node``,
  ``legal_actions``, a NumPy draw and ``apply_action`` until the end);
- through the engine's own API, the same loop: ``State.clone``, ``is_terminal``,
  ``legal_action_indices``, the same NumPy draw and ``apply_index``.

It prints the CPU milliseconds of one rollout each way and their ratio, as the median of
``repeats`` measurements (each way measured in turn within a repeat) with the range of the
ratio.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

try:
    import pyspiel
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator
except ImportError:  # pragma: no cover - depends on the extra
    sys.exit(
        "the OpenSpiel benchmark needs the openspiel extra: pip install 'limitgames[openspiel]'"
    )

import limitgames.openspiel  # noqa: F401  (registers the games)


def _per_rollout(rollout: Callable[[], None], seconds: float) -> float:
    """CPU milliseconds of one call of ``rollout``, over ``seconds`` of CPU."""
    rollout()
    start, count = time.process_time(), 0
    while time.process_time() - start < seconds:
        rollout()
        count += 1
    return (time.process_time() - start) / count * 1000


def bench(game_id: str, seconds: float) -> tuple[float, float]:
    """``(adapter ms, own API ms)`` of one random rollout of ``game_id`` from its first
    decision (seeded setup draws)."""
    game = pyspiel.load_game(f"limitgames_{game_id}")
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    evaluator = RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    inner = state.inner
    draw = np.random.RandomState(0)

    def own() -> None:
        working = inner.clone()
        while not working.is_terminal():
            working.apply_index(draw.choice(working.legal_action_indices()))

    return _per_rollout(lambda: evaluator.evaluate(state), seconds), _per_rollout(own, seconds)


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 3.0
    repeats = int(argv[1]) if len(argv) > 1 else 5
    games = argv[2:] or ["hex", "cards", "world"]
    print(f"{repeats} repeats of {seconds:g} s of CPU each way; medians, and the ratio's range")
    print(f"{'game':6} {'adapter ms':>11} {'own API ms':>11} {'ratio':>6} {'range':>11}")
    for game_id in games:
        runs = [bench(game_id, seconds) for _ in range(repeats)]
        ratios = [adapter / own for adapter, own in runs]
        adapter = statistics.median(a for a, _ in runs)
        own = statistics.median(o for _, o in runs)
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        print(
            f"{game_id:6} {adapter:11.3f} {own:11.3f} {statistics.median(ratios):6.2f} {spread:>11}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
