"""``limit debrief RECORD.json``: a world game beside World3's trajectories (PNG and text)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from limitgames.cli.options import LanguageOption, choose_language, fail
from limitgames.core import GameRecord, LimitGamesError
from limitgames.translation import N_
from limitgames.translation import gettext as _

DEBRIEF_HELP = N_(
    "Compare a world game with World3: population, pollution, fossil, production, crises.\n\n"
    "Each generation g stands for the year 1850 + 30 (g - 1). The World3 runs are shipped with "
    "the game (computed by scripts/world3_reference.py with pyworld3). Needs matplotlib (the "
    "charts extra).\n\n"
    "Example: limit debrief records/world-20261122-040000.json --out debrief/"
)
"""The help of ``limit debrief`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


def debrief_command(
    record: Annotated[Path, typer.Argument(help=N_("A world game record (JSON)."))],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help=N_("Folder for the PNGs and debrief.md (default: RECORD-debrief).")
        ),
    ] = None,
    language: LanguageOption = None,
) -> None:
    """``limit debrief RECORD`` (what ``--help`` says is :data:`DEBRIEF_HELP`).

    The plots' titles and paragraphs and ``debrief.md`` are in the session's language; the
    charts' axis labels and legends and World3's run names stay English.
    """
    from limitgames.world.debrief import write_debrief

    choose_language(language)
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run
    target = out if out is not None else record.with_name(f"{record.stem}-debrief")
    try:
        rec = GameRecord.read(record)
        written = write_debrief(rec, target)
    except (LimitGamesError, ValueError) as exc:
        raise fail(f"{record}: {exc}") from None
    for path, plot in written:
        console.print(f"[bold]{plot.title}[/] ({path})", highlight=False, soft_wrap=True)
        console.print(plot.text, highlight=False, soft_wrap=True)
        console.print()
    console.print(
        _("Written to %(folder)s/ (debrief.md and %(count)d PNG).")
        % {"folder": target, "count": len(written)},
        highlight=False,
    )
