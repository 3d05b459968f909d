"""How much is moving first worth in Limit (hex)? The first mover's share of wins.

One command per table; every finished layout or game is appended to a JSON-lines
file at once, so a run that is stopped picks up where it was (run the same
command again). A progress bar shows what is done.

Exact values (sizes 2-4), from red's first decision (red moves first; the first
move equaliser binds), solved by :func:`limitgames.hex.solver.solve`::

    nice -n 10 .venv/bin/python benchmarks/hex_first_player.py exact --size 2 --law uniform --players 2
    nice -n 10 .venv/bin/python benchmarks/hex_first_player.py exact --size 2 --law grown --players 2 --sample 20000
    nice -n 15 .venv/bin/python benchmarks/hex_first_player.py exact --size 3 --law grown --players 2 --sample 1000 --cap 30
    nice -n 15 .venv/bin/python benchmarks/hex_first_player.py --workers 1 exact --size 4 --law grown --players 2 --sample 100 --cap 300 --chunk 1

``--law uniform`` at size 2 with no ``--sample`` solves every legal layout once
(each layout equally likely). With ``--sample K`` it solves ``K`` layouts drawn
by the game's own generator for that law (seeded: draw ``i`` uses
``random.Random(seed * 1_000_003 + i)``); at size 2 a layout drawn twice is
solved once; layouts already solved by another sample of the same size, law,
players and seed (draw ``i`` is the same in both) are not solved again, so a
larger ``--sample`` adds only the new draws. A layout whose search passes ``--cap`` seconds is counted as
unsolved (and left out of the shares, so the shares are conditional on a
finished search; the table says how many); the same command with a larger
``--cap`` tries the unsolved ones again. Each process holds a transposition
table of ``2 ** --table-bits`` positions (22 by default: about 230 MB).

Self-play (sizes 6-10): ``--games`` games of one agent spec against itself, on
layouts drawn by the law (seed per game as above), colours fixed (seat 0 red);
game ``i`` seats the agent copies rotated by ``i``, so every copy moves first
equally often::

    nice -n 10 .venv/bin/python benchmarks/hex_first_player.py selfplay --size 8 --law grown --players 2 --games 200

The default agent is the ``hard`` level's search with a budget counted in
iterations, not seconds (``ITERATIONS_SPEC``), so the figures do not depend on
the machine's load; its exact-solver hand-off (which has a time cap) is left
out. ``--iterations N`` plays the same search with ``N`` iterations a decision.

How many iterations a timed search runs a decision on a quiet core, counted per CPU
second so that other load does not count (``budget``; by default ``hard``'s search at the
0.3 s that defined the level before it was defined by work; ``--spec`` and ``--seconds``
for another)::

    nice -n 10 .venv/bin/python benchmarks/hex_first_player.py --workers 1 budget --games 2

``table`` prints the Markdown row of every results file given.
Results go to ``benchmarks/results/hex-first-player/`` (``--out`` to change).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

ITERATIONS_SPEC = "hexmcts:iterations=2000,playouts=tactical,c=1,contempt=0.3,order=1,widen=2"
"""The ``hard`` level's search (``limitgames.agents.levels``) with a fixed work budget."""

HARD_SPEC = "hexmcts:seconds=0.3,playouts=tactical,c=1,contempt=0.3,order=1,widen=2"
"""The ``hard`` level's search at the 0.3 s that defined the level before it was defined by
work, without the solver hand-off (the ``budget`` command measures how many iterations it
runs in that time)."""

RESULTS = Path(__file__).resolve().parent / "results" / "hex-first-player"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of the share ``k / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _draw_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def draw(law: str, n: int, players: int, rng: random.Random) -> dict[tuple[int, int], str]:
    """A layout by ``law``: ``grown``, ``uniform``, or ``grown@PULL`` (the grown law with
    another pull, :func:`limitgames.hex.layout.grow_layout`: the search for a fair law)."""
    from limitgames.hex.layout import draw_layout, grow_layout

    if law.startswith("grown@"):
        return grow_layout(n, players, rng, pull=float(law.split("@", 1)[1]))
    return draw_layout(law, n, players, rng)


