"""Compile the hex kernel once, so that no game or timed search pays for it.

Numba compiles each function on its first call and keeps the machine code in
its cache (``~/.cache/limitgames/numba/<digest of the hex sources>``, see
:mod:`limitgames.hex.bitboard`). ``scripts/setup.sh`` runs ``scripts/compile_hex.py``
after installing, which calls :func:`compile_kernel` (and the agents' search:
:mod:`limitgames.agents.hex_search.warmup`): about a minute on a fresh machine, a fraction
of a second once cached.
"""

from __future__ import annotations

import random
import time

import numpy as np
import numpy.typing as npt

from limitgames.hex.batch import legal_mask_batch, playout_batch, step_batch
from limitgames.hex.bitboard import seed_word
from limitgames.hex.codec import KERNEL_ACTIONS, move_tiles
from limitgames.hex.groups import empty_components, flood, reach
from limitgames.hex.kernel import (
    MAX_MOVES,
    S_ALIVE_AT_START,
    S_CONNECTED,
    S_PAWNS,
    S_PLAYERS,
    S_TILES,
    S_TURN,
    STATE_SIZE,
    alive_mask,
    all_pawns,
    check_end,
    features,
    is_legal,
    legal_actions,
    move_verdict,
    play,
    refresh_surface,
    removal_gone,
    returns_of,
    settle,
)
from limitgames.hex.layout import generate_layout, grow_layout
from limitgames.hex.perft import perft
from limitgames.hex.playouts import playout
from limitgames.hex.solver import solve_vector
from limitgames.hex.surface import MAX_TILES, Surface


def tiny_position(
    players: int = 2,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.uint64]]:
    """A 6-tile position of ``players`` (2 or 3) players to compile on: ``(neighbour_masks,
    ring, state vector)`` (``uint64[64]``, ``int64[64, 6]``, ``uint64[kernel.STATE_SIZE]``),
    red to move, past the first-move equaliser. Tiles 0-2 are the row ``(0..2, 0)`` and 3-5
    the row ``(0..2, 1)``: red's pawn on 0, blue's on 5, yellow's (3 players) on 2, each next
    to an empty tile."""
    surface = Surface([(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])
    nb, ring = surface.neighbour_masks, surface.ring
    s = np.zeros(STATE_SIZE, dtype=np.uint64)
    s[S_TILES] = surface.full
    s[S_PAWNS] = 1
    s[S_PAWNS + 1] = 1 << 5
    if players == 3:
        s[S_PAWNS + 2] = 1 << 2
    s[S_TURN] = 3
    s[S_PLAYERS] = players
    s[S_CONNECTED] = 1
    s[S_ALIVE_AT_START] = (1 << players) - 1
    refresh_surface(nb, ring, s)
    settle(nb, s)
    return nb, ring, s


def compile_kernel() -> float:
    """Compile (or load from Numba's cache) every entry point on a tiny game; return seconds.

    ``scripts/setup.sh`` runs it once after installation (``scripts/compile_hex.py``), so
    that no game or timed search pays for compilation.
    """
    start = time.perf_counter()
    for players in (2, 3):
        generate_layout(2, players, random.Random(1))  # the layout chain
        grow_layout(2, players, random.Random(1))  # the grown layouts (the default law)
    nb, ring, s = tiny_position()
    out = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal_actions(nb, s, out)
    is_legal(nb, s, out[0])
    comps = np.empty(MAX_TILES, dtype=np.uint64)
    empty = np.uint64(int(s[S_TILES]) & ~int(all_pawns(s)))
    k = empty_components(nb, empty, comps)
    reach(nb, 0, empty, comps, k)
    move_verdict(nb, s, *move_tiles(int(out[0])))
    removal_gone(nb, s, 2, np.uint64(all_pawns(s)))
    alive_mask(s)
    check_end(s.copy(), 0)
    feats = np.zeros((2, 7), dtype=np.int64)
    features(nb, s, np.arange(2, dtype=np.int64), feats)
    returns_of(s, np.zeros(3))
    perft(nb, ring, s.copy(), 2)
    t = s.copy()
    play(nb, ring, t, out[n - 1])
    rng = np.array([seed_word(1)], dtype=np.uint64)
    playout(nb, ring, s.copy(), rng, 0, -1, np.empty(8 * MAX_TILES, dtype=np.int64))
    flood(nb, np.uint64(1), s[S_TILES])
    batch = np.stack([s, s])  # the parallel entry points of limitgames.hex.batch
    nbs = np.stack([nb, nb])
    rings = np.stack([ring, ring])
    playout_batch(
        nbs,
        rings,
        batch.copy(),
        np.array([seed_word(1), seed_word(2)], dtype=np.uint64),
        -1,
        np.zeros((2, 3)),
        np.zeros(2, dtype=np.int64),
    )
    step_batch(
        nbs,
        rings,
        batch.copy(),
        np.array([out[0], out[0]], dtype=np.int64),
        np.zeros(2, dtype=np.bool_),
    )
    legal_mask_batch(nbs, batch, np.zeros((2, KERNEL_ACTIONS), dtype=np.bool_))
    for players in (2, 3):  # the exact solver: alpha-beta for 2 players, max-n for 3
        nb, ring, s = tiny_position(players)
        solve_vector(nb, ring, s, seconds=60.0, table_bits=10)
    return time.perf_counter() - start
