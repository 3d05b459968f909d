"""Benchmark of the LIMIT (``world``) engine: random games, clones, observations, determinizations.

Run: ``.venv/bin/python benchmarks/bench_world.py [--seconds 3]``. Prints one
line per figure; ``limit bench world`` measures the headline figure (random
4-nation games per second on one process; the issue asks for at least 20).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from limitgames.cli.world_play import measure_random_games
from limitgames.core import get_game
from limitgames.world.state import WorldState


def _rate(seconds: float, work: Callable[[], object]) -> float:
    """Calls of ``work`` per second over about ``seconds``."""
    count = 0
    start = time.perf_counter()
    while True:
        work()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def _midgame(seed: int) -> WorldState:
    rng = random.Random(seed)
    state = get_game("world").new_initial_state(seed=seed, players=4)
    assert isinstance(state, WorldState)
    for _ in range(120):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per figure")
    args = parser.parse_args()
    for players in (2, 3, 4, 5, 6):
        r = measure_random_games(players, args.seconds, seed=players)
        print(
            f"random games, {players} nations: {r['games_per_second']:8.1f} games/s "
            f"{r['decisions_per_second']:9.0f} decisions/s ({r['decisions_per_game']:.1f} per game)"
        )
    state = _midgame(1)
    rng = random.Random(2)
    print(f"clone (4 nations, mid-game):          {_rate(args.seconds, state.clone):9.0f} /s")
    print(
        f"legal_actions:                        {_rate(args.seconds, state.legal_actions):9.0f} /s"
    )
    print(
        f"observation(seat):                    {_rate(args.seconds, lambda: state.observation(0)):9.0f} /s"
    )
    print(
        f"determinize(seat):                    {_rate(args.seconds, lambda: state.determinize(0, rng)):9.0f} /s"
    )
    print(
        f"determinize + playout:                "
        f"{_rate(args.seconds, lambda: state.determinize(0, rng).playout(rng)):9.0f} /s"
    )


if __name__ == "__main__":
    main()
