"""``limit debrief RECORD.json``: a world game beside World3's trajectories (SVG and text)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from limitgames.cli.options import LanguageOption, choose_language, fail
from limitgames.core import GameRecord, LimitGamesError
from limitgames.translation import N_
from limitgames.translation import gettext as _

if TYPE_CHECKING:
    from limitgames.world.debrief import Plot

DEBRIEF_HELP = N_(
    "Compare a world game with World3: population, pollution, fossil, production, crises.\n\n"
    "Each generation g stands for the year 1850 + 30 (g - 1). The World3 runs are shipped with "
    "the game (computed by scripts/world3_reference.py with pyworld3). The charts are SVG files, "
    "on fixed axes.\n\n"
    "Example: limit debrief records/world-20261122-040000.json --out debrief/"
)
"""The help of ``limit debrief`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


def debrief_command(
    record: Annotated[Path, typer.Argument(help=N_("A world game record (JSON)."))],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help=N_("Folder for the charts and debrief.md (default: RECORD-debrief).")
        ),
    ] = None,
    language: LanguageOption = None,
) -> None:
    """``limit debrief RECORD`` (what ``--help`` says is :data:`DEBRIEF_HELP`).

    Everything written (titles, paragraphs, the charts' labels and legends, ``debrief.md``)
    is in the session's language.
    """
    choose_language(language)
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run
    target = out if out is not None else record.with_name(f"{record.stem}-debrief")
    try:
        rec = GameRecord.read(record)
        account, written = write_debrief(rec, target)
    except (LimitGamesError, ValueError) as exc:
        raise fail(f"{record}: {exc}") from None
    console.print(account, highlight=False, soft_wrap=True)
    console.print()
    for paths, plot in written:
        shown = ", ".join(str(p) for p in paths)
        console.print(f"[bold]{plot.title}[/] ({shown})", highlight=False, soft_wrap=True)
        console.print(plot.text, highlight=False, soft_wrap=True)
        console.print()
    console.print(
        _("Written to %(folder)s/ (debrief.md and %(count)d SVG).")
        % {"folder": target, "count": sum(len(p) for p, _plot in written)},
        highlight=False,
    )


def write_debrief(record: GameRecord, out_dir: Path) -> tuple[str, list[tuple[list[Path], Plot]]]:
    """Replay ``record``, write each chart as ``NAME.svg`` into ``out_dir`` and ``debrief.md``
    (the account, the table of generations, then each plot's title, charts, paragraph and
    mapping). Returns the account and each plot with its SVG paths.

    Raises:
        RecordError: the record does not replay. ValueError: it completed no generation.
    """
    from limitgames.web.debrief_svg import chart_svg
    from limitgames.world.debrief import (
        CRISIS_WORDS,
        debrief_texts,
        reference_runs,
        replay_rows,
        world_account,
    )
    from limitgames.world.debrief_charts import axis_tops, debrief_charts

    rows, state = replay_rows(record)
    runs = reference_runs()
    plots = debrief_texts(rows, runs)
    charts = debrief_charts(rows, runs, axis_tops(state))
    account = world_account(rows, state)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[tuple[list[Path], Plot]] = []
    lines = ["# " + _("Debrief: the game beside World3"), "", account, ""]
    lines.append(
        _(
            "Generation g stands for the year 1850 + 30 (g - 1); the game is measured at the "
            "close of each generation."
        )
    )
    lines.append("")
    headings = [
        _("generation"),
        _("year"),
        _("population"),
        _("pollution"),
        _("fossil left"),
        _("fossil burnt"),
        _("fossil extracted"),
        _("renewable"),
        _("industrial"),
        _("military"),
        _("crises"),
    ]
    lines.append("| " + " | ".join(headings) + " |")
    lines.append("|" + "---|" * len(headings))
    for r in rows:
        crises = ", ".join(_(CRISIS_WORDS.get(c, c)) for c in r.crises) or "-"
        lines.append(
            f"| {r.generation} | {r.year} | {r.population} | {r.pollution} | {r.fossil} "
            f"({r.fossil_fraction:.0%}) | {r.fossil_burnt} | {r.fossil_extracted} | "
            f"{r.renewable} | {r.industrial} | {r.military} | {crises} |"
        )
    for plot in plots:
        paths = []
        lines += ["", f"## {plot.title}", ""]
        for chart in charts[plot.name]:
            path = out_dir / f"{chart.name}.svg"
            path.write_text(chart_svg(chart) + "\n", encoding="utf-8")
            paths.append(path)
            lines += [f"![{chart.title}]({path.name})", ""]
        lines.append(plot.text)
        lines += [""] + [f"*{chart.title}*: {chart.mapping}" for chart in charts[plot.name]]
        written.append((paths, plot))
    (out_dir / "debrief.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return account, written
