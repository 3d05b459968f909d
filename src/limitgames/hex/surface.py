"""The playing surface: hexagonal cells, and their numbering as tiles 0..63.

Cells use axial coordinates ``(q, r)`` (``rules/hex.md``, "Surface"); the six
neighbours of ``(q, r)`` are ``(q±1, r)``, ``(q, r±1)``, ``(q+1, r-1)`` and
``(q-1, r+1)``.

When the movement phase starts, the cells that hold a tile are numbered
0..63 in reading order (row ``r``, then ``q``), so that every set of tiles is
one ``uint64`` mask. A :class:`Surface` holds that numbering and the tables
the compiled kernel (:mod:`limitgames.hex.kernel`) reads: per tile, the mask
of its neighbour tiles and its neighbours in cyclic order. Tiles are only
ever removed, never added, so the numbering is fixed for the whole movement
phase; a surface is immutable and shared by every copy of a state.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six axial directions in cyclic order around a cell."""

MAX_TILES = 64


def neighbours(cell: Cell) -> list[Cell]:
    """The six neighbour cells of ``cell``, in the cyclic order of :data:`DIRECTIONS`."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


class Surface:
    """The tiles of a movement phase, numbered 0..63.

    Args:
        cells: the cells that hold a tile (distinct), 1 to 64 of them.
        colours: the colour of each cell's tile (``None``: uncoloured, 2008).

    Attributes:
        cells: tile number -> cell.
        index: cell -> tile number.
        colours: tile number -> colour or ``None``.
        neighbour_masks: ``uint64[64]``; entry ``t`` is the mask of the tiles
            next to tile ``t`` (0 for numbers past the last tile).
        ring: ``int64[64, 6]``; entry ``[t, d]`` is the tile in direction
            ``DIRECTIONS[d]`` of tile ``t``, or -1 where that cell never held
            a tile.
        full: the mask of every tile.

    Raises:
        ValueError: no cells, more than 64, or a cell given twice.
    """

    __slots__ = ("cells", "colours", "full", "index", "neighbour_masks", "ring")

    def __init__(self, cells: Iterable[Cell], colours: Iterable[str | None] | None = None) -> None:
        given = list(cells)
        colour_list = list(colours) if colours is not None else [None] * len(given)
        if not given:
            raise ValueError("a surface needs at least one tile")
        if len(given) > MAX_TILES:
            raise ValueError(f"{len(given)} tiles; a surface holds at most {MAX_TILES}")
        colour_of = dict(zip(given, colour_list, strict=True))
        if len(colour_of) != len(given):
            raise ValueError("a cell holds two tiles")
        ordered = sorted(given, key=lambda c: (c[1], c[0]))
        self.cells: tuple[Cell, ...] = tuple(ordered)
        self.index: dict[Cell, int] = {c: i for i, c in enumerate(ordered)}
        self.colours: tuple[str | None, ...] = tuple(colour_of[c] for c in ordered)
        masks = np.zeros(MAX_TILES, dtype=np.uint64)
        ring = np.full((MAX_TILES, 6), -1, dtype=np.int64)
        for i, cell in enumerate(ordered):
            m = 0
            for d, nb in enumerate(neighbours(cell)):
                j = self.index.get(nb)
                if j is not None:
                    ring[i, d] = j
                    m |= 1 << j
            masks[i] = m
        masks.flags.writeable = False
        ring.flags.writeable = False
        self.neighbour_masks = masks
        self.ring = ring
        self.full = (1 << len(ordered)) - 1

    def mask_of(self, cells: Iterable[Cell]) -> int:
        """The mask of ``cells`` (each must be a tile of the surface; KeyError otherwise)."""
        m = 0
        for cell in cells:
            m |= 1 << self.index[cell]
        return m

    def cells_of(self, mask: int) -> list[Cell]:
        """The cells of the tiles in ``mask``, in tile order."""
        return [self.cells[t] for t in tiles_of(mask)]


def tiles_of(mask: int) -> list[int]:
    """The tile numbers in ``mask`` (a Python int), lowest first."""
    out = []
    m = int(mask)
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out
