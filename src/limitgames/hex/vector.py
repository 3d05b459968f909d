"""Many hex games stepped together for training: NumPy arrays in and out, no framework needed.

:class:`HexVectorEnv` keeps ``num_envs`` movement-phase games of the
nestorgames edition (colours in seat order: kernel player 0, red, moves
first) and steps them all in one compiled, parallel call
(:func:`vector_step`): each game plays its action, hands out the returns
when it ends, starts again at once on a layout drawn from a pool
(auto-reset), and writes its next observation and legal actions.

Arrays (``B = num_envs``):

- ``planes``: ``uint64[B, NUM_PLANES]``, the observation of the player to
  move as 64-bit tile masks (:mod:`limitgames.hex.encoding`);
  :meth:`HexVectorEnv.observations` unpacks them to ``float32[B, 34, 64]``;
- ``mask_words``: ``uint64[B, 65]``, the legal actions packed (word ``f``
  the destinations of the pawn on tile ``f``, word 64 the removable tiles);
  :meth:`HexVectorEnv.legal_mask` spreads them to ``bool[B, A]``;
- with ``tensors=True``, the same written by the compiled step itself
  (:mod:`limitgames.hex.tensors`) into arrays allocated once and rewritten
  in place every step: ``observation`` ``float32[B, 34, 64]`` and
  ``action_mask`` ``int8[B, A]`` (the fast path for training);
- ``to_move``: ``int64[B]``, the player to move (turn order, 0 first);
- per step: ``rewards`` ``float32[B, 3]`` (+1 / 0 / -1 per player of a game
  that just ended, else 0), ``done`` ``bool[B]`` (a game ended and was
  reset: the arrays already show the new game), ``accepted`` ``bool[B]``
  (an illegal action leaves its game unchanged, and is not accepted).

Actions are the per-size indices of :mod:`limitgames.hex.encoding` (``T =
4 * size`` tiles, ``A = T * T + T``: move ``f * T + t``, removal ``T * T +
t``), the same as the state API's ``action_to_index``.

The layout pool: ``layouts`` random layouts drawn once from ``seed``; each
reset picks one of them uniformly with the game's own layout stream.
Results do not depend on the number of threads.

Random streams: every game ``b`` has two xorshift64 streams, one that draws
its layouts (``rngs``) and one that :meth:`HexVectorEnv.sample_actions`
draws from (``sample_rngs``), so sampling any number of actions never
changes which layouts later games get. Seeding game ``b`` with the integer
``k`` sets them to ``seed_word(2 * k)`` and ``seed_word(2 * k + 1)``
(:func:`limitgames.hex.bitboard.seed_word`); an integer seed ``s`` for the
whole batch seeds game ``b`` with ``s + b`` (Gymnasium's
``SyncVectorEnv`` convention).

With ``keep_final=True``, when a game ends, the position before its last
action and that action are kept (vectorised copies; ``final_games[b]`` is its layout,
``final_lengths[b]`` its number of actions) until that game ends again:
:meth:`HexVectorEnv.final_state` replays the action on demand, so a step
pays nothing per ended game unless its final position is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from limitgames.hex import kernel
from limitgames.hex.batch import set_threads
from limitgames.hex.bitboard import (
    ONE,
    Bools,
    Int,
    Ints,
    Masks,
    U,
    nth_index,
    popcount,
    rng_below,
    seed_word,
)
from limitgames.hex.encoding import (
    NUM_PLANES,
    OBSERVATION_SHAPE,
    STATIC_WORDS,
    action_of,
    index_of,
    mask_action,
    mask_place,
    surface_static,
    write_mask_words,
    write_planes,
)
from limitgames.hex.surface import MAX_TILES
from limitgames.hex.tensors import (
    IndexMasks,
    Planes,
    index_masks_batch,
    observations_batch,
    update_index_mask,
    update_observation,
)

MASK_WORDS = MAX_TILES + 1

Rewards: TypeAlias = npt.NDArray[np.float32]
"""``float32[B, 3]``: each game's rewards per kernel player this step."""

