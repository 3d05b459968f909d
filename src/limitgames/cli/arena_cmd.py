"""``limit arena``: a seat-rotated tournament between agents, with ratings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from limitgames.agents import is_level, level_spec
from limitgames.arena import BACKENDS, Tournament, TournamentResult, run_tournament
from limitgames.core import LimitGamesError, parse_variant_options

console = Console()
err_console = Console(stderr=True)


def _fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(1)


def arena_command(
    game: Annotated[str, typer.Argument(help="Game id (hex, cards, world).")],
    agent: Annotated[
        list[str],
        typer.Option(
            "--agent",
            "-a",
            metavar="SPEC",
            help="An agent spec (mcts:seconds=1) or level (hard); give two or more.",
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, help="Games to play (rounded up to whole seat rotations)."
        ),
    ] = 10,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant", "-v", metavar="K=V", help="Variant parameter, e.g. size=6 (repeatable)."
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="Games played at once.")
    ] = 1,
    backend: Annotated[
        str, typer.Option("--backend", help="process (this machine) or ray.")
    ] = "process",
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            metavar="ADDR",
            help="An existing Ray cluster (default: start a local Ray).",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Directory for records, summary.json and results.png; an interrupted run there resumes.",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Run seed: every game and agent seed derives from it.")
    ] = 1,
    plugin: Annotated[
        list[str] | None,
        typer.Option(
            "--plugin",
            metavar="MODULE",
            help="Import MODULE first (it registers extra games or agents).",
        ),
    ] = None,
) -> None:
    """Play a tournament: every agent in every seat equally, results with ratings.

    Example: limit arena hex --agent mcts:seconds=1 --agent random --games 100 --workers 2 --out runs/m1
    """
    if backend not in BACKENDS:
        raise _fail(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if ray_address and backend != "ray":
        raise _fail("--ray-address needs --backend ray")
    try:
        specs = [level_spec(game, a) if is_level(a) else a for a in agent]
        tournament = Tournament(
            game=game,
            specs=specs,
            games=games,
            variant=parse_variant_options(variant or []),
            seed=seed,
            out=out,
            plugins=list(plugin or []),
        )
        progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
        )
        bar = progress.add_task(f"{game} games", total=None)

        def on_start(total: int, done: int) -> None:
            progress.update(bar, total=total, completed=done)
            if total != games:
                console.print(
                    f"{total} games: {games} rounded up so every agent takes every seat equally."
                )
            if done:
                console.print(f"Resuming: {done} games already played in {out}.")

        with progress:
            result = run_tournament(
                tournament,
                backend=backend,
                workers=workers,
                ray_address=ray_address,
                on_start=on_start,
                on_game=lambda _outcome: progress.advance(bar),
            )
    except LimitGamesError as exc:
        raise _fail(str(exc)) from None
    except KeyboardInterrupt:
        hint = f"; run the same command again to resume from {out}" if out is not None else ""
        raise _fail(f"interrupted{hint}") from None
    except RuntimeError as exc:
        raise _fail(f"a game failed: {exc}") from None
    print_results(result)
    if out is not None:
        chart = (
            f"chart {out / 'results.png'}"
            if (out / "results.png").exists()
            else "no chart (limitgames[charts])"
        )
        console.print(
            f"Records in {out / 'games'}; summary {out / 'summary.json'}; {chart}.", highlight=False
        )


def print_results(result: TournamentResult) -> None:
    """The results table: per agent wins-draws-losses, score with its 95% interval, Elo,
    openskill, and wins-draws-losses in each seat."""
    seats = len(result.standings[0].per_seat) if result.standings else 0
    table = Table(
        title=f"{result.tournament.game}: {len(result.outcomes)} games, seed {result.tournament.seed}",
        title_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("agent", style="bold", overflow="fold", min_width=12)
    table.add_column("W-D-L", justify="right", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("Elo", justify="right", no_wrap=True)
    table.add_column("openskill μ±σ", justify="right", no_wrap=True)
    by_seat = Table(title="wins-draws-losses by seat", title_justify="left")
    by_seat.add_column("#", justify="right")
    by_seat.add_column("agent", overflow="fold", min_width=12)
    for seat in range(seats):
        by_seat.add_column(f"seat {seat}", justify="right", no_wrap=True)
    ranked = sorted(result.standings, key=lambda s: (-s.total.score, s.agent))
    for s in ranked:
        low, high = s.interval
        table.add_row(
            str(s.agent + 1),
            s.spec,
            f"{s.total.wins}-{s.total.draws}-{s.total.losses}",
            f"{s.total.score:.3f}",
            f"{low:.3f}-{high:.3f}",
            f"{s.elo:.0f}",
            f"{s.mu:.1f}±{s.sigma:.1f}",
        )
        by_seat.add_row(
            str(s.agent + 1), s.spec, *(f"{t.wins}-{t.draws}-{t.losses}" for t in s.per_seat)
        )
    console.print(table)
    console.print(by_seat)
    thinking = result.summary()["think_seconds"]
    played_now = any(any(t[0] for t in o.think) for o in result.outcomes)
    if played_now:
        parts = [
            f"{spec} {v['total']:.1f} s (longest move {v['longest']:.2f} s)"
            for spec, v in thinking.items()
        ]
        console.print("Thinking time in the games played now: " + "; ".join(parts), highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``arena`` to the ``limit`` app."""
    app.command("arena")(arena_command)
