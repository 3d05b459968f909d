"""A deliberately naive, independent reference implementation of Cameron Browne's Limit (``hex``).

Written from ``docs/rules/hex.md`` alone (not from the engine's rule code), to check the real
engine against it (``test_differential.py``) and to compute the perft fixtures
(``make_perft_fixtures.py``). Section names in the docstrings ("Surface", "Must, if possible",
...) are the headings of docs/rules/hex.md.

Naive on purpose: cells are ``(q, r)`` tuples, the board is a dict ``cell -> seat of the pawn or
None``, every connectivity question is a breadth-first search, and every state is recomputed from
scratch. The only remembered value is a state's own legal-action set (states are immutable).

Actions are tuples of cells:

- ``("move", from_cell, to_cell)`` -- move the pawn (ball) on ``from_cell`` to ``to_cell``
- ``("remove", cell)`` -- remove the empty tile on ``cell``
- ``("tile", cell)`` -- 2008 placement: put a tile on ``cell`` (steps ``tile``, ``second-tile``)
- ``("ball", cell)`` -- 2008 placement: put an own ball on ``cell`` (steps ``ball``, ``ball-any``)

Decisions of interpretation that the rules page leaves open are marked ``[reference]`` below.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

Cell = tuple[int, int]
Action = tuple
Board = dict[Cell, int | None]  # every tile on the table: cell -> seat of its pawn, or None

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
COLOURS = {"nestorgames": ("red", "blue", "yellow"), "2008": ("white", "red", "black")}
PLACEMENT_STEPS = ("tile", "second-tile", "ball", "ball-any")
MOVEMENT_STEPS = ("move", "remove")


# --------------------------------------------------------------------------------------------
# Surface ("Surface" in docs/rules/hex.md)
# --------------------------------------------------------------------------------------------
def neighbours(cell: Cell) -> list[Cell]:
    """The six neighbour cells of ``cell`` in axial coordinates ("Surface")."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def has_free_edge(board: Mapping[Cell, Any], cell: Cell) -> bool:
    """Fewer than 6 of the neighbour cells hold a tile; holes count ("Surface")."""
    return sum(1 for n in neighbours(cell) if n in board) < 6


def components(cells: Iterable[Cell]) -> list[set[Cell]]:
    """The connected parts of a set of cells (adjacency of neighbour cells), by BFS."""
    todo = set(cells)
    parts = []
    while todo:
        start = todo.pop()
        part = {start}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for n in neighbours(cell):
                if n in todo:
                    todo.discard(n)
                    part.add(n)
                    queue.append(n)
        parts.append(part)
    return parts


def seats_with_pawns(board: Board) -> set[int]:
    return {p for p in board.values() if p is not None}


def pawns_without_freedom(board: Board, seats: Iterable[int]) -> set[Cell]:
    """The pawns of ``seats`` whose group has no freedom ("Surface": group, freedom).

    A group has freedom when one of its pawns touches an empty tile: BFS from those pawns
    through pawns of the same seat finds every pawn whose group has freedom; the rest have none.
    """
    seats = set(seats)
    free: set[Cell] = set()
    queue: deque[Cell] = deque()
    for cell, owner in board.items():
        if owner in seats and any(n in board and board[n] is None for n in neighbours(cell)):
            free.add(cell)
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        for n in neighbours(cell):
            if n not in free and board.get(n, -1) == board[cell]:
                free.add(n)
                queue.append(n)
    return {cell for cell, owner in board.items() if owner in seats and cell not in free}


# --------------------------------------------------------------------------------------------
# Movement phase: move and remove ("A turn is two steps")
# --------------------------------------------------------------------------------------------
def pawn_moves(board: Board, seat: int) -> list[tuple[Cell, Cell]]:
    """Every (from, to) of step 1 "Move", before must-if-possible and the equaliser.

    A pawn reaches an empty tile by a path of steps through adjacent empty tiles: pawns block
    pawns. So the empty tiles split into regions (BFS over empty tiles only), and a pawn reaches
    exactly the regions that touch it -- each of them, and nothing else.
    """
    region_of: dict[Cell, int] = {}
    for i, region in enumerate(components(c for c, p in board.items() if p is None)):
        for cell in region:
            region_of[cell] = i
    members: dict[int, list[Cell]] = {}
    for cell, i in region_of.items():
        members.setdefault(i, []).append(cell)
    moves = []
    for cell, owner in board.items():
        if owner != seat:
            continue
        touching = {region_of[n] for n in neighbours(cell) if n in region_of}
        for i in touching:
            moves.extend((cell, to) for to in members[i])
    return moves


