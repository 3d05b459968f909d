"""Agent speed at the start position of every game: playouts/s and search iterations/s.

Run: ``.venv/bin/python benchmarks/bench_agents.py [--seconds 2] [GAME ...]``

For each game (default: every available one) it prints

- random playouts per second (the engine alone, ``State.playout``);
- MCTS iterations per second with random playouts and with heuristic
  (cut-off) playouts, ISMCTS iterations per second, alpha-beta nodes per second;
- the agent's own share of MCTS time: ``1 - (MCTS iterations/s) / (playouts/s)``
  (an MCTS iteration is one playout plus selection, expansion and backup),
- a cProfile split of one MCTS search: the share of time spent in the
  engine's package versus the agents' package.

Tests never time code; this prints figures for people.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from limitgames.agents.throughput import measure_agent, measure_playouts, start_state
from limitgames.core import available_games

VARIANTS = {"cards": {"players": 2}}


def profile_split(game: str, seconds: float) -> tuple[float, float]:
    """Shares of one MCTS search's time spent inside the engine and inside ``limitgames.agents``."""
    from limitgames.agents import make_agent

    state = start_state(game, VARIANTS.get(game))
    agent = make_agent(f"mcts:seconds={seconds:g},playouts=random", 1)
    profiler = cProfile.Profile()
    profiler.runcall(agent.choose, state)
    stats = pstats.Stats(profiler)
    engine = agents = 0.0
    total = 0.0
    for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        total += tottime
        if f"/limitgames/{game}/" in filename:
            engine += tottime
        elif "/limitgames/agents/" in filename:
            agents += tottime
    return (engine / total, agents / total) if total else (0.0, 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all available)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    args = parser.parse_args()
    for game in args.games or available_games():
        state = start_state(game, VARIANTS.get(game))
        playouts = measure_playouts(state, args.seconds)
        print(
            f"== {game} {VARIANTS.get(game, '')} ({len(state.legal_actions())} legal actions at the start)"
        )
        print(f"  {'random playouts':48s} {playouts.rate:10,.0f} /s")
        mcts_rate = 0.0
        for spec in (
            f"mcts:seconds={args.seconds:g},playouts=random",
            f"mcts:seconds={args.seconds:g},playouts=heuristic",
            f"ismcts:seconds={args.seconds:g},playouts=random",
            f"ismcts:seconds={args.seconds:g},playouts=heuristic",
            f"alphabeta:seconds={args.seconds:g}",
        ):
            result = measure_agent(state, spec)
            if spec.startswith("mcts") and "random" in spec:
                mcts_rate = result.rate
            print(f"  {result.what:48s} {result.rate:10,.0f} /s")
        if playouts.rate:
            print(
                f"  agent share of MCTS time (vs playouts)           {1 - mcts_rate / playouts.rate:10.0%}"
            )
        engine, agents = profile_split(game, args.seconds)
        print(f"  cProfile of one MCTS search: engine {engine:.0%}, agents {agents:.0%}")


if __name__ == "__main__":
    main()
