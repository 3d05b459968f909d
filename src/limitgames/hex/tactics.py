"""Tactical playouts for hex: random play that takes captures and avoids throwing pawns away.

Uniformly random playouts (:func:`limitgames.hex.playouts.playout`) leave a
capture to chance: a group with one freedom left survives a random turn
about as often as it falls. A player at a real table takes such a group, and
does not remove the last freedom of its own. A playout that does the same
judges a position by what it threatens, not by luck; MCTS programs for Go
learned this first (Gelly et al. 2006, Coulom 2007: capture and escape rules
in the playouts). This module is that playout policy, compiled beside the
kernel. It never decides what is legal: every action it plays is one the
kernel's own sampler or move rules would allow (the tests check each one
against :func:`limitgames.hex.kernel.legal_actions`).

The policy, at each decision (``rules/hex.md`` words), with probability
``greed`` (else the kernel's uniform choice):

- **Move**: if some legal move fills the last freedom of an enemy group (its
  pawn does not leave a tile next to that group, which would give the group a
  new freedom), play one of those at random; else, if a pawn of an own group
  with one freedom can move to a tile that then has two empty neighbours or
  more (an escape), one of those; else a move that leaves an enemy group that
  had two freedoms with one, on a tile with a free edge (the removal that
  follows may then take it); else a press: a move from a tile next to no
  enemy pawn onto one next to an enemy pawn, which then has two empty
  neighbours or more.
- **Remove**: the first of these kinds that holds a legal removal, uniformly
  within it (:func:`removal_kinds`): the last freedom of an enemy group (a
  capture); a freedom of an enemy group with two that is no freedom of an own
  group with two or fewer; a tile next to an enemy pawn and to no own pawn;
  a tile that is no freedom of an own group with two or fewer; a tile that is
  not the last freedom of an own group.
- Under the first-move equaliser (no captures allowed) and when nothing above
  applies: the kernel's uniform choice.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from limitgames.hex import kernel, playouts
from limitgames.hex.bitboard import (
    ONE,
    ZERO,
    Int,
    Ints,
    Mask,
    Masks,
    bit,
    lowest_bit,
    lowest_index,
    nth_index,
    popcount,
    rng_below,
    rng_next,
)
from limitgames.hex.codec import move_action, move_tiles, removal_action, removal_tile
from limitgames.hex.groups import flood, neighbours_of
from limitgames.hex.surface import MAX_TILES

__all__ = [
    "action_kinds",
    "removal_kinds",
    "tactical_move",
    "tactical_playout",
    "tactical_removal",
]

_SCALE = 1.0 / 18446744073709551616.0  # 2**-64: a uniform word as a fraction
REMOVAL_KINDS = 5
"""How many kinds of removal :func:`removal_kinds` ranks."""


@njit(cache=True)
def _short_groups(nb: Masks, s: Masks, empty: Mask, frees: Masks, groups: Masks) -> int:
    """Every enemy group (of the player to move) with one or two freedoms: its freedom mask into
    ``frees`` and its pawns into ``groups``; returns how many."""
    p = np.int64(s[kernel.S_TO_MOVE])
    n = 0
    for k in range(np.int64(s[kernel.S_PLAYERS])):
        if k == p:
            continue
        pawns = s[kernel.S_PAWNS + k]
        rest = pawns
        while rest:
            group = flood(nb, lowest_bit(rest), pawns)
            rest &= ~group
            free = neighbours_of(nb, group) & empty
            if free and popcount(free) <= 2:
                frees[n] = free
                groups[n] = group
                n += 1
    return n


@njit(cache=True)
def _short_groups_of(nb: Masks, pawns: Mask, empty: Mask) -> tuple[Mask, Mask, Mask]:
    """One walk over the groups of ``pawns`` (one player's): ``(threatened, last, short)``, the
    pawns of the groups with exactly one freedom, the union of those groups' freedoms, and the
    union of the freedoms of the groups with one or two (uint64 masks)."""
    threatened = ZERO
    last = ZERO
    short = ZERO
    rest = pawns
    while rest:
        group = flood(nb, lowest_bit(rest), pawns)
        rest &= ~group
        free = neighbours_of(nb, group) & empty
        if not free:
            continue
        if not (free & (free - ONE)):
            threatened |= group
            last |= free
            short |= free
        elif popcount(free) == 2:
            short |= free
    return threatened, last, short


@njit(cache=True)
def _roomy_moves(
    nb: Masks,
    s: Masks,
    empty: Mask,
    froms: Ints,
    dests: Masks,
    n: int,
    fast: bool,
    pool: Ints,
    origins: Mask,
    targets_allowed: Mask,
) -> int:
    """Write into ``pool`` the legal moves from a tile of ``origins`` onto a tile of
    ``targets_allowed`` that then has two empty neighbours or more; return how many."""
    size = 0
    for i in range(n):
        fr = froms[i]
        if not origins & bit(fr):
            continue
        targets = dests[i] & targets_allowed
        while targets:
            to = lowest_index(targets)
            targets &= targets - ONE
            after = (empty & ~bit(to)) | bit(fr)
            if popcount(nb[to] & after) < 2:
                continue
            if fast or kernel.move_verdict(nb, s, fr, to)[1]:
                pool[size] = move_action(fr, to)
                size += 1
    return size


@njit(cache=True)
def tactical_move(
    nb: Masks,
    s: Masks,
    rng: Masks,
    slot: int,
    froms: Ints,
    dests: Masks,
    comps: Masks,
    pool: Ints,
    frees: Masks,
    groups: Masks,
) -> Int:
    """A legal move that captures, else one that takes a pawn of an own group with one freedom
    onto a tile with two empty neighbours or more (an escape), else one that leaves an enemy
    group a single freedom on a tile with a free edge (so the removal that follows may take
    it), else a press (from a tile next to no enemy pawn onto one next to an enemy pawn that
    then has two empty neighbours or more), one at random; -1 if there is none or the
    equaliser binds. ``froms``, ``dests``, ``comps`` and ``pool`` are the scratch arrays of
    :func:`playouts.sample_move`; ``frees`` and ``groups`` (``uint64[48]``) hold the enemy groups
    with one or two freedoms.

    A move from ``fr`` onto a freedom of an enemy group takes that freedom
    unless ``fr`` touches the group (leaving it gives the group a new one).
    The move is legal outright outside the checks
    (:func:`kernel.every_candidate_legal`); otherwise it is kept only if it
    allows a removal or ends the game (:func:`kernel.move_verdict`).
    """
    if kernel.is_equaliser(s):
        return -1
    empty = s[kernel.S_TILES] & ~kernel.all_pawns(s)
    n_short = _short_groups(nb, s, empty, frees, groups)
    n = kernel.move_candidates(nb, s, froms, dests, comps)
    fast = kernel.every_candidate_legal(s)
    edge = s[kernel.S_EDGE]
    captures = 0
    setups = 0
    for i in range(n):
        fr = froms[i]
        for j in range(n_short):
            if nb[fr] & groups[j]:
                continue
            free = frees[j]
            single = not (free & (free - ONE))
            targets = dests[i] & free
            while targets:
                f = lowest_index(targets)
                targets &= targets - ONE
                if not single and not (free & ~bit(f) & edge):
                    continue
                if not (fast or kernel.move_verdict(nb, s, fr, f)[1]):
                    continue
                if single:
                    pool[captures] = move_action(fr, f)
                    captures += 1
                else:
                    pool[kernel.MAX_MOVES - 1 - setups] = move_action(fr, f)
                    setups += 1
    if captures:
        return np.int64(pool[rng_below(rng, slot, captures)])
    # escapes: a pawn of an own group with one freedom, to a tile with room
    own = s[kernel.S_PAWNS + np.int64(s[kernel.S_TO_MOVE])]
    threatened = _short_groups_of(nb, own, empty)[0]
    escapes = _roomy_moves(nb, s, empty, froms, dests, n, fast, pool, threatened, ~ZERO)
    if escapes:
        return np.int64(pool[rng_below(rng, slot, escapes)])
    if setups:
        return np.int64(pool[kernel.MAX_MOVES - 1 - rng_below(rng, slot, setups)])
    # presses: from a tile next to no enemy pawn onto one next to an enemy pawn, with room
    near_enemy = _near_enemy(nb, s)
    presses = _roomy_moves(nb, s, empty, froms, dests, n, fast, pool, ~near_enemy, near_enemy)
    if presses:
        return np.int64(pool[rng_below(rng, slot, presses)])
    return np.int64(-1)


@njit(cache=True)
def _near_enemy(nb: Masks, s: Masks) -> Mask:
    """The tiles next to a pawn of an enemy of the player to move."""
    p = np.int64(s[kernel.S_TO_MOVE])
    near = ZERO
    for k in range(np.int64(s[kernel.S_PLAYERS])):
        if k != p:
            near |= neighbours_of(nb, s[kernel.S_PAWNS + k])
    return near


@njit(cache=True)
def _legal_removal_in(nb: Masks, s: Masks, rng: Masks, slot: int, mask: Mask, pawns: Mask) -> int:
    """A uniformly random legal removal among the candidate tiles ``mask`` (a removal action),
    or -1 if none is legal (outside the equaliser, where the legality is a split check)."""
    m = mask
    while m:
        t = nth_index(m, rng_below(rng, slot, popcount(m)))
        if kernel.removal_gone(nb, s, t, pawns):
            return removal_action(t)
        m &= ~bit(t)
    return -1


@njit(cache=True)
def removal_kinds(nb: Masks, s: Masks) -> tuple[Mask, Mask, Mask, Mask, Mask]:
    """The tiles of the policy's five kinds of removal, best first, as a tuple of five uint64
    masks (before the split rule; a tuple, so the playouts allocate nothing per removal): the last freedom of an enemy group (a capture); a freedom of an
    enemy group with two that is no freedom of an own group with two or fewer; a tile next to
    an enemy pawn and to no own pawn; any tile but a freedom of an own group with two or
    fewer; any tile but the last freedom of an own group. Each is a candidate removal: empty,
    with a free edge."""
    pawns = kernel.all_pawns(s)
    empty = s[kernel.S_TILES] & ~pawns
    cand = empty & s[kernel.S_EDGE]
    p = np.int64(s[kernel.S_TO_MOVE])
    enemy_last = ZERO
    enemy_short = ZERO
    near_enemy = _near_enemy(nb, s)
    for k in range(np.int64(s[kernel.S_PLAYERS])):
        if k != p and s[kernel.S_PAWNS + k]:
            _, last, short = _short_groups_of(nb, s[kernel.S_PAWNS + k], empty)
            enemy_last |= last
            enemy_short |= short
    own = s[kernel.S_PAWNS + p]
    _, own_last, own_short = _short_groups_of(nb, own, empty)
    near_own = neighbours_of(nb, own)
    return (
        cand & enemy_last,
        cand & enemy_short & ~own_short,
        cand & near_enemy & ~near_own,
        cand & ~own_short,
        cand & ~own_last,
    )


@njit(cache=True)
def tactical_removal(nb: Masks, s: Masks, rng: Masks, slot: int) -> int:
    """A legal removal by the policy, or -1 if the equaliser binds or no tile fits it: one of
    the first kind of :func:`removal_kinds` that holds a legal removal, uniformly."""
    if kernel.is_equaliser(s):
        return -1
    kinds = removal_kinds(nb, s)
    pawns = kernel.all_pawns(s)
    for j in range(REMOVAL_KINDS):
        action = _legal_removal_in(nb, s, rng, slot, kinds[j], pawns)
        if action >= 0:
            return action
    return -1


@njit(cache=True)
def _chance(rng: Masks, slot: int, p: float) -> bool:
    """True with probability ``p`` (one draw of the stream)."""
    if p >= 1.0:
        return True
    if p <= 0.0:
        return False
    return float(rng_next(rng, slot)) * _SCALE < p


@njit(cache=True)
def tactical_playout(
    nb: Masks,
    ring: Ints,
    s: Masks,
    rng: Masks,
    slot: int,
    max_decisions: int,
    history: Ints,
    movers: Ints,
    greed: float,
) -> int:
    """Play the tactical policy (module docstring) until the game ends or ``max_decisions`` were
    played; the arguments and the return value are those of :func:`playouts.playout`, plus
    ``movers`` (``int64``, as long as ``history``: the kernel player of each decision) and
    ``greed``, the chance (0..1) that a decision follows the policy rather than the uniform
    choice."""
    froms = np.empty(16, np.int64)
    dests = np.empty(16, np.uint64)
    comps = np.empty(MAX_TILES, np.uint64)
    pool = np.empty(kernel.MAX_MOVES, np.int64)
    frees = np.empty(48, np.uint64)
    groups = np.empty(48, np.uint64)
    limit = len(history) if max_decisions < 0 else min(max_decisions, len(history))
    count = 0
    while s[kernel.S_STEP] != kernel.OVER_STEP and count < limit:
        tactical = _chance(rng, slot, greed)
        mover = np.int64(s[kernel.S_TO_MOVE])
        action: Int = np.int64(-1)
        if s[kernel.S_STEP] == kernel.MOVE_STEP:
            if tactical:
                action = tactical_move(nb, s, rng, slot, froms, dests, comps, pool, frees, groups)
            if action < 0:
                action = playouts.sample_move(nb, s, rng, slot, froms, dests, comps, pool)
            fr, to = move_tiles(action)
            kernel.play_move(nb, s, fr, to)
            if s[kernel.S_STEP] != kernel.REMOVE_STEP:
                kernel.settle(nb, s)
        else:
            if tactical:
                action = tactical_removal(nb, s, rng, slot)
            if action < 0:
                action = playouts.sample_removal(nb, s, rng, slot)
            if action < 0:  # no legal removal: the step is skipped (no decision)
                kernel.end_turn(s, False)
                kernel.settle(nb, s)
                continue
            kernel.play_removal(nb, ring, s, removal_tile(action))
            kernel.settle(nb, s)
        history[count] = action
        movers[count] = mover
        count += 1
    kernel.settle(nb, s)
    return count


@njit(cache=True)
def action_kinds(nb: Masks, s: Masks, actions: Ints, n: int, out: Ints) -> None:
    """How the policy ranks each of the legal actions ``actions[:n]`` of position ``s``, into
    ``out[:n]`` (higher first; the search tries its actions in this order).

    Moves, in the order of :func:`tactical_move`: 4 for a capture, 3 for an
    escape, 2 for a move that leaves an enemy group that had two freedoms with
    one on a tile with a free edge, 1 for a press, else 0. Removals: 5 to 1 for the five kinds of
    :func:`removal_kinds` in its order, 0 for a removal of an own group's last freedom.
    Under the equaliser every action ranks 0.
    """
    for i in range(n):
        out[i] = 0
    if kernel.is_equaliser(s):
        return
    pawns = kernel.all_pawns(s)
    empty = s[kernel.S_TILES] & ~pawns
    if s[kernel.S_STEP] == kernel.MOVE_STEP:
        frees = np.empty(48, np.uint64)
        groups = np.empty(48, np.uint64)
        n_short = _short_groups(nb, s, empty, frees, groups)
        edge = s[kernel.S_EDGE]
        p = np.int64(s[kernel.S_TO_MOVE])
        threatened = _short_groups_of(nb, s[kernel.S_PAWNS + p], empty)[0]
        near_enemy = _near_enemy(nb, s)
        for i in range(n):
            fr, to = move_tiles(actions[i])
            best = 0
            for j in range(n_short):
                free = frees[j]
                if not (free & bit(to)) or nb[fr] & groups[j]:
                    continue
                if not (free & (free - ONE)):
                    best = 4
                elif free & ~bit(to) & edge and best < 2:
                    best = 2
            roomy = popcount(nb[to] & ((empty & ~bit(to)) | bit(fr))) >= 2
            if best < 3 and threatened & bit(fr) and roomy:
                best = 3
            if best < 1 and roomy and near_enemy & bit(to) and not near_enemy & bit(fr):
                best = 1
            out[i] = best
        return
    kinds = removal_kinds(nb, s)
    for i in range(n):
        tb = bit(removal_tile(actions[i]))
        for j in range(REMOVAL_KINDS):
            if kinds[j] & tb:
                out[i] = REMOVAL_KINDS - j
                break