def play_move(board: Board, seat: int, fr: Cell, to: Cell) -> tuple[Board, set[Cell]]:
    """Step 1 "Move": the board after moving, and the captured pawns.

    Every enemy group with no freedom is captured; with 3 players both enemies' groups at the
    same moment (freedoms are judged once, before any of them is taken off). Own groups are
    never captured by a move (a loaded own group without freedom stays).
    """
    after = dict(board)
    after[fr] = None
    after[to] = seat
    captured = pawns_without_freedom(after, {s for s in seats_with_pawns(after) if s != seat})
    for cell in captured:
        after[cell] = None
    return after, captured


def cut_tile(board: Board, tile: Cell) -> Board | None:
    """The split rule of step 2 "Remove": the board with ``tile`` gone and every component that
    holds no pawn gone with it, or None when two or more components hold pawns (illegal).
    Components are judged with the tile gone and before any capture."""
    after = dict(board)
    del after[tile]
    parts = components(after)
    with_pawns = [part for part in parts if any(after[c] is not None for c in part)]
    if len(with_pawns) >= 2:
        return None
    for part in parts:
        if part not in with_pawns:
            for cell in part:
                del after[cell]
    return after


def removal_captures(after: Board, seat: int) -> tuple[Board, set[Cell]]:
    """The captures that follow a removal: every enemy group without freedom, then every own
    group without freedom (enemies first: their tiles may free own groups)."""
    after = dict(after)
    enemies = pawns_without_freedom(after, {s for s in seats_with_pawns(after) if s != seat})
    for cell in enemies:
        after[cell] = None
    own = pawns_without_freedom(after, {seat})
    for cell in own:
        after[cell] = None
    return after, enemies | own


def play_removal(board: Board, seat: int, tile: Cell) -> tuple[Board, set[Cell]] | None:
    """Step 2 "Remove" of the (empty, free-edged) ``tile``: the board after it and the captured
    pawns, or None when the split rule forbids it."""
    after = cut_tile(board, tile)
    return None if after is None else removal_captures(after, seat)


def removable_tiles(board: Board) -> Iterator[Cell]:
    """Tiles that step 2 may take before the split rule: empty, with a free edge."""
    return (c for c, p in board.items() if p is None and has_free_edge(board, c))


def removal_is_legal(board: Board, seat: int, tile: Cell, equaliser: bool) -> bool:
    """The split rule, and under the equaliser: no pawn captured (any group of any seat left
    without freedom would be captured: enemies first, and if none, own ones)."""
    after = cut_tile(board, tile)
    if after is None:
        return False
    return not (equaliser and pawns_without_freedom(after, seats_with_pawns(after)))


def legal_removals(board: Board, seat: int, equaliser: bool) -> list[Cell]:
    """The legal removals of ``seat`` (step 2; under the equaliser only non-capturing ones)."""
    return [t for t in removable_tiles(board) if removal_is_legal(board, seat, t, equaliser)]


def removal_possible(board: Board, seat: int, equaliser: bool) -> bool:
    """Whether one legal removal exists ("Must, if possible"; non-capturing under the equaliser)."""
    return any(removal_is_legal(board, seat, t, equaliser) for t in removable_tiles(board))


def move_verdicts(board: Board, seat: int, equaliser: bool) -> list[tuple[Cell, Cell, bool]]:
    """Every move the equaliser allows, with whether it "allows a removal" ("Must, if possible").

    A move that ends the game (the mover alone has pawns after it) always counts as allowing.
    Under the equaliser a move that captures any pawn is not a candidate at all.
    """
    verdicts = []
    for fr, to in pawn_moves(board, seat):
        after, captured = play_move(board, seat, fr, to)
        if equaliser and captured:
            continue
        ends = seats_with_pawns(after) == {seat}
        verdicts.append((fr, to, ends or removal_possible(after, seat, equaliser)))
    return verdicts


# --------------------------------------------------------------------------------------------
# 2008 placement phase ("Edition 2008")
# --------------------------------------------------------------------------------------------
def tile_cells(board: Board) -> list[Cell]:
    """Cells where the next tile may go: the first tile of the game on (0, 0) [brief], the
    second adjacent to it, every later tile adjacent to at least 2 tiles already placed."""
    if not board:
        return [(0, 0)]
    if len(board) == 1:
        (only,) = board
        return neighbours(only)
    counts: dict[Cell, int] = {}
    for cell in board:
        for n in neighbours(cell):
            if n not in board:
                counts[n] = counts.get(n, 0) + 1
    return [c for c, k in counts.items() if k >= 2]


