"""``limit debrief RECORD.json``: a world game beside World3's trajectories (PNG and text)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from limitgames.core import GameRecord, LimitGamesError

console = Console()
err_console = Console(stderr=True)


def debrief_command(
    record: Annotated[Path, typer.Argument(help="A world game record (JSON).")],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for the PNGs and debrief.md (default: RECORD-debrief)."),
    ] = None,
) -> None:
    """Compare a world game with World3: population, pollution, fossil, production, crises.

    Each generation g stands for the year 1850 + 30 (g - 1). The World3 runs are
    shipped with the game (computed by scripts/world3_reference.py with pyworld3).
    Needs matplotlib (the charts extra).

    Example: limit debrief records/world-20261122-040000.json --out debrief/
    """
    from limitgames.world.debrief import write_debrief

    target = out if out is not None else record.with_name(f"{record.stem}-debrief")
    try:
        rec = GameRecord.read(record)
        written = write_debrief(rec, target)
    except (LimitGamesError, ValueError) as exc:
        err_console.print(f"[bold red]error:[/] {record}: {exc}", highlight=False)
        raise typer.Exit(1) from None
    for path, plot in written:
        console.print(f"[bold]{plot.title}[/] ({path})", highlight=False, soft_wrap=True)
        console.print(plot.text, highlight=False, soft_wrap=True)
        console.print()
    console.print(f"Written to {target}/ (debrief.md and {len(written)} PNG).", highlight=False)
