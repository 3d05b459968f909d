"""The game-theoretic value of small Limit (hex) layouts: who wins with perfect play?

Usage::

    .venv/bin/python scripts/solve_small_layouts.py --size 2            # every legal 2-player layout
    .venv/bin/python scripts/solve_small_layouts.py --size 3 --sample 2000 --seed 1

Size 2 (8 tiles, two of each colour): every legal 2-player layout of the
nestorgames edition (``rules/hex.md``, Setup: one connected group, every tile
next to at least 2 others, no two tiles of one colour adjacent, every pawn
next to an empty tile), up to translation, enumerated here from scratch, and
each solved exactly from red's first decision (red moves first) by
:func:`limitgames.hex.solver.solve_vector`. Size 3 and up: a seeded sample of
layouts drawn by the game's own generator (uniform over legal layouts), with
95% Wilson intervals.

Prints the counts and shares of first-player (red) wins, draws and losses.
Deterministic: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable, Iterator
from itertools import permutations

from limitgames.core import get_game
from limitgames.hex.game import HexGame
from limitgames.hex.layout import COLOURS, Layout, generate_layout
from limitgames.hex.solver import solve_vector

Cell = tuple[int, int]
NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _normalise(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    q0 = min(q for q, _ in cells)
    r0 = min(r for _, r in cells)
    return tuple(sorted((q - q0, r - r0) for q, r in cells))


def polyhexes(count: int) -> set[tuple[Cell, ...]]:
    """Every connected set of ``count`` hex cells, up to translation (grown one cell at a time)."""
    shapes = {((0, 0),)}
    for _ in range(count - 1):
        grown = set()
        for shape in shapes:
            present = set(shape)
            for q, r in shape:
                for dq, dr in NEIGHBOURS:
                    cell = (q + dq, r + dr)
                    if cell not in present:
                        grown.add(_normalise([*shape, cell]))
        shapes = grown
    return shapes


def _neighbours_in(shape: set[Cell], cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in NEIGHBOURS if (q + dq, r + dr) in shape]


def legal_layouts(n: int, players: int = 2) -> Iterator[Layout]:
    """Every legal layout of ``4n`` tiles, up to translation (small ``n`` only: 2 gives ~220,000)."""
    pawn_colours = set(COLOURS[:players])
    assignments = sorted(set(permutations([c for c in COLOURS for _ in range(n)])))
    for shape in sorted(polyhexes(4 * n)):
        cells = set(shape)
        near = {c: _neighbours_in(cells, c) for c in shape}
        if any(len(v) < 2 for v in near.values()):
            continue
        for colours in assignments:
            layout = dict(zip(shape, colours, strict=True))
            if any(layout[m] == layout[c] for c in shape for m in near[c]):
                continue
            if any(
                layout[c] in pawn_colours and all(layout[m] in pawn_colours for m in near[c])
                for c in shape
            ):
                continue
            yield layout


def _solve_layout(layout: Layout) -> float:
    game = get_game("hex")
    assert isinstance(game, HexGame)
    n = len(layout) // 4
    state = game.state_from_layout(layout, {"size": n, "players": 2, "colours": "fixed"})
    surface = state.surface
    vector = state.kernel_vector()
    assert surface is not None and vector is not None
    values, _, _ = solve_vector(
        surface.neighbour_masks, surface.ring, vector, seconds=600, table_bits=16
    )
    assert values is not None, "a small layout took ten minutes"
    return values[0]  # red's result


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``k / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--size", type=int, default=2, help="tiles per colour (2: every layout; 3+: a sample)"
    )
    parser.add_argument(
        "--sample", type=int, default=0, help="solve this many generated layouts instead of all"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.sample:
        rng = random.Random(args.seed)
        layouts = [generate_layout(args.size, 2, rng) for _ in range(args.sample)]
        what = f"a seeded sample of {args.sample:,} layouts (seed {args.seed}) drawn uniformly"
    elif args.size <= 2:
        layouts = list(legal_layouts(args.size))
        what = f"every legal 2-player layout ({len(layouts):,}, up to translation)"
    else:
        sys.exit("sizes above 2 have too many layouts to enumerate here: use --sample N")
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        values = pool.map(_solve_layout, layouts, chunksize=256)
    total = len(values)
    print(f"Limit (hex), nestorgames edition, size {args.size}, 2 players: {what}.")
    print("Value for the first player (red), perfect play from the first decision:")
    for label, v in (("red wins", 1.0), ("draw", 0.0), ("red loses", -1.0)):
        k = sum(1 for x in values if x == v)
        lo, hi = wilson(k, total)
        interval = f" (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)" if args.sample else ""
        print(f"  {label:10s} {k:8,d}  {100 * k / total:5.1f}%{interval}")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