def ball_allowed(board: Board, cell: Cell, seat: int) -> bool:
    """Whether ``seat`` may put a ball on the empty tile ``cell`` (2008 placement constraints):
    no own ball adjacent to it, and afterwards every ball has an adjacent empty tile.

    [reference] Only ball placements are checked for freedoms: a tile placement adds an empty
    tile and cannot take a freedom away.
    """
    if board.get(cell, -1) is not None:
        return False
    if any(board.get(n) == seat for n in neighbours(cell)):
        return False
    after = dict(board)
    after[cell] = seat
    for ball, owner in after.items():
        if owner is not None and not any(after.get(n, -1) is None for n in neighbours(ball)):
            return False
    return True


# --------------------------------------------------------------------------------------------
# The state
# --------------------------------------------------------------------------------------------
class RefState:
    """One position of Limit; immutable: :meth:`apply` returns a new state.

    After construction and after every :meth:`apply` the state stands at the next real decision
    (steps without any legal choice are skipped: they are not decisions) or is over.
    """

    edition: str
    must_remove: str
    players: int
    size: int
    seat_colours: tuple[str, ...]
    board: Board
    colours: dict[Cell, str | None]
    to_move: int | None
    step: str
    turn: int
    quiet_turns: int
    result: list[float] | None
    placed: tuple[Cell, ...]
    last_placer: int
    alive_at_turn_start: frozenset[int]
    last_captured: frozenset[Cell]

    # ---- construction ------------------------------------------------------------------
    @staticmethod
    def from_position(pos: Mapping[str, Any]) -> RefState:
        """A state at the position JSON of docs/rules/hex.md ("Interfaces every implementation
        exposes"), plus the optional keys ``placed``, ``last_placer`` (2008 placement) and
        ``seat_colours`` (each seat's colour; default: seat i plays the i-th colour)."""
        s = RefState()
        s.edition = pos.get("edition", "nestorgames")
        s.must_remove = pos.get("must_remove", "literal")
        s.players = int(pos.get("players", 2))
        s.size = int(pos.get("size", 8))
        colours = pos.get("seat_colours") or COLOURS[s.edition][: s.players]
        s.seat_colours = tuple(colours)
        if sorted(s.seat_colours) != sorted(COLOURS[s.edition][: s.players]):
            raise ValueError(f"seat_colours {colours!r} are not the colours of this game")
        s.board = {}
        s.colours = {}
        for tile in pos.get("tiles", []):
            cell = (int(tile["q"]), int(tile["r"]))
            s.board[cell] = tile.get("pawn")
            s.colours[cell] = tile.get("colour")
        s.step = pos.get("step", "move")
        if s.step == "over":  # a finished game, as written by to_position()
            s.to_move, s.turn, s.quiet_turns = (
                None,
                int(pos.get("turn", 1)),
                int(pos.get("quiet_turns", 0)),
            )
            s.result = [float(x) for x in pos["result"]]
            s.placed, s.last_placer, s.alive_at_turn_start = (), -1, frozenset()
            s.last_captured, s._legal = frozenset(), None
            return s
        s.to_move = int(pos.get("to_move", 0) or 0)
        s.turn = int(pos.get("turn", 1))
        s.quiet_turns = int(pos.get("quiet_turns", 0))
        s.result = None
        s.placed = tuple((int(c[0]), int(c[1])) for c in pos.get("placed", []))
        last = pos.get("last_placer")
        s.last_placer = s.previous_seat(s.to_move) if last is None else int(last)
        s.alive_at_turn_start = frozenset(seats_with_pawns(s.board))
        s.last_captured = frozenset()
        s._legal = None
        s._settle()
        return s

    def _copy(self) -> RefState:
        s = RefState()
        s.__dict__.update(self.__dict__)
        s.board = dict(self.board)
        s.colours = dict(self.colours)
        s.last_captured = frozenset()
        s._legal = None
        return s

    # ---- seats and colours ("Players"; "seat_colours" of the brief) --------------------
    def play_order(self) -> list[int]:
        """Seats in turn order: red, blue, yellow (2008: white, red, black), whoever holds them."""
        rank = COLOURS[self.edition]
        return sorted(range(self.players), key=lambda seat: rank.index(self.seat_colours[seat]))

    def next_seat(self, seat: int) -> int:
        order = self.play_order()
        return order[(order.index(seat) + 1) % self.players]

    def previous_seat(self, seat: int) -> int:
        order = self.play_order()
        return order[(order.index(seat) - 1) % self.players]

    # ---- public view ---------------------------------------------------------------------
    def pawns(self) -> dict[Cell, int]:
        return {c: p for c, p in self.board.items() if p is not None}

    def tiles(self) -> set[Cell]:
        return set(self.board)

    def is_over(self) -> bool:
        return self.result is not None

    def equaliser(self) -> bool:
        """The "First move equaliser" binds the movement turns numbered at most players - 1."""
        return self.step in MOVEMENT_STEPS and self.turn <= self.players - 1

    def comparable(self) -> dict[str, Any]:
        """What a differential test compares: tiles with colours and pawn owners, whose move,
        step, turn, quiet_turns and the result."""
        return {
            "tiles": {c: (self.colours.get(c), p) for c, p in self.board.items()},
            "to_move": self.to_move,
            "step": self.step,
            "turn": self.turn,
            "quiet_turns": self.quiet_turns,
            "result": self.result,
        }

    def to_position(self) -> dict[str, Any]:
        """The position JSON (for fixtures and failure messages)."""
        pos: dict[str, Any] = {
            "game": "hex",
            "edition": self.edition,
            "size": self.size,
            "players": self.players,
            "tiles": [
                {"q": q, "r": r, "colour": self.colours.get((q, r)), "pawn": p}
                for (q, r), p in sorted(
                    self.board.items(), key=lambda item: (item[0][1], item[0][0])
                )
            ],
            "to_move": self.to_move,
            "step": self.step,
            "turn": self.turn,
            "quiet_turns": self.quiet_turns,
        }
        if self.step in PLACEMENT_STEPS:
            pos["placed"] = [list(c) for c in self.placed]
            pos["last_placer"] = self.last_placer
        if self.seat_colours != COLOURS[self.edition][: self.players]:
            pos["seat_colours"] = list(self.seat_colours)
        if self.must_remove != "literal":
            pos["must_remove"] = self.must_remove
        if self.result is not None:
            pos["result"] = self.result
        return pos

    # ---- decisions -----------------------------------------------------------------------
    def legal_actions(self) -> set[Action]:
        """The legal decisions here (empty once the game is over)."""
        if self._legal is None:
            self._legal = set() if self.result is not None else self._compute_legal()
        return set(self._legal)

    def _compute_legal(self) -> set[Action]:
        seat = self.to_move
        assert seat is not None
        if self.step == "move":
            return {("move", fr, to) for fr, to in self._legal_moves()}
        if self.step == "remove":
            return {("remove", t) for t in legal_removals(self.board, seat, self.equaliser())}
        if self.step in ("tile", "second-tile"):
            return {("tile", c) for c in self._tile_choices()}
        return {("ball", c) for c in self._ball_choices(seat)}

    def _legal_moves(self) -> list[tuple[Cell, Cell]]:
        """Step 1 with "Must, if possible" and the "First move equaliser".

        nestorgames: the moves that allow a removal if any does, else every candidate move.
        2008: both steps are compulsory, so only the moves that allow a removal (none: the
        player is eliminated, see :meth:`_settle`). [reference] A game-ending move counts as
        allowing a removal in 2008 too.

        The variant ``must_remove=continuing`` (nestorgames): a game-ending move is always
        legal but does not count as allowing; the other moves are held to "allow a removal"
        only if one of them does.
        """
        assert self.to_move is not None
        verdicts = move_verdicts(self.board, self.to_move, self.equaliser())
        if self.edition == "nestorgames" and self.must_remove == "continuing":
            seat = self.to_move
            ending = set()
            for fr, to, _ in verdicts:
                after, _captured = play_move(self.board, seat, fr, to)
                if seats_with_pawns(after) == {seat}:
                    ending.add((fr, to))
            going_on = [(fr, to, ok) for fr, to, ok in verdicts if (fr, to) not in ending]
            if any(ok for _, _, ok in going_on):
                return [(fr, to) for fr, to, ok in verdicts if ok]
            return [(fr, to) for fr, to, _ in verdicts]
        allowing = [(fr, to) for fr, to, ok in verdicts if ok]
        if allowing or self.edition == "2008":
            return allowing
        return [(fr, to) for fr, to, _ in verdicts]

    def apply(self, action: Action) -> RefState:
        """The state after ``action``; ValueError if it is not legal here."""
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r} at step {self.step!r}")
        s = self._copy()
        seat = self.to_move
        assert seat is not None
        kind = action[0]
        if kind == "move":
            s._do_move(seat, action[1], action[2])
        elif kind == "remove":
            s._do_removal(seat, action[1])
        elif kind == "tile":
            s.board[action[1]] = None
            s.colours[action[1]] = None
            s.placed = (*s.placed, action[1])
            s.last_placer = seat
            s.step = "second-tile" if s.step == "tile" else "ball"
        elif kind == "ball":
            s.board[action[1]] = seat
            s.last_placer = seat
            s._next_placement_turn()
        s._settle()
        return s

    # ---- movement phase transitions ------------------------------------------------------
    def _do_move(self, seat: int, fr: Cell, to: Cell) -> None:
        """Step 1, then "End": if the mover alone has pawns the game is won, no removal."""
        self.board, captured = play_move(self.board, seat, fr, to)
        self.last_captured = frozenset(captured)
        alive = seats_with_pawns(self.board)
        if alive == {seat}:
            self._win(seat)
        else:
            self.step = "remove"

    def _do_removal(self, seat: int, tile: Cell) -> None:
        """Step 2, then the pawn-count endings ("End"), then the end of the turn."""
        before = seats_with_pawns(self.board)
        outcome = play_removal(self.board, seat, tile)
        assert outcome is not None
        self.board, captured = outcome
        self.last_captured = frozenset(captured)
        alive = seats_with_pawns(self.board)
        if not alive:
            self._table_emptied(seat, before)
        elif len(alive) == 1:
            self._win(alive.pop())
        else:
            self._end_turn(removed=True)

    def _end_turn(self, removed: bool) -> None:
        """End of a movement turn: quiet_turns, the stalemate draw, the next seat.

        "Stalemate": a removal resets quiet_turns, any other turn adds 1; once it reaches the
        number of players holding pawns the game is drawn among them. [reference] 2008 has no
        stalemate draw (its end is elimination; quiet_turns is still counted).
        """
        self.quiet_turns = 0 if removed else self.quiet_turns + 1
        alive = seats_with_pawns(self.board)
        if self.edition == "nestorgames" and self.quiet_turns >= len(alive):
            self._draw(alive)
            return
        assert self.to_move is not None
        self.turn += 1
        self.to_move = self.next_seat(self.to_move)
        self.step = "move"
        self.alive_at_turn_start = frozenset(alive)

    def _table_emptied(self, seat: int, before: set[int]) -> None:
        """A turn that leaves no pawn on the table ("End").

        nestorgames, 2 players: the taker loses. 3 players: a draw if all three were in the game
        at the start of the turn, otherwise the taker loses and the other player still in the
        game wins. 2008: the last players eliminated together (those who had balls before this
        step) draw among themselves.
        """
        if self.edition == "2008":
            self._draw(before)
        elif self.players == 2:
            self._win(1 - seat)
        elif len(self.alive_at_turn_start) == 3:
            self._draw({0, 1, 2})
        else:
            others = [s for s in self.alive_at_turn_start if s != seat]
            if others:
                self._win(others[0])
            else:
                self._draw(set())

    def _win(self, winner: int) -> None:
        self.result = [1.0 if s == winner else -1.0 for s in range(self.players)]
        self._over()

    def _draw(self, among: Iterable[int]) -> None:
        among = set(among)
        self.result = [0.0 if s in among else -1.0 for s in range(self.players)]
        self._over()

    def _over(self) -> None:
        self.to_move = None
        self.step = "over"
        self.placed = ()

    # ---- 2008 placement transitions ------------------------------------------------------
    def tiles_left(self) -> int:
        return 4 * self.size - len(self.board)

    def balls_left(self, seat: int) -> int:
        return self.size - sum(1 for p in self.board.values() if p == seat)

    def _tile_choices(self) -> list[Cell]:
        """Steps ``tile`` / ``second-tile``: the cells whose tile keeps a legal completion of the
        turn with a ball; if no completion with a ball exists, those that keep a completion
        with tiles only ("A decision is legal only if the turn can still be completed")."""
        if self.tiles_left() <= 0:
            return []
        candidates = tile_cells(self.board)
        with_ball = [c for c in candidates if self._completes(c, need_ball=True)]
        if with_ball:
            return with_ball
        return [c for c in candidates if self._completes(c, need_ball=False)]

    def _completes(self, cell: Cell, need_ball: bool) -> bool:
        """Whether, with a tile put on ``cell``, the placement turn can still be completed: a
        second tile (if this is the first and tiles remain), then (if ``need_ball``) a legal
        ball on one of the tiles placed this turn."""
        board = dict(self.board)
        board[cell] = None
        placed = (*self.placed, cell)
        seat = self.to_move
        assert seat is not None
        if len(placed) < 2 and 4 * self.size - len(board) > 0:
            for second in tile_cells(board):
                board2 = dict(board)
                board2[second] = None
                if not need_ball or self._ball_fits(board2, (*placed, second), seat):
                    return True
            return False
        return not need_ball or self._ball_fits(board, placed, seat)

    def _ball_fits(self, board: Board, placed: tuple[Cell, ...], seat: int) -> bool:
        return self.balls_left(seat) > 0 and any(ball_allowed(board, c, seat) for c in placed)

    def _ball_choices(self, seat: int) -> list[Cell]:
        """Step ``ball``: one of the two tiles just placed; step ``ball-any``: any empty tile.
        Both under the two ball constraints, and only while the seat has balls left."""
        if self.balls_left(seat) <= 0:
            return []
        cells = (
            self.placed if self.step == "ball" else [c for c, p in self.board.items() if p is None]
        )
        return [c for c in cells if ball_allowed(self.board, c, seat)]

    def _next_placement_turn(self) -> None:
        """After a placement turn: the next seat places two tiles while tiles remain; then each
        seat in turn order that can still place a ball puts one anywhere (passing otherwise);
        when nobody can, the movement phase begins with the seat after the one who placed last.

        [reference] The ball-only turns also follow when a 2-player game runs out of tiles
        with balls unplaced (a turn that could place no ball).
        """
        assert self.to_move is not None
        self.placed = ()
        if self.tiles_left() > 0:
            self.to_move = self.next_seat(self.to_move)
            self.step = "tile"
            return
        seat = self.to_move
        for _ in range(self.players):
            seat = self.next_seat(seat)
            self.step = "ball-any"
            if self._ball_choices(seat):
                self.to_move = seat
                return
        self.to_move = self.next_seat(self.last_placer)
        self.step = "move"
        self.turn = 1
        self.quiet_turns = 0
        self.alive_at_turn_start = frozenset(seats_with_pawns(self.board))

    # ---- skipping steps that are not decisions -------------------------------------------
    def _settle(self) -> None:
        """Advance past every step with no legal choice until a real decision or the end.

        - "End": as soon as one player alone has pawns, that player wins.
        - A seat without pawns is passed over without counting a turn.
        - nestorgames: no legal move -> the move step is skipped; no legal removal -> the
          removal is skipped and the turn ends (a turn without removal).
        - 2008: no move followed by a removal -> eliminated at the start of the turn (balls
          off the table). [reference] That counts as the player's turn (turn + 1, and a turn
          without removal for quiet_turns).
        - placement: a step without a legal choice is skipped (no ball: the turn ends).
        """
        while self.result is None:
            seat = self.to_move
            assert seat is not None
            if self.step in PLACEMENT_STEPS:
                legal = self._compute_legal()
                if legal:
                    self._legal = legal
                    return
                if self.step == "second-tile":  # no tile left to place: straight to the ball
                    self.step = "ball"
                else:  # no first tile, no ball, or a ball-only turn that cannot place: pass on
                    self._next_placement_turn()
                continue
            alive = seats_with_pawns(self.board)
            if len(alive) == 1:
                self._win(alive.pop())
                return
            if not alive:
                self._draw(set())
                return
            if seat not in alive:
                self.to_move = self.next_seat(seat)
                self.step = "move"
                continue
            legal = self._compute_legal()
            if legal:
                self._legal = legal
                return
            if self.step == "move" and self.edition == "2008":
                for cell in self.board:
                    if self.board[cell] == seat:
                        self.board[cell] = None
                left = seats_with_pawns(self.board)
                if len(left) == 1:
                    self._win(left.pop())
                else:
                    self._end_turn(removed=False)
            elif self.step == "move":
                self.step = "remove"
            else:
                self._end_turn(removed=False)


def perft(state: RefState, depth: int) -> int:
    """The number of decision sequences of exactly ``depth`` decisions ("Interfaces": perft)."""
    if state.result is not None:
        return 0
    if depth == 0:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(state.apply(a), depth - 1) for a in actions)