def _layout_key(layout: dict[tuple[int, int], str]) -> str:
    from limitgames.hex.layout import normalise

    return json.dumps(sorted([q, r, c] for (q, r), c in normalise(layout).items()))


def _red_value(task: tuple[str, int, int, float, int]) -> tuple[str, float | None]:
    """Solve one layout (its key: cells and colours) from red's first decision."""
    from limitgames.core import get_game
    from limitgames.hex.solver import solve

    key, n, players, cap, table_bits = task
    layout = {(q, r): c for q, r, c in json.loads(key)}
    game = get_game("hex")
    state = game.state_from_layout(  # type: ignore[attr-defined]
        layout, {"size": n, "players": players, "colours": "fixed"}
    )
    solution = solve(state, seconds=cap, table_bits=table_bits)
    return key, None if solution.values is None else solution.values[0]


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )


def _done(path: Path) -> dict[str, Any]:
    done: dict[str, Any] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["key"]] = row
    return done


def exact(args: argparse.Namespace) -> None:
    """Solve layouts; append ``{"key", "value"}`` rows (and the draw counts) to the results file."""
    n, players, law = args.size, args.players, args.law
    name = f"exact-n{n}-{law}-p{players}" + (
        f"-s{args.sample}-seed{args.seed}" if args.sample else ""
    )
    path = args.out / f"{name}.jsonl"
    weights: dict[str, int] = {}
    if args.sample:
        for i in range(args.sample):
            rng = random.Random(_draw_seed(args.seed, i))
            key = _layout_key(draw(law, n, players, rng))
            weights[key] = weights.get(key, 0) + 1
    elif law == "uniform" and n == 2:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
        from solve_small_layouts import legal_layouts

        for layout in legal_layouts(n, players):
            weights[_layout_key(layout)] = 1
    else:
        sys.exit("without --sample only the uniform law at size 2 can be listed in full")
    done = _done(path)
    # layouts already solved: every layout listed once, and the other samples of the same draws
    others = [args.out / f"exact-n{n}-uniform-p{players}.jsonl"] if args.sample else []
    others += sorted(args.out.glob(f"exact-n{n}-{law}-p{players}-s*-seed{args.seed}.jsonl"))
    for other in others:
        if other != path and other.exists():
            known = _done(other)
            done.update({k: known[k] for k in weights if k in known and k not in done})
    # a layout left unsolved under a smaller cap is tried again
    todo = [
        (k, n, players, args.cap, args.table_bits)
        for k in weights
        if k not in done or (done[k]["value"] is None and done[k].get("cap", 0) < args.cap)
    ]
    with path.open("a") as out, _progress() as bar:
        job = bar.add_task(name, total=len(weights), completed=len(weights) - len(todo))
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            for key, value in pool.imap_unordered(_red_value, todo, chunksize=args.chunk):
                row = {"key": key, "value": value, "cap": args.cap}
                out.write(json.dumps(row) + "\n")
                out.flush()
                done[key] = row
                bar.advance(job)
    meta = {"what": "exact", "size": n, "law": law, "players": players, "sample": args.sample}
    print(_row(meta, [(done[k]["value"], w) for k, w in weights.items()]))


def _play(task: tuple[int, str, int, int, str, int]) -> dict[str, Any]:
    """One self-play game; returns the first mover's result and the game's length."""
    from limitgames.agents import make_agent
    from limitgames.core import get_game

    index, law, n, players, spec, seed = task
    game = get_game("hex")
    layout = draw(law, n, players, random.Random(_draw_seed(seed, index)))
    variant = {"size": n, "players": players, "colours": "fixed", "layout": law.split("@")[0]}
    state = game.state_from_layout(layout, variant)  # type: ignore[attr-defined]
    copies = [make_agent(spec, seed=_draw_seed(seed, index) * 8 + k) for k in range(players)]
    at_seat = [copies[(s + index) % players] for s in range(players)]
    decisions = 0
    while not state.is_terminal():
        agent = at_seat[state.current_player()]
        state.apply(agent.choose(state))
        decisions += 1
    returns = state.returns()
    return {"key": str(index), "returns": returns, "decisions": decisions}


