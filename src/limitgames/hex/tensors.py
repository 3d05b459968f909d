"""The research observation and action-mask tensors of hex games, written by compiled code.

The batched environment (:mod:`limitgames.hex.vector`) keeps each game's observation as
``uint64[NUM_PLANES]`` tile masks and its legal actions as ``uint64[65]`` packed words (word
``f`` the destinations of the pawn on tile ``f``, word 64 the removable tiles:
:func:`limitgames.hex.encoding.write_mask_words`). A learner wants them as dense arrays: the
kernels here write them, one game or a whole batch per call, into arrays the caller
allocated once:

- the observation ``float32[NUM_PLANES, 64]``: column ``t`` of plane ``p`` is bit ``t`` of word
  ``p`` (exactly :func:`limitgames.hex.encoding.observation_tensor` of the same position and
  seat);
- the mask ``int8[T * T + T]`` (``T = 4 * size``): 1 at the per-size index of every legal
  action (:func:`limitgames.hex.encoding.action_to_index`: move ``f * T + t``, removal
  ``T * T + t``), else 0 (exactly :func:`limitgames.hex.encoding.legal_action_mask`).

The batched step keeps the dense arrays up to date by changing only the entries whose bits
changed (:func:`update_observation`, :func:`update_index_mask`): from one decision to the
next most planes and most pawns' destinations stay the same, so this writes a small share of
the ``34 * 64`` floats and ``T * T + T`` mask bytes.

Kernel types as in :mod:`limitgames.hex.bitboard` (``Masks`` are ``uint64`` arrays), and the two
dense outputs :data:`Planes` (``float32`` arrays) and :data:`IndexMasks` (``int8`` arrays).
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from limitgames.hex.bitboard import ONE, ZERO, Int, Masks, U, lowest_index
from limitgames.hex.encoding import NUM_PLANES
from limitgames.hex.surface import MAX_TILES

__all__ = [
    "IndexMasks",
    "Planes",
    "index_masks_batch",
    "observations_batch",
    "update_index_mask",
    "update_observation",
    "write_index_mask",
    "write_observation",
]

# The types of the dense outputs (annotations only: Numba infers its own from the values)
Planes: TypeAlias = npt.NDArray[np.float32]
"""``float32`` arrays: one observation ``[NUM_PLANES, 64]`` or a batch ``[B, NUM_PLANES, 64]``."""
IndexMasks: TypeAlias = npt.NDArray[np.int8]
"""``int8`` arrays: one legal-action mask ``[T * T + T]`` or a batch ``[B, T * T + T]``."""


@njit(cache=True)
def write_observation(words: Masks, out: Planes) -> None:
    """Unpack ``words`` (``uint64[NUM_PLANES]``) into ``out`` (``float32[NUM_PLANES, 64]``):
    ``out[p, t] = bit t of words[p]``."""
    for p in range(NUM_PLANES):
        w = words[p]
        row = out[p]
        for t in range(MAX_TILES):
            row[t] = np.float32((w >> U(t)) & ONE)


@njit(cache=True)
def write_index_mask(mask_words: Masks, tiles: Int, out: IndexMasks) -> None:
    """Spread the packed legal actions ``mask_words`` (``uint64[65]``) over the per-size indices:
    ``out`` (``int8[T * T + T]`` for ``T = tiles``) gets 1 at ``f * T + t`` for every legal move
    ``f -> t`` and at ``T * T + t`` for every legal removal of ``t``, 0 elsewhere."""
    t_count = np.int64(tiles)
    for f in range(t_count):
        w = mask_words[f]
        base = f * t_count
        if w == ZERO:
            for t in range(t_count):
                out[base + t] = 0
        else:
            for t in range(t_count):
                out[base + t] = np.int8((w >> U(t)) & ONE)
    w = mask_words[MAX_TILES]
    base = t_count * t_count
    for t in range(t_count):
        out[base + t] = np.int8((w >> U(t)) & ONE)


@njit(cache=True)
def update_observation(old: Masks, words: Masks, out: Planes) -> None:
    """Bring ``out`` (``float32[NUM_PLANES, 64]``, holding :func:`write_observation` of ``old``)
    to :func:`write_observation` of ``words``, writing only the entries whose bit differs."""
    for p in range(NUM_PLANES):
        w = words[p]
        diff = old[p] ^ w
        row = out[p]
        while diff != ZERO:
            t = lowest_index(diff)
            row[t] = np.float32((w >> U(t)) & ONE)
            diff &= diff - ONE


@njit(cache=True)
def update_index_mask(old: Masks, mask_words: Masks, tiles: Int, out: IndexMasks) -> None:
    """Bring ``out`` (``int8[T * T + T]``, holding :func:`write_index_mask` of ``old``) to
    :func:`write_index_mask` of ``mask_words``, writing only the entries whose bit differs."""
    t_count = np.int64(tiles)
    for f in range(t_count + 1):
        word = f if f < t_count else MAX_TILES
        w = mask_words[word]
        diff = old[word] ^ w
        base = f * t_count
        while diff != ZERO:
            t = lowest_index(diff)
            out[base + t] = np.int8((w >> U(t)) & ONE)
            diff &= diff - ONE


@njit(cache=True, parallel=True)
def observations_batch(planes: Masks, out: Planes) -> None:
    """:func:`write_observation` for every game ``b``: ``planes`` ``uint64[B, NUM_PLANES]`` into
    ``out`` ``float32[B, NUM_PLANES, 64]``."""
    for b in prange(planes.shape[0]):
        write_observation(planes[b], out[b])


@njit(cache=True, parallel=True)
def index_masks_batch(mask_words: Masks, tiles: Int, out: IndexMasks) -> None:
    """:func:`write_index_mask` for every game ``b``: ``mask_words`` ``uint64[B, 65]`` into
    ``out`` ``int8[B, T * T + T]``."""
    for b in prange(mask_words.shape[0]):
        write_index_mask(mask_words[b], tiles, out[b])
