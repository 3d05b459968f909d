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

The compiled kernel uses the same numbers (``0 .. KERNEL_ACTIONS - 1``).
"""

from __future__ import annotations

from enum import IntEnum

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


def move_action(from_tile: int, to_tile: int) -> int:
    """Move the pawn on tile ``from_tile`` to the empty tile ``to_tile``."""
    return from_tile * MAX_TILES + to_tile


def removal_action(tile: int) -> int:
    """Remove the empty tile ``tile``."""
    return REMOVAL_BASE + tile


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


def move_tiles(action: int) -> tuple[int, int]:
    """``(from_tile, to_tile)`` of a move."""
    return divmod(action, MAX_TILES)


def removal_tile(action: int) -> int:
    """The tile of a removal."""
    return action - REMOVAL_BASE


def placement_cell(action: int) -> Cell:
    """The cell of a tile or ball placement."""
    return code_cell(action - (BALL_BASE if action >= BALL_BASE else TILE_BASE))
