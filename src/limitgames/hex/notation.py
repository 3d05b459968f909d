"""Cell names and the action notation of Browne's Limit.

Cell names are what a person reads off the drawn surface: a column in letters
and a row in numbers, ``c4``. Rows count from the top (``r`` grows downward);
columns count from the left in offset coordinates (each odd row is drawn half
a cell to the right), so the cells of one row are ``a4, b4, c4...``. The frame
(the first row and column) is fixed when a game starts, so names never change
during a game: for the nestorgames edition it is the initial layout's
bounding box; for the 2008 edition it is centred on the first tile, placed at
``(0, 0)``, with room for the surface to grow in every direction.

Actions (what a person would say at the table):

==============  ===========  =====================================================
step            notation     meaning
==============  ===========  =====================================================
move            ``c4-e5``    move the pawn on c4 to the empty tile e5
remove          ``x d4``     remove the empty tile d4 (``xd4`` is read too)
place a tile    ``+d4``      2008 edition: put a tile on the cell d4
place a ball    ``@d4``      2008 edition: put your ball on the tile d4
==============  ===========  =====================================================

Letters are case-insensitive; spaces around the marks are allowed.
"""

from __future__ import annotations

import re

from limitgames.core import NotationError
from limitgames.hex.codec import Kind
from limitgames.hex.surface import Cell


def column_letters(index: int) -> str:
    """0 -> ``a``, 25 -> ``z``, 26 -> ``aa``... (spreadsheet style)."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(97 + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """The inverse of :func:`column_letters`."""
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - 96)
    return value - 1


class Frame:
    """Names cells relative to a fixed first row and column.

    Args:
        row0: the ``r`` of row 1.
        col0: the offset column of column ``a``.
    """

    __slots__ = ("col0", "row0")

    def __init__(self, row0: int, col0: int) -> None:
        self.row0 = row0
        self.col0 = col0

    @classmethod
    def around(cls, cells: list[Cell], margin: int = 0) -> Frame:
        """The frame whose first row and column are those of ``cells`` less ``margin``."""
        row0 = min(r for _, r in cells) - margin
        frame = cls(row0, 0)
        frame.col0 = min(frame.column(c) for c in cells) - margin
        return frame

    def column(self, cell: Cell) -> int:
        """The offset column of ``cell`` (before subtracting ``col0``)."""
        q, r = cell
        rr = r - self.row0
        return q + (rr - (rr & 1)) // 2

    def name(self, cell: Cell) -> str:
        """The name of ``cell``, e.g. ``c4``."""
        col = self.column(cell) - self.col0
        row = cell[1] - self.row0 + 1
        if col < 0 or row < 1:
            return f"({cell[0]},{cell[1]})"
        return f"{column_letters(col)}{row}"

    def cell(self, name: str) -> Cell:
        """The cell called ``name``. Raises :class:`NotationError` if it is not a cell name."""
        m = _CELL.fullmatch(name.strip().lower())
        if not m:
            raise NotationError(name, "a cell is a column letter and a row number, like c4")
        col = column_index(m.group(1)) + self.col0
        rr = int(m.group(2)) - 1
        r = rr + self.row0
        q = col - (rr - (rr & 1)) // 2
        return (q, r)

    def to_json(self) -> list[int]:
        return [self.row0, self.col0]


_CELL = re.compile(r"([a-z]{1,3})(\d{1,3})")
_MOVE = re.compile(r"([a-z]{1,3}\d{1,3})\s*[-–]\s*([a-z]{1,3}\d{1,3})")
_MARKED = re.compile(r"([x+@])\s*([a-z]{1,3}\d{1,3})")


def parse_text(text: str) -> tuple[Kind, str, str]:
    """Split notation into ``(kind, cell name, second cell name or "")``. Raises NotationError."""
    t = text.strip().lower()
    m = _MOVE.fullmatch(t)
    if m:
        return Kind.MOVE, m.group(1), m.group(2)
    m = _MARKED.fullmatch(t)
    if m:
        kind = {"x": Kind.REMOVE, "+": Kind.TILE, "@": Kind.BALL}[m.group(1)]
        return kind, m.group(2), ""
    raise NotationError(
        text,
        "write a move as c4-e5, a removal as x d4 (2008 edition: a tile as +d4, a ball as @d4)",
    )
