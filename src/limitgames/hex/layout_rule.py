"""What a legal layout of the nestorgames edition is, whatever law it is drawn from.

The rule (``rules/hex.md``, "Edition nestorgames", Setup)
----------------------------------------------------------
``4n`` tiles, ``n`` of each of red, blue, yellow and black, laid as one
connected group in which every tile is adjacent to at least 2 others and no two
tiles of one colour are adjacent; every pawn must have a freedom when play
starts: red and blue tiles carry pawns (and yellow ones with 3 players), so
each such tile needs a neighbour that carries no pawn (black, or yellow with 2
players). A layout that breaks any of these is *illegal*. Layouts count up to
translation: :func:`generate_layout` returns them translated so that
``min q = min r = 0`` (see :func:`normalise`).
"""

from __future__ import annotations

from typing import Any

from limitgames.hex.surface import DIRECTIONS, Cell

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "black")
"""Tile colours of the nestorgames edition; seat ``i`` plays colour ``COLOURS[i]``."""

Layout = dict[Cell, str]
"""A layout: cell -> colour."""

MIN_SIZE = 2
"""Smallest supported ``n`` (tiles per colour)."""

MAX_SIZE = 16
"""Largest supported ``n`` (64 tiles)."""


class LayoutError(ValueError):
    """A layout that breaks a constraint (the message names which)."""


def pawn_colours(players: int) -> tuple[str, ...]:
    """The colours whose tiles carry pawns: red, blue (and yellow with 3 players)."""
    return COLOURS[:players]


def normalise(layout: Layout) -> Layout:
    """Translate a layout so that its smallest ``q`` and ``r`` are 0 (cells sorted by row, then q)."""
    q0 = min(q for q, _ in layout)
    r0 = min(r for _, r in layout)
    return {(q - q0, r - r0): layout[(q, r)] for q, r in sorted(layout, key=lambda c: (c[1], c[0]))}


def layout_problems(layout: Layout, n: int, players: int) -> list[str]:
    """Every way ``layout`` breaks the generated-layout constraints (empty list: it is legal)."""
    problems: list[str] = []
    if len(layout) != 4 * n:
        problems.append(f"{len(layout)} tiles instead of {4 * n}")
    for c in COLOURS:
        count = sum(1 for v in layout.values() if v == c)
        if count != n:
            problems.append(f"{count} {c} tiles instead of {n}")
    pawn = set(pawn_colours(players))
    for (q, r), c in layout.items():
        nbrs = [(q + dq, r + dr) for dq, dr in DIRECTIONS if (q + dq, r + dr) in layout]
        if len(nbrs) < 2:
            problems.append(f"tile {(q, r)} has {len(nbrs)} neighbour(s), needs 2")
        if any(layout[nb] == c for nb in nbrs):
            problems.append(f"tile {(q, r)} touches another {c} tile")
        if c in pawn and all(layout[nb] in pawn for nb in nbrs):
            problems.append(f"the pawn on {(q, r)} has no freedom")
    if layout:
        start = next(iter(layout))
        seen = {start}
        stack = [start]
        while stack:
            q, r = stack.pop()
            for dq, dr in DIRECTIONS:
                nb = (q + dq, r + dr)
                if nb in layout and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        if len(seen) != len(layout):
            problems.append("the tiles are not one connected group")
    return problems


def layout_to_json(layout: Layout) -> list[list[Any]]:
    """A layout as the chance outcome ``[[q, r, colour], ...]``."""
    return [[q, r, c] for (q, r), c in layout.items()]
