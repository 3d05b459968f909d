"""Regenerate ``perft_regression.json``: every count computed by the naive reference.

Run from the repository root::

    PYTHONPATH=src python tests/hex/make_perft_fixtures.py

perft (docs/rules/hex.md, "Interfaces"): the number of decision sequences of exactly ``depth``
decisions; a game over before ``depth`` contributes 0; skipped steps are not decisions.

The positions: those the file already held (random layouts frozen from the engine's generator
-- fine as positions; their counts came from a buggy engine and are recomputed here), plus new
ones built here: the one-row position of the reach bug, 3-player and 2008 positions reached by
a seeded random walk of the reference from a known position, and one with ``seat_colours``. A
walk uses only the reference, so the script needs nothing from the engine and reruns exactly.
Depths stay small enough for the engine's perft to be fast.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository root, for "tests.hex.reference"

from tests.hex.reference import RefState, perft  # noqa: E402

OUT = HERE / "perft_regression.json"

# Kept from the previous file: id -> depths.
KEPT = {
    "nestor-2p-size8-seed1": [1, 2, 3],
    "nestor-2p-size3-seed2": [1, 2, 3, 4, 5],
    "nestor-3p-size4-seed3": [1, 2, 3, 4, 5],
    "nestor-2p-size6-seed4-after10": [1, 2, 3, 4],
    "2008-2p-size3-placement": [1, 2, 3, 4, 5],
    "2008-3p-size3-movement": [1, 2, 3, 4, 5],
}


def _tiles(
    cells: dict[tuple[int, int], int | None], colour: str | None = "black"
) -> list[dict[str, Any]]:
    return [{"q": q, "r": r, "colour": colour, "pawn": p} for (q, r), p in cells.items()]


ONE_ROW = {
    "game": "hex",
    "edition": "nestorgames",
    "size": 8,
    "players": 2,
    "tiles": _tiles({(q, 0): {1: 0, 3: 0, 5: 1}.get(q) for q in range(7)}),
    "to_move": 0,
    "step": "move",
    "turn": 5,
    "quiet_turns": 0,
}

# 3 players on a small hand-made surface: two rows of 6 (r = 0 and r = 1), pawns of all three.
THREE_ROWS = {
    "game": "hex",
    "edition": "nestorgames",
    "size": 4,
    "players": 3,
    "tiles": _tiles(
        {
            (0, 0): 0,
            (1, 0): None,
            (2, 0): 1,
            (3, 0): None,
            (4, 0): 2,
            (5, 0): None,
            (0, 1): None,
            (1, 1): 2,
            (2, 1): None,
            (3, 1): 0,
            (4, 1): None,
            (5, 1): 1,
        }
    ),
    "to_move": 0,
    "step": "move",
    "turn": 1,
    "quiet_turns": 0,
}

EMPTY_2008_3P = {
    "game": "hex",
    "edition": "2008",
    "size": 2,
    "players": 3,
    "tiles": [],
    "to_move": 0,
    "step": "tile",
    "turn": 1,
    "quiet_turns": 0,
}


def walk(
    position: dict[str, Any], seed: int, decisions: int, until: str | None = None
) -> dict[str, Any]:
    """The position after a seeded random walk of the reference: ``decisions`` decisions, or
    (with ``until``) the first position whose step is ``until``."""
    rng = random.Random(seed)
    state = RefState.from_position(position)
    for _ in range(decisions):
        if until is not None and state.step == until:
            break
        state = state.apply(rng.choice(sorted(state.legal_actions())))
        assert state.result is None, "the walk ended the game; pick another seed"
    if until is not None:
        assert state.step == until, f"no {until!r} step within {decisions} decisions"
    return state.to_position()


def new_fixtures(kept: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any], list[int]]]:
    """(id, position, depths) of the positions this script adds."""
    seat_swapped = json.loads(json.dumps(THREE_ROWS))
    seat_swapped["seat_colours"] = ["yellow", "red", "blue"]  # seat 1 is red and moves first
    seat_swapped["to_move"] = 1
    return [
        ("one-row-reach", ONE_ROW, [1, 2, 3, 4]),
        ("nestor-3p-rows", THREE_ROWS, [1, 2, 3, 4]),
        ("nestor-3p-rows-after8", walk(THREE_ROWS, 1, 8), [1, 2, 3, 4]),
        (
            "nestor-3p-size4-seed3-after9",
            walk(kept["nestor-3p-size4-seed3"], 3, 9),
            [1, 2, 3, 4, 5],
        ),
        ("nestor-3p-rows-seat-colours", seat_swapped, [1, 2, 3, 4]),
        ("2008-3p-size2-placement", EMPTY_2008_3P, [1, 2, 3, 4, 5]),
        ("2008-3p-size2-ball-any", walk(EMPTY_2008_3P, 5, 40, until="ball-any"), [1, 2, 3, 4]),
        (
            "2008-2p-size3-movement",
            walk(kept["2008-2p-size3-placement"], 2, 40, until="move"),
            [1, 2, 3, 4],
        ),
    ]


def main() -> None:
    old = {f["id"]: f for f in json.loads(OUT.read_text())}
    kept = {fid: old[fid]["position"] for fid in KEPT}
    todo = [(fid, kept[fid], depths) for fid, depths in KEPT.items()] + new_fixtures(kept)
    fixtures = []
    for fid, position, depths in todo:
        state = RefState.from_position(position)
        counts = {}
        for depth in depths:
            t = time.perf_counter()
            counts[str(depth)] = perft(state, depth)
            print(
                f"{fid} d{depth} = {counts[str(depth)]} ({time.perf_counter() - t:.1f} s)",
                flush=True,
            )
        fixtures.append({"id": fid, "source": "reference", "position": position, "perft": counts})
    OUT.write_text(json.dumps(fixtures, indent=1) + "\n")
    print(f"wrote {len(fixtures)} fixtures to {OUT}")


if __name__ == "__main__":
    main()
