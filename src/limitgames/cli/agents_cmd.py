"""``limit agents``: list the computer players and levels, or measure their speed."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from limitgames.agents import LEVELS, level_spec, list_agents
from limitgames.cli.options import CommandLanguageOption, TranslatedHelpCommand, choose_language
from limitgames.core import (
    LimitGamesError,
    VariantError,
    available_games,
    parse_variant_options,
)
from limitgames.translation import N_
from limitgames.translation import gettext as _

AGENTS_HELP = N_(
    "List the agents (spec strings) and the difficulty levels; --bench GAME measures their "
    "speed.\n\n"
    "A spec is NAME or NAME:key=value,... for example mcts:seconds=1, ismcts:iterations=2000, "
    "alphabeta:depth=4, heuristic:epsilon=0.3."
)
"""The help of ``limit agents`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


def agents_command(
    bench: Annotated[
        str | None,
        typer.Option(
            "--bench",
            metavar="GAME",
            help=N_("Measure iterations per second at GAME's start position."),
        ),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            metavar="K=V",
            help=N_("Variant parameter for --bench (repeatable)."),
        ),
    ] = None,
    seconds: Annotated[
        float,
        typer.Option("--seconds", min=0.05, help=N_("Seconds per measurement with --bench.")),
    ] = 2.0,
    language: CommandLanguageOption = None,
) -> None:
    """``limit agents`` (what ``--help`` says is :data:`AGENTS_HELP`).

    Titles, headings and sentences are in the session's language; the agents' names, specs
    and descriptions (the agents' own documentation) and the level names stay as written.
    """
    choose_language(language)
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run
    if bench is not None:
        _bench(console, bench, variant or [], seconds)
        return
    table = Table(title=_("Agents (spec: name:key=value,...)"), title_justify="left")
    table.add_column(_("name"), style="bold")
    table.add_column(_("what it does and its options"))
    for name, text in list_agents().items():
        table.add_row(name, text)
    console.print(table)
    levels = Table(title=_("Levels (--opponent LEVEL)"), title_justify="left")
    levels.add_column(_("game"), style="bold")
    for level in LEVELS:
        levels.add_column(level, overflow="fold")
    for game_id in available_games():
        levels.add_row(game_id, *(level_spec(game_id, level) for level in LEVELS))
    console.print(levels)
    console.print(
        _("Examples: %(examples)s  (see docs/agents.md)")
        % {
            "examples": "mcts:seconds=1  ismcts:iterations=2000  alphabeta:depth=4  "
            "heuristic:epsilon=0.3"
        },
        highlight=False,
    )


def _bench(console: Console, game: str, variant_options: list[str], seconds: float) -> None:
    """``limit agents --bench GAME``: each agent's speed at the start position, on ``console``."""
    from limitgames.agents.throughput import bench_agents

    try:
        variant = parse_variant_options(variant_options)
        status = _("measuring agents on %(game)s (%(seconds)s s each)...") % {
            "game": game,
            "seconds": f"{seconds:g}",
        }
        with console.status(status):
            results = bench_agents(game, variant, seconds)
    except LimitGamesError as exc:  # one line, a bad variant in the session's language
        message = exc.translated(_) if isinstance(exc, VariantError) else str(exc)
        Console(stderr=True).print(
            "[bold red]" + _("error:") + f"[/] {message}", highlight=False, soft_wrap=True
        )
        raise typer.Exit(1) from None
    table = Table(
        title=_("%(game)s %(variant)s: speed at the start position")
        % {"game": game, "variant": variant or ""},
        title_justify="left",
    )
    table.add_column(_("what"))
    table.add_column(_("count"), justify="right")
    table.add_column(_("seconds"), justify="right")
    table.add_column(_("per second"), justify="right", style="bold")
    for r in results:
        table.add_row(r.what, str(r.count), f"{r.seconds:.2f}", f"{r.rate:,.0f}")
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``agents`` to the ``limit`` app."""
    app.command("agents", cls=TranslatedHelpCommand, help=AGENTS_HELP)(agents_command)
