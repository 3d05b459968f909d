"""Hex actions as integers, with named fields.

An action of Browne's Limit is one ``int`` (``rules/hex.md``: a movement
turn is a move then a removal; a 2008 placement turn is two tiles and a
ball). Tiles of the movement phase are numbered 0..63 by the game's
:class:`~limitgames.hex.surface.Surface`; placement actions name an axial
cell, because the tiles of a 2008 game do not exist yet.

==================  =====================================  ===============
kind                integer                                fields
==================  =====================================  ===============
move                ``from_tile * 64 + to_tile``           0 .. 4095
removal             ``REMOVAL_BASE + tile``                4096 .. 4159
tile placement      ``TILE_BASE + cell_code(q, r)``        2008 edition
ball placement      ``BALL_BASE + cell_code(q, r)``        2008 edition
==================  =====================================  ===============

The compiled kernel uses the same numbers (``0 .. KERNEL_ACTIONS - 1``), through
the same functions (the Python ones take NumPy integers too, read as ``int``): :func:`move_action`, :func:`removal_action`, :func:`is_move`,
:func:`move_tiles` and :func:`removal_tile` have compiled twins (Numba
``overload``, inlined), so compiled code calls them by these names and never
redoes the arithmetic.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np
from numba.extending import overload

from limitgames.hex.bitboard import Int
from limitgames.hex.surface import MAX_TILES, Cell

REMOVAL_BASE = MAX_TILES * MAX_TILES
KERNEL_ACTIONS = REMOVAL_BASE + MAX_TILES
"""Moves and removals: the kernel's action space."""

_CELL_OFFSET = 128
_CELL_SPAN = 2 * _CELL_OFFSET
TILE_BASE = 8192
BALL_BASE = TILE_BASE + _CELL_SPAN * _CELL_SPAN


class Kind(IntEnum):
    """What an action does."""

    MOVE = 1
    REMOVE = 2
    TILE = 3
    BALL = 4


def move_action(from_tile: Int, to_tile: Int) -> int:
    """Move the pawn on tile ``from_tile`` to the empty tile ``to_tile``."""
    return int(from_tile) * MAX_TILES + int(to_tile)


def removal_action(tile: Int) -> int:
    """Remove the empty tile ``tile``."""
    return REMOVAL_BASE + int(tile)


def cell_code(cell: Cell) -> int:
    """A non-negative code of an axial cell within 127 steps of the origin.

    Raises:
        ValueError: the cell is farther out (no 2008 game reaches it).
    """
    q, r = cell
    if not (-_CELL_OFFSET <= q < _CELL_OFFSET and -_CELL_OFFSET <= r < _CELL_OFFSET):
        raise ValueError(f"cell {cell} is too far from the origin")
    return (q + _CELL_OFFSET) * _CELL_SPAN + (r + _CELL_OFFSET)


def code_cell(code: int) -> Cell:
    """The inverse of :func:`cell_code`."""
    q, r = divmod(code, _CELL_SPAN)
    return (q - _CELL_OFFSET, r - _CELL_OFFSET)


def tile_action(cell: Cell) -> int:
    """Place a tile on ``cell`` (2008 edition)."""
    return TILE_BASE + cell_code(cell)


def ball_action(cell: Cell) -> int:
    """Place a ball on the tile at ``cell`` (2008 edition)."""
    return BALL_BASE + cell_code(cell)


def kind_of(action: object) -> Kind | None:
    """The kind of ``action``, or ``None`` if it is not a hex action integer."""
    if not isinstance(action, int) or isinstance(action, bool) or action < 0:
        return None
    if action < REMOVAL_BASE:
        return Kind.MOVE
    if action < KERNEL_ACTIONS:
        return Kind.REMOVE
    if TILE_BASE <= action < BALL_BASE:
        return Kind.TILE
    if BALL_BASE <= action < BALL_BASE + _CELL_SPAN * _CELL_SPAN:
        return Kind.BALL
    return None


def is_move(action: Int) -> bool:
    """Whether the kernel action ``action`` (a move or a removal) is a move."""
    return int(action) < REMOVAL_BASE


def move_tiles(action: Int) -> tuple[int, int]:
    """``(from_tile, to_tile)`` of a move."""
    return divmod(int(action), MAX_TILES)


def removal_tile(action: Int) -> int:
    """The tile of a removal."""
    return int(action) - REMOVAL_BASE


def placement_cell(action: int) -> Cell:
    """The cell of a tile or ball placement."""
    return code_cell(action - (BALL_BASE if action >= BALL_BASE else TILE_BASE))


# --- the compiled twins (int64 arithmetic inside compiled code) ---------------------------------
_TILES64 = np.int64(MAX_TILES)
_REMOVAL64 = np.int64(REMOVAL_BASE)


@overload(move_action, inline="always")
def _move_action_compiled(from_tile: Any, to_tile: Any) -> Any:
    def impl(from_tile: Any, to_tile: Any) -> Any:
        return np.int64(from_tile) * _TILES64 + np.int64(to_tile)

    return impl


@overload(removal_action, inline="always")
def _removal_action_compiled(tile: Any) -> Any:
    def impl(tile: Any) -> Any:
        return _REMOVAL64 + np.int64(tile)

    return impl


@overload(is_move, inline="always")
def _is_move_compiled(action: Any) -> Any:
    def impl(action: Any) -> Any:
        return action < _REMOVAL64

    return impl


@overload(move_tiles, inline="always")
def _move_tiles_compiled(action: Any) -> Any:
    def impl(action: Any) -> Any:
        return np.int64(action) // _TILES64, np.int64(action) % _TILES64

    return impl


@overload(removal_tile, inline="always")
def _removal_tile_compiled(action: Any) -> Any:
    def impl(action: Any) -> Any:
        return np.int64(action) - _REMOVAL64

    return impl
