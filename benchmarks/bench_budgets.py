"""Do the agents keep their time budgets? CPU and wall seconds per decision against the budget.

Usage: ``python benchmarks/bench_budgets.py [budget_seconds] [GAME ...]``

For every agent with a time budget (``mcts``, ``ismcts``, ``alphabeta``) and
every game, it times ``choose`` at a few positions along a random game and
prints the worst CPU and wall time with the budget + 10%. (This was a test;
timing belongs in benchmarks, where a busy machine cannot fail a build.)
"""

from __future__ import annotations

import sys
import time

from limitgames.agents import make_agent
from limitgames.core import State, available_games
from limitgames.testing import positions_along_a_game

SMALL_VARIANTS = {"hex": {"size": 4}, "cards": {"players": 3}}


def positions(game_id: str, count: int = 3, seed: int = 3) -> list[State]:
    """``count`` positions along one random game, on the small variants."""
    return positions_along_a_game(game_id, count, seed, SMALL_VARIANTS.get(game_id, {}))


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 0.2
    games = sys.argv[2:] or available_games()
    for game_id in games:
        for name in ("mcts", "ismcts", "alphabeta"):
            agent = make_agent(f"{name}:seconds={budget}", seed=1)
            worst_cpu = worst_wall = 0.0
            for state in positions(game_id):
                started, cpu_started = time.perf_counter(), time.process_time()
                agent.choose(state)
                worst_wall = max(worst_wall, time.perf_counter() - started)
                worst_cpu = max(worst_cpu, time.process_time() - cpu_started)
            verdict = "ok" if worst_cpu <= 1.1 * budget + 0.05 else "OVER"
            print(
                f"{game_id:6} {name:9} budget {budget:.2f} s: worst cpu {worst_cpu:.3f} s, "
                f"wall {worst_wall:.3f} s ({verdict})"
            )


if __name__ == "__main__":
    main()
