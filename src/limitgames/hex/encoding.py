"""Browne's Limit for research: an action space per board size, tile-plane observations, masks, chance.

**Actions** (``num_distinct_actions``): with ``T = 4 * size`` tiles (``rules/hex.md``,
Surface: ``4n`` tiles in both editions, whatever the number of players), the moves and
removals on those tiles, then (2008 only) placements on the cells of a fixed window around
the origin.

=========================  ==========================================  ===========
index                      action                                      notation
=========================  ==========================================  ===========
``f * T + t``              move the pawn on tile ``f`` to tile ``t``   ``c4-e5``
``T * T + t``              remove tile ``t``                           ``x d4``
``T * T + T + w``          place a tile on window cell ``w`` (2008)    ``+d4``
``T * T + T + W + w``      place a ball on window cell ``w`` (2008)    ``@d4``
=========================  ==========================================  ===========

So a size-4 game has 272 actions, size 8 has 1056 and size 16 has 4160 (where the indices
equal the kernel's action integers of :mod:`limitgames.hex.codec`, ``from * 64 + to`` and
``4096 + tile``). Tiles are numbered ``0 .. T-1`` in reading order of the movement
phase's surface (:class:`~limitgames.hex.surface.Surface`). The 2008 window holds every
cell within ``2 * size`` steps of the origin (``W = 3R(R+1)+1`` cells for ``R = 2 *
size``), in reading order (row ``r``, then ``q``): no placement reaches farther, because
every tile after the second touches two placed tiles, so each step away from the origin
costs at least two tiles.

**Observation** (``float32[NUM_PLANES, 64]``): plane ``p``, column ``t`` is
bit ``t`` of a 64-bit tile mask (the kernel works on the same masks, so the
batch path writes them as ``uint64[NUM_PLANES]`` words and unpacks them).
Pawn planes are relative to the observing seat; the whole position is
public (perfect information). See :data:`PLANES` for the meaning of each
plane. During the 2008 placement phase the placed tiles are numbered in
reading order of the cells placed so far (the numbering the movement phase
will use once the last tile is down).

**Chance** (nestorgames): the layout, one of ``layouts`` equally likely
layouts (layout ``k`` is drawn by the layout chain from ``random.Random(k)``;
default 2**16), then with ``colours=random`` the deal of the colours to the
seats, each permutation equally likely. The 2008 edition has no chance.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from limitgames.core.encoding import EncodingSpec, SetupChance, uniform
from limitgames.hex import kernel
from limitgames.hex.bitboard import ONE, ZERO, Bools, Int, Ints, Masks, U, popcount
from limitgames.hex.codec import (
    Kind,
    ball_action,
    is_move,
    kind_of,
    move_action,
    move_tiles,
    placement_cell,
    removal_action,
    removal_tile,
    tile_action,
)
from limitgames.hex.info import HEX_INFO, SEAT_COLOURS
from limitgames.hex.layout import COLOURS, draw_layout, layout_to_json
from limitgames.hex.surface import DIRECTIONS, MAX_TILES, Cell, Surface

COORD_BITS = 7
"""Bits of each coordinate plane group (coordinates 0..127)."""

PLANES: tuple[str, ...] = (
    "tiles",  # 0: the tile is on the table
    "own",  # 1: a pawn of the observing seat
    "next",  # 2: a pawn of the seat after it in turn order
    "third",  # 3: a pawn of the seat after that (3 players; else empty)
    "free_edge",  # 4: on the table with a free edge (rules/hex.md, Surface)
    *(f"colour_{c}" for c in COLOURS),  # 5-8: the tile's colour (nestorgames)
    *(
        f"neighbour_{d}" for d in range(6)
    ),  # 9-14: the neighbour in DIRECTIONS[d] is on the table too
    "remove_step",  # 15: every bit set when the step is a removal
    "equaliser",  # 16: every bit set when this turn is bound by the first move equaliser
    "observer_to_move",  # 17: every bit set when the observing seat decides now
    "placement",  # 18: every bit set during the 2008 placement phase
    "just_placed",  # 19: tiles placed this placement turn (2008)
    *(f"q_bit_{k}" for k in range(COORD_BITS)),  # 20-26: bit k of the tile's q
    *(f"r_bit_{k}" for k in range(COORD_BITS)),  # 27-33: bit k of the tile's r
)
"""The observation planes, in order. Coordinates: nestorgames, axial ``(q, r)`` of the
layout (smallest ``q`` and ``r`` are 0); 2008, ``(q + R, r + R)`` around the origin
(``R = 2 * size``), the window's own coordinates."""
NUM_PLANES = len(PLANES)
OBSERVATION_SHAPE = (NUM_PLANES, MAX_TILES)
P_TILES, P_OWN, P_NEXT, P_THIRD, P_EDGE = 0, 1, 2, 3, 4
P_COLOUR = 5
P_NEIGHBOUR = 9
P_REMOVE, P_EQUALISER, P_TO_MOVE, P_PLACEMENT, P_JUST_PLACED = 15, 16, 17, 18, 19
P_Q, P_R = 20, 27
PLANE_WORDS = 4 + 2 * COORD_BITS
"""The static planes of a surface: colours then coordinates (18 words)."""
_COUNTS = PLANE_WORDS
_OFFSETS = _COUNTS + 6
_MASKS = _OFFSETS + 6 * MAX_TILES
STATIC_WORDS = _MASKS + 6 * MAX_TILES
"""Per surface, ``uint64[STATIC_WORDS]``: the static planes; then, per direction ``d``, the
neighbour table as shifts: ``count[d]`` groups, group ``k`` the tiles ``M[d, k]`` whose
neighbour in ``d`` is tile ``t + o[d, k]`` (offsets stored plus 64), so that the neighbour
plane is ``tiles & OR_k(M[d, k] & shift(tiles, o[d, k]))``: a few word operations."""
ALL = U(0xFFFFFFFFFFFFFFFF)

