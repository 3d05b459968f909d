"""Benchmark of the Limits (``cards``) engine: random games, clones, observations, determinizations.

Run: ``.venv/bin/python benchmarks/bench_cards.py [--seconds 3]``. Prints one
line per figure; ``limit bench cards`` measures the headline figure (random
4-player games per second on one process).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from limitgames.cards import CARDS, CardsState
from limitgames.cli.cards_play import measure_random_games


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


def _midgame(seed: int) -> CardsState:
    rng = random.Random(seed)
    state = CARDS.new_initial_state(seed=seed, players=4)
    for _ in range(40):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per figure")
    args = parser.parse_args()
    for players in (2, 3, 4, 5, 6):
        r = measure_random_games(players, args.seconds, seed=players)
        print(
            f"random games, {players} players: {r['games_per_second']:8.0f} games/s "
            f"{r['decisions_per_second']:9.0f} decisions/s ({r['decisions_per_game']:.1f} per game)"
        )
    state = _midgame(1)
    rng = random.Random(2)
    print(f"clone (4 players, mid-game):          {_rate(args.seconds, state.clone):9.0f} /s")
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
