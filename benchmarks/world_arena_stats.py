"""Crises and scores of the LIMIT (``world``) games of a ``limit arena world ... --out DIR`` run.

Run: ``.venv/bin/python benchmarks/world_arena_stats.py DIR``. Replays every record of
``DIR/games`` (each action checked by the engine) and prints one line per game (crisis tiles,
generations played, each seat's agent and score), then the median crises per game, the
median score of a nation, and each agent's games won outright. The figures of
``docs/agents.md`` (world rows) come from it.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from pathlib import Path

from limitgames.core.record import GameRecord
from limitgames.world.state import WorldState


def main() -> None:
    """Print the statistics of one arena run directory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the arena's --out directory")
    args = parser.parse_args()
    crises: list[int] = []
    scores: list[int] = []
    wins: Counter[str] = Counter()
    paths = sorted((args.run / "games").glob("*.json"))
    for path in paths:
        record = GameRecord.read(path)
        state = record.replay()
        assert isinstance(state, WorldState) and state.is_terminal()
        tiles = sum(len(g) for g in state.crises)
        crises.append(tiles)
        scores += state.scores
        top = max(state.scores)
        if state.scores.count(top) == 1:
            wins[record.seats[state.scores.index(top)]] += 1
        seats = ", ".join(f"{a} {s}" for a, s in zip(record.seats, state.scores, strict=True))
        print(f"{path.name}: {tiles} crises, generation {state.generation}: {seats}")
    print(f"games {len(paths)}; median crises {statistics.median(crises)}; "
          f"median score {statistics.median(scores)}")  # fmt: skip
    for agent, count in wins.most_common():
        print(f"{agent}: {count} of {len(paths)} games won outright")


if __name__ == "__main__":
    main()