DEFAULT_LAYOUTS = 1 << 16
"""How many layouts the explicit layout chance node offers (OpenSpiel's ``layouts`` parameter)."""


# --- the fixed action space ------------------------------------------------------------------------
@lru_cache(maxsize=32)
def placement_window(size: int) -> tuple[tuple[Cell, ...], dict[Cell, int]]:
    """The 2008 window for ``size``: its cells in reading order and cell -> window index."""
    radius = 2 * size
    cells = [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if max(abs(q), abs(r), abs(q + r)) <= radius
    ]
    return tuple(cells), {c: i for i, c in enumerate(cells)}


def tile_count(variant: dict[str, Any]) -> int:
    """``T = 4 * size``: the tiles of a resolved hex variant (``rules/hex.md``, Surface)."""
    return 4 * int(variant["size"])


def num_distinct_actions(variant: dict[str, Any]) -> int:
    """``T * T + T`` moves and removals (``T = 4 * size``); the 2008 edition adds two per window
    cell (272 at size 4, 1056 at size 8, 4160 at size 16 for nestorgames)."""
    tiles = tile_count(variant)
    if variant["edition"] != "2008":
        return tiles * tiles + tiles
    return tiles * tiles + tiles + 2 * len(placement_window(int(variant["size"]))[0])


def action_to_index(variant: dict[str, Any], action: Any) -> int:
    """The index of a hex action integer (see the module docstring).

    Raises:
        ValueError: a value that is no action, a tile beyond the variant's ``T``, or a
            placement outside the 2008 edition or its window.
    """
    kind = kind_of(action)
    if kind is None:
        raise ValueError(f"{action!r} is not a hex action")
    tiles = tile_count(variant)
    if kind == Kind.MOVE:
        fr, to = move_tiles(action)
        if fr >= tiles or to >= tiles:
            raise ValueError(f"the move {action!r} names a tile beyond the {tiles} of this size")
        return fr * tiles + to
    if kind == Kind.REMOVE:
        tile = removal_tile(action)
        if tile >= tiles:
            raise ValueError(f"the removal {action!r} names a tile beyond the {tiles} of this size")
        return tiles * tiles + tile
    if variant["edition"] != "2008":
        raise ValueError("placements exist only in the 2008 edition")
    cells, index = placement_window(int(variant["size"]))
    w = index.get(placement_cell(action))
    if w is None:
        raise ValueError(f"{action!r} places outside the window no game reaches")
    return tiles * tiles + tiles + w + (len(cells) if kind == Kind.BALL else 0)