def selfplay(args: argparse.Namespace) -> None:
    """Play ``--games`` games; append one row per game to the results file."""
    n, players, law = args.size, args.players, args.law
    tag = f"-{args.tag}" if args.tag else ""
    if args.spec != ITERATIONS_SPEC and not tag:
        sys.exit("another --spec needs a --tag for its results file")
    name = f"selfplay-n{n}-{law}-p{players}-seed{args.seed}{tag}"
    path = args.out / f"{name}.jsonl"
    done = _done(path)
    todo = [
        (i, law, n, players, args.spec, args.seed) for i in range(args.games) if str(i) not in done
    ]
    with path.open("a") as out, _progress() as bar:
        job = bar.add_task(name, total=args.games, completed=args.games - len(todo))
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            for row in pool.imap_unordered(_play, todo):
                row["spec"] = args.spec
                out.write(json.dumps(row) + "\n")
                out.flush()
                done[row["key"]] = row
                bar.advance(job)
    rows = [done[str(i)] for i in range(args.games)]
    meta = {"what": "selfplay", "size": n, "law": law, "players": players, "sample": args.games}
    print(_row(meta, [(_first_mover_value(r["returns"]), 1) for r in rows]))


def _timed_game(task: tuple[int, str, int, str, int]) -> list[dict[str, float]]:
    """One self-play game of a timed spec; per decision the search's iterations, its wall
    seconds and the CPU seconds the process got meanwhile."""
    import time

    from limitgames.agents import make_agent
    from limitgames.core import get_game

    index, law, n, spec, seed = task
    game = get_game("hex")
    layout = draw(law, n, 2, random.Random(_draw_seed(seed, index)))
    variant = {"size": n, "players": 2, "colours": "fixed", "layout": law.split("@")[0]}
    state = game.state_from_layout(layout, variant)  # type: ignore[attr-defined]
    copies = [make_agent(spec, seed=_draw_seed(seed, index) * 8 + k) for k in range(2)]
    out: list[dict[str, float]] = []
    while not state.is_terminal():
        agent = copies[state.current_player()]
        cpu = time.process_time()
        state.apply(agent.choose(state))
        cpu = time.process_time() - cpu
        info = getattr(agent, "last_info", {}) or {}
        if info.get("iterations") and not info.get("forced"):
            out.append({"iterations": info["iterations"], "wall": info["seconds"], "cpu": cpu})
    return out


def budget(args: argparse.Namespace) -> None:
    """How many iterations a search runs in ``--seconds`` a decision on a quiet machine.

    Plays ``--games`` games of ``--spec`` (timed or by iterations) against itself and
    counts each decision's iterations per CPU second of its process (so that other load
    on the machine does not count), times the wall time a timed spec gives its search
    (``--seconds`` times :data:`limitgames.agents.budget.TIME_MARGIN`): what the search
    would run on an otherwise idle core. Prints the median, quartiles and mean over all
    decisions.
    """
    import statistics

    from limitgames.agents.budget import TIME_MARGIN

    seconds = args.seconds
    counts: list[float] = []
    loads: list[float] = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        tasks = [(i, args.law, args.size, args.spec, args.seed) for i in range(args.games)]
        for rows in pool.imap_unordered(_timed_game, tasks):
            for row in rows:
                counts.append(row["iterations"] / max(row["cpu"], 1e-6) * seconds * TIME_MARGIN)
                loads.append(row["cpu"] / max(row["wall"], 1e-6))
    q1, median, q3 = statistics.quantiles(counts, n=4)
    print(
        f"{args.spec} at size {args.size}, law {args.law}, {args.games} games, "
        f"{len(counts)} decisions: iterations on a quiet core median {median:,.0f} "
        f"(quartiles {q1:,.0f}-{q3:,.0f}, mean {statistics.fmean(counts):,.0f}); "
        f"CPU share the searches got: median {statistics.median(loads):.2f}"
    )


def _first_mover_value(returns: list[float]) -> float:
    """+1 if seat 0 (red, the first mover) won alone, 0 for a draw or shared result, -1 if it lost."""
    best = max(returns)
    if returns[0] < best:
        return -1.0
    return 1.0 if returns.count(best) == 1 else 0.0


