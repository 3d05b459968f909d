"""The mini-Limits solved: its Nash equilibrium by CFR+, its value, and the agents' exploitability.

Run (one core, a few minutes; ``limitgames[openspiel]`` installed)::

    PYTHONPATH=src .venv/bin/python benchmarks/cards_mini_cfr.py [--variant mini] [--agents]

1. walks the whole game tree of the variant through the OpenSpiel adapter
   (``pyspiel.load_game("limitgames_cards", ...)``: the engine's rules, chance with exact
   probabilities, one information set per information state string);
2. runs OpenSpiel's CFR+ (``pyspiel.CFRPlusSolver``, C++, on the tree as an ``efg_game``:
   deterministic, so the seed matters only for the agents) until the exploitability
   (NashConv / 2) of the average strategy is below ``--target`` times the payoff range
   (0.001 x 2 by default; returns are +1 for the seat that does not take the limit card,
   -1 for the one that does);
3. prints each seat's value, the start player's value, and saves the strategy
   (``--out``, gzipped JSON: :meth:`limitgames.equilibrium.TreePolicy.save`) and the figures
   (``--summary``, JSON);
4. with ``--agents``: the exploitability of each agent of ``--agent`` (default: random, the
   heuristic, the easy level and ISMCTS at 50 and 200 iterations a decision), each
   measured as a strategy whose action distribution at each information state with a choice
   is the share of ``--samples`` seeded decisions on one state of that set.

Variants (``docs/research.md``, "A solved mini-Limits"): ``mini`` is two players, two colours
of four cards, hands of three, one limit card; ``tiny`` the same with three cards a colour.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyspiel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import limitgames.openspiel  # noqa: F401 - registers limitgames_cards
from limitgames import equilibrium

VARIANTS: dict[str, dict[str, Any]] = {
    "mini": {"players": 2, "colours": 2, "cards_per_colour": 4, "hand": 3, "limit_pile": 1},
    "tiny": {"players": 2, "colours": 2, "cards_per_colour": 3, "hand": 3, "limit_pile": 1},
}
AGENTS = (
    "random",
    "heuristic",
    "heuristic:epsilon=0.3",
    "ismcts:iterations=50",
    "ismcts:iterations=200",
)
RESULTS = Path(__file__).parent / "results"


def start_player_value(tree: equilibrium.GameTree, policy: Any) -> float:
    """The start player's expected return under ``policy`` (an ``efg_game`` policy): the
    first decision after the setup's chance nodes is the start player's first hide."""
    total = 0.0
    stack: list[tuple[Any, float]] = [(tree.efg_game.new_initial_state(), 1.0)]
    while stack:
        state, weight = stack.pop()
        if state.is_chance_node():
            stack.extend((state.child(a), weight * p) for a, p in state.chance_outcomes())
            continue
        start = state.current_player()
        total += weight * pyspiel.expected_returns(state, policy, -1, True)[start]
    return total


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="mini")
    parser.add_argument(
        "--target", type=float, default=0.001, help="exploitability wanted, x the payoff range"
    )
    parser.add_argument("--max-iterations", type=int, default=20_000)
    parser.add_argument("--agents", action="store_true", help="also measure the agents")
    parser.add_argument("--agent", action="append", help="an agent spec (repeatable)")
    parser.add_argument("--samples", type=int, default=4, help="decisions per information state")
    parser.add_argument("--seed", type=int, default=1, help="the agents' first seed")
    parser.add_argument("--out", type=Path, help="the strategy (default under benchmarks/results)")
    parser.add_argument("--summary", type=Path, help="the figures as JSON (default likewise)")
    args = parser.parse_args()
    params = VARIANTS[args.variant]
    out = args.out or RESULTS / f"cards_{args.variant}_cfr_policy.json.gz"
    summary_path = args.summary or RESULTS / f"cards_{args.variant}_cfr.json"
    game = pyspiel.load_game("limitgames_cards", params)
    print(f"variant {args.variant}: {params}")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    started = time.perf_counter()
    with Progress(*columns, TimeElapsedColumn()) as bar:
        task = bar.add_task("walking the tree (nodes)", total=None)
        tree = equilibrium.walk_tree(game, lambda n: bar.update(task, completed=n))
    walked = time.perf_counter() - started
    per_seat = [sum(1 for i in tree.infosets.values() if i.seat == s) for s in (0, 1)]
    print(
        f"tree: {tree.nodes['chance']} chance, {tree.nodes['decision']} decision, "
        f"{tree.nodes['terminal']} terminal nodes; information sets {per_seat}; "
        f"walked in {walked:.1f} s"
    )
    target = args.target * tree.payoff_range()
    started = time.perf_counter()
    with Progress(*columns, TextColumn("{task.fields[exploit]}"), TimeElapsedColumn()) as bar:
        task = bar.add_task("CFR+ (iterations)", total=args.max_iterations, exploit="")
        solution = equilibrium.solve(
            tree,
            target,
            max_iterations=args.max_iterations,
            progress=lambda i, e: bar.update(task, completed=i, exploit=f"exploitability {e:.5f}"),
        )
    solved = time.perf_counter() - started
    efg_policy = solution.policy.to_efg(tree)
    start_value = start_player_value(tree, efg_policy)
    relative = solution.exploitability / tree.payoff_range()
    print(
        f"CFR+: {solution.iterations} iterations in {solved:.1f} s; exploitability "
        f"{solution.exploitability:.6f} ({relative:.6f} of the payoff range)"
    )
    print(f"value per seat: {solution.values[0]:+.5f} {solution.values[1]:+.5f}")
    print(f"value of the start player: {start_value:+.5f} (the other: {-start_value:+.5f})")
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"variant": params, "iterations": solution.iterations}
    solution.policy.save(out, meta)
    print(f"strategy saved: {out}")
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _commit(),
        "machine": f"{platform.machine()}, {platform.processor() or platform.system()}, "
        f"Python {platform.python_version()}",
        "command": " ".join(["benchmarks/cards_mini_cfr.py", *sys.argv[1:]]),
        "variant": params,
        "nodes": tree.nodes,
        "information_sets": per_seat,
        "walk_seconds": round(walked, 1),
        "cfr_plus_iterations": solution.iterations,
        "cfr_seconds": round(solved, 1),
        "exploitability": solution.exploitability,
        "exploitability_of_range": relative,
        "values": solution.values,
        "start_player_value": start_value,
        "agents": [],
    }
    if args.agents:
        print("| agent | exploitability | of the payoff range | seconds |")
        print("|---|---|---|---|")
        for spec in args.agent or AGENTS:
            started = time.perf_counter()
            with Progress(*columns, TimeElapsedColumn(), transient=True) as bar:
                task = bar.add_task(f"{spec} (information sets)", total=len(tree.infosets))
                policy = equilibrium.agent_policy(
                    tree,
                    spec,
                    args.samples,
                    args.seed,
                    lambda n, t=task: bar.update(t, completed=n),
                )
            value = equilibrium.exploitability(tree, policy)
            seconds = time.perf_counter() - started
            print(f"| {spec} | {value:.4f} | {value / tree.payoff_range():.4f} | {seconds:.0f} |")
            figures["agents"].append({"spec": spec, "exploitability": value, "seconds": seconds})
    summary_path.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(f"figures saved: {summary_path}")


if __name__ == "__main__":
    main()
