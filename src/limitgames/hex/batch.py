"""Many hex games at once, stepped or played out by the kernel in parallel over cores.

:class:`HexBatch` holds ``B`` movement-phase games as arrays (the kernel's
state vectors and surface tables) and hands them to the ``prange`` entry
points of :mod:`limitgames.hex.kernel`: whole random playouts
(:meth:`HexBatch.playout`), one action per game (:meth:`HexBatch.step`) and
legal-action masks (:meth:`HexBatch.legal_mask`). Arrays in, arrays out; no
Python loop over games on the hot path. The research environments and the
arena's throughput runs build on it.

Actions are the kernel's integers (:mod:`limitgames.hex.codec`: a move
``from * 64 + to``, a removal ``4096 + tile``; :data:`KERNEL_ACTIONS` in all);
players are in turn order (kernel player 0 moves first).
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from limitgames.hex import kernel, playouts
from limitgames.hex.bitboard import Bools, Floats, Ints, Masks, seed_word
from limitgames.hex.codec import KERNEL_ACTIONS
from limitgames.hex.state import HexState
from limitgames.hex.surface import MAX_TILES

__all__ = [
    "KERNEL_ACTIONS",
    "HexBatch",
    "legal_mask_batch",
    "playout_batch",
    "set_threads",
    "step_batch",
]


@njit(cache=True, parallel=True)
def playout_batch(
    nbs: Masks,
    rings: Ints,
    states: Masks,
    rngs: Masks,
    max_decisions: int,
    returns: Floats,
    lengths: Ints,
) -> None:
    """Play every game of a batch to the end (or ``max_decisions``), in parallel over cores.

    Args:
        nbs: ``uint64[B, 64]`` neighbour masks per game.
        rings: ``int64[B, 64, 6]`` cyclic neighbours per game.
        states: ``uint64[B, STATE_SIZE]``, changed in place.
        rngs: ``uint64[B]`` xorshift64 states, one stream per game (so the
            result does not depend on the threads).
        returns: ``float64[B, 3]`` receives each game's returns (kernel
            player order; zeros for unfinished games).
        lengths: ``int64[B]`` receives the decisions played.
    """
    for b in prange(states.shape[0]):
        # each game works on its own copies (no two threads write one cache line), then writes back
        history = np.empty(8 * MAX_TILES, np.int64)
        s = states[b].copy()
        stream = np.empty(1, np.uint64)
        stream[0] = rngs[b]
        lengths[b] = playouts.playout(nbs[b], rings[b], s, stream, 0, max_decisions, history)
        rngs[b] = stream[0]
        states[b] = s
        if s[kernel.S_STEP] == kernel.OVER_STEP:
            kernel.returns_of(s, returns[b])
        else:
            for k in range(3):
                returns[b, k] = 0.0


@njit(cache=True, parallel=True)
def step_batch(nbs: Masks, rings: Ints, states: Masks, actions: Ints, accepted: Bools) -> None:
    """Play ``actions[b]`` in game ``b`` where it is legal (``accepted[b]`` says whether it was).

    Illegal actions and finished games leave their state unchanged.
    """
    for b in prange(states.shape[0]):
        ok = kernel.is_legal(nbs[b], states[b], actions[b])
        accepted[b] = ok
        if ok:
            kernel.play(nbs[b], rings[b], states[b], actions[b])


@njit(cache=True, parallel=True)
def legal_mask_batch(nbs: Masks, states: Masks, masks: Bools) -> None:
    """``masks[b, a]`` = whether kernel action ``a`` is legal in game ``b`` (``bool[B, 4160]``)."""
    for b in prange(states.shape[0]):
        out = np.empty(kernel.MAX_MOVES, np.int64)
        n = kernel.legal_actions(nbs[b], states[b], out)
        for a in range(masks.shape[1]):
            masks[b, a] = False
        for i in range(n):
            masks[b, out[i]] = True


def set_threads(threads: int | None) -> int:
    """Use ``threads`` cores for the batch entry points (``None``: all); return the count in use.

    Raises:
        ValueError: ``threads`` is below 1 or above the cores Numba can use.
    """
    most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    count = most if threads is None else threads
    if not 1 <= count <= most:
        raise ValueError(f"threads must be between 1 and {most}, not {count}")
    numba.set_num_threads(count)
    return count


class HexBatch:
    """``B`` hex games in the movement phase, as arrays.

    Args:
        states: the games (each in its movement phase; copied, not shared).
        seed: seeds one random stream per game (game ``b`` gets its own, so
            results do not depend on the number of threads).

    Attributes:
        states: ``uint64[B, kernel.STATE_SIZE]``, the kernel state vectors.
        neighbour_masks: ``uint64[B, 64]``; ``rings``: ``int64[B, 64, 6]``.
        rngs: ``uint64[B]``, one xorshift64 state per game.

    Raises:
        ValueError: an empty list, or a game still in its 2008 placement phase.
    """

    def __init__(self, states: Sequence[HexState], seed: int = 0) -> None:
        if not states:
            raise ValueError("a batch needs at least one game")
        vectors = []
        for i, state in enumerate(states):
            surface = state.surface
            vector = state.kernel_vector()
            if surface is None or vector is None:
                raise ValueError(f"game {i} is still in its placement phase")
            vectors.append(vector)
        self.start = np.stack(vectors)
        self.states = self.start.copy()
        self.neighbour_masks = np.stack([s.surface.neighbour_masks for s in states])  # type: ignore[union-attr]
        self.rings = np.stack([s.surface.ring for s in states])  # type: ignore[union-attr]
        self.rngs = np.array(
            [seed_word(seed * 1_000_003 + b) for b in range(len(states))], dtype=np.uint64
        )

    def __len__(self) -> int:
        return int(self.states.shape[0])

    def reset(self, which: Bools | Ints | Sequence[int] | None = None) -> None:
        """Put games back at their starting positions (``which``: a boolean mask or indices; all by default)."""
        if which is None:
            self.states[:] = self.start
        else:
            self.states[which] = self.start[which]

    def playout(self, max_decisions: int = -1) -> tuple[Floats, Ints]:
        """Play every game on with uniformly random legal actions, in parallel.

        Returns:
            ``(returns, lengths)``: ``float64[B, 3]`` returns per kernel player
            (+1 win, 0 shared draw, -1 loss; zeros for a game not over after
            ``max_decisions``) and ``int64[B]`` decisions played.
        """
        returns = np.zeros((len(self), 3), dtype=np.float64)
        lengths = np.zeros(len(self), dtype=np.int64)
        playout_batch(
            self.neighbour_masks,
            self.rings,
            self.states,
            self.rngs,
            max_decisions,
            returns,
            lengths,
        )
        return returns, lengths

    def step(self, actions: npt.ArrayLike) -> Bools:
        """Play ``actions[b]`` (kernel action integers, ``int64[B]``) in each game; return
        ``bool[B]``, whether each was legal (an illegal action leaves its game unchanged)."""
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (len(self),):
            raise ValueError(f"actions must have shape ({len(self)},), not {acts.shape}")
        accepted = np.zeros(len(self), dtype=np.bool_)
        step_batch(self.neighbour_masks, self.rings, self.states, acts, accepted)
        return accepted

    def legal_mask(self) -> Bools:
        """``bool[B, KERNEL_ACTIONS]``: the legal actions of every game (none once it is over)."""
        masks = np.zeros((len(self), KERNEL_ACTIONS), dtype=np.bool_)
        legal_mask_batch(self.neighbour_masks, self.states, masks)
        return masks

    def done(self) -> Bools:
        """``bool[B]``: which games are over."""
        return np.asarray(self.states[:, kernel.S_STEP] == kernel.OVER_STEP)

    def to_move(self) -> Ints:
        """``int64[B]``: the kernel player to move in each game (meaningless once over)."""
        return self.states[:, kernel.S_TO_MOVE].astype(np.int64)
