"""Crises and scores of the LIMIT (``world``) games of a ``limit arena world ... --out DIR`` run.

Run: ``.venv/bin/python benchmarks/world_arena_stats.py DIR``. Replays every record of
``DIR/games`` (each action checked by the engine) and prints one line per game (crisis tiles,
generations played, each seat's agent and score), then the median crises per game, the
median score of a nation, and each agent's games won outright, mean score and, when two
agents share the tables, its **score rank** against the other: the share of (its nation,
the other's nation) pairs in which its nation scored more (ties count a half), averaged
over games, with a 95% interval (normal approximation over games). The figures of ``docs/agents.md`` (world
rows) come from it.
"""

from __future__ import annotations

import argparse
import math
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
    by_agent: dict[str, list[int]] = {}
    shares: dict[str, list[float]] = {}
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
        for agent, score in zip(record.seats, state.scores, strict=True):
            by_agent.setdefault(agent, []).append(score)
        for agent in set(record.seats):
            mine = [s for a, s in zip(record.seats, state.scores, strict=True) if a == agent]
            theirs = [s for a, s in zip(record.seats, state.scores, strict=True) if a != agent]
            if mine and theirs:
                pairs = [1.0 if m > t else 0.5 if m == t else 0.0 for m in mine for t in theirs]
                shares.setdefault(agent, []).append(sum(pairs) / len(pairs))
        seats = ", ".join(f"{a} {s}" for a, s in zip(record.seats, state.scores, strict=True))
        print(f"{path.name}: {tiles} crises, generation {state.generation}: {seats}")
    print(f"games {len(paths)}; median crises {statistics.median(crises)}; "
          f"median score {statistics.median(scores)}")  # fmt: skip
    for agent, count in wins.most_common():
        print(f"{agent}: {count} of {len(paths)} games won outright")
    for agent, values in by_agent.items():
        print(f"{agent}: mean score {statistics.fmean(values):.1f} over {len(values)} nations")
    for agent, values in shares.items():
        mean = statistics.fmean(values)
        if len(values) > 1:
            half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
            interval = f" (95%: {mean - half:.3f}-{mean + half:.3f})"
        else:
            interval = ""
        print(
            f"{agent}: score rank against the other agent {mean:.3f}{interval}, {len(values)} games"
        )


if __name__ == "__main__":
    main()
