"""The state of a game of Browne's Limit: both editions, 2 and 3 players.

Implements ``rules/hex.md`` (sources: ``seeds/000`` nestorgames rules,
``seeds/003`` the Spanish text with the forced-move clarification,
``seeds/001`` the 2008 rules). Each decision is one action; a movement turn
is a move then a removal by the same seat, and a 2008 placement turn is two
tiles then a ball. Steps with no legal choice are skipped automatically
(they are not decisions), so ``current_player()`` always has a choice unless
the game is over.

The movement phase runs on bitmasks (:mod:`limitgames.hex.movement`); the
2008 placement phase works on a dict of cells, and builds the bitmask
geometry when movement starts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from limitgames.core import TERMINAL, IllegalActionError, NotationError, State
from limitgames.hex.movement import dead_pawns, enemy_captures, nth_bit, reachable, removal_result
from limitgames.hex.notation import (
    BALL,
    MOVE,
    REMOVE,
    TILE,
    Frame,
    ball_action,
    code_cell,
    move_action,
    parse_text,
    remove_action,
    tile_action,
)
from limitgames.hex.placement import PlacementPhase
from limitgames.hex.surface import Cell, Geometry, bits

MOVE_STEP, REMOVE_STEP, TILE1_STEP, TILE2_STEP, BALL_STEP, BALL_ANY_STEP, OVER_STEP = range(7)
STEP_NAMES: tuple[str, ...] = ("move", "remove", "tile", "second-tile", "ball", "ball-any", "over")
"""Position-JSON names of the steps (``tile``, ``second-tile``, ``ball``, ``ball-any``: 2008 placement)."""

SEAT_COLOURS: dict[str, tuple[str, ...]] = {
    "nestorgames": ("red", "blue", "yellow"),
    "2008": ("white", "red", "black"),
}
"""Who plays which colour, by edition; seat 0 moves first (red / white)."""


class HexState(PlacementPhase, State):
    """A position of Browne's Limit with its history. See :mod:`limitgames.hex` for the API."""

    game_id = "hex"

    __slots__ = (
        "_alive_at_start",
        "_cells",
        "_chance",
        "_colour_of",
        "_connected",
        "_edge",
        "_edition",
        "_frame",
        "_geo",
        "_hist",
        "_last_placer",
        "_legal",
        "_n",
        "_out",
        "_passes",
        "_pawns",
        "_placed",
        "_plan",
        "_players",
        "_quiet",
        "_result",
        "_rmask",
        "_safe",
        "_start",
        "_step",
        "_tiles",
        "_to_move",
        "_turn",
        "_variant",
    )

    def __init__(self, variant: dict[str, Any], frame: Frame, chance: list[dict[str, Any]]) -> None:
        self._variant = variant
        self._edition: str = variant["edition"]
        self._players: int = variant["players"]
        self._n: int = variant["size"]
        self._frame = frame
        self._chance = chance
        self._start: dict[str, Any] | None = None
        self._geo: Geometry | None = None
        self._colour_of: dict[int, str | None] = {}
        self._tiles = 0
        self._pawns = [0] * self._players
        self._to_move = 0
        self._step = MOVE_STEP
        self._turn = 1
        self._quiet = 0
        self._alive_at_start = (1 << self._players) - 1
        self._out = 0
        self._result: list[float] | None = None
        self._hist: list[int] = []
        self._connected = True
        self._edge = 0
        self._safe = 0
        self._legal: list[int] | None = None
        self._plan: tuple[list[tuple[int, int]], bool] | None = None
        self._rmask: int | None = None
        # 2008 placement phase
        self._cells: dict[Cell, int] = {}
        self._placed: list[Cell] = []
        self._last_placer = -1
        self._passes = 0

    # --- construction ---------------------------------------------------------
    def _begin_movement(self, cells: dict[Cell, int], colours: dict[Cell, str | None]) -> None:
        """Build the bitmask surface from ``cells`` (cell -> pawn owner or -1) and start moving."""
        geo = Geometry(cells)
        self._geo = geo
        self._tiles = geo.full
        self._pawns = [0] * self._players
        for cell, owner in cells.items():
            if owner >= 0:
                self._pawns[owner] |= 1 << geo.bit_of[cell]
        self._colour_of = {geo.bit_of[c]: colours.get(c) for c in cells}
        self._cells = {}
        self._placed = []
        self._connected = geo.flood(self._tiles & -self._tiles, self._tiles) == self._tiles
        self._refresh_surface()

    def _refresh_surface(self) -> None:
        geo = self._geo
        assert geo is not None
        tiles = self._tiles
        edge = tiles & ~geo.interior(tiles)
        self._edge = edge
        self._safe = (edge & ~geo.multi_arc(tiles)) if self._connected else 0

    # --- protocol: basic queries ------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._players

    @property
    def variant(self) -> dict[str, Any]:
        return self._variant

    @property
    def edition(self) -> str:
        """``"nestorgames"`` or ``"2008"``."""
        return self._edition

    @property
    def step(self) -> str:
        """The step to play: ``move``, ``remove``, ``tile``, ``second-tile``, ``ball``, ``ball-any`` or ``over``."""
        return STEP_NAMES[self._step]

    @property
    def turn(self) -> int:
        """Movement-phase turns counted from 1 (decides the first move equaliser)."""
        return self._turn

    @property
    def quiet_turns(self) -> int:
        """Consecutive turns without a removal (decides the stalemate draw)."""
        return self._quiet

    @property
    def frame(self) -> Frame:
        """The frame that names this game's cells."""
        return self._frame

    def current_player(self) -> int:
        return TERMINAL if self._result is not None else self._to_move

    def is_terminal(self) -> bool:
        return self._result is not None

    def returns(self) -> list[float]:
        return list(self._result) if self._result is not None else [0.0] * self._players

    def history(self) -> list[Any]:
        return list(self._hist)

    def chance_outcomes(self) -> list[dict[str, Any]]:
        return self._chance

    def start_position(self) -> dict[str, Any] | None:
        return self._start

    def seat_names(self) -> list[str]:
        return list(SEAT_COLOURS[self._edition][: self._players])

    def key(self) -> Any:
        if self._geo is None:
            return (self._step, self._to_move, tuple(sorted(self._cells.items())), tuple(self._placed))
        equaliser = self._turn <= self._players - 1
        return (self._step, self._to_move, self._tiles, *self._pawns, equaliser, self._quiet, self._out)

    def equaliser(self) -> bool:
        """Whether this turn is bound by the first move equaliser (no step may capture)."""
        return self._turn <= self._players - 1

    def clone(self) -> HexState:
        other = HexState.__new__(HexState)
        for name in HexState.__slots__:
            setattr(other, name, getattr(self, name))
        other._pawns = self._pawns[:]
        other._hist = self._hist[:]
        if self._geo is None:
            other._cells = dict(self._cells)
            other._placed = self._placed[:]
        return other

    # --- seats in the game ----------------------------------------------------------
    def _alive_mask(self) -> int:
        m = 0
        bit = 1
        for pawns in self._pawns:
            if pawns:
                m |= bit
            bit <<= 1
        return m & ~self._out

    def _finish(self, winners: int, drawn: int = 0) -> None:
        """End the game: seats in ``winners`` get +1, in ``drawn`` 0, the rest -1."""
        result = []
        for s in range(self._players):
            if (winners >> s) & 1:
                result.append(1.0)
            elif (drawn >> s) & 1:
                result.append(0.0)
            else:
                result.append(-1.0)
        self._result = result
        self._step = OVER_STEP
        self._invalidate()

    def _check_end(self, mover: int) -> bool:
        """Apply the pawn-count endings after a capture (``rules/hex.md``, End). True if over."""
        alive = self._alive_mask()
        if alive & (alive - 1):
            return False
        if alive:
            self._finish(alive)
            return True
        # nobody has pawns left
        everyone = (1 << self._players) - 1
        if self._edition == "2008":
            self._finish(0, drawn=self._alive_at_start)
        elif self._players == 2:
            self._finish(everyone & ~(1 << mover))
        elif self._alive_at_start == everyone:
            self._finish(0, drawn=everyone)
        else:
            self._finish(self._alive_at_start & ~(1 << mover))
        return True

    def _end_turn(self, removed: bool) -> None:
        """Close the mover's turn: quiet-turn count, stalemate draw, next seat."""
        alive = self._alive_mask()
        if self._edition == "nestorgames":
            self._quiet = 0 if removed else self._quiet + 1
            if self._quiet >= alive.bit_count():
                self._finish(0, drawn=alive)
                return
        self._turn += 1
        self._to_move = (self._to_move + 1) % self._players
        self._step = MOVE_STEP
        self._alive_at_start = alive

    # --- the flow of steps -----------------------------------------------------------
    def _invalidate(self) -> None:
        self._legal = None
        self._plan = None
        self._rmask = None

    def _settle(self) -> None:
        """Skip steps that offer no decision until a seat has a choice or the game ends."""
        self._invalidate()
        while self._result is None:
            step = self._step
            if step == MOVE_STEP:
                p = self._to_move
                alive = self._alive_mask()
                if not alive & (alive - 1) and self._check_end(p):
                    return
                if not self._pawns[p] or (self._out >> p) & 1:
                    if self._edition == "2008" and not (self._out >> p) & 1:
                        self._out |= 1 << p  # a player with no balls is eliminated
                    self._to_move = (p + 1) % self._players
                    continue
                cands, fast = self._move_plan()
                # nestorgames outside the equaliser: some move is always legal when any pawn
                # can move (the fallback makes every move legal when none allows a removal)
                if cands and (
                    fast
                    or (self._edition == "nestorgames" and self._turn > self._players - 1)
                    or self._legal_moves()
                ):
                    return
                if self._edition == "2008":
                    # cannot move then remove: eliminated at the start of the turn
                    self._alive_at_start = self._alive_mask()
                    self._pawns[p] = 0
                    self._out |= 1 << p
                    self._invalidate()
                    if self._check_end(p):
                        return
                    self._turn += 1
                    self._to_move = (p + 1) % self._players
                    continue
                self._step = REMOVE_STEP
                self._invalidate()
            elif step == REMOVE_STEP:
                if self._removal_possible():
                    return
                self._end_turn(removed=False)
            else:
                if self._placement_settle():
                    return
        self._invalidate()

    # --- movement: legal moves ----------------------------------------------------
    def _surface_parts(self) -> tuple[int, int, list[int]]:
        geo = self._geo
        assert geo is not None
        all_pawns = 0
        for m in self._pawns:
            all_pawns |= m
        empty = self._tiles & ~all_pawns
        return all_pawns, empty, geo.components(empty)

    def _move_plan(self) -> tuple[list[tuple[int, int]], bool]:
        """``([(pawn bit, destinations mask)], every candidate legal)`` for the seat to move.

        Destinations are the empty tiles reachable through empty tiles (pawns
        block pawns). When ``fast`` is true every candidate is legal (a safe
        removal survives any move), so no per-move check is needed.
        """
        plan = self._plan
        if plan is not None:
            return plan
        geo = self._geo
        assert geo is not None
        nb = geo.nb
        flood = geo.flood
        all_pawns = 0
        for m in self._pawns:
            all_pawns |= m
        empty = self._tiles & ~all_pawns
        comps: list[int] = []
        cands: list[tuple[int, int]] = []
        own = self._pawns[self._to_move]
        while own:
            low = own & -own
            own ^= low
            fr = low.bit_length() - 1
            near = nb[fr] & empty
            if not near:
                continue
            dest = 0
            for comp in comps:
                if comp & near:
                    dest |= comp
            rest = near & ~dest
            if rest:
                comp = flood(rest, empty)
                comps.append(comp)
                dest |= comp
            cands.append((fr, dest))
        fast = False
        if self._turn > self._players - 1 and self._connected:
            x = empty & self._safe
            fast = bool(x & (x - 1))
        plan = (cands, fast)
        self._plan = plan
        return plan

    def _move_verdict(self, fr: int, to: int) -> tuple[bool, bool]:
        """For a reachable move: ``(allowed by the equaliser, allows a removal or ends the game)``."""
        geo = self._geo
        assert geo is not None
        p = self._to_move
        equaliser = self._turn <= self._players - 1
        pawns = self._pawns[:]
        pawns[p] ^= (1 << fr) | (1 << to)
        all_pawns = 0
        for m in pawns:
            all_pawns |= m
        empty = self._tiles & ~all_pawns
        captured = 0
        enemies_left = 0
        for s in range(self._players):
            if s != p:
                dead = dead_pawns(geo, pawns[s], empty)
                captured |= dead
                enemies_left |= pawns[s] & ~dead
        if captured and equaliser:
            return False, False
        if not enemies_left:
            return True, True
        all_pawns &= ~captured
        for s in range(self._players):
            pawns[s] &= ~captured
        return True, self._removal_exists(pawns, all_pawns, equaliser)

    def _removal_exists(self, pawns: list[int], all_pawns: int, equaliser: bool) -> bool:
        geo = self._geo
        assert geo is not None
        tiles = self._tiles
        cand = tiles & ~all_pawns & self._edge
        if not equaliser and cand & self._safe:
            return True
        for t in bits(cand):
            tb = 1 << t
            gone = removal_result(geo, tiles, tb, all_pawns, bool(tb & self._safe))
            if gone and (not equaliser or not self._removal_captures(pawns, all_pawns, gone)):
                return True
        return False

    def _removal_captures(self, pawns: list[int], all_pawns: int, gone: int) -> bool:
        """Whether removing ``gone`` would capture any pawn (for the equaliser)."""
        geo = self._geo
        assert geo is not None
        empty = (self._tiles & ~gone) & ~all_pawns
        return any(dead_pawns(geo, m, empty) for m in pawns)

    def _legal_moves(self) -> list[int]:
        """The legal move actions (``rules/hex.md``: Move; Must, if possible; equaliser)."""
        if self._legal is not None:
            return self._legal
        candidates, fast = self._move_plan()
        if not candidates:
            self._legal = []
            return self._legal
        if fast:
            self._legal = [move_action(fr, to) for fr, dest in candidates for to in bits(dest)]
            return self._legal
        allowed: list[int] = []
        enabling: list[int] = []
        for fr, dest in candidates:
            for to in bits(dest):
                ok, enables = self._move_verdict(fr, to)
                if ok:
                    allowed.append(move_action(fr, to))
                    if enables:
                        enabling.append(allowed[-1])
        if enabling or self._edition == "2008":
            self._legal = enabling
        else:
            self._legal = allowed
        return self._legal

    # --- movement: legal removals --------------------------------------------------
    def _removal_possible(self) -> bool:
        """Whether the seat to move has a legal removal (cheap when a safe one exists)."""
        if self._rmask is None and self._turn > self._players - 1:
            all_pawns = 0
            for m in self._pawns:
                all_pawns |= m
            if self._tiles & ~all_pawns & self._edge & self._safe:
                return True
        return bool(self._legal_removals_mask())

    def _legal_removals_mask(self) -> int:
        if self._rmask is not None:
            return self._rmask
        self._rmask = self._compute_removals_mask()
        return self._rmask

    def _compute_removals_mask(self) -> int:
        geo = self._geo
        assert geo is not None
        all_pawns = 0
        for m in self._pawns:
            all_pawns |= m
        tiles = self._tiles
        cand = tiles & ~all_pawns & self._edge
        legal = cand & self._safe
        for t in bits(cand & ~self._safe):
            if removal_result(geo, tiles, 1 << t, all_pawns, False):
                legal |= 1 << t
        if legal and self._turn <= self._players - 1:
            keep = 0
            for t in bits(legal):
                tb = 1 << t
                gone = removal_result(geo, tiles, tb, all_pawns, bool(tb & self._safe))
                if not self._removal_captures(self._pawns, all_pawns, gone):
                    keep |= tb
            legal = keep
        return legal

    # --- protocol: legal actions and apply ---------------------------------------------
    def legal_actions(self) -> list[Any]:
        if self._result is not None:
            return []
        step = self._step
        if step == MOVE_STEP:
            return list(self._legal_moves())
        if step == REMOVE_STEP:
            if self._legal is None:
                self._legal = [remove_action(t) for t in bits(self._legal_removals_mask())]
            return list(self._legal)
        return list(self._placement_actions())

    def is_legal(self, action: Any) -> bool:
        return action in self.legal_actions()

    def apply(self, action: Any) -> None:
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalActionError(action, "not an action of this game")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._describe(action), self.why_illegal(action))
        kind = action & 7
        if kind == MOVE:
            self._play_move(action >> 23, (action >> 3) & 0xFFFFF)
        elif kind == REMOVE:
            self._play_removal(action >> 3)
        else:
            self._play_placement(kind, code_cell(action >> 3))
        self._hist.append(action)
        self._settle()

    def _play_move(self, fr: int, to: int) -> None:
        geo = self._geo
        assert geo is not None
        p = self._to_move
        pawns = self._pawns
        pawns[p] ^= (1 << fr) | (1 << to)
        all_pawns = 0
        for m in pawns:
            all_pawns |= m
        dead = enemy_captures(geo, pawns, p, self._tiles & ~all_pawns)
        if dead:
            for s in range(self._players):
                pawns[s] &= ~dead
        self._invalidate()
        if dead and self._check_end(p):
            return
        self._step = REMOVE_STEP

    def _play_removal(self, t: int) -> None:
        geo = self._geo
        assert geo is not None
        p = self._to_move
        pawns = self._pawns
        all_pawns = 0
        for m in pawns:
            all_pawns |= m
        tb = 1 << t
        gone = removal_result(geo, self._tiles, tb, all_pawns, bool(tb & self._safe))
        self._tiles &= ~gone
        self._connected = True
        self._refresh_surface()
        empty = self._tiles & ~all_pawns
        dead = enemy_captures(geo, pawns, p, empty)
        if dead:
            for s in range(self._players):
                pawns[s] &= ~dead
            empty |= dead
        own = dead_pawns(geo, pawns[p], empty)
        pawns[p] &= ~own
        self._invalidate()
        if (dead or own) and self._check_end(p):
            return
        self._end_turn(removed=True)

    # --- fast random playout ------------------------------------------------------------
    def playout(self, rng: random.Random) -> list[float]:
        """Play to the end with uniformly random legal actions (same distribution as the
        reference loop); return ``returns()``. Mutates ``self``; history is kept."""
        randrange = rng.randrange
        hist = self._hist
        while self._result is None:
            step = self._step
            if step == MOVE_STEP:
                candidates, fast = self._move_plan()
                if fast:
                    total = 0
                    for _, dest in candidates:
                        total += dest.bit_count()
                    k = randrange(total)
                    index = 0
                    while True:
                        fr, dest = candidates[index]
                        c = dest.bit_count()
                        if k < c:
                            break
                        k -= c
                        index += 1
                    to = nth_bit(dest, k).bit_length() - 1
                    self._play_move(fr, to)
                    hist.append(move_action(fr, to))
                elif self._legal is not None:
                    legal = self._legal
                    action = legal[randrange(len(legal))]
                    self._play_move(action >> 23, (action >> 3) & 0xFFFFF)
                    hist.append(action)
                else:
                    action = self._sample_checked_move(candidates, randrange)
                    self._play_move(action >> 23, (action >> 3) & 0xFFFFF)
                    hist.append(action)
                self._settle()
            elif step == REMOVE_STEP:
                mask = self._rmask
                if mask is not None:
                    t = nth_bit(mask, randrange(mask.bit_count())).bit_length() - 1
                else:
                    t = self._sample_checked_removal(randrange)
                self._play_removal(t)
                hist.append(remove_action(t))
                self._settle()
            else:
                actions = self.legal_actions()
                self.apply(actions[randrange(len(actions))])
        return list(self._result)

    def _sample_checked_move(
        self, candidates: list[tuple[int, int]], randrange: Callable[[int], int]
    ) -> int:
        """A uniformly random legal move, checking candidates in random order.

        The first candidate that passes (equaliser, allows a removal or ends the
        game) in a uniformly random order is uniform over the moves that pass;
        if none passes, every equaliser-allowed move is legal (nestorgames).
        """
        pool = [move_action(fr, to) for fr, dest in candidates for to in bits(dest)]
        allowed: list[int] = []
        n = len(pool)
        while n:
            i = randrange(n)
            action = pool[i]
            n -= 1
            pool[i] = pool[n]
            ok, enables = self._move_verdict(action >> 23, (action >> 3) & 0xFFFFF)
            if enables:
                return action
            if ok:
                allowed.append(action)
        return allowed[randrange(len(allowed))]

    def _sample_checked_removal(self, randrange: Callable[[int], int]) -> int:
        """A uniformly random legal removal when some safe removal exists (outside the equaliser)."""
        all_pawns = 0
        for m in self._pawns:
            all_pawns |= m
        cand = self._tiles & ~all_pawns & self._edge
        safe = self._safe
        geo = self._geo
        assert geo is not None
        while True:
            tb = nth_bit(cand, randrange(cand.bit_count()))
            if tb & safe or removal_result(geo, self._tiles, tb, all_pawns, False):
                return tb.bit_length() - 1
            cand ^= tb

    # --- notation ---------------------------------------------------------------------
    def cell_name(self, cell: Cell) -> str:
        """The name of ``cell`` in this game's frame (``c4``)."""
        return self._frame.name(cell)

    def _name_of_bit(self, b: int) -> str:
        geo = self._geo
        assert geo is not None
        cell = geo.cell_of.get(b)
        if cell is None:
            r, c = divmod(b, geo.W)
            cell = (c - 1 + geo.q0, r - 1 + geo.r0)
        return self._frame.name(cell)

    def _describe(self, action: int) -> str:
        try:
            return self.action_to_string(action)
        except (KeyError, ValueError):
            return repr(action)

    def action_to_string(self, action: Any) -> str:
        kind = action & 7
        if kind == MOVE:
            return f"{self._name_of_bit(action >> 23)}-{self._name_of_bit((action >> 3) & 0xFFFFF)}"
        if kind == REMOVE:
            return f"x {self._name_of_bit(action >> 3)}"
        cell = code_cell(action >> 3)
        if kind == TILE:
            return f"+{self._frame.name(cell)}"
        if kind == BALL:
            return f"@{self._frame.name(cell)}"
        raise ValueError(f"not a hex action: {action!r}")

    def parse_action(self, text: str) -> Any:
        kind, first, second = parse_text(text)
        cell = self._frame.cell(first)
        if kind in (TILE, BALL):
            if self._geo is not None:
                raise NotationError(text, "the placement phase is over")
            return tile_action(cell) if kind == TILE else ball_action(cell)
        geo = self._geo
        if geo is None:
            raise NotationError(text, "moves and removals start after the placement phase")
        if cell not in geo.bit_of:
            raise NotationError(text, f"there is no tile on {first}")
        if kind == REMOVE:
            return remove_action(geo.bit_of[cell])
        target = self._frame.cell(second)
        if target not in geo.bit_of:
            raise NotationError(text, f"there is no tile on {second}")
        return move_action(geo.bit_of[cell], geo.bit_of[target])

    # --- explanations -----------------------------------------------------------------
    def why_illegal(self, action: Any) -> str:
        """The rule that forbids ``action`` here, in words (``""`` if it is legal)."""
        if self._result is not None:
            return "the game is over"
        if action in self.legal_actions():
            return ""
        kind = action & 7 if isinstance(action, int) else 0
        step = self._step
        wanted = {
            MOVE_STEP: "a move (like c4-e5)",
            REMOVE_STEP: "a tile removal (like x d4)",
            TILE1_STEP: "a tile placement (like +d4)",
            TILE2_STEP: "a second tile placement (like +d4)",
            BALL_STEP: "a ball on one of the two tiles just placed (like @d4)",
            BALL_ANY_STEP: "a ball placement (like @d4)",
        }[step]
        step_kind = {MOVE_STEP: MOVE, REMOVE_STEP: REMOVE, TILE1_STEP: TILE, TILE2_STEP: TILE}.get(step, BALL)
        if kind != step_kind:
            return f"this step needs {wanted}"
        if kind == MOVE:
            return self._why_move_illegal(action >> 23, (action >> 3) & 0xFFFFF)
        if kind == REMOVE:
            return self._why_removal_illegal(action >> 3)
        return self._why_placement_illegal(kind, code_cell(action >> 3))

    def _why_move_illegal(self, fr: int, to: int) -> str:
        geo = self._geo
        assert geo is not None
        p = self._to_move
        name = self._name_of_bit
        if not (self._pawns[p] >> fr) & 1:
            return f"there is no {self.seat_names()[p]} pawn on {name(fr)}"
        all_pawns, empty, comps = self._surface_parts()
        if not (self._tiles >> to) & 1:
            return f"there is no tile on {name(to)}"
        if (all_pawns >> to) & 1:
            return f"{name(to)} is not empty"
        if not (reachable(geo, fr, empty, comps) >> to) & 1:
            return f"{name(to)} cannot be reached from {name(fr)} through empty tiles"
        ok, _ = self._move_verdict(fr, to)
        if not ok:
            return "the first move equaliser forbids capturing on this turn"
        if self._edition == "2008":
            return "after this move no tile could be removed, and both steps are compulsory"
        return "after this move no tile could be removed, and another move allows a removal"

    def _why_removal_illegal(self, t: int) -> str:
        geo = self._geo
        assert geo is not None
        name = self._name_of_bit(t)
        all_pawns = 0
        for m in self._pawns:
            all_pawns |= m
        if not (self._tiles >> t) & 1:
            return f"there is no tile on {name}"
        if (all_pawns >> t) & 1:
            return f"{name} is not empty: only empty tiles can be removed"
        if not (self._edge >> t) & 1:
            return f"{name} has no free edge"
        tb = 1 << t
        if not removal_result(geo, self._tiles, tb, all_pawns, bool(tb & self._safe)):
            return f"removing {name} would split the surface into parts that both hold pawns"
        return "the first move equaliser forbids capturing on this turn"

    # --- observation -------------------------------------------------------------------------
    def observation(self, seat: int | None = None) -> dict[str, Any]:
        """The whole position (perfect information): the position JSON plus names and the result."""
        from limitgames.hex.position import position_json

        obs = position_json(self)
        obs["seats"] = self.seat_names()
        obs["result"] = self._result
        obs["equaliser"] = self._turn <= self._players - 1 and self._geo is not None
        return obs

    # --- for views and agents ------------------------------------------------------------------
    def tiles(self) -> list[tuple[Cell, str | None, int | None]]:
        """Every tile on the table: ``(cell, colour or None, pawn owner or None)``."""
        if self._geo is None:
            return [(c, None, o if o >= 0 else None) for c, o in self._cells.items()]
        geo = self._geo
        result = []
        for b in bits(self._tiles):
            owner = None
            for s in range(self._players):
                if (self._pawns[s] >> b) & 1:
                    owner = s
                    break
            result.append((geo.cell_of[b], self._colour_of.get(b), owner))
        return result

    def pawn_counts(self) -> list[int]:
        """Pawns (balls) on the table per seat."""
        if self._geo is None:
            return [sum(1 for o in self._cells.values() if o == s) for s in range(self._players)]
        return [m.bit_count() for m in self._pawns]

    def features(self, seat: int) -> dict[str, int]:
        """Counts a heuristic may use for ``seat``: pawns, freedoms, mobility, removable tiles.

        - ``pawns``: own pawns on the table;
        - ``freedoms``: empty tiles next to own pawns;
        - ``mobility``: reachable (pawn, destination) pairs, ignoring the must-remove rule;
        - ``removable``: empty tiles with a free edge next to no own pawn... see below;
        - ``enemy_pawns``, ``enemy_freedoms``, ``enemy_mobility``: the same summed over opponents.
        - ``removable``: empty tiles with a free edge (candidate removals).
        """
        geo = self._geo
        if geo is None:
            return {"pawns": self.pawn_counts()[seat], "freedoms": 0, "mobility": 0, "removable": 0,
                    "enemy_pawns": 0, "enemy_freedoms": 0, "enemy_mobility": 0}
        _, empty, comps = self._surface_parts()
        out: dict[str, int] = {"pawns": 0, "freedoms": 0, "mobility": 0,
                               "enemy_pawns": 0, "enemy_freedoms": 0, "enemy_mobility": 0}
        for s in range(self._players):
            pawns = self._pawns[s]
            prefix = "" if s == seat else "enemy_"
            out[prefix + "pawns"] += pawns.bit_count()
            out[prefix + "freedoms"] += (geo.spread(pawns) & empty).bit_count()
            mob = 0
            for fr in bits(pawns):
                mob += reachable(geo, fr, empty, comps).bit_count()
            out[prefix + "mobility"] += mob
        out["removable"] = (empty & self._edge).bit_count()
        return out