def _row(meta: dict[str, Any], values: Iterable[tuple[float | None, int]]) -> str:
    """One Markdown table row: layouts/games, red wins, draws, red loses (95% Wilson), unsolved."""
    win = draw = lose = unsolved = 0
    for value, weight in values:
        if value is None:
            unsolved += weight
        elif value > 0:
            win += weight
        elif value < 0:
            lose += weight
        else:
            draw += weight
    total = win + draw + lose

    def cell(k: int) -> str:
        lo, hi = wilson(k, total)
        share = 100 * k / total if total else 0.0
        return f"{k:,} ({share:.1f}%, {100 * lo:.1f}-{100 * hi:.1f})"

    return (
        f"| {meta['size']} | {meta['law']} | {meta['players']} | {total + unsolved:,} | "
        f"{cell(win)} | {cell(draw)} | {cell(lose)} | {unsolved:,} |"
    )


def table(args: argparse.Namespace) -> None:
    """Print the row of each results file (the sample weights of exact runs are recomputed)."""
    for name in args.files:
        path = Path(name)
        rows = list(_done(path).values())
        parts = path.stem.split("-")
        meta = {"size": parts[1][1:], "law": parts[2], "players": parts[3][1:]}
        if parts[0] == "selfplay":
            spec = rows[0]["spec"] if rows else ""
            its = spec.split("iterations=")[1].split(",")[0] if "iterations=" in spec else "?"
            seed = parts[4][4:]
            length = sum(r["decisions"] for r in rows) / max(1, len(rows))
            row = _row(meta, [(_first_mover_value(r["returns"]), 1) for r in rows])
            print(f"{row} {its} | {seed} | {length:.1f} |")
        else:
            print(_row(meta, [(r["value"], 1) for r in rows]) + " (unweighted)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    commands = parser.add_subparsers(dest="command", required=True)
    for command in ("exact", "selfplay"):
        sub = commands.add_parser(command)
        sub.add_argument("--size", type=int, required=True, help="tiles per colour")
        sub.add_argument("--law", default="grown", help="grown, uniform or grown@PULL")
        sub.add_argument("--players", type=int, choices=(2, 3), default=2)
        sub.add_argument("--seed", type=int, default=1, help="seed of the draws")
    exact_parser = commands.choices["exact"]
    exact_parser.add_argument("--sample", type=int, default=0, help="layouts to draw (0: all)")
    exact_parser.add_argument("--cap", type=float, default=5.0, help="seconds per layout")
    exact_parser.add_argument("--chunk", type=int, default=64, help="layouts per task")
    exact_parser.add_argument(
        "--table-bits",
        type=int,
        default=22,
        help="transposition table of 2**BITS positions (22: about 230 MB a process)",
    )
    play_parser = commands.choices["selfplay"]
    play_parser.add_argument("--games", type=int, default=200)
    play_parser.add_argument("--spec", default=ITERATIONS_SPEC, help="agent spec (all seats)")
    play_parser.add_argument("--iterations", type=int, help="the default spec with N iterations")
    play_parser.add_argument("--tag", default="", help="results file tag for another spec")
    budget_parser = commands.add_parser("budget")
    budget_parser.add_argument("--size", type=int, default=8, help="tiles per colour")
    budget_parser.add_argument("--law", default="grown", help="grown, uniform or grown@PULL")
    budget_parser.add_argument("--seed", type=int, default=1, help="seed of the draws")
    budget_parser.add_argument("--games", type=int, default=4)
    budget_parser.add_argument("--spec", default=HARD_SPEC, help="the agent spec (all seats)")
    budget_parser.add_argument("--seconds", type=float, default=0.3, help="the time budget")
    table_parser = commands.add_parser("table")
    table_parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    if getattr(args, "iterations", None):
        args.spec = ITERATIONS_SPEC.replace("iterations=2000", f"iterations={args.iterations}")
        args.tag = args.tag or f"i{args.iterations}"
    args.out.mkdir(parents=True, exist_ok=True)
    {"exact": exact, "selfplay": selfplay, "budget": budget, "table": table}[args.command](args)


if __name__ == "__main__":
    main()