def index_to_action(variant: dict[str, Any], index: int) -> int:
    """The action integer of an index (inverse of :func:`action_to_index`).

    Raises:
        ValueError: an index outside ``0 .. num_distinct_actions - 1``.
    """
    total = num_distinct_actions(variant)
    if not 0 <= index < total:
        raise ValueError(f"action index {index} is outside 0..{total - 1}")
    tiles = tile_count(variant)
    if index < tiles * tiles:
        return move_action(index // tiles, index % tiles)
    if index < tiles * tiles + tiles:
        return removal_action(index - tiles * tiles)
    cells, _ = placement_window(int(variant["size"]))
    w = index - tiles * tiles - tiles
    if w < len(cells):
        return tile_action(cells[w])
    return ball_action(cells[w - len(cells)])


def encoding_spec(variant: dict[str, Any]) -> EncodingSpec:
    """The fixed sizes of a resolved hex variant."""
    players, n = int(variant["players"]), int(variant["size"])
    tiles = 4 * n
    # each turn is at most two decisions; every turn but the last ``players`` removes a tile
    length = 2 * players * (tiles + 1)
    chance_outcomes, chance_nodes = 0, 0
    if variant["edition"] == "2008":
        length += tiles + n * players
    else:
        chance_outcomes = DEFAULT_LAYOUTS
        chance_nodes = 2 if variant["colours"] == "random" else 1
    return EncodingSpec(
        game="hex",
        players=players,
        num_distinct_actions=num_distinct_actions(variant),
        observation_shape=OBSERVATION_SHAPE,
        max_game_length=length,
        chance_mode="deterministic" if variant["edition"] == "2008" else "explicit",
        max_chance_outcomes=chance_outcomes,
        max_chance_nodes=chance_nodes,
        zero_sum=players == 2,
    )


# --- observation planes ----------------------------------------------------------------------------
def static_words(cells: Sequence[Cell], colours: Sequence[str | None], offset: int) -> Masks:
    """``uint64[STATIC_WORDS]``: the static planes and neighbour shifts of tiles ``0..len(cells)-1``
    (``cells`` in tile order).

    ``offset`` is 0 to translate the smallest coordinates to 0 (nestorgames), or the window
    radius (2008, coordinates around the origin)."""
    words = [0] * STATIC_WORDS
    index = {tuple(c): t for t, c in enumerate(cells)}
    for d, (dq, dr) in enumerate(DIRECTIONS):
        groups: dict[int, int] = {}
        for t, (q, r) in enumerate(cells):
            j = index.get((q + dq, r + dr))
            if j is not None:
                groups[j - t] = groups.get(j - t, 0) | (1 << t)
        words[_COUNTS + d] = len(groups)
        for k, (o, m) in enumerate(sorted(groups.items())):
            words[_OFFSETS + d * MAX_TILES + k] = o + MAX_TILES
            words[_MASKS + d * MAX_TILES + k] = m
    if offset:
        q0 = r0 = -offset
    else:
        q0 = min(c[0] for c in cells)
        r0 = min(c[1] for c in cells)
    for t, ((q, r), colour) in enumerate(zip(cells, colours, strict=True)):
        if colour is not None:
            words[COLOURS.index(colour)] |= 1 << t
        for k in range(COORD_BITS):
            if ((q - q0) >> k) & 1:
                words[4 + k] |= 1 << t
            if ((r - r0) >> k) & 1:
                words[4 + COORD_BITS + k] |= 1 << t
    return np.array(words, dtype=np.uint64)


_STATIC_CACHE: dict[int, tuple[Surface, Masks]] = {}


def surface_static(surface: Surface, edition: str, size: int) -> Masks:
    """The static planes of a movement-phase surface (cached per surface object)."""
    hit = _STATIC_CACHE.get(id(surface))
    if hit is not None and hit[0] is surface:
        return hit[1]
    offset = 2 * size if edition == "2008" else 0
    words = static_words(surface.cells, surface.colours, offset)
    if len(_STATIC_CACHE) > 512:
        _STATIC_CACHE.clear()
    _STATIC_CACHE[id(surface)] = (surface, words)
    return words


@njit(cache=True)
def write_planes(s: Masks, static: Masks, player: Int, out: Masks) -> None:
    """Write the movement-phase planes of kernel player ``player``'s view into ``out`` (``uint64[NUM_PLANES]``)."""
    tiles = s[kernel.S_TILES]
    players = np.int64(s[kernel.S_PLAYERS])
    over = s[kernel.S_STEP] == kernel.OVER_STEP
    out[P_TILES] = tiles
    out[P_OWN] = s[kernel.S_PAWNS + player]
    out[P_NEXT] = s[kernel.S_PAWNS + (player + 1) % players]
    out[P_THIRD] = s[kernel.S_PAWNS + (player + 2) % players] if players == 3 else ZERO
    out[P_EDGE] = s[kernel.S_EDGE] & tiles
    for c in range(4):
        out[P_COLOUR + c] = static[c] & tiles
    for d in range(6):
        plane = ZERO
        for k in range(np.int64(static[_COUNTS + d])):
            o = np.int64(static[_OFFSETS + d * MAX_TILES + k]) - MAX_TILES
            shifted = tiles >> U(o) if o > 0 else tiles << U(-o)
            plane |= static[_MASKS + d * MAX_TILES + k] & shifted
        out[P_NEIGHBOUR + d] = plane & tiles
    out[P_REMOVE] = ALL if s[kernel.S_STEP] == kernel.REMOVE_STEP else ZERO
    out[P_EQUALISER] = ALL if (not over and kernel.is_equaliser(s)) else ZERO
    out[P_TO_MOVE] = ALL if (not over and np.int64(s[kernel.S_TO_MOVE]) == player) else ZERO
    out[P_PLACEMENT] = ZERO
    out[P_JUST_PLACED] = ZERO
    for k in range(2 * COORD_BITS):
        out[P_Q + k] = static[4 + k] & tiles


@njit(cache=True, parallel=True)
def planes_batch(states: Masks, statics: Masks, game_of: Ints, out: Masks) -> None:
    """For each game ``b``: the planes of the player to move (``out``: ``uint64[B, NUM_PLANES]``).

    ``statics`` are per pool game, ``game_of[b]`` the pool game of ``b``."""
    for b in prange(states.shape[0]):
        write_planes(states[b], statics[game_of[b]], np.int64(states[b, kernel.S_TO_MOVE]), out[b])


def unpack_planes(words: Masks) -> npt.NDArray[np.float32]:
    """``uint64[..., NUM_PLANES]`` words -> ``float32[..., NUM_PLANES, 64]`` (bit ``t`` -> column ``t``)."""
    w = np.ascontiguousarray(words, dtype="<u8")
    bits = np.unpackbits(w.view(np.uint8), axis=-1, bitorder="little")
    return bits.reshape(*w.shape, MAX_TILES).astype(np.float32)


@njit(cache=True)
def mask_place(action: Int) -> tuple[Int, Int]:
    """Where the kernel action ``action`` (a move or a removal) sits in the packed legal actions
    of :func:`write_mask_words`: ``(word, bit)``, the pawn's tile and its destination for a move,
    ``(64, tile)`` for a removal (compiled; through :mod:`limitgames.hex.codec`)."""
    if is_move(action):
        fr, to = move_tiles(action)
        return np.int64(fr), np.int64(to)
    return np.int64(MAX_TILES), np.int64(removal_tile(action))


@njit(cache=True)
def mask_action(word: Int, bit: Int) -> Int:
    """The kernel action at bit ``bit`` of word ``word`` (``0 .. 64``) of the packed legal
    actions of :func:`write_mask_words`: the inverse of :func:`mask_place` (compiled)."""
    if word < MAX_TILES:
        return np.int64(move_action(word, bit))
    return np.int64(removal_action(bit))


@njit(cache=True)
def write_mask_words(nb: Masks, s: Masks, buffer: Ints, out: Masks) -> int:
    """Pack the legal actions into ``out`` (``uint64[65]``): word ``f`` holds the destinations of
    the pawn on tile ``f``, word 64 the removable tiles; so bit ``i`` of the 4160-bit string is
    action ``i``. Returns the number of legal actions (``buffer``: scratch of ``MAX_MOVES``)."""
    for i in range(MAX_TILES + 1):
        out[i] = ZERO
    step = s[kernel.S_STEP]
    if step == kernel.REMOVE_STEP:
        out[MAX_TILES] = kernel.legal_removals(nb, s)
        return popcount(out[MAX_TILES])
    if step == kernel.MOVE_STEP and kernel.every_candidate_legal(s):
        froms = np.empty(16, np.int64)
        dests = np.empty(16, np.uint64)
        comps = np.empty(MAX_TILES, np.uint64)
        count = 0
        for i in range(kernel.move_candidates(nb, s, froms, dests, comps)):
            out[froms[i]] = dests[i]
            count += popcount(dests[i])
        return count
    n = kernel.legal_actions(nb, s, buffer)
    for i in range(n):
        word, bit = mask_place(buffer[i])
        out[word] |= ONE << U(bit)
    return n


@njit(cache=True)
def write_tensor(
    s: Masks, static: Masks, player: Int, words: Masks, out: npt.NDArray[np.float32]
) -> None:
    """The planes of kernel player ``player``'s view unpacked into ``out`` (``float32[NUM_PLANES, 64]``)."""
    write_planes(s, static, player, words)
    for p in range(NUM_PLANES):
        w = words[p]
        for t in range(MAX_TILES):
            out[p, t] = np.float32((w >> U(t)) & ONE)


@njit(cache=True)
def index_of(action: Int, tiles: Int) -> Int:
    """The per-size index of kernel action ``action`` in a game of ``tiles`` tiles (compiled;
    :func:`action_to_index` for the movement phase): ``f * T + t`` for a move, ``T * T + t``
    for a removal."""
    if is_move(action):
        fr, to = move_tiles(action)
        return np.int64(fr) * np.int64(tiles) + np.int64(to)
    return np.int64(tiles) * np.int64(tiles) + np.int64(removal_tile(action))


@njit(cache=True)
def action_of(index: Int, tiles: Int) -> Int:
    """The kernel action of per-size index ``index`` (compiled; :func:`index_to_action` for the
    movement phase), or -1 for an index outside ``0 .. T * T + T - 1``."""
    t = np.int64(tiles)
    i = np.int64(index)
    if i < 0 or i >= t * t + t:
        return np.int64(-1)
    if i < t * t:
        return np.int64(move_action(i // t, i % t))
    return np.int64(removal_action(i - t * t))


@njit(cache=True)
def write_mask(nb: Masks, s: Masks, tiles: Int, buffer: Ints, out: Bools) -> int:
    """The legal actions as a 0/1 mask of per-size indices in ``out`` (``bool[T * T + T]`` or
    longer, cleared first); returns their number (``buffer``: scratch of ``MAX_MOVES``)."""
    out[:] = False
    n = kernel.legal_actions(nb, s, buffer)
    for i in range(n):
        out[index_of(buffer[i], tiles)] = True
    return n


def _placement_planes(state: Any, seat: int) -> Masks:
    placement = state.placement
    size = int(state.variant["size"])
    players = state.num_players
    cells = sorted(placement.cells, key=lambda c: (c[1], c[0]))
    index = {c: i for i, c in enumerate(cells)}
    words = [0] * NUM_PLANES
    static = (
        static_words(cells, [None] * len(cells), 2 * size)
        if cells
        else np.zeros(STATIC_WORDS, np.uint64)
    )
    tiles = (1 << len(cells)) - 1
    words[P_TILES] = tiles
    for cell, owner in placement.cells.items():
        if owner >= 0:
            words[P_OWN + (owner - seat) % players] |= 1 << index[cell]
        if sum(1 for d in DIRECTIONS if (cell[0] + d[0], cell[1] + d[1]) in index) < 6:
            words[P_EDGE] |= 1 << index[cell]
        for d, (dq, dr) in enumerate(DIRECTIONS):
            if (cell[0] + dq, cell[1] + dr) in index:
                words[P_NEIGHBOUR + d] |= 1 << index[cell]
    full = (1 << 64) - 1
    words[P_TO_MOVE] = full if state.current_player() == seat else 0
    words[P_PLACEMENT] = full
    for cell in placement.placed:
        words[P_JUST_PLACED] |= 1 << index[tuple(cell)]
    for k in range(2 * COORD_BITS):
        words[P_Q + k] = int(static[4 + k])
    return np.array(words, dtype=np.uint64)


_SCRATCH = np.empty(NUM_PLANES, dtype=np.uint64)


def observation_words(state: Any, seat: int) -> Masks:
    """The planes of ``seat``'s view of ``state`` as ``uint64[NUM_PLANES]`` (a new array)."""
    if not 0 <= seat < state.num_players:
        raise ValueError(f"there is no seat {seat} in a {state.num_players}-player game")
    if state.placement is not None:
        return _placement_planes(state, seat)
    surface = state.surface
    static = surface_static(surface, state.edition, int(state.variant["size"]))
    out = np.empty(NUM_PLANES, dtype=np.uint64)
    write_planes(state._s, static, state.seat_order().index(seat), out)
    return out


def observation_tensor(state: Any, seat: int) -> npt.NDArray[np.float32]:
    """``float32[NUM_PLANES, 64]``: ``seat``'s view (see :data:`PLANES`)."""
    if state.placement is not None or not 0 <= seat < state.num_players:
        return unpack_planes(observation_words(state, seat))
    surface = state.surface
    static = surface_static(surface, state.edition, int(state.variant["size"]))
    out = np.empty(OBSERVATION_SHAPE, dtype=np.float32)
    write_tensor(state._s, static, state.seat_order().index(seat), _SCRATCH, out)
    return out


_BUFFER = np.empty(kernel.MAX_MOVES, dtype=np.int64)


def legal_action_mask(state: Any) -> Bools:
    """``bool[num_distinct_actions]``: the legal action indices of ``state``."""
    size = num_distinct_actions(state.variant)
    if state.placement is not None or state.is_terminal():
        mask = np.zeros(size, dtype=np.bool_)
        for a in state.legal_actions():
            mask[action_to_index(state.variant, a)] = True
        return mask
    mask = np.empty(size, dtype=np.bool_)
    write_mask(state.surface.neighbour_masks, state._s, tile_count(state.variant), _BUFFER, mask)
    return mask


def information_state_string(state: Any, seat: int) -> str:
    """Perfect information: the start (layout and colour deal, as chance outcomes) and every
    action so far, as JSON; two states with equal strings have the same history."""
    if not 0 <= seat < state.num_players:
        raise ValueError(f"there is no seat {seat} in a {state.num_players}-player game")
    return json.dumps(
        {
            "seat": seat,
            "chance": state.chance_outcomes(),
            "start": state.start_position(),
            "actions": state.history(),
        },
        sort_keys=True,
        separators=(",", ":"),
    )


# --- layouts by number ---------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def numbered_layout(size: int, players: int, number: int, law: str = "grown") -> list[list[Any]]:
    """Layout number ``number`` (the chance outcome ``[[q, r, colour], ...]``): the draw of
    ``law`` (the ``layout`` variant parameter) from ``random.Random(number)``. Cached, so a
    pool of layouts is cheap."""
    return layout_to_json(draw_layout(law, size, players, random.Random(number)))


class HexSetupChance(SetupChance):
    """nestorgames: the layout (one of ``layouts`` equally likely), then the colour deal."""

    def __init__(self, game: Any, variant: dict[str, Any], layouts: int = DEFAULT_LAYOUTS) -> None:
        resolved = HEX_INFO.resolve_variant(variant)
        super().__init__(game, resolved)
        self.layouts = layouts
        players = int(resolved["players"])
        self._deals = list(itertools.permutations(SEAT_COLOURS["nestorgames"][:players]))
        self._nodes = (
            0 if resolved["edition"] == "2008" else (2 if resolved["colours"] == "random" else 1)
        )

    def is_done(self) -> bool:
        return len(self.applied) >= self._nodes

    def outcomes(self) -> list[tuple[int, float]]:
        if self.is_done():
            raise ValueError("no chance node is left")
        return uniform(self.layouts if not self.applied else len(self._deals))

    def _apply(self, index: int) -> None:
        pass

    def outcome_to_string(self, index: int) -> str:
        if not self.applied:
            return f"layout {index}"
        return "colours " + ",".join(self._deals[index])

    def records(self) -> list[dict[str, Any]]:
        if not self._nodes:
            return []
        n, players = int(self.variant["size"]), int(self.variant["players"])
        out: list[dict[str, Any]] = [
            {
                "kind": "layout",
                "value": numbered_layout(n, players, self.applied[0], str(self.variant["layout"])),
            }
        ]
        if self._nodes == 2:
            out.append({"kind": "colours", "value": list(self._deals[self.applied[1]])})
        return out

    def copy(self) -> HexSetupChance:
        other = HexSetupChance.__new__(HexSetupChance)
        other.__dict__.update(self.__dict__)
        other.applied = list(self.applied)
        return other
