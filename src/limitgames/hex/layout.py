"""Random layouts of the nestorgames edition, and their constraints.

``rules/hex.md``, "Edition nestorgames", Setup: ``4n`` tiles, ``n`` of each of
red, blue, yellow and black, laid as one connected group in which every tile
is adjacent to at least 2 others and no two tiles of one colour are adjacent;
every pawn must have a freedom when play starts (red and blue tiles carry
pawns, and yellow ones with 3 players).

The generator grows a shape from one cell by adding any cell that touches it
(cells touching two or more tiles are preferred, but every touching cell has a
chance, so every shape, rings included, can be made), rejects shapes with a
tile of fewer than 2 neighbours, then colours the shape by a randomised
backtracking search that keeps the colour counts exact, never puts one
colour next to itself and prunes any pawn tile left without an empty
neighbour. Every legal layout has a positive probability (up to translation).
"""

from __future__ import annotations

import random

from limitgames.hex.surface import DIRECTIONS, Cell

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "black")
"""Tile colours of the nestorgames edition; seat ``i`` plays colour ``COLOURS[i]``."""

Layout = dict[Cell, str]
"""A layout: cell -> colour."""

_TOUCH_WEIGHT = 6  # preference for frontier cells touching 2+ tiles (any positive weight keeps every shape possible)


class LayoutError(ValueError):
    """A layout that breaks a constraint (the message names which)."""


def pawn_colours(players: int) -> tuple[str, ...]:
    """The colours whose tiles carry pawns: red, blue (and yellow with 3 players)."""
    return COLOURS[:players]


def grow_shape(count: int, rng: random.Random) -> list[Cell] | None:
    """Grow a connected shape of ``count`` cells; ``None`` if some cell has fewer than 2 neighbours."""
    shape: set[Cell] = {(0, 0)}
    order: list[Cell] = [(0, 0)]
    touch: dict[Cell, int] = {}
    for dq, dr in DIRECTIONS:
        touch[(dq, dr)] = 1
    while len(order) < count:
        cells = list(touch)
        weights = [_TOUCH_WEIGHT if touch[c] >= 2 else 1 for c in cells]
        cell = rng.choices(cells, weights)[0]
        del touch[cell]
        shape.add(cell)
        order.append(cell)
        q, r = cell
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if n not in shape:
                touch[n] = touch.get(n, 0) + 1
    for q, r in order:
        if sum((q + dq, r + dr) in shape for dq, dr in DIRECTIONS) < 2:
            return None
    return order


def colour_shape(
    cells: list[Cell], n: int, players: int, rng: random.Random, max_steps: int = 4000
) -> Layout | None:
    """Colour ``cells`` with ``n`` tiles of each colour under the constraints; ``None`` if the search gives up."""
    shape = set(cells)
    adj: dict[Cell, list[Cell]] = {
        (q, r): [(q + dq, r + dr) for dq, dr in DIRECTIONS if (q + dq, r + dr) in shape]
        for q, r in cells
    }
    # breadth-first order from a random cell, so each cell meets coloured neighbours early
    start = cells[rng.randrange(len(cells))]
    order = [start]
    seen = {start}
    for cell in order:
        nbrs = adj[cell][:]
        rng.shuffle(nbrs)
        for nb in nbrs:
            if nb not in seen:
                seen.add(nb)
                order.append(nb)
    pawn = set(pawn_colours(players))
    colour: dict[Cell, str] = {}
    remaining = dict.fromkeys(COLOURS, n)
    steps = 0

    def pawn_ok(cell: Cell) -> bool:
        """False if ``cell`` carries a pawn, all its neighbours are coloured and none is empty."""
        c = colour.get(cell)
        if c is None or c not in pawn:
            return True
        free = False
        for nb in adj[cell]:
            nc = colour.get(nb)
            if nc is None or nc not in pawn:
                free = True
                break
        return free

    def place(i: int) -> bool:
        nonlocal steps
        if i == len(order):
            return True
        steps += 1
        if steps > max_steps:
            return False
        cell = order[i]
        used = {colour.get(nb) for nb in adj[cell]}
        options = [c for c in COLOURS if remaining[c] and c not in used]
        rng.shuffle(options)
        for c in options:
            colour[cell] = c
            remaining[c] -= 1
            if pawn_ok(cell) and all(pawn_ok(nb) for nb in adj[cell]) and place(i + 1):
                return True
            remaining[c] += 1
            del colour[cell]
            if steps > max_steps:
                return False
        return False

    return dict(colour) if place(0) else None


def generate_layout(n: int, players: int, rng: random.Random) -> Layout:
    """A random legal layout of ``4n`` tiles for ``players`` (2 or 3), translated so ``min q = min r = 0``.

    Retries until it succeeds (a few milliseconds at ``n = 8``).
    """
    while True:
        shape = grow_shape(4 * n, rng)
        if shape is None:
            continue
        layout = colour_shape(shape, n, players, rng)
        if layout is not None:
            return normalise(layout)


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
