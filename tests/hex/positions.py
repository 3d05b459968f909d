"""Helpers to write small hex positions in tests."""

from __future__ import annotations

from typing import Any

from limitgames.core import get_game
from limitgames.hex.state import HexState

Cell = tuple[int, int]


def position(
    tiles: dict[Cell, int | None],
    *,
    to_move: int = 0,
    step: str = "move",
    turn: int = 5,
    quiet: int = 0,
    players: int = 2,
    edition: str = "nestorgames",
    colours: dict[Cell, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A position JSON: ``tiles`` maps a cell to the seat of its pawn (or None)."""
    colour_of = colours or {}
    return {
        "game": "hex",
        "edition": edition,
        "size": extra.pop("size", 8),
        "players": players,
        "tiles": [
            {
                "q": q,
                "r": r,
                "colour": None if edition == "2008" else colour_of.get((q, r), "black"),
                "pawn": pawn,
            }
            for (q, r), pawn in tiles.items()
        ],
        "to_move": to_move,
        "step": step,
        "turn": turn,
        "quiet_turns": quiet,
        **extra,
    }


def load(tiles: dict[Cell, int | None], **kw: Any) -> HexState:
    state = get_game("hex").state_from_position(position(tiles, **kw))
    assert isinstance(state, HexState)
    return state


def name(state: HexState, cell: Cell) -> str:
    return state.cell_name(cell)


def move(state: HexState, a: Cell, b: Cell) -> str:
    return f"{name(state, a)}-{name(state, b)}"


def remove(state: HexState, a: Cell) -> str:
    return f"x {name(state, a)}"


def pawn_cells(state: HexState, seat: int) -> set[Cell]:
    return {cell for cell, _, owner in state.tiles() if owner == seat}


def tile_cells(state: HexState) -> set[Cell]:
    return {cell for cell, _, _ in state.tiles()}
