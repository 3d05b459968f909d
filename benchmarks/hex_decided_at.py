"""When are hex games decided? The exact value at the first position of at most T tiles.

Run: ``.venv/bin/python benchmarks/hex_decided_at.py DIR AGENT [--tiles 26] [--seconds 30]``
on the ``--out`` directory of a ``limit arena hex`` run (2 players). For every game it
solves (``limitgames.hex.solver``, exact minimax) the first position with at most ``--tiles``
tiles at which ``AGENT`` (one of the run's agent specs) is to move, and prints that value
beside the game's final result for ``AGENT``. The closing table counts games by (value,
result): a game whose value at T tiles already equals its result was decided by then, and
a ``draw -> draw`` game was a draw that no play from there could have won. ``unsolved``:
not solved within ``--seconds``; ``over``: the game ended before T tiles.

The figures of ``docs/agents.md`` ("When the games are decided") come from it.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from limitgames.core.record import GameRecord
from limitgames.hex.solver import solve
from limitgames.hex.state import HexState

WORDS = {1.0: "win", 0.0: "draw", -1.0: "loss"}


def decided_value(record: GameRecord, seat: int, tiles: int, seconds: float) -> str:
    """The exact value for ``seat`` at the first position with at most ``tiles`` tiles where
    ``seat`` is to move: ``win``, ``draw``, ``loss``, ``unsolved`` or ``over``."""
    for state, _ in record.positions():
        if state.is_terminal():
            return "over"
        assert isinstance(state, HexState)
        if len(state.tiles()) <= tiles and state.current_player() == seat:
            value = solve(state, seconds=seconds, table_bits=22).value
            return "unsolved" if value is None else WORDS[value]
    return "over"


def main() -> None:
    """Print one line per game and the (value, result) table of one arena run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the arena's --out directory")
    parser.add_argument("agent", help="the agent spec whose seat is solved, as in the run")
    parser.add_argument("--tiles", type=int, default=26, help="solve at this many tiles or fewer")
    parser.add_argument("--seconds", type=float, default=30.0, help="solver time per game")
    args = parser.parse_args()
    table: Counter[tuple[str, str]] = Counter()
    for path in sorted((args.run / "games").glob("*.json")):
        record = GameRecord.read(path)
        if args.agent not in record.seats or record.result is None:
            continue
        seat = record.seats.index(args.agent)
        value = decided_value(record, seat, args.tiles, args.seconds)
        result = WORDS[record.result[seat]]
        table[(value, result)] += 1
        print(f"{path.name}: value at <= {args.tiles} tiles {value}, result {result}", flush=True)
    print(f"\n{args.agent}: value at <= {args.tiles} tiles -> final result: games")
    for (value, result), games in sorted(table.items()):
        print(f"  {value:>8} -> {result:<4}: {games}")
    decided = sum(n for (v, r), n in table.items() if v == r)
    print(f"decided by then: {decided} of {sum(table.values())} games")


if __name__ == "__main__":
    main()