__all__ = ["MASK_WORDS", "HexVectorEnv", "StepResult", "set_threads"]


class StepResult(NamedTuple):
    """What :meth:`HexVectorEnv.step` returns (arrays owned by the env: copy to keep them)."""

    planes: Masks
    mask_words: Masks
    rewards: Rewards
    done: Bools
    to_move: Ints
    accepted: Bools
    observation: Planes
    action_mask: IndexMasks


@njit(cache=True)
def _refresh(
    nbs: Masks,
    statics: Masks,
    g: Int,
    s: Masks,
    buffer: Ints,
    mask: Masks,
    planes: Masks,
    tiles: Int,
    observation: Planes,
    action_mask: IndexMasks,
) -> None:
    if tiles == 0:
        write_mask_words(nbs[g], s, buffer, mask)
        write_planes(s, statics[g], np.int64(s[kernel.S_TO_MOVE]), planes)
        return
    # tensors=True: the dense arrays hold the tensors of the words they are about to replace
    # (zeros for zeros at the start), so only the entries whose bits change are written
    old = np.empty(NUM_PLANES + MASK_WORDS, np.uint64)
    old[:NUM_PLANES] = planes
    old[NUM_PLANES:] = mask
    write_mask_words(nbs[g], s, buffer, mask)
    write_planes(s, statics[g], np.int64(s[kernel.S_TO_MOVE]), planes)
    update_observation(old[:NUM_PLANES], planes, observation)
    update_index_mask(old[NUM_PLANES:], mask, tiles, action_mask)


@njit(cache=True, parallel=True)
def vector_reset(
    nbs: Masks,
    rings: Ints,
    statics: Masks,
    pool: Masks,
    game_of: Ints,
    states: Masks,
    rngs: Masks,
    masks: Masks,
    planes: Masks,
    lengths: Ints,
    tiles: Int,
    observations: Planes,
    action_masks: IndexMasks,
) -> None:
    """Start every game on a layout drawn from the pool; write masks and planes (and with
    ``tiles > 0`` the dense ``observations`` and per-size ``action_masks``)."""
    for b in prange(states.shape[0]):
        buffer = np.empty(kernel.MAX_MOVES, np.int64)
        g = rng_below(rngs, b, pool.shape[0])
        game_of[b] = g
        states[b] = pool[g]
        lengths[b] = 0
        _refresh(
            nbs,
            statics,
            g,
            states[b],
            buffer,
            masks[b],
            planes[b],
            tiles,
            observations[b],
            action_masks[b],
        )


@njit(cache=True, parallel=True)
def vector_step(
    nbs: Masks,
    rings: Ints,
    statics: Masks,
    pool: Masks,
    game_of: Ints,
    states: Masks,
    rngs: Masks,
    actions: Ints,
    masks: Masks,
    planes: Masks,
    rewards: Rewards,
    done: Bools,
    accepted: Bools,
    lengths: Ints,
    tiles: Int,
    size_tiles: Int,
    observations: Planes,
    action_masks: IndexMasks,
) -> None:
    """Play the per-size index ``actions[b]`` (``size_tiles`` tiles) in game ``b`` if its mask
    allows it; reset finished games; write rewards, done flags, masks and planes (and with
    ``tiles > 0`` the dense tensors; see the module docstring)."""
    for b in prange(states.shape[0]):
        a = action_of(actions[b], size_tiles)
        g = game_of[b]
        for k in range(3):
            rewards[b, k] = 0.0
        done[b] = False
        legal = False
        if a >= 0:
            word, bit = mask_place(a)
            legal = ((masks[b, word] >> U(bit)) & ONE) != U(0)
        accepted[b] = legal
        if not legal:
            continue
        s = states[b]
        kernel.play(nbs[g], rings[g], s, a)
        lengths[b] += 1
        if s[kernel.S_STEP] == kernel.OVER_STEP:
            kernel.returns_of(s, rewards[b])
            done[b] = True
            g = rng_below(rngs, b, pool.shape[0])
            game_of[b] = g
            s[:] = pool[g]
            lengths[b] = 0
        buffer = np.empty(kernel.MAX_MOVES, np.int64)
        _refresh(
            nbs,
            statics,
            g,
            s,
            buffer,
            masks[b],
            planes[b],
            tiles,
            observations[b],
            action_masks[b],
        )


