"""The playing surface: hexagonal cells, tiles as Python-int bitmasks.

Cells use axial coordinates ``(q, r)`` (``rules/hex.md``, "Surface"); the six
neighbours of ``(q, r)`` are ``(q±1, r)``, ``(q, r±1)``, ``(q+1, r-1)`` and
``(q-1, r+1)``.

A :class:`Geometry` embeds a fixed set of cells in a rectangle of bits with a
padding column and row on every side: the cell ``(q, r)`` is bit
``(r - r0 + 1) * W + (q - q0 + 1)``. Then the neighbours of a whole set of
cells are six shifts of its mask (``±1``, ``±W``, ``±(W-1)``), so flood fills,
freedoms and free edges are a handful of big-int operations, with no Python
loop over tiles. Per-bit neighbour masks are precomputed for the few places
that work tile by tile. The geometry is immutable and shared by every clone of
a state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six axial directions in cyclic order around a cell."""


def neighbours(cell: Cell) -> list[Cell]:
    """The six neighbour cells of ``cell``, in the cyclic order of :data:`DIRECTIONS`."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Geometry:
    """A fixed set of cells embedded in a padded bit rectangle.

    Args:
        cells: the cells (distinct axial coordinates), at least one.

    Attributes:
        W: the row stride in bits (width + 2).
        full: the mask of every cell of the geometry.
        nb: per bit index, the mask of its six neighbour cells (inside or
            outside the geometry: a bit outside ``full`` is never a tile).
    """

    __slots__ = ("W", "W1", "bit_of", "cell_of", "full", "nb", "q0", "r0")

    def __init__(self, cells: Iterable[Cell]) -> None:
        cell_list = list(cells)
        if not cell_list:
            raise ValueError("a geometry needs at least one cell")
        self.q0 = min(q for q, _ in cell_list)
        self.r0 = min(r for _, r in cell_list)
        qspan = max(q for q, _ in cell_list) - self.q0 + 1
        rspan = max(r for _, r in cell_list) - self.r0 + 1
        self.W = qspan + 2
        self.W1 = self.W - 1
        size = self.W * (rspan + 2)
        self.bit_of: dict[Cell, int] = {}
        self.cell_of: dict[int, Cell] = {}
        full = 0
        for cell in cell_list:
            b = self.index(cell)
            self.bit_of[cell] = b
            self.cell_of[b] = cell
            full |= 1 << b
        self.full = full
        W, W1 = self.W, self.W1
        nb = [0] * (size + W + 1)
        for b in range(W, size - W):
            nb[b] = (1 << (b + 1)) | (1 << (b - 1)) | (1 << (b + W)) | (1 << (b - W)) | (1 << (b + W1)) | (1 << (b - W1))
        self.nb = nb

    def index(self, cell: Cell) -> int:
        """The bit index of ``cell`` in this geometry's frame (the cell need not be a tile)."""
        q, r = cell
        return (r - self.r0 + 1) * self.W + (q - self.q0 + 1)

    def mask_of(self, cells: Iterable[Cell]) -> int:
        """The mask of ``cells`` (each must belong to the geometry; KeyError otherwise)."""
        m = 0
        for cell in cells:
            m |= 1 << self.bit_of[cell]
        return m

    def cells(self, mask: int) -> list[Cell]:
        """The cells of ``mask``, in bit order."""
        return [self.cell_of[b] for b in bits(mask)]

    # --- set operations on masks ------------------------------------------
    def spread(self, m: int) -> int:
        """``m`` together with every neighbour cell of ``m`` (may include non-tiles)."""
        # (m << W) | (m << W1) == ((m << 1) | m) << W1, and the same downward
        W1 = self.W1
        right = m | (m << 1)
        left = m | (m >> 1)
        return right | left | (right << W1) | (left >> W1)

    def flood(self, seed: int, region: int) -> int:
        """The part of ``region`` connected to ``seed`` (``seed`` must lie inside ``region``)."""
        W1 = self.W1
        c = seed
        while True:
            right = c | (c << 1)
            left = c | (c >> 1)
            n = (right | left | (right << W1) | (left >> W1)) & region
            if n == c:
                return c
            c = n

    def components(self, region: int) -> list[int]:
        """The connected components of ``region``, as masks."""
        result = []
        while region:
            comp = self.flood(region & -region, region)
            result.append(comp)
            region &= ~comp
        return result

    def interior(self, tiles: int) -> int:
        """The tiles of ``tiles`` all of whose six neighbour cells hold a tile."""
        W, W1 = self.W, self.W1
        return tiles & (tiles >> 1) & (tiles << 1) & (tiles >> W) & (tiles << W) & (tiles >> W1) & (tiles << W1)

    def multi_arc(self, tiles: int) -> int:
        """Tiles whose present neighbours form two or more separate arcs around them.

        Removing a tile whose neighbours form one arc (or none) cannot split
        the surface; only these tiles need a connectivity check.
        """
        W, W1 = self.W, self.W1
        # neighbour present in each direction, in cyclic order (DIRECTIONS)
        d0 = tiles >> 1
        d1 = tiles << W1
        d2 = tiles << W
        d3 = tiles << 1
        d4 = tiles >> W1
        d5 = tiles >> W
        once = twice = 0
        for start in (d0 & ~d5, d1 & ~d0, d2 & ~d1, d3 & ~d2, d4 & ~d3, d5 & ~d4):
            twice |= once & start
            once |= start
        return twice & tiles
