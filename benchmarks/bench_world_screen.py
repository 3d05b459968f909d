"""How many lines the world terminal draws: the one-screen redraw and the full tables.

Run: ``.venv/bin/python benchmarks/bench_world_screen.py [--players 4] [--width 100] [--seed 7]``

Plays one seeded random game and, at every fifth decision, draws the screen for the nation to
decide with a Rich console of the given width recording to text: the redraw
(``cli.world_view.render``, bounded by ``cli.world_screen.SCREEN_LINES``) and the full tables
behind the commands ``world``, ``nations`` and ``hand`` (``cli.world_view.render_full``). Prints
the largest, smallest and mean line counts of each. Tests never time code; this counts lines.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from rich.console import Console

from limitgames.cli import world_view
from limitgames.core import get_game


def lines(draw: Callable[..., None], state: Any, seat: int, width: int) -> int:
    """The number of lines ``draw`` prints for ``seat`` at ``width`` columns."""
    console = Console(record=True, width=width, file=open("/dev/null", "w"))  # noqa: SIM115
    draw(console, state, seat)
    return len(console.export_text().splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    state = get_game("world").new_initial_state(seed=args.seed, players=args.players)
    rng = random.Random(3)
    redraw: list[int] = []
    full: list[int] = []
    decisions = 0
    while not state.is_terminal():
        decisions += 1
        if decisions % 5 == 0:
            seat = state.current_player()
            redraw.append(lines(world_view.render, state, seat, args.width))
            full.append(lines(world_view.render_full, state, seat, args.width))
        state.apply(rng.choice(state.legal_actions()))
    for name, counts in (("redraw", redraw), ("full tables", full)):
        print(
            f"{name}: {len(counts)} screens, most {max(counts)} lines, fewest {min(counts)}, "
            f"mean {sum(counts) / len(counts):.1f} ({args.players} nations, {args.width} columns)"
        )


if __name__ == "__main__":
    main()
