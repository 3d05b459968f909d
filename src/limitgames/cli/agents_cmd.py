"""``limit agents``: list the computer players and levels, or measure their speed."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from limitgames.agents import LEVELS, level_spec, list_agents
from limitgames.core import LimitGamesError, available_games, parse_variant_options

console = Console()
err_console = Console(stderr=True)


def agents_command(
    bench: Annotated[
        str | None,
        typer.Option(
            "--bench",
            metavar="GAME",
            help="Measure iterations per second at GAME's start position.",
        ),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant", "-v", metavar="K=V", help="Variant parameter for --bench (repeatable)."
        ),
    ] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.05, help="Seconds per measurement with --bench.")
    ] = 2.0,
) -> None:
    """List the agents (spec strings) and the difficulty levels; --bench GAME measures their speed.

    A spec is NAME or NAME:key=value,... for example mcts:seconds=1,
    ismcts:iterations=2000, alphabeta:depth=4, heuristic:epsilon=0.3.
    """
    if bench is not None:
        _bench(bench, variant or [], seconds)
        return
    table = Table(title="Agents (spec: name:key=value,...)", title_justify="left")
    table.add_column("name", style="bold")
    table.add_column("what it does and its options")
    for name, text in list_agents().items():
        table.add_row(name, text)
    console.print(table)
    levels = Table(title="Levels (--opponent LEVEL)", title_justify="left")
    levels.add_column("game", style="bold")
    for level in LEVELS:
        levels.add_column(level, overflow="fold")
    for game_id in available_games():
        levels.add_row(game_id, *(level_spec(game_id, level) for level in LEVELS))
    console.print(levels)
    console.print(
        "Examples: mcts:seconds=1  ismcts:iterations=2000  alphabeta:depth=4  "
        "heuristic:epsilon=0.3  (see docs/agents.md)",
        highlight=False,
    )


def _bench(game: str, variant_options: list[str], seconds: float) -> None:
    from limitgames.agents.throughput import bench_agents

    try:
        variant = parse_variant_options(variant_options)
        with console.status(f"measuring agents on {game} ({seconds:g} s each)..."):
            results = bench_agents(game, variant, seconds)
    except LimitGamesError as exc:
        err_console.print(f"[bold red]error:[/] {exc}", highlight=False)
        raise typer.Exit(1) from None
    table = Table(
        title=f"{game} {variant or ''}: speed at the start position", title_justify="left"
    )
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_column("seconds", justify="right")
    table.add_column("per second", justify="right", style="bold")
    for r in results:
        table.add_row(r.what, str(r.count), f"{r.seconds:.2f}", f"{r.rate:,.0f}")
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``agents`` to the ``limit`` app."""
    app.command("agents")(agents_command)