@njit(cache=True, parallel=True)
def sample_legal(masks: Masks, rngs: Masks, size_tiles: Int, out: Ints) -> None:
    """``out[b]``: the per-size index (``size_tiles`` tiles) of a uniformly random legal action
    of game ``b`` (from its packed mask)."""
    for b in prange(masks.shape[0]):
        total = 0
        for w in range(masks.shape[1]):
            total += popcount(masks[b, w])
        k = rng_below(rngs, b, total)
        for w in range(masks.shape[1]):
            c = popcount(masks[b, w])
            if k < c:
                out[b] = index_of(mask_action(w, nth_index(masks[b, w], k)), size_tiles)
                break
            k -= c


class HexVectorEnv:
    """``num_envs`` nestorgames games of Browne's Limit stepped together (see the module docstring).

    Args:
        num_envs: the number of games ``B``.
        players: 2 or 3; size: tiles per colour (``rules/hex.md``).
        layouts: the size of the layout pool that resets draw from.
        seed: seeds the pool and, as :meth:`reset` does, every game's random streams.
        threads: cores for the compiled calls (``None``: leave Numba's setting).
        keep_final: keep what :meth:`final_state` needs (a copy of every state each step;
            the Gymnasium vector env sets it for ``info["final_obs"]``).
        tensors: the compiled step also writes :attr:`observation` (``float32[B, 34, 64]``)
            and :attr:`action_mask` (``int8[B, A]``) in place (the Gymnasium vector env
            sets it).

    Raises:
        ValueError: ``num_envs`` or ``layouts`` below 1, or a bad variant.
    """

    def __init__(
        self,
        num_envs: int,
        *,
        players: int = 2,
        size: int = 8,
        layouts: int = 256,
        seed: int = 0,
        threads: int | None = None,
        keep_final: bool = False,
        tensors: bool = False,
    ) -> None:
        from limitgames.hex.game import HexGame

        if num_envs < 1 or layouts < 1:
            raise ValueError("num_envs and layouts must be at least 1")
        if threads is not None:
            set_threads(threads)
        game = HexGame()
        self.variant = game.info.resolve_variant(
            {"players": players, "size": size, "colours": "fixed"}
        )
        self.num_envs = num_envs
        self.players = players
        self.keep_final = keep_final
        self.tiles = 4 * size
        self._tensor_tiles = self.tiles if tensors else 0
        starts = [
            game.new_initial_state(seed=seed * 1_000_003 + k, **self.variant)
            for k in range(layouts)
        ]
        vectors = []
        surfaces = []
        for s in starts:
            vector, surface = s.kernel_vector(), s.surface
            # nestorgames games start in the movement phase
            assert vector is not None and surface is not None
            vectors.append(vector)
            surfaces.append(surface)
        self.pool = np.stack(vectors)
        self.nbs = np.stack([surface.neighbour_masks for surface in surfaces])
        self.rings = np.stack([surface.ring for surface in surfaces])
        self.statics = np.stack(
            [surface_static(surface, "nestorgames", size) for surface in surfaces]
        )
        assert self.statics.shape[1] == STATIC_WORDS
        self.states = np.zeros((num_envs, kernel.STATE_SIZE), dtype=np.uint64)
        self.game_of = np.zeros(num_envs, dtype=np.int64)
        self.rngs = np.zeros(num_envs, dtype=np.uint64)
        self.sample_rngs = np.zeros(num_envs, dtype=np.uint64)
        self._final_before = np.zeros((num_envs, kernel.STATE_SIZE), dtype=np.uint64)
        self._final_actions = np.zeros(num_envs, dtype=np.int64)
        self.final_games = np.zeros(num_envs, dtype=np.int64)
        self.final_lengths = np.zeros(num_envs, dtype=np.int64)
        self._before = np.zeros((num_envs, kernel.STATE_SIZE), dtype=np.uint64)
        self._before_games = np.zeros(num_envs, dtype=np.int64)
        self._before_lengths = np.zeros(num_envs, dtype=np.int64)
        self.planes = np.zeros((num_envs, NUM_PLANES), dtype=np.uint64)
        self.mask_words = np.zeros((num_envs, MASK_WORDS), dtype=np.uint64)
        self.rewards = np.zeros((num_envs, 3), dtype=np.float32)
        self.done = np.zeros(num_envs, dtype=np.bool_)
        self.accepted = np.zeros(num_envs, dtype=np.bool_)
        self.lengths = np.zeros(num_envs, dtype=np.int64)
        self._actions = np.zeros(num_envs, dtype=np.int64)
        actions = self.tiles * self.tiles + self.tiles
        dense = (num_envs, *OBSERVATION_SHAPE) if tensors else (num_envs, 0, 0)
        self.observation = np.zeros(dense, dtype=np.float32)
        """``float32[B, 34, 64]`` (``tensors=True``): the player to move's observation,
        rewritten in place by every step (copy to keep it)."""
        self.action_mask = np.zeros((num_envs, actions if tensors else 0), dtype=np.int8)
        """``int8[B, A]`` (``tensors=True``): the legal per-size indices, rewritten in place."""
        self.reset(seed)

    @property
    def num_actions(self) -> int:
        """``A = T * T + T`` for ``T = 4 * size`` tiles: the per-size action indices."""
        return self.tiles * self.tiles + self.tiles

    @property
    def to_move(self) -> Ints:
        """``int64[B]``: the player to move in each game (turn order)."""
        return self.states[:, kernel.S_TO_MOVE].astype(np.int64)

    def reset(self, seed: int | Sequence[int | None] | None = None) -> tuple[Masks, Masks]:
        """Start every game afresh on a layout drawn from the pool; return ``(planes, mask_words)``.

        Args:
            seed: ``None`` keeps every game's streams going; an integer ``s`` seeds game ``b``
                with ``s + b``; a sequence of ``num_envs`` seeds seeds game ``b`` with
                ``seed[b]`` (``None`` there keeps that game's streams). Seeds reseed the layout
                and sampling streams (module docstring), never the pool.

        Raises:
            ValueError: a sequence of seeds whose length is not ``num_envs``.
        """
        if seed is not None:
            if isinstance(seed, int | np.integer):
                seeds: Sequence[int | None] = [int(seed) + b for b in range(self.num_envs)]
            else:
                seeds = list(seed)
                if len(seeds) != self.num_envs:
                    raise ValueError(
                        f"reset needs one seed per game ({self.num_envs}), not {len(seeds)}"
                    )
            for b, k in enumerate(seeds):
                if k is not None:
                    self.rngs[b] = seed_word(2 * int(k))
                    self.sample_rngs[b] = seed_word(2 * int(k) + 1)
        vector_reset(
            self.nbs,
            self.rings,
            self.statics,
            self.pool,
            self.game_of,
            self.states,
            self.rngs,
            self.mask_words,
            self.planes,
            self.lengths,
            self._tensor_tiles,
            self.observation,
            self.action_mask,
        )
        return self.planes, self.mask_words

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Play one action (a per-size index below :attr:`num_actions`) in every game; an index
        that is illegal or out of range leaves its game unchanged (``accepted[b]`` is False).
        Raises ValueError for a wrong shape."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {acts.shape}")
        self._actions[:] = acts
        if self.keep_final:
            np.copyto(self._before, self.states)
            np.copyto(self._before_games, self.game_of)
            np.copyto(self._before_lengths, self.lengths)
        vector_step(
            self.nbs,
            self.rings,
            self.statics,
            self.pool,
            self.game_of,
            self.states,
            self.rngs,
            self._actions,
            self.mask_words,
            self.planes,
            self.rewards,
            self.done,
            self.accepted,
            self.lengths,
            self._tensor_tiles,
            self.tiles,
            self.observation,
            self.action_mask,
        )
        ended = np.flatnonzero(self.done) if self.keep_final else ()
        if len(ended):  # the compiled step reset these games in place: keep what replays them
            self._final_before[ended] = self._before[ended]
            self._final_actions[ended] = self._actions[ended]
            self.final_games[ended] = self._before_games[ended]
            self.final_lengths[ended] = self._before_lengths[ended] + 1
        return StepResult(
            self.planes,
            self.mask_words,
            self.rewards,
            self.done,
            self.to_move,
            self.accepted,
            self.observation,
            self.action_mask,
        )

    def final_state(self, b: int) -> Masks:
        """``uint64[STATE_SIZE]``: the kernel state of the last game ``b`` finished, at its end
        (a new array).

        Raises:
            ValueError: ``b`` out of range, no game ``b`` has ended yet, or the env was made
                without ``keep_final``.
        """
        if not self.keep_final:
            raise ValueError("final_state needs HexVectorEnv(..., keep_final=True)")
        if not 0 <= b < self.num_envs:
            raise ValueError(f"there is no game {b} in a batch of {self.num_envs}")
        if self.final_lengths[b] == 0:
            raise ValueError(f"no game {b} has ended yet")
        g = int(self.final_games[b])
        s: Masks = self._final_before[b].copy()
        action = action_of(np.int64(self._final_actions[b]), self.tiles)
        kernel.play(self.nbs[g], self.rings[g], s, np.int64(action))
        return s

    def final_planes(self, b: int, player: int) -> Masks:
        """``uint64[NUM_PLANES]``: kernel player ``player``'s view of the end of the last game
        ``b`` finished (:meth:`final_state`; unpack with
        :func:`limitgames.hex.encoding.unpack_planes`).

        Raises:
            ValueError: ``b`` or ``player`` out of range.
        """
        if not 0 <= player < self.players:
            raise ValueError(f"there is no player {player} in a {self.players}-player game")
        s = self.final_state(b)
        out = np.zeros(NUM_PLANES, dtype=np.uint64)
        write_planes(s, self.statics[int(self.final_games[b])], np.int64(player), out)
        return out

    def sample_actions(self, out: Ints | None = None) -> Ints:
        """``int64[B]``: a uniformly random legal action per game (a baseline policy, compiled),
        drawn from the sampling streams (never the layout streams)."""
        result = np.empty(self.num_envs, dtype=np.int64) if out is None else out
        sample_legal(self.mask_words, self.sample_rngs, self.tiles, result)
        return result

    def observations(self) -> Planes:
        """``float32[B, 34, 64]``: the player to move's observation (a new array; with
        ``tensors=True`` read :attr:`observation` instead, written by the step itself)."""
        if self._tensor_tiles:
            return self.observation.copy()
        out = np.empty((self.num_envs, *OBSERVATION_SHAPE), dtype=np.float32)
        observations_batch(self.planes, out)
        return out

    def legal_mask(self) -> Bools:
        """``bool[B, A]``: the legal per-size indices of every game (a new array; with
        ``tensors=True`` :attr:`action_mask` holds them, written by the step itself)."""
        if self._tensor_tiles:
            return self.action_mask.astype(np.bool_)
        masks = np.empty((self.num_envs, self.num_actions), dtype=np.int8)
        index_masks_batch(self.mask_words, self.tiles, masks)
        return masks.view(np.bool_)


def compile_all() -> float:
    """Compile (or load from Numba's cache) the vector environment's entry points on a tiny
    batch; return seconds. ``scripts/setup.sh`` runs it once after installation."""
    import time

    started = time.perf_counter()
    env = HexVectorEnv(2, size=2, layouts=1)
    env.step(env.sample_actions())
    env.observations()
    from limitgames.hex.game import HexGame

    state = HexGame().new_initial_state(seed=1, size=2)
    state.observation_tensor(0)
    state.legal_action_mask()
    return time.perf_counter() - started
