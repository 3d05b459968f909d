"""The sizes of Poyé's LIMIT as a research environment, per player count, for docs/research.md.

Usage::

    .venv/bin/python scripts/world_encoding_table.py            # print the Markdown table
    .venv/bin/python scripts/world_encoding_table.py --write    # replace it in docs/research.md

Each row is read from the engine's encoding (``limitgames.world.encoding.encoding_spec`` of
the resolved variant with the shipped data): the number of action indices, the length of
the observation tensor, the setup's chance nodes and the bound on decisions. The table sits
in docs/research.md between the two ``world-counts`` markers; ``tests/research`` checks that
it equals this script's output and that the environments have these sizes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from limitgames.core import get_game

DOC = Path(__file__).resolve().parent.parent / "docs" / "research.md"
BEGIN = "<!-- world-counts: scripts/world_encoding_table.py -->"
END = "<!-- /world-counts -->"


def rows() -> list[tuple[int, int, int, int, int]]:
    """``(players, actions, observation floats, setup chance nodes, max decisions)`` for every
    player count of the game."""
    game = get_game("world")
    out = []
    for players in range(game.info.min_players, game.info.max_players + 1):
        spec = game.encoding_spec(players=players)
        (floats,) = spec.observation_shape
        out.append(
            (
                players,
                spec.num_distinct_actions,
                floats,
                spec.max_chance_nodes,
                spec.max_game_length,
            )
        )
    return out


def table() -> str:
    """The Markdown table (no markers)."""
    lines = [
        "| players | actions | observation floats | setup chance nodes | decisions at most |",
        "|---|---|---|---|---|",
    ]
    for players, actions, floats, chance, length in rows():
        lines.append(f"| {players} | {actions:,} | {floats:,} | {chance} | {length:,} |")
    return "\n".join(lines)


def block() -> str:
    """The table between its markers, as docs/research.md holds it."""
    return f"{BEGIN}\n{table()}\n{END}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="replace the table in the docs")
    args = parser.parse_args(argv)
    if not args.write:
        print(table())
        return 0
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    DOC.write_text(text[:start] + block() + text[end:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
