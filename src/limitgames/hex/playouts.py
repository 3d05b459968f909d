"""Random play of Browne's Limit, compiled with Numba: the uniform samplers and the playout.

The samplers draw, for the kernel's current step (:mod:`limitgames.hex.kernel`), a uniformly
random legal move or removal from the state's own random stream (``rng``, ``slot``:
:func:`limitgames.hex.bitboard.rng_below`), deciding legality exactly as
:func:`~limitgames.hex.kernel.legal_moves` and :func:`~limitgames.hex.kernel.legal_removals` do
(``rules/hex.md``, "A turn is two steps", "Must, if possible", "First move equaliser").
:func:`playout` plays a whole game, or a cut-off part of one, with them. The distribution of
every draw is checked against the naive reference (``tests/hex``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from limitgames.hex.bitboard import (
    ONE,
    Int,
    Ints,
    Masks,
    bit,
    lowest_index,
    nth_index,
    popcount,
    rng_below,
)
from limitgames.hex.codec import move_action, move_tiles, removal_action, removal_tile
from limitgames.hex.kernel import (
    ENDS_GAME,
    FORBIDDEN,
    MAX_MOVES,
    MOVE_STEP,
    OVER_STEP,
    REMOVE_STEP,
    S_EDGE,
    S_STEP,
    S_TILES,
    all_pawns,
    counts_as_allowing,
    end_turn,
    every_candidate_legal,
    is_equaliser,
    legal_removals,
    move_candidates,
    move_outcome,
    play_move,
    play_removal,
    removal_gone,
    settle,
)
from limitgames.hex.surface import MAX_TILES


@njit(cache=True)
def sample_move(
    nb: Masks, s: Masks, rng: Masks, slot: Int, froms: Ints, dests: Masks, comps: Masks, pool: Ints
) -> Int:
    """A uniformly random legal move (the player has one: the state is settled).

    Outside the checks (:func:`every_candidate_legal`) the candidates are all
    legal. Otherwise candidates are checked in a uniformly random order and
    the first that allows a removal (or ends the game) is taken, which is
    uniform over those; if none does, a uniform choice among the
    equaliser-allowed ones. In the continuing reading a move that ends the
    game is held back until a move that allows a removal is seen (then the
    first of the two kinds in the order is taken), as it does not decide
    whether the others are legal.
    """
    n = move_candidates(nb, s, froms, dests, comps)
    if every_candidate_legal(s):
        total = 0
        for i in range(n):
            total += popcount(dests[i])
        k = rng_below(rng, slot, total)
        i = 0
        while True:
            c = popcount(dests[i])
            if k < c:
                return move_action(froms[i], nth_index(dests[i], k))
            k -= c
            i += 1
    size = 0
    for i in range(n):
        d = dests[i]
        while d:
            pool[size] = move_action(froms[i], lowest_index(d))
            d &= d - ONE
            size += 1
    allowed = 0
    left = size
    first_ending = np.int64(-1)
    while left:
        pick = rng_below(rng, slot, left)
        action = pool[pick]
        left -= 1
        pool[pick] = pool[left]
        fr, to = move_tiles(action)
        outcome = move_outcome(nb, s, fr, to)
        if counts_as_allowing(s, outcome):
            return np.int64(first_ending if first_ending >= 0 else action)
        if outcome == ENDS_GAME and first_ending < 0:
            first_ending = np.int64(action)
        if outcome != FORBIDDEN:
            pool[MAX_MOVES - 1 - allowed] = action
            allowed += 1
    return np.int64(pool[MAX_MOVES - 1 - rng_below(rng, slot, allowed)])


@njit(cache=True)
def sample_removal(nb: Masks, s: Masks, rng: Masks, slot: Int) -> int:
    """A uniformly random legal removal, or -1 if there is none (then the step is skipped).

    Outside the equaliser candidates are tried in a uniformly random order
    until one is legal (uniform over the legal ones); under it, a uniform
    choice from :func:`legal_removals`.
    """
    if is_equaliser(s):
        legal = legal_removals(nb, s)
        if not legal:
            return -1
        return removal_action(nth_index(legal, rng_below(rng, slot, popcount(legal))))
    pawns = all_pawns(s)
    cand = s[S_TILES] & ~pawns & s[S_EDGE]
    while cand:
        t = nth_index(cand, rng_below(rng, slot, popcount(cand)))
        if removal_gone(nb, s, t, pawns):
            return removal_action(t)
        cand &= ~bit(t)
    return -1


@njit(cache=True)
def playout(
    nb: Masks, ring: Ints, s: Masks, rng: Masks, slot: Int, max_decisions: Int, history: Ints
) -> int:
    """Play uniformly random legal actions until the game ends or ``max_decisions`` were played.

    Args:
        s: the state vector, changed in place.
        rng: ``uint64`` array of xorshift64 states; ``rng[slot]`` is used.
        max_decisions: the cut-off (a negative value: none).
        history: ``int64`` array receiving the actions played (long enough:
            at most ``len(history)`` decisions are played).

    Returns:
        The number of decisions played.
    """
    froms = np.empty(16, np.int64)
    dests = np.empty(16, np.uint64)
    comps = np.empty(MAX_TILES, np.uint64)
    pool = np.empty(MAX_MOVES, np.int64)
    limit = len(history) if max_decisions < 0 else min(max_decisions, len(history))
    count = 0
    while s[S_STEP] != OVER_STEP and count < limit:
        if s[S_STEP] == MOVE_STEP:
            action = sample_move(nb, s, rng, slot, froms, dests, comps, pool)
            fr, to = move_tiles(action)
            play_move(nb, s, fr, to)
            # a removal step left unsettled: the sampler below finds out whether it has a choice
            if s[S_STEP] != REMOVE_STEP:
                settle(nb, s)
        else:
            action = sample_removal(nb, s, rng, slot)
            if action < 0:  # no legal removal: the step is skipped (no decision)
                end_turn(s, False)
                settle(nb, s)
                continue
            play_removal(nb, ring, s, removal_tile(action))
            settle(nb, s)
        history[count] = action
        count += 1
    settle(nb, s)  # (a cut-off right after a move leaves the removal step to settle)
    return count
