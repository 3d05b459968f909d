"""Speed of the exact hex solver (:mod:`limitgames.hex.solver`) against the plain one it
replaced (``tests/hex/plain_solver.py``: the same values, no move ordering, no cutoffs from
the children's table entries, one full window, max-n without its stop at the first win).

Usage::

    nice -n 10 .venv/bin/python benchmarks/bench_solver.py [--layouts 20] [--seed 1]

Solves a fixed seeded set of layouts from red's first decision with each solver, one core,
and prints per set: layouts solved per CPU second (``time.process_time``, so that other load
on the machine counts less), positions searched, and that both solvers gave the same values.
The sets: ``--layouts`` layouts each of size 3 (grown law, 2 and 3 players; draw ``i`` uses
``random.Random(seed * 1_000_003 + i)``, as ``benchmarks/hex_first_player.py``), and a
quarter as many of size 4 (grown, 2 players) with a cap per layout (``--cap``, seconds); a
layout that either solver leaves unsolved is counted at the cap.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hex.plain_solver import plain_values  # noqa: E402

from limitgames.core import get_game  # noqa: E402
from limitgames.hex.layout import draw_layout  # noqa: E402
from limitgames.hex.solver import solve  # noqa: E402
from limitgames.hex.state import HexState  # noqa: E402


def layouts(size: int, players: int, count: int, seed: int) -> list[HexState]:
    """The seeded set: ``count`` grown layouts, each a state at red's first decision."""
    game = get_game("hex")
    out = []
    for i in range(count):
        layout = draw_layout("grown", size, players, random.Random(seed * 1_000_003 + i))
        variant = {"size": size, "players": players, "colours": "fixed"}
        out.append(game.state_from_layout(layout, variant))  # type: ignore[attr-defined]
    return out


def run(states: list[HexState], cap: float, bits: int) -> tuple[float, float, int, list[object]]:
    """Both solvers on ``states``: (plain CPU seconds, fast CPU seconds, fast positions, diffs)."""
    plain_cpu = fast_cpu = 0.0
    nodes = 0
    diffs: list[object] = []
    for state in states:
        started = time.process_time()
        try:
            expected: list[float] | None = plain_values(state, seconds=cap, table_bits=bits)
        except TimeoutError:
            expected = None
        plain_cpu += time.process_time() - started
        started = time.process_time()
        solution = solve(state, seconds=cap, table_bits=bits)
        fast_cpu += time.process_time() - started
        nodes += solution.nodes
        if expected is not None and solution.values is not None and solution.values != expected:
            diffs.append((expected, solution.values))
    return plain_cpu, fast_cpu, nodes, diffs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layouts", type=int, default=20, help="layouts per size-3 set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per size-4 layout")
    parser.add_argument("--table-bits", type=int, default=20)
    args = parser.parse_args()
    # compile both solvers first (a size-2 layout), so that compilation is not timed
    warm = layouts(2, 2, 1, 0) + layouts(2, 3, 1, 0)
    run(warm, 60.0, 10)
    sets = [(3, 2, args.layouts), (3, 3, args.layouts), (4, 2, max(1, args.layouts // 4))]
    for size, players, count in sets:
        states = layouts(size, players, count, args.seed)
        plain, fast, nodes, diffs = run(states, args.cap, args.table_bits)
        print(
            f"size {size}, {players} players, {count} grown layouts (seed {args.seed}): "
            f"plain {count / plain:.2f} layouts/CPU s ({plain:.1f} s), "
            f"fast {count / fast:.2f} layouts/CPU s ({fast:.1f} s, {nodes:,} positions), "
            f"speedup {plain / fast:.1f}x, values {'equal' if not diffs else f'DIFFER {diffs}'}",
            flush=True,
        )


if __name__ == "__main__":
    main()
