"""The placement phase of the 2008 edition (``rules/hex.md``, Edition "2008").

A placement turn is three decisions: a tile, a second tile, one own ball on
one of the two tiles just placed. The first two tiles of the game are
adjacent; every later tile touches at least 2 tiles already placed. Two balls
of one colour are never adjacent, and after each placement every ball keeps
an adjacent empty tile. A decision is legal only if the turn can still be
completed legally; if no completion with a ball exists, the player places the
two tiles and no ball. When the tiles run out (3 players), a turn is one
ball on any empty tile under the same two constraints; a player who cannot
place passes; the phase ends when nobody can or every ball is placed, and the
player after the last one who placed moves first.

The phase works on a dict ``cell -> ball owner (-1: no ball)``; the movement
phase numbers the tiles when it starts (:class:`~limitgames.hex.surface.Surface`).
The first tile is placed at ``(0, 0)`` (every position is the same up to
translation). In the 2008 edition seats play their colours in seat order
(white, red, black), so a seat here is also the turn-order player.
"""

from __future__ import annotations

from collections.abc import Callable

from limitgames.hex.codec import Kind, ball_action, kind_of, placement_cell, tile_action
from limitgames.hex.surface import Cell, neighbours

ORIGIN: Cell = (0, 0)
STEPS = ("tile", "second-tile", "ball", "ball-any")
"""The placement steps, by their position-JSON names."""


def tile_sites(cells: dict[Cell, int]) -> list[Cell]:
    """Cells where the next tile may go: the origin first, then next to it, then touching 2+ tiles."""
    if not cells:
        return [ORIGIN]
    if len(cells) == 1:
        return neighbours(next(iter(cells)))
    touch: dict[Cell, int] = {}
    for cell in cells:
        for nb in neighbours(cell):
            if nb not in cells:
                touch[nb] = touch.get(nb, 0) + 1
    return sorted((c for c, k in touch.items() if k >= 2), key=lambda c: (c[1], c[0]))


def ball_problem(cells: dict[Cell, int], cell: Cell, seat: int, colour: str = "own") -> str:
    """Why a ball of ``seat`` may not go on ``cell`` (``""`` if it may)."""
    owner = cells.get(cell)
    if owner is None:
        return "there is no tile there"
    if owner >= 0:
        return "that tile already holds a ball"
    nbrs = [nb for nb in neighbours(cell) if nb in cells]
    if any(cells[nb] == seat for nb in nbrs):
        return f"two {colour} balls may never be adjacent"
    if not any(cells[nb] < 0 for nb in nbrs):
        return "the ball would have no adjacent empty tile"
    for nb in nbrs:
        if cells[nb] >= 0 and not any(
            cells.get(m, 0) < 0 for m in neighbours(nb) if m != cell and m in cells
        ):
            return "it would take the last freedom of an adjacent ball"
    return ""


def _completes(cells: dict[Cell, int], placed: list[Cell], seat: int) -> bool:
    """Whether this placement turn can still end with a legal ball (``placed``: tiles placed so far)."""
    if len(placed) == 2:
        return any(not ball_problem(cells, b, seat) for b in placed)
    for site in tile_sites(cells):
        cells[site] = -1
        placed.append(site)
        ok = _completes(cells, placed, seat)
        placed.pop()
        del cells[site]
        if ok:
            return True
    return False


