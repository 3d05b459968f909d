"""The state of a game of Browne's Limit: both editions, 2 and 3 players.

Implements ``rules/hex.md`` (sources: ``seeds/000`` nestorgames rules,
``seeds/003`` the Spanish text with the forced-move clarification,
``seeds/001`` the 2008 rules). Each decision is one action; a movement turn
is a move then a removal by the same seat, and a 2008 placement turn is two
tiles then a ball. Steps with no legal choice are skipped automatically
(they are not decisions), so ``current_player()`` always has a choice unless
the game is over.

:class:`HexState` is a thin wrapper: the movement phase's rules live in the
compiled kernel (:mod:`limitgames.hex.kernel`), which it calls on a small
``uint64`` vector; the 2008 placement phase lives in
:mod:`limitgames.hex.placement`. The state is the only writer of its fields.

Seats and colours: kernel players are numbered in turn order (red, blue,
yellow; 2008: white, red, black). Which seat plays which colour is a chance
outcome of the nestorgames edition (``colours=random``, the rulebook's
"determine randomly the player's colours") or seat order (``colours=fixed``,
and always in the 2008 edition).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from limitgames.core import TERMINAL, IllegalActionError, NotationError, State
from limitgames.core.events import Event, Outcome
from limitgames.hex import groups, kernel, playouts, refusals
from limitgames.hex.bitboard import Bools, Ints, Masks
from limitgames.hex.codec import (
    Kind,
    ball_action,
    kind_of,
    move_action,
    move_tiles,
    placement_cell,
    removal_action,
    removal_tile,
    tile_action,
)
from limitgames.hex.events import (
    BallPlaced,
    Moved,
    Removed,
    TilePlaced,
    capture_events,
    outcome_of,
    placement_events,
    settled_events,
)
from limitgames.hex.info import SEAT_COLOURS
from limitgames.hex.notation import Frame, parse_text
from limitgames.hex.perft import perft
from limitgames.hex.placement import Placement
from limitgames.hex.surface import Cell, Surface, tiles_of

_STEP_NAMES = ("move", "remove", "over")
_HISTORY = np.empty(8 * 64, dtype=np.int64)
"""Receives a playout's actions (more than any movement phase has); compiled calls hold the
GIL, so one buffer serves every thread."""
_STREAM = np.empty(1, dtype=np.uint64)
_SEAT_ARRAYS = {
    order: np.array(order, dtype=np.int64)
    for order in ((0, 1), (1, 0), *itertools.permutations(range(3)))
}
"""Each seat order (kernel player -> seat) as the array the kernel reads."""
_WANTED = {
    "move": "a move (like c4-e5)",
    "remove": "a tile removal (like x d4)",
    "tile": "a tile placement (like +d4)",
    "second-tile": "a second tile placement (like +d4)",
    "ball": "a ball on one of the two tiles just placed (like @d4)",
    "ball-any": "a ball placement (like @d4)",
}
_STEP_KIND = {
    "move": Kind.MOVE,
    "remove": Kind.REMOVE,
    "tile": Kind.TILE,
    "second-tile": Kind.TILE,
    "ball": Kind.BALL,
    "ball-any": Kind.BALL,
}


class HexState(State):
    """A position of Browne's Limit with its history. See :mod:`limitgames.hex` for the API.

    Build one with :meth:`on_surface` (movement phase) or :meth:`in_placement`
    (2008 placement phase); games and positions do that for you
    (:class:`~limitgames.hex.game.HexGame`, :func:`~limitgames.hex.position.state_from_position`).
    """

    game_id = "hex"

    __slots__ = (
        "_chance",
        "_frame",
        "_hist",
        "_legal",
        "_placement",
        "_s",
        "_seat_of",
        "_start",
        "_surface",
        "_variant",
    )

    def __init__(
        self,
        variant: dict[str, Any],
        frame: Frame,
        chance: list[dict[str, Any]],
        seat_of: Sequence[int] | None = None,
        start: dict[str, Any] | None = None,
    ) -> None:
        players = variant["players"]
        self._variant = variant
        self._frame = frame
        self._chance = chance
        self._seat_of: tuple[int, ...] = (
            tuple(seat_of) if seat_of is not None else tuple(range(players))
        )
        if sorted(self._seat_of) != list(range(players)):
            raise ValueError(f"seat_of {self._seat_of} is not a permutation of the {players} seats")
        self._start = start
        self._hist: list[int] = []
        self._legal: list[int] | None = None
        self._placement: Placement | None = None
        self._surface: Surface | None = None
        self._s: Masks | None = None

    # --- construction ---------------------------------------------------------------
    @classmethod
    def on_surface(
        cls,
        variant: dict[str, Any],
        frame: Frame,
        cells: dict[Cell, int],
        colours: dict[Cell, str | None],
        *,
        chance: list[dict[str, Any]] | None = None,
        seat_of: Sequence[int] | None = None,
        to_move: int = 0,
        remove_step: bool = False,
        turn: int = 1,
        quiet: int = 0,
        start: dict[str, Any] | None = None,
    ) -> HexState:
        """A movement-phase state, settled at its first decision.

        Args:
            cells: every tile's cell -> the SEAT owning its pawn, or -1.
            colours: cell -> tile colour (``None`` in the 2008 edition).
            seat_of: kernel player (turn order) -> seat; identity by default.
            to_move: the seat to move.
            remove_step: start at the removal step of ``to_move``'s turn.

        Raises:
            ValueError: more than 64 tiles, or no tile.
        """
        state = cls(variant, frame, chance if chance is not None else [], seat_of, start)
        state._begin_movement(cells, colours, state._player_of(to_move), turn, quiet, remove_step)
        return state

    @classmethod
    def in_placement(
        cls,
        variant: dict[str, Any],
        frame: Frame,
        placement: Placement,
        *,
        chance: list[dict[str, Any]] | None = None,
        start: dict[str, Any] | None = None,
    ) -> HexState:
        """A 2008 placement-phase state (the placement becomes the state's own), settled."""
        state = cls(variant, frame, chance if chance is not None else [], None, start)
        state._placement = placement
        state._settle_placement()
        return state

    def _begin_movement(
        self,
        cells: dict[Cell, int],
        colours: dict[Cell, str | None],
        to_move: int,
        turn: int,
        quiet: int,
        remove_step: bool,
    ) -> None:
        surface = Surface(list(cells), [colours.get(c) for c in cells])
        self._surface = surface
        self._placement = None
        s = np.zeros(kernel.STATE_SIZE, dtype=np.uint64)
        player_of = self._player_of
        for cell, seat in cells.items():
            if seat >= 0:
                s[kernel.S_PAWNS + player_of(seat)] |= np.uint64(1 << surface.index[cell])
        s[kernel.S_TILES] = surface.full
        s[kernel.S_TO_MOVE] = to_move
        s[kernel.S_STEP] = kernel.REMOVE_STEP if remove_step else kernel.MOVE_STEP
        s[kernel.S_TURN] = turn
        s[kernel.S_QUIET] = quiet
        s[kernel.S_PLAYERS] = self.num_players
        s[kernel.S_EDITION] = kernel.EDITION_2008 if self.edition == "2008" else kernel.NESTORGAMES
        continuing = self.edition != "2008" and self.must_remove == "continuing"
        s[kernel.S_READING] = kernel.CONTINUING if continuing else kernel.LITERAL
        full = surface.full
        connected = (
            groups.flood(surface.neighbour_masks, np.uint64(full & -full), np.uint64(full)) == full
        )
        s[kernel.S_CONNECTED] = 1 if connected else 0
        s[kernel.S_ALIVE_AT_START] = kernel.alive_mask(s)
        kernel.refresh_surface(surface.neighbour_masks, surface.ring, s)
        kernel.settle(surface.neighbour_masks, s)
        self._s = s
        self._legal = None

    def _settle_placement(self) -> None:
        placement = self._placement
        assert placement is not None
        self._legal = None
        if placement.settle():
            return
        self._begin_movement(
            placement.cells, dict.fromkeys(placement.cells), placement.first_mover(), 1, 0, False
        )

    def _player_of(self, seat: int) -> int:
        return self._seat_of.index(seat)

    # --- protocol: basic queries ------------------------------------------------------
    @property
    def num_players(self) -> int:
        return int(self._variant["players"])

    @property
    def variant(self) -> dict[str, Any]:
        return self._variant

    @property
    def must_remove(self) -> str:
        """The reading of "must, if possible" (``rules/hex.md``): ``"literal"`` (a move that ends
        the game counts as one that allows a removal) or ``"continuing"`` (it does not)."""
        return str(self._variant.get("must_remove", "literal"))

    @property
    def edition(self) -> str:
        """``"nestorgames"`` or ``"2008"``."""
        return str(self._variant["edition"])

    @property
    def step(self) -> str:
        """The step to play: ``move``, ``remove``, ``tile``, ``second-tile``, ``ball``, ``ball-any`` or ``over``."""
        if self._placement is not None:
            return self._placement.step
        assert self._s is not None
        return _STEP_NAMES[int(self._s[kernel.S_STEP])]

    @property
    def turn(self) -> int:
        """Movement-phase turns counted from 1 (decides the first move equaliser)."""
        return 1 if self._s is None else int(self._s[kernel.S_TURN])

    @property
    def quiet_turns(self) -> int:
        """Consecutive turns without a removal (decides the stalemate draw)."""
        return 0 if self._s is None else int(self._s[kernel.S_QUIET])

    @property
    def frame(self) -> Frame:
        """The frame that names this game's cells."""
        return self._frame

    @property
    def surface(self) -> Surface | None:
        """The numbered tiles of the movement phase (``None`` during 2008 placement)."""
        return self._surface

    @property
    def placement(self) -> Placement | None:
        """The 2008 placement phase (``None`` once moving). Read it; do not change it."""
        return self._placement

    def kernel_vector(self) -> Masks | None:
        """A copy of the kernel's state vector (``uint64[kernel.STATE_SIZE]``), or ``None``
        during the 2008 placement phase. Kernel player ``k`` is seat ``seat_order()[k]``."""
        return None if self._s is None else self._s.copy()

    def seat_order(self) -> tuple[int, ...]:
        """The seats in turn order: kernel player ``k`` (``k``-th colour) is this tuple's ``k``-th seat."""
        return self._seat_of

    def seat_colours(self) -> list[str]:
        """The colour each seat plays."""
        colours = SEAT_COLOURS[self.edition]
        return [colours[self._player_of(seat)] for seat in range(self.num_players)]

    def seat_names(self) -> list[str]:
        return self.seat_colours()

    def current_player(self) -> int:
        if self._placement is not None:
            return self._placement.to_move
        assert self._s is not None
        if int(self._s[kernel.S_STEP]) == kernel.OVER_STEP:
            return TERMINAL
        return self._seat_of[int(self._s[kernel.S_TO_MOVE])]

    def is_terminal(self) -> bool:
        return self._s is not None and int(self._s[kernel.S_STEP]) == kernel.OVER_STEP

    def returns(self) -> list[float]:
        s = self._s
        if s is None or int(s[kernel.S_STEP]) != kernel.OVER_STEP:
            return [0.0] * len(self._seat_of)
        winners, drawn = s[kernel.S_WINNERS : kernel.S_DRAWN + 1].tolist()
        result = [-1.0] * len(self._seat_of)
        for player, seat in enumerate(self._seat_of):
            if (winners >> player) & 1:
                result[seat] = 1.0
            elif (drawn >> player) & 1:
                result[seat] = 0.0
        return result

    def history(self) -> list[Any]:
        return list(self._hist)

    def chance_outcomes(self) -> list[dict[str, Any]]:
        return self._chance

    def start_position(self) -> dict[str, Any] | None:
        return self._start

    def key(self) -> Any:
        if self._placement is not None:
            return self._placement.key()
        s = self._s
        assert s is not None
        head = s[: kernel.S_WINNERS].tolist()
        head[kernel.S_TURN] = head[kernel.S_TURN] < int(
            s[kernel.S_PLAYERS]
        )  # only the equaliser matters
        return tuple(head)

    def equaliser(self) -> bool:
        """Whether this turn is bound by the first move equaliser (no step may capture)."""
        return self._s is not None and bool(kernel.is_equaliser(self._s))

    def clone(self) -> HexState:
        other = HexState.__new__(HexState)
        other._variant = self._variant
        other._frame = self._frame
        other._chance = self._chance
        other._seat_of = self._seat_of
        other._start = self._start
        other._hist = self._hist[:]
        other._legal = self._legal
        other._surface = self._surface
        other._s = None if self._s is None else self._s.copy()
        other._placement = None if self._placement is None else self._placement.copy()
        return other

    # --- protocol: legal actions and apply --------------------------------------------
    def legal_actions(self) -> list[Any]:
        legal = self._legal
        if legal is None:
            if self._placement is not None:
                legal = self._placement.legal_actions()
            elif self.is_terminal():
                legal = []
            else:
                surface = self._surface
                assert surface is not None and self._s is not None
                out = np.empty(kernel.MAX_MOVES, dtype=np.int64)
                n = kernel.legal_actions(surface.neighbour_masks, self._s, out)
                legal = out[:n].tolist()
            self._legal = legal
        return list(legal)

    def is_legal(self, action: Any) -> bool:
        legal = self._legal
        if legal is not None:
            return action in legal and kind_of(action) is not None
        kind = kind_of(action)
        if kind is None or self.is_terminal():
            return False
        if self._placement is not None:
            return action in self.legal_actions()
        if kind not in (Kind.MOVE, Kind.REMOVE):
            return False
        surface = self._surface
        assert surface is not None and self._s is not None
        return bool(kernel.is_legal(surface.neighbour_masks, self._s, action))

    def apply(self, action: Any) -> None:
        if not self.is_legal(action):
            if kind_of(action) is None:
                raise IllegalActionError(repr(action), "not an action of this game")
            raise IllegalActionError(self._describe(action), self.why_illegal(action))
        self._hist.append(action)
        self._legal = None
        if self._placement is not None:
            self._placement.play(action)
            self._settle_placement()
            return
        surface = self._surface
        assert surface is not None and self._s is not None
        kernel.play(surface.neighbour_masks, surface.ring, self._s, action)

    # --- random play --------------------------------------------------------------------
    def playout(self, rng: random.Random, max_decisions: int | None = None) -> list[float]:
        """Play uniformly random legal actions to the end, or for ``max_decisions`` decisions.

        The movement phase runs inside the kernel (:func:`playouts.playout`);
        its random stream is seeded from ``rng``. Mutates ``self``; the
        history is kept. Returns ``returns()`` (zeros if not over).
        """
        played = 0
        while self._placement is not None and (max_decisions is None or played < max_decisions):
            actions = self.legal_actions()
            self.apply(actions[rng.randrange(len(actions))])
            played += 1
        s = self._s
        if s is not None and int(s[kernel.S_STEP]) != kernel.OVER_STEP:
            surface = self._surface
            assert surface is not None
            _STREAM[0] = rng.getrandbits(64) | 1  # a xorshift64 state is any nonzero word
            limit = -1 if max_decisions is None else max_decisions - played
            n = playouts.playout(
                surface.neighbour_masks, surface.ring, s, _STREAM, 0, limit, _HISTORY
            )
            self._hist.extend(_HISTORY[:n].tolist())
            self._legal = None
        return self.returns()

    def fast_perft(self, depth: int) -> int | None:
        """perft counted inside the kernel (``None`` during the 2008 placement phase); see
        :func:`limitgames.core.perft.perft`."""
        if self._s is None or self._surface is None:
            return None
        return int(perft(self._surface.neighbour_masks, self._surface.ring, self._s.copy(), depth))

    # --- notation ---------------------------------------------------------------------
    def cell_name(self, cell: Cell) -> str:
        """The name of ``cell`` in this game's frame (``c4``)."""
        return self._frame.name(cell)

    def _tile_name(self, tile: int) -> str:
        surface = self._surface
        if surface is None or not 0 <= tile < len(surface.cells):
            raise ValueError(f"there is no tile number {tile}")
        return self._frame.name(surface.cells[tile])

    def _describe(self, action: Any) -> str:
        try:
            return self.action_to_string(action)
        except (KeyError, ValueError):
            return repr(action)

    def action_to_string(self, action: Any) -> str:
        kind = kind_of(action)
        if kind == Kind.MOVE:
            fr, to = move_tiles(action)
            return f"{self._tile_name(fr)}-{self._tile_name(to)}"
        if kind == Kind.REMOVE:
            return f"x {self._tile_name(removal_tile(action))}"
        if kind == Kind.TILE:
            return f"+{self._frame.name(placement_cell(action))}"
        if kind == Kind.BALL:
            return f"@{self._frame.name(placement_cell(action))}"
        raise ValueError(f"not a hex action: {action!r}")

    def parse_action(self, text: str) -> Any:
        kind, first, second = parse_text(text)
        cell = self._frame.cell(first)
        if kind in (Kind.TILE, Kind.BALL):
            if self._placement is None:
                raise NotationError(text, "the placement phase is over")
            try:
                return tile_action(cell) if kind == Kind.TILE else ball_action(cell)
            except ValueError:
                raise NotationError(text, f"{first} is off the table") from None
        surface = self._surface
        if surface is None:
            raise NotationError(text, "moves and removals start after the placement phase")
        if cell not in surface.index:
            raise NotationError(text, f"there is no tile on {first}")
        if kind == Kind.REMOVE:
            return removal_action(surface.index[cell])
        target = self._frame.cell(second)
        if target not in surface.index:
            raise NotationError(text, f"there is no tile on {second}")
        return move_action(surface.index[cell], surface.index[target])

    # --- explanations -----------------------------------------------------------------
    def why_illegal(self, action: Any) -> str:
        """The rule that forbids ``action`` here, in words (``""`` if it is legal)."""
        if self.is_terminal():
            return "the game is over"
        kind = kind_of(action)
        if kind is None:
            return "not an action of this game"
        if self.is_legal(action):
            return ""
        step = self.step
        if kind != _STEP_KIND[step]:
            return f"this step needs {_WANTED[step]}"
        if self._placement is not None:
            colour = SEAT_COLOURS["2008"][self._placement.to_move]
            return self._placement.why_illegal(action, self._frame.name, colour)
        if kind == Kind.MOVE:
            return self._why_move_illegal(*move_tiles(action))
        return self._why_removal_illegal(removal_tile(action))

    def _why_move_illegal(self, fr: int, to: int) -> str:
        surface, s = self._surface, self._s
        assert surface is not None and s is not None
        return refusals.why_move_illegal(
            surface,
            s,
            fr,
            to,
            name=self._tile_name,
            colour=self.seat_colours()[self.current_player()],
            edition=self.edition,
            legal=self.legal_actions,
            notation=self.action_to_string,
        )

    def _why_removal_illegal(self, t: int) -> str:
        surface, s = self._surface, self._s
        assert surface is not None and s is not None
        return refusals.why_removal_illegal(surface, s, t, name=self._tile_name)

    # --- observation -------------------------------------------------------------------------
    def observation(self, seat: int | None = None) -> dict[str, Any]:
        """The whole position (perfect information): the position JSON plus names and the result."""
        obs = self.position()
        obs["seats"] = self.seat_names()
        obs["result"] = self.returns() if self.is_terminal() else None
        obs["equaliser"] = self.equaliser()
        return obs

    def position(self) -> dict[str, Any]:
        """The position JSON (``rules/hex.md``, Interfaces; keys in :mod:`limitgames.hex.position`).

        ``to_move`` is ``None`` once the game is over.
        """
        frame = self._frame
        data: dict[str, Any] = {
            "game": "hex",
            "edition": self.edition,
            "size": self._variant["size"],
            "players": self.num_players,
            "tiles": [
                {"q": q, "r": r, "colour": colour, "pawn": owner, "name": frame.name((q, r))}
                for (q, r), colour, owner in self.tiles()
            ],
            "to_move": None if self.is_terminal() else self.current_player(),
            "step": self.step,
            "turn": self.turn,
            "quiet_turns": self.quiet_turns,
            "frame": frame.to_json(),
        }
        colours = self.seat_colours()
        if colours != list(SEAT_COLOURS[self.edition][: self.num_players]):
            data["seat_colours"] = colours
        if self.must_remove != "literal":
            data["must_remove"] = self.must_remove
        if self._placement is not None:
            data["placed"] = [list(c) for c in self._placement.placed]
            data["last_placer"] = self._placement.last_placer
        return data

    # --- for views and agents ------------------------------------------------------------------
    def tiles(self) -> list[tuple[Cell, str | None, int | None]]:
        """Every tile on the table: ``(cell, colour or None, seat of its pawn or None)``."""
        if self._placement is not None:
            return [(c, None, o if o >= 0 else None) for c, o in self._placement.cells.items()]
        surface = self._surface
        s = self._s
        assert surface is not None and s is not None
        owner: dict[int, int] = {}
        for player, seat in enumerate(self._seat_of):
            for t in tiles_of(int(s[kernel.S_PAWNS + player])):
                owner[t] = seat
        return [
            (surface.cells[t], surface.colours[t], owner.get(t))
            for t in tiles_of(int(s[kernel.S_TILES]))
        ]

    def pawn_counts(self) -> list[int]:
        """Pawns (balls) on the table per seat."""
        if self._placement is not None:
            cells = self._placement.cells
            return [sum(1 for o in cells.values() if o == seat) for seat in range(self.num_players)]
        s = self._s
        assert s is not None
        counts = [0] * self.num_players
        for player, seat in enumerate(self._seat_of):
            counts[seat] = int(s[kernel.S_PAWNS + player]).bit_count()
        return counts

    def balls_left(self, seat: int) -> int:
        """Balls of ``seat`` not yet placed (2008 placement phase; 0 afterwards)."""
        return 0 if self._placement is None else self._placement.balls_left(seat)

    def tiles_left(self) -> int:
        """Tiles not yet placed (2008 placement phase; 0 afterwards)."""
        return 0 if self._placement is None else self._placement.tiles_left()

    def last_captured(self) -> list[Cell]:
        """The cells whose pawns the last action captured (any seat)."""
        if self._s is None or self._surface is None:
            return []
        return self._surface.cells_of(int(self._s[kernel.S_CAPTURED]))

    def last_isolated(self) -> list[Cell]:
        """The tiles the last removal took away besides the removed one (isolated empty parts)."""
        if self._s is None or self._surface is None:
            return []
        return self._surface.cells_of(int(self._s[kernel.S_ISOLATED]))

    def feature_matrix(self) -> Ints:
        """``int64[players, 7]``, per seat: the columns of ``kernel.FEATURES`` (pawns, freedoms,
        mobility, removable, area, tiles, atari; see :meth:`features`)."""
        by_seat = np.zeros((len(self._seat_of), len(kernel.FEATURES)), dtype=np.int64)
        if self._s is None or self._surface is None:
            for seat, count in enumerate(self.pawn_counts()):
                by_seat[seat, 0] = count
            return by_seat
        kernel.features(
            self._surface.neighbour_masks, self._s, _SEAT_ARRAYS[self._seat_of], by_seat
        )
        return by_seat

    def features(self, seat: int) -> dict[str, int]:
        """Counts a heuristic may use for ``seat``.

        - ``pawns``: own pawns on the table;
        - ``freedoms``: empty tiles next to own pawns;
        - ``mobility``: reachable (pawn, destination) pairs, before the must-remove rule;
        - ``removable``: empty tiles with a free edge (candidate removals);
        - ``area``: empty tiles some own pawn can reach;
        - ``tiles``: tiles on the table;
        - ``atari``: own pawns in groups with exactly one freedom;
        - ``enemy_pawns``, ``enemy_freedoms``, ``enemy_mobility``, ``enemy_area``: the same summed
          over opponents.
        """
        m = self.feature_matrix()
        others = m.sum(axis=0) - m[seat]
        return {
            "pawns": int(m[seat, 0]),
            "freedoms": int(m[seat, 1]),
            "mobility": int(m[seat, 2]),
            "removable": int(m[seat, 3]),
            "area": int(m[seat, 4]),
            "tiles": int(m[seat, 5]),
            "atari": int(m[seat, 6]),
            "enemy_pawns": int(others[0]),
            "enemy_freedoms": int(others[1]),
            "enemy_mobility": int(others[2]),
            "enemy_area": int(others[4]),
        }

    # --- research encodings (limitgames.hex.encoding) ----------------------------------------
    def action_to_index(self, action: Any) -> int:
        """The fixed index of ``action`` (:mod:`limitgames.hex.encoding`). Raises ValueError."""
        from limitgames.hex import encoding

        return encoding.action_to_index(self._variant, action)

    def index_to_action(self, index: int) -> Any:
        """The action of a fixed index (:mod:`limitgames.hex.encoding`). Raises ValueError."""
        from limitgames.hex import encoding

        return encoding.index_to_action(self._variant, index)

    def legal_action_mask(self) -> Bools:
        """``bool[num_distinct_actions]`` (:mod:`limitgames.hex.encoding`)."""
        from limitgames.hex import encoding

        return encoding.legal_action_mask(self)

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """``float32[34, 64]`` tile planes of ``seat``'s view (:mod:`limitgames.hex.encoding`)."""
        from limitgames.hex import encoding

        return encoding.observation_tensor(self, seat)

    def information_state_string(self, seat: int) -> str:
        """The chance outcomes and the actions so far (perfect information)."""
        from limitgames.hex import encoding

        return encoding.information_state_string(self, seat)

    # --- what happened and why it ended (limitgames.hex.events) -------------------------------
    def apply_with_events(self, action: Any) -> list[Event]:
        """Play ``action`` like :meth:`apply` and return what happened, in the order of the
        rules (:mod:`limitgames.hex.events`, every event public), read from the kernel's own
        results: its step function plays the move or removal, then it settles to the next
        decision (as :meth:`apply` does in one call). Raises IllegalActionError as
        :meth:`apply` (the state unchanged)."""
        if not self.is_legal(action):
            self.apply(action)  # raises with the rule that forbids it
        seat = self.current_player()
        self._hist.append(action)
        self._legal = None
        if self._placement is not None:
            step, cell = self._placement.step, self._frame.name(placement_cell(action))
            placed = (
                TilePlaced(seat, cell) if kind_of(action) == Kind.TILE else BallPlaced(seat, cell)
            )
            self._placement.play(action)
            balls, placement = dict(self._placement.cells), self._placement
            self._settle_placement()
            first = None if self._placement is not None else placement.first_mover()
            return [placed, *placement_events(seat, step, balls, self, first)]
        surface, s = self._surface, self._s
        assert surface is not None and s is not None
        before, name = s.copy(), self._tile_name
        if kind_of(action) == Kind.MOVE:
            fr, to = move_tiles(action)
            kernel.play_move(surface.neighbour_masks, s, fr, to)
            events: list[Event] = [Moved(seat, name(fr), name(to))]
        else:
            tile = removal_tile(action)
            kernel.play_removal(surface.neighbour_masks, surface.ring, s, tile)
            events = [Removed(seat, name(tile), self._names_of(int(s[kernel.S_ISOLATED])))]
        events += capture_events(seat, self._seat_of, before, s, self._names_of)
        middle = s.copy()
        kernel.settle(surface.neighbour_masks, s)
        return events + settled_events(middle, s, self._seat_of, self.edition)

    def _names_of(self, mask: int) -> tuple[str, ...]:
        """The names of the tiles of ``mask``, in reading order (top row first)."""
        assert self._surface is not None
        cells = sorted(self._surface.cells_of(mask), key=lambda c: (c[1], c[0]))
        return tuple(self._frame.name(c) for c in cells)

    def outcome(self) -> Outcome | None:
        """Why and how the game ended (:func:`limitgames.hex.events.outcome_of`), or ``None``
        while it goes on."""
        if not self.is_terminal():
            return None
        assert self._s is not None
        by = self._seat_of[int(self._s[kernel.S_TO_MOVE])]
        counts, quiet = self.pawn_counts(), self.quiet_turns
        return outcome_of(self.returns(), counts, self.edition, quiet, self.turn, by)

    def action_targets(self) -> dict[str, dict[str, Any]]:
        """The legal actions as targets to click (as Lichess sends ``dests``): ``{"moves":
        {start: {end: notation}}, "removals": {tile: notation}, "placements": {cell:
        notation}}``, names in the notation; all empty once the game is over."""
        targets: dict[str, dict[str, Any]] = {"moves": {}, "removals": {}, "placements": {}}
        for action in self.legal_actions():
            text, kind = self.action_to_string(action), kind_of(action)
            if kind == Kind.MOVE:
                fr, to = move_tiles(action)
                targets["moves"].setdefault(self._tile_name(fr), {})[self._tile_name(to)] = text
            elif kind == Kind.REMOVE:
                targets["removals"][self._tile_name(removal_tile(action))] = text
            else:
                targets["placements"][self._frame.name(placement_cell(action))] = text
        return targets
