"""Benchmark of the hex engine: random playouts and layout generation.

Usage: ``python benchmarks/bench_hex.py [seconds]`` (the same figures as ``limit bench hex``).
"""

from __future__ import annotations

import random
import sys

from limitgames.cli.hex_play import bench_layouts, bench_playouts


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    rng = random.Random(1)
    for players in (2, 3):
        result = bench_playouts("nestorgames", players, 8, seconds, rng)
        el = result["elapsed"]
        print(
            f"nestorgames {players}p size 8: {result['games'] / el:,.0f} playouts/s, "
            f"{result['decisions'] / el:,.0f} decisions/s, {result['decisions'] / result['games']:.1f} decisions/game"
        )
        count, lel = bench_layouts(8, players, seconds / 2, rng)
        print(f"  layouts: {count / lel:,.0f} per second")
    result = bench_playouts("2008", 2, 8, seconds, rng)
    print(
        f"2008 2p size 8 (placement included): {result['games'] / result['elapsed']:,.1f} games/s"
    )


if __name__ == "__main__":
    main()