class Placement:
    """The table during the 2008 placement phase, and whose decision it is.

    Args:
        players: 2 or 3.
        balls: balls per player (the game's size ``n``; ``4n`` tiles).
        cells: cell -> ball owner (a seat) or -1.
        placed: the tiles placed earlier in the current turn.
        step: one of :data:`STEPS`.
        to_move: the seat placing.
        last_placer: the seat that placed last (decides who moves first).

    The owning :class:`~limitgames.hex.state.HexState` calls :meth:`play` and
    :meth:`settle`; nothing else writes these fields.
    """

    __slots__ = ("balls", "cells", "last_placer", "passes", "placed", "players", "step", "to_move")

    def __init__(
        self,
        players: int,
        balls: int,
        cells: dict[Cell, int] | None = None,
        placed: list[Cell] | None = None,
        step: str = "tile",
        to_move: int = 0,
        last_placer: int = -1,
    ) -> None:
        self.players = players
        self.balls = balls
        self.cells: dict[Cell, int] = dict(cells or {})
        self.placed: list[Cell] = list(placed or [])
        self.step = step
        self.to_move = to_move
        self.last_placer = last_placer
        self.passes = 0

    def copy(self) -> Placement:
        """An independent copy."""
        other = Placement(
            self.players,
            self.balls,
            self.cells,
            self.placed,
            self.step,
            self.to_move,
            self.last_placer,
        )
        other.passes = self.passes
        return other

    def balls_left(self, seat: int) -> int:
        """Balls of ``seat`` not yet placed."""
        return self.balls - sum(1 for o in self.cells.values() if o == seat)

    def tiles_left(self) -> int:
        """Tiles not yet placed."""
        return 4 * self.balls - len(self.cells)

    def key(self) -> tuple[object, ...]:
        """A hashable summary of the position."""
        return (self.step, self.to_move, tuple(sorted(self.cells.items())), tuple(self.placed))

    # --- legal decisions --------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """The legal placements of the seat to place, as action integers (:mod:`.codec`)."""
        seat = self.to_move
        cells = self.cells
        if self.step == "ball":
            return [ball_action(b) for b in self.placed if not ball_problem(cells, b, seat)]
        if self.step == "ball-any":
            if self.balls_left(seat) <= 0:
                return []
            return [
                ball_action(c)
                for c, o in cells.items()
                if o < 0 and not ball_problem(cells, c, seat)
            ]
        with_ball = self.balls_left(seat) > 0 and _completes(dict(cells), list(self.placed), seat)
        work = dict(cells)
        placed = list(self.placed)
        actions: list[int] = []
        for site in tile_sites(work):
            if with_ball:
                work[site] = -1
                placed.append(site)
                ok = _completes(work, placed, seat)
                placed.pop()
                del work[site]
                if not ok:
                    continue
            actions.append(tile_action(site))
        return actions

    def why_illegal(self, action: int, name: Callable[[Cell], str], colour: str) -> str:
        """Why the placement ``action`` is not legal, in words (``name``: cell -> cell name)."""
        kind = kind_of(action)
        cell = placement_cell(action)
        cells = self.cells
        if kind == Kind.TILE:
            if cell in cells:
                return f"{name(cell)} already holds a tile"
            if not cells:
                return f"the first tile goes on {name(ORIGIN)}"
            if len(cells) == 1:
                return "the first two tiles must be adjacent"
            if cell not in tile_sites(cells):
                return "a tile must touch at least 2 tiles already placed"
            return "after this tile the turn could not end with a legal ball, and another tile allows one"
        if self.step == "ball" and cell not in self.placed:
            return "the ball goes on one of the two tiles you just placed"
        return ball_problem(cells, cell, self.to_move, colour) or "no ball can be placed now"

    # --- playing ------------------------------------------------------------------------
    def play(self, action: int) -> None:
        """Play a legal placement (no check)."""
        seat = self.to_move
        cell = placement_cell(action)
        if kind_of(action) == Kind.TILE:
            self.cells[cell] = -1
            self.placed.append(cell)
            if self.step == "tile":
                self.step = "second-tile"
                return
            if self.balls_left(seat) > 0 and any(
                not ball_problem(self.cells, b, seat) for b in self.placed
            ):
                self.step = "ball"
                return
        else:
            self.cells[cell] = seat
            if self.step == "ball-any":
                self.passes = 0
                self.last_placer = seat
                self.to_move = (seat + 1) % self.players
                return
        self._end_turn()

    def settle(self) -> bool:
        """Skip placement steps with no decision. True if the seat to place has a choice; False
        when the phase is over (the movement phase starts)."""
        while True:
            if self.step == "tile" and self.tiles_left() == 0:
                self.step = "ball-any"
                self.passes = 0
            if self.step == "ball-any":
                if (
                    sum(self.balls_left(s) for s in range(self.players)) == 0
                    or self.passes >= self.players
                ):
                    return False
                if self.legal_actions():
                    return True
                self.passes += 1
                self.to_move = (self.to_move + 1) % self.players
                continue
            if self.legal_actions():
                return True
            if self.step == "ball":
                # no legal ball on the two tiles just placed (a loaded position): the turn ends without one
                self._end_turn()
            else:
                # no cell can take a tile (only in odd loaded positions): the tiles phase is over
                self.step = "ball-any"
                self.passes = 0

    def _end_turn(self) -> None:
        seat = self.to_move
        self.last_placer = seat
        self.placed = []
        self.to_move = (seat + 1) % self.players
        self.step = "tile"

    def first_mover(self) -> int:
        """The seat that moves first in the movement phase: the one after the last placer."""
        return (self.last_placer + 1) % self.players
