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

The phase works on a dict ``cell -> ball owner (-1: no ball)``; the bitmask
surface is built when movement starts. The first tile is placed at ``(0, 0)``
(every position is the same up to translation).
"""

from __future__ import annotations

from limitgames.hex.notation import BALL, TILE, ball_action, tile_action
from limitgames.hex.surface import Cell, Geometry, neighbours

ORIGIN: Cell = (0, 0)


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


class PlacementPhase:
    """Placement-phase methods of :class:`~limitgames.hex.state.HexState` (a mixin).

    The state keeps every attribute in its own ``__slots__``; the annotations
    below only tell the type checker what the mixin reads and writes.
    """

    _cells: dict[Cell, int]
    _placed: list[Cell]
    _players: int
    _n: int
    _to_move: int
    _step: int
    _legal: list[int] | None
    _last_placer: int
    _passes: int
    _turn: int
    _quiet: int
    _alive_at_start: int
    _out: int
    _geo: Geometry | None

    def balls_left(self, seat: int) -> int:
        """Balls of ``seat`` not yet placed (2008 edition)."""
        return self._n - sum(1 for o in self._cells.values() if o == seat)

    def tiles_left(self) -> int:
        """Tiles not yet placed (2008 edition)."""
        return 4 * self._n - len(self._cells)

    def _with_ball(self) -> bool:
        seat = self._to_move
        return self.balls_left(seat) > 0 and _completes(dict(self._cells), list(self._placed), seat)

    def _placement_actions(self) -> list[int]:
        from limitgames.hex.state import BALL_ANY_STEP, BALL_STEP

        if self._legal is not None:
            return self._legal
        seat = self._to_move
        cells = self._cells
        actions: list[int] = []
        if self._step == BALL_STEP:
            actions = [ball_action(b) for b in self._placed if not ball_problem(cells, b, seat)]
        elif self._step == BALL_ANY_STEP:
            if self.balls_left(seat) > 0:
                actions = [ball_action(c) for c, o in cells.items() if o < 0 and not ball_problem(cells, c, seat)]
        else:
            with_ball = self._with_ball()
            work = dict(cells)
            placed = list(self._placed)
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
        self._legal = actions
        return actions

    def _placement_settle(self) -> bool:
        """Advance past placement steps with no decision; True if the seat to move has a choice."""
        from limitgames.hex.state import BALL_ANY_STEP, BALL_STEP, TILE1_STEP

        if self._step == TILE1_STEP and self.tiles_left() == 0:
            self._step = BALL_ANY_STEP
            self._passes = 0
        if self._step == BALL_ANY_STEP:
            if sum(self.balls_left(s) for s in range(self._players)) == 0 or self._passes >= self._players:
                self._start_movement()
                return False
            self._legal = None
            if self._placement_actions():
                return True
            self._passes += 1
            self._to_move = (self._to_move + 1) % self._players
            self._legal = None
            return False
        self._legal = None
        if self._placement_actions():
            return True
        if self._step == BALL_STEP:
            # no legal ball on the two tiles just placed (a loaded position): the turn ends without one
            self._end_placement_turn()
        else:
            # no cell can take a tile (only in odd loaded positions): the tiles phase is over
            self._step = BALL_ANY_STEP
            self._passes = 0
        return False

    def _end_placement_turn(self) -> None:
        from limitgames.hex.state import TILE1_STEP

        seat = self._to_move
        self._last_placer = seat
        self._placed = []
        self._to_move = (seat + 1) % self._players
        self._step = TILE1_STEP
        self._legal = None

    def _start_movement(self) -> None:
        from limitgames.hex.state import MOVE_STEP

        cells = self._cells
        self._begin_movement(dict(cells), dict.fromkeys(cells))  # type: ignore[attr-defined]
        self._turn = 1
        self._quiet = 0
        self._to_move = (self._last_placer + 1) % self._players
        self._step = MOVE_STEP
        self._out = 0
        self._alive_at_start = self._alive_mask()  # type: ignore[attr-defined]
        self._legal = None

    def _play_placement(self, kind: int, cell: Cell) -> None:
        from limitgames.hex.state import BALL_ANY_STEP, BALL_STEP, TILE1_STEP, TILE2_STEP

        seat = self._to_move
        self._legal = None
        if kind == TILE:
            self._cells[cell] = -1
            self._placed.append(cell)
            if self._step == TILE1_STEP:
                self._step = TILE2_STEP
                return
            if self.balls_left(seat) > 0 and any(not ball_problem(self._cells, b, seat) for b in self._placed):
                self._step = BALL_STEP
                return
        elif kind == BALL:
            self._cells[cell] = seat
            if self._step == BALL_ANY_STEP:
                self._passes = 0
                self._last_placer = seat
                self._to_move = (seat + 1) % self._players
                return
        self._end_placement_turn()

    def _why_placement_illegal(self, kind: int, cell: Cell) -> str:
        from limitgames.hex.state import BALL_STEP, SEAT_COLOURS

        cells = self._cells
        name = self._frame.name(cell)  # type: ignore[attr-defined]
        if kind == TILE:
            if cell in cells:
                return f"{name} already holds a tile"
            if not cells:
                return f"the first tile goes on {self._frame.name(ORIGIN)}"  # type: ignore[attr-defined]
            if len(cells) == 1:
                return "the first two tiles must be adjacent"
            if cell not in tile_sites(cells):
                return "a tile must touch at least 2 tiles already placed"
            return "after this tile the turn could not end with a legal ball, and another tile allows one"
        colour = SEAT_COLOURS["2008"][self._to_move]
        if self._step == BALL_STEP and cell not in self._placed:
            return "the ball goes on one of the two tiles you just placed"
        problem = ball_problem(cells, cell, self._to_move, colour)
        return problem or "no ball can be placed now"
