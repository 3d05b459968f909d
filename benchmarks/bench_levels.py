"""The work a level does a decision, and what it costs in CPU and wall seconds.

Usage: ``python benchmarks/bench_levels.py [GAME[:k=v,...] ...] [--spec SPEC] [--count N]``

For each game (default: ``hex``, ``hex:edition=2008``, ``hex:players=3``, ``cards``, ``world``)
and each level (or only ``--spec SPEC``), it asks the agent for ``N`` decisions at positions
along one seeded random game and prints, per decision, the work done (``iterations`` or
``nodes`` from ``last_info``), the CPU seconds (``time.process_time``: on a busy machine this
is close to what the decision takes on a quiet one, the searches being single-threaded) and
the wall seconds. The work budgets of ``limitgames.agents.levels`` were calibrated with it:
work a CPU-second times the wall time the level was given before.
"""

from __future__ import annotations

import argparse
import statistics
import time

from limitgames.agents import LEVELS, level_spec, make_agent
from limitgames.testing import positions_along_a_game

DEFAULT_GAMES = ("hex", "hex:edition=2008", "hex:players=3", "cards", "world")


def parse_game(text: str) -> tuple[str, dict[str, object]]:
    """``"hex:players=3,size=8"`` -> ``("hex", {"players": 3, "size": 8})``."""
    game_id, _, rest = text.partition(":")
    variant: dict[str, object] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        variant[key] = int(value) if value.isdigit() else value
    return game_id, variant


def measure(game: str, spec: str, count: int, seed: int) -> None:
    """Print the work, CPU and wall seconds of ``count`` decisions of ``spec`` on ``game``."""
    game_id, variant = parse_game(game)
    agent = make_agent(spec, seed=seed, game=game_id)
    works, cpus, walls, rates = [], [], [], []
    states = positions_along_a_game(game_id, count, seed, variant)
    agent.choose(states[0])  # compiles (or loads) whatever the agent runs: not counted
    agent.reset()
    for state in states:
        cpu, wall = time.process_time(), time.perf_counter()
        agent.choose(state)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
        info = agent.last_info
        works.append(int(info.get("iterations", info.get("nodes", 0)) or 0))
        rates.append(works[-1] / max(cpus[-1], 1e-9))
        agent.reset()
    print(
        f"{game:18} {spec}\n    work median {statistics.median(works):8.0f} max {max(works):8.0f}"
        f"  rate median {statistics.median(rates):9.0f}/cpu-s  cpu median "
        f"{statistics.median(cpus):6.2f} max {max(cpus):6.2f}  wall max {max(walls):6.2f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(DEFAULT_GAMES))
    parser.add_argument("--spec", help="one agent spec instead of the levels")
    parser.add_argument("--count", type=int, default=4, help="decisions per game")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    for game in args.games:
        game_id, _ = parse_game(game)
        specs = [args.spec] if args.spec else [level_spec(game_id, level) for level in LEVELS]
        for spec in specs:
            measure(game, spec, args.count, args.seed)


if __name__ == "__main__":
    main()
