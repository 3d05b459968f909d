"""Speed and mixing of the nestorgames layout chain (:mod:`limitgames.hex.layout`).

Usage::

    python benchmarks/bench_layout.py speed [seconds]          # layouts/s at n = 8, one core
    python benchmarks/bench_layout.py mixing N PLAYERS [draws]  # law of the result against steps

``mixing`` draws ``draws`` layouts with ``sample_layout(N, PLAYERS, rng, T)``
for a range of step counts ``T`` and compares the mean of five statistics
with their mean under a long chain (40 times :func:`chain_steps`), in units of
the statistic's standard deviation: the radius of gyration, the number of
adjacent pairs, of tiles with exactly 2 neighbours, of red-black pairs and of
pawn tiles with one pawn-free neighbour only. A mean within about
``3 / sqrt(draws)`` of the reference is as close as the measurement can see.
"""

from __future__ import annotations

import math
import random
import sys
import time

from limitgames.hex.layout import Layout, chain_steps, generate_layout, pawn_colours, sample_layout
from limitgames.hex.surface import DIRECTIONS

STAT_NAMES = ("gyration", "pairs", "deg2", "red-black", "one-free")


def statistics(layout: Layout, players: int) -> tuple[float, ...]:
    """The five monitored statistics of ``layout`` (see the module docstring)."""
    m = len(layout)
    mq = sum(q for q, _ in layout) / m
    mr = sum(r for _, r in layout) / m
    gyration = sum((q - mq) ** 2 + (r - mr) ** 2 + (q - mq) * (r - mr) for q, r in layout) / m
    pawn = set(pawn_colours(players))
    pairs = deg2 = red_black = one_free = 0
    for (q, r), c in layout.items():
        nbrs = [layout[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in layout]
        pairs += len(nbrs)
        deg2 += len(nbrs) == 2
        if c == "red":
            red_black += sum(1 for d in nbrs if d == "black")
        if c in pawn:
            one_free += sum(1 for d in nbrs if d not in pawn) == 1
    return (gyration, pairs / 2, deg2, red_black, one_free)


def _mean_sd(rows: list[tuple[float, ...]]) -> tuple[list[float], list[float]]:
    k = len(rows[0])
    means = [sum(r[i] for r in rows) / len(rows) for i in range(k)]
    sds = [math.sqrt(sum((r[i] - means[i]) ** 2 for r in rows) / (len(rows) - 1)) for i in range(k)]
    return means, sds


def mixing(n: int, players: int, draws: int) -> None:
    base = chain_steps(n, players)
    rng = random.Random(12345)
    t0 = time.perf_counter()
    ref = [statistics(sample_layout(n, players, rng, 40 * base), players) for _ in range(draws)]
    mu, sd = _mean_sd(ref)
    print(
        f"n={n} players={players} chain_steps={base}; reference: {draws} draws at {40 * base} steps "
        f"({time.perf_counter() - t0:.0f} s)"
    )
    print("  means " + " ".join(f"{s}={m:.3f}" for s, m in zip(STAT_NAMES, mu, strict=True)))
    print(
        f"  {'steps':>7} " + " ".join(f"{s:>10}" for s in STAT_NAMES) + "   (mean - reference) / sd"
    )
    for frac in (0.25, 0.5, 1.0, 2.0, 4.0):
        steps = max(1, int(frac * base))
        rows = [statistics(sample_layout(n, players, rng, steps), players) for _ in range(draws)]
        means, _ = _mean_sd(rows)
        print(
            f"  {steps:>7} "
            + " ".join(
                f"{(m - r) / s if s else 0.0:>+10.3f}"
                for m, r, s in zip(means, mu, sd, strict=True)
            )
        )


def speed(seconds: float) -> None:
    rng = random.Random(1)
    t0 = time.perf_counter()
    generate_layout(2, 2, rng)
    print(f"first call (compile or load from cache): {time.perf_counter() - t0:.1f} s")
    for players in (2, 3):
        generate_layout(8, players, rng)
        count = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            generate_layout(8, players, rng)
            count += 1
        elapsed = time.perf_counter() - start
        print(
            f"n=8 players={players}: {count / elapsed:,.0f} layouts/s ({chain_steps(8, players)} steps per look)"
        )


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "mixing":
        mixing(int(args[1]), int(args[2]), int(args[3]) if len(args) > 3 else 1000)
    else:
        speed(float(args[1]) if len(args) > 1 else 5.0)


if __name__ == "__main__":
    main()
