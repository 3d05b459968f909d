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
from limitgames.cli.options import (
    CommandLanguageOption,
    TranslatedHelpCommand,
    choose_language,
    fail,
)
from limitgames.core import LimitGamesError, VariantError, parse_variant_options
from limitgames.translation import N_
from limitgames.translation import gettext as _

console = Console()

ARENA_HELP = N_(
    "Play a tournament: every agent in every seat equally, results with ratings.\n\n"
    "Example: limit arena hex --agent mcts:seconds=1 --agent random --games 100 --workers 2 "
    "--out runs/m1"
)
"""The help of ``limit arena`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


def arena_command(
    game: Annotated[str, typer.Argument(help=N_("Game id (hex, cards, world)."))],
    agent: Annotated[
        list[str],
        typer.Option(
            "--agent",
            "-a",
            metavar="SPEC",
            help=N_("An agent spec (mcts:seconds=1) or level (hard); give two or more."),
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, help=N_("Games to play (rounded up to whole seat rotations).")
        ),
    ] = 10,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            metavar="K=V",
            help=N_("Variant parameter, e.g. size=6 (repeatable)."),
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help=N_("Games played at once."))
    ] = 1,
    backend: Annotated[
        str, typer.Option("--backend", help=N_("process (this machine) or ray."))
    ] = "process",
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            metavar="ADDR",
            help=N_("An existing Ray cluster (default: start a local Ray)."),
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help=N_(
                "Directory for records, summary.json and results.png; an interrupted run there resumes."
            ),
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help=N_("Run seed: every game and agent seed derives from it."))
    ] = 1,
    plugin: Annotated[
        list[str] | None,
        typer.Option(
            "--plugin",
            metavar="MODULE",
            help=N_("Import MODULE first (it registers extra games or agents)."),
        ),
    ] = None,
    language: CommandLanguageOption = None,
) -> None:
    """``limit arena GAME`` (what ``--help`` says is :data:`ARENA_HELP`).

    The tables' titles and headings and the sentences are in the session's language; the
    agents' specs, the figures and the files written (``summary.json``, the records, the
    chart) are the same in every language.
    """
    choose_language(language)
    if backend not in BACKENDS:
        raise fail(
            _("unknown backend %(backend)r (known: %(known)s)")
            % {"backend": backend, "known": ", ".join(BACKENDS)}
        )
    if ray_address and backend != "ray":
        raise fail(_("--ray-address needs --backend ray"))
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
        bar = progress.add_task(_("%(game)s games") % {"game": game}, total=None)

        def on_start(total: int, done: int) -> None:
            progress.update(bar, total=total, completed=done)
            if total != games:
                console.print(
                    _(
                        "%(total)d games: %(games)d rounded up so every agent takes every seat "
                        "equally."
                    )
                    % {"total": total, "games": games}
                )
            if done:
                console.print(
                    _("Resuming: %(done)d games already played in %(out)s.")
                    % {"done": done, "out": out}
                )

        with progress:
            result = run_tournament(
                tournament,
                backend=backend,
                workers=workers,
                ray_address=ray_address,
                on_start=on_start,
                on_game=lambda _outcome: progress.advance(bar),
            )
    except LimitGamesError as exc:  # one line, a bad variant in the session's language
        message = exc.translated(_) if isinstance(exc, VariantError) else str(exc)
        raise fail(message, soft_wrap=True) from None
    except KeyboardInterrupt:
        if out is not None:
            message = _("interrupted; run the same command again to resume from %(out)s") % {
                "out": out
            }
        else:
            message = _("interrupted")
        raise fail(message) from None
    except RuntimeError as exc:
        raise fail(_("a game failed: %(reason)s") % {"reason": exc}) from None
    print_results(result)
    if out is not None:
        chart = (
            _("chart %(file)s") % {"file": out / "results.png"}
            if (out / "results.png").exists()
            else _("no chart (limitgames[charts])")
        )
        console.print(
            _("Records in %(folder)s; summary %(summary)s; %(chart)s.")
            % {"folder": out / "games", "summary": out / "summary.json", "chart": chart},
            highlight=False,
        )


def print_results(result: TournamentResult) -> None:
    """The results table: per agent wins-draws-losses, score with its 95% interval, Elo,
    openskill, and wins-draws-losses in each seat (words in the session's language)."""
    seats = len(result.standings[0].per_seat) if result.standings else 0
    table = Table(
        title=_("%(game)s: %(count)d games, seed %(seed)s")
        % {
            "game": result.tournament.game,
            "count": len(result.outcomes),
            "seed": result.tournament.seed,
        },
        title_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column(_("agent"), style="bold", overflow="fold", min_width=12)
    table.add_column(_("W-D-L"), justify="right", no_wrap=True)
    table.add_column(_("score"), justify="right", no_wrap=True)
    table.add_column(_("%(level)s CI") % {"level": "95%"}, justify="right", no_wrap=True)
    table.add_column("Elo", justify="right", no_wrap=True)
    table.add_column("openskill μ±σ", justify="right", no_wrap=True)
    by_seat = Table(title=_("wins-draws-losses by seat"), title_justify="left")
    by_seat.add_column("#", justify="right")
    by_seat.add_column(_("agent"), overflow="fold", min_width=12)
    for seat in range(seats):
        by_seat.add_column(_("seat %(n)d") % {"n": seat}, justify="right", no_wrap=True)
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
            _("%(spec)s %(total)s s (longest move %(longest)s s)")
            % {"spec": spec, "total": f"{v['total']:.1f}", "longest": f"{v['longest']:.2f}"}
            for spec, v in thinking.items()
        ]
        console.print(
            _("Thinking time in the games played now: %(times)s") % {"times": "; ".join(parts)},
            highlight=False,
        )


def register(app: typer.Typer) -> None:
    """Add ``arena`` to the ``limit`` app."""
    app.command("arena", cls=TranslatedHelpCommand, help=ARENA_HELP)(arena_command)
