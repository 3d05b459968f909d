"""The movement phase of Browne's Limit, compiled with Numba: the one place its rules live.

Implements ``rules/hex.md`` ("A turn is two steps", "Must, if possible",
"First move equaliser", "End", and the 2008 differences) on 64-bit tile
masks (:mod:`limitgames.hex.surface` numbers the tiles). Every function is
``@njit(cache=True)``: compiled once per machine, stored in Numba's cache,
and plain Python when ``NUMBA_DISABLE_JIT=1`` (slow, same results).

A game's position is a ``uint64`` vector of :data:`STATE_SIZE` slots (the
``S_*`` indices below); its surface is two read-only tables, ``nb``
(``uint64[64]``: the neighbour tiles of each tile) and ``ring``
(``int64[64, 6]``: the neighbours in cyclic order, -1 where no tile ever
was). Players are numbered in turn order (kernel player 0 moves first: red,
or white in the 2008 edition); the state maps them to seats.

Reachability is decided in one place, :func:`reach`: a pawn reaches exactly
the empty components (maximal sets of empty tiles joined through empty
tiles) that touch it. Legal moves (:func:`legal_moves`), the legality of one
move (:func:`move_is_legal`), the playout sampler and the must-allow-removal
check all go through :func:`move_candidates` (which uses :func:`reach`) and
:func:`move_verdict`.

Actions are the integers of :mod:`limitgames.hex.codec` (a move
``from * 64 + to``, a removal ``4096 + tile``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from limitgames.hex.bitboard import (
    ONE,
    ZERO,
    Floats,
    Int,
    Ints,
    Mask,
    Masks,
    U,
    bit,
    lowest_bit,
    lowest_index,
    popcount,
)
from limitgames.hex.codec import (
    KERNEL_ACTIONS,
    is_move,
    move_action,
    move_tiles,
    removal_action,
    removal_tile,
)
from limitgames.hex.groups import dead_groups, empty_components, flood, neighbours_of, reach
from limitgames.hex.surface import MAX_TILES

# --- the state vector --------------------------------------------------------------
S_TILES = 0
"""Mask of the tiles on the table."""
S_PAWNS = 1
"""Slots 1, 2, 3: the pawn mask of kernel players 0, 1, 2."""
S_TO_MOVE = 4
S_STEP = 5
S_TURN = 6
"""Movement turns counted from 1 (decides the equaliser)."""
S_QUIET = 7
"""Consecutive turns without a removal (nestorgames stalemate)."""
S_OUT = 8
"""Bit per player: eliminated (2008 edition)."""
S_ALIVE_AT_START = 9
"""Bit per player: holding pawns at the start of the current turn."""
S_WINNERS = 10
S_DRAWN = 11
S_PLAYERS = 12
S_EDITION = 13
S_CONNECTED = 14
"""1 when the surface is one connected group (always, except in loaded positions)."""
S_EDGE = 15
"""Mask of the tiles with a free edge (kept with the tiles)."""
S_SAFE = 16
"""Mask of the edge tiles whose neighbours form at most one arc (removal cannot split)."""
S_CAPTURED = 17
"""Pawns captured by the last action (any seat)."""
S_ISOLATED = 18
"""Tiles removed with the last removal besides the removed tile (isolated empty parts)."""
S_READING = 19
"""How "must, if possible" treats a move that ends the game: :data:`LITERAL` or :data:`CONTINUING`."""
STATE_SIZE = 20

MOVE_STEP = 0
REMOVE_STEP = 1
OVER_STEP = 2
NESTORGAMES = 0
EDITION_2008 = 1
LITERAL = 0
"""``must_remove=literal`` (the default): a move that ends the game counts as a move that allows
a removal, so while one exists, the moves that allow none are illegal."""
CONTINUING = 1
"""``must_remove=continuing``: only moves after which play goes on are asked to allow a removal;
if none of them does, every move (the equaliser allows) is legal. A move that ends the game is
legal in both readings."""

FORBIDDEN = 0
""":func:`move_outcome`: the first move equaliser forbids the move (it would capture)."""
NO_REMOVAL = 1
""":func:`move_outcome`: no removal would be possible after the move."""
ALLOWS_REMOVAL = 2
""":func:`move_outcome`: a removal is possible after the move."""
ENDS_GAME = 3
""":func:`move_outcome`: the move captures the last enemy pawns (no removal follows)."""

MAX_MOVES = 1024
"""More than the moves of any position (16 pawns x 48 empty tiles)."""


# --- the state ---------------------------------------------------------------------
@njit(cache=True)
def pawns_of(s: Masks, player: Int) -> Mask:
    """The pawn mask of kernel player ``player``."""
    return U(s[S_PAWNS + player])


@njit(cache=True)
def all_pawns(s: Masks) -> Mask:
    """Every pawn on the table."""
    return U(s[S_PAWNS] | s[S_PAWNS + 1] | s[S_PAWNS + 2])


@njit(cache=True)
def is_equaliser(s: Masks) -> bool:
    """``rules/hex.md``, First move equaliser: turns ``1 .. players - 1`` may not capture."""
    return bool(s[S_TURN] <= s[S_PLAYERS] - ONE)


@njit(cache=True)
def single_arc(ring: Ints, tiles: Mask, t: Int) -> bool:
    """Whether the tiles around tile ``t`` form at most one arc (removing ``t`` cannot split)."""
    j = ring[t, 5]
    prev = j >= 0 and ((tiles >> U(j)) & ONE) != ZERO
    starts = 0
    for d in range(6):
        j = ring[t, d]
        cur = j >= 0 and ((tiles >> U(j)) & ONE) != ZERO
        if cur and not prev:
            starts += 1
        prev = cur
    return starts <= 1


@njit(cache=True)
def refresh_surface(nb: Masks, ring: Ints, s: Masks) -> None:
    """Recompute the free edges (``rules/hex.md``, Surface) and the split-free tiles."""
    tiles = s[S_TILES]
    connected = s[S_CONNECTED] != ZERO
    edge = ZERO
    safe = ZERO
    m = tiles
    while m:
        i = lowest_index(m)
        m &= m - ONE
        if popcount(nb[i] & tiles) < 6:
            edge |= bit(i)
            if connected and single_arc(ring, tiles, i):
                safe |= bit(i)
    s[S_EDGE] = edge
    s[S_SAFE] = safe


@njit(cache=True)
def removal_gone(nb: Masks, s: Masks, t: Int, pawns: Mask) -> Mask:
    """The tiles a removal of tile ``t`` takes away (``t`` and every part left without a pawn),
    or 0 if it is illegal.

    ``rules/hex.md``, Remove: illegal if, with the tile gone and before any
    capture, two or more components of the surface hold pawns; every
    component holding no pawn goes with the tile. ``pawns``: every pawn.
    """
    tb = bit(t)
    if s[S_SAFE] & tb:
        return tb
    tiles = U(s[S_TILES])
    if not pawns:
        return tiles
    comp = flood(nb, lowest_bit(pawns), tiles & ~tb)
    if pawns & ~comp:
        return ZERO
    return tiles & ~comp


@njit(cache=True)
def removal_captures(nb: Masks, s: Masks, mover: Int, own: Mask, tiles: Mask, pawns: Mask) -> bool:
    """Whether some group (any player's) has no freedom on ``tiles`` with ``pawns`` on it;
    the mover's pawns are ``own``, the others' are read from ``s`` (within ``pawns``)."""
    empty = tiles & ~pawns
    for k in range(np.int64(s[S_PLAYERS])):
        mine = own if k == mover else s[S_PAWNS + k] & pawns
        if mine and dead_groups(nb, mine, empty):
            return True
    return False


@njit(cache=True)
def removal_exists(
    nb: Masks, s: Masks, mover: Int, own: Mask, pawns: Mask, equaliser: bool
) -> bool:
    """Whether some removal is legal with ``pawns`` on the table (``own``: the mover's);
    under the equaliser only one that captures nothing counts."""
    cand = s[S_TILES] & ~pawns & s[S_EDGE]
    if not equaliser and cand & s[S_SAFE]:
        return True
    m = cand
    while m:
        t = lowest_index(m)
        m &= m - ONE
        gone = removal_gone(nb, s, t, pawns)
        if not gone:
            continue
        if not equaliser:
            return True
        if not removal_captures(nb, s, mover, own, s[S_TILES] & ~gone, pawns):
            return True
    return False


@njit(cache=True)
def legal_removals(nb: Masks, s: Masks) -> Mask:
    """The mask of the tiles the player to move may remove (``rules/hex.md``, Remove;
    under the equaliser, none that captures)."""
    p = np.int64(s[S_TO_MOVE])
    pawns = all_pawns(s)
    equaliser = is_equaliser(s)
    cand = s[S_TILES] & ~pawns & s[S_EDGE]
    legal = ZERO
    m = cand
    while m:
        t = lowest_index(m)
        m &= m - ONE
        tb = bit(t)
        if not equaliser and s[S_SAFE] & tb:
            legal |= tb
            continue
        gone = removal_gone(nb, s, t, pawns)
        if not gone:
            continue
        if equaliser and removal_captures(nb, s, p, s[S_PAWNS + p], s[S_TILES] & ~gone, pawns):
            continue
        legal |= tb
    return legal


# --- moves ----------------------------------------------------------------------------
@njit(cache=True)
def move_candidates(nb: Masks, s: Masks, froms: Ints, dests: Masks, comps: Masks) -> int:
    """Write each own pawn that can move (``froms``) and its reach (``dests``); return how many.

    These are the moves the Move rule allows before "must, if possible" and
    the equaliser are applied.
    """
    p = np.int64(s[S_TO_MOVE])
    pawns = all_pawns(s)
    empty = s[S_TILES] & ~pawns
    ncomps = empty_components(nb, empty, comps)
    n = 0
    own = s[S_PAWNS + p]
    while own:
        fr = lowest_index(own)
        own &= own - ONE
        dest = reach(nb, fr, empty, comps, ncomps)
        if dest:
            froms[n] = fr
            dests[n] = dest
            n += 1
    return n


@njit(cache=True)
def every_candidate_legal(s: Masks) -> bool:
    """Whether every candidate move is legal without checking it: outside the equaliser, on a
    connected surface with two or more empty split-free edge tiles, one of them stays empty
    after any move and can be removed."""
    if is_equaliser(s) or s[S_CONNECTED] == ZERO:
        return False
    return popcount(s[S_TILES] & ~all_pawns(s) & s[S_SAFE]) >= 2


@njit(cache=True)
def move_verdict(nb: Masks, s: Masks, fr: Int, to: Int) -> tuple[bool, bool]:
    """For a candidate move: ``(allowed by the equaliser, allows a removal or ends the game)``.

    A move with both is legal in either reading of "must, if possible".
    ``rules/hex.md``, Must, if possible, and First move equaliser.
    """
    outcome = move_outcome(nb, s, fr, to)
    return outcome != FORBIDDEN, outcome >= ALLOWS_REMOVAL


@njit(cache=True)
def counts_as_allowing(s: Masks, outcome: Int) -> bool:
    """Whether a move of this :func:`move_outcome` makes the moves that allow no removal
    illegal: one that allows a removal, or (literal reading) one that ends the game."""
    return outcome == ALLOWS_REMOVAL or (outcome == ENDS_GAME and s[S_READING] == LITERAL)


@njit(cache=True)
def move_outcome(nb: Masks, s: Masks, fr: Int, to: Int) -> int:
    """For a candidate move: :data:`FORBIDDEN`, :data:`NO_REMOVAL`, :data:`ALLOWS_REMOVAL` or
    :data:`ENDS_GAME` (``rules/hex.md``, Must, if possible, and First move equaliser)."""
    p = np.int64(s[S_TO_MOVE])
    moved = bit(fr) | bit(to)
    own = s[S_PAWNS + p] ^ moved
    pawns = all_pawns(s) ^ moved
    empty = s[S_TILES] & ~pawns
    captured = ZERO
    enemies_left = ZERO
    for k in range(np.int64(s[S_PLAYERS])):
        if k != p:
            dead = dead_groups(nb, s[S_PAWNS + k], empty)
            captured |= dead
            enemies_left |= s[S_PAWNS + k] & ~dead
    equaliser = is_equaliser(s)
    if captured and equaliser:
        return FORBIDDEN
    if not enemies_left:
        return ENDS_GAME
    if removal_exists(nb, s, p, own, pawns & ~captured, equaliser):
        return ALLOWS_REMOVAL
    return NO_REMOVAL


@njit(cache=True)
def legal_moves(nb: Masks, s: Masks, out: Ints) -> int:
    """Write the legal moves (action integers) into ``out``; return how many.

    ``rules/hex.md``, Must, if possible: a move is legal only if a removal is
    possible after it (or it ends the game); if no move allows one, every
    move the equaliser allows is legal (nestorgames) or none is (2008: the
    player is eliminated). Whether a move that ends the game counts as one
    that allows a removal is the reading ``s[S_READING]`` (:data:`LITERAL`: it
    does; :data:`CONTINUING`: it does not).
    """
    froms = np.empty(16, np.int64)
    dests = np.empty(16, np.uint64)
    comps = np.empty(MAX_TILES, np.uint64)
    n = move_candidates(nb, s, froms, dests, comps)
    fast = every_candidate_legal(s)
    count = 0
    fallback = 0
    counting = 0  # legal moves that count as allowing a removal (see counts_as_allowing)
    for i in range(n):
        fr = froms[i]
        d = dests[i]
        while d:
            to = lowest_index(d)
            d &= d - ONE
            if fast:
                out[count] = move_action(fr, to)
                count += 1
                continue
            outcome = move_outcome(nb, s, fr, to)
            if outcome >= ALLOWS_REMOVAL:
                out[count] = move_action(fr, to)
                count += 1
                if counts_as_allowing(s, outcome):
                    counting += 1
            elif outcome != FORBIDDEN:
                # kept past the enabling moves, in case none enables
                out[MAX_MOVES - 1 - fallback] = move_action(fr, to)
                fallback += 1
    if counting or fast or s[S_EDITION] != NESTORGAMES:
        return count
    if count:  # continuing reading: only moves that end the game allow no removal; all stand
        return _every_allowed_move(nb, s, froms, dests, n, out)
    for j in range(fallback):
        out[j] = out[MAX_MOVES - fallback + j]
    # restore ascending order (the fallback was written from the end down)
    for j in range(fallback // 2):
        a = out[j]
        out[j] = out[fallback - 1 - j]
        out[fallback - 1 - j] = a
    return fallback


@njit(cache=True)
def _every_allowed_move(nb: Masks, s: Masks, froms: Ints, dests: Masks, n: Int, out: Ints) -> int:
    """Write every candidate move the equaliser allows into ``out`` (ascending); return how many."""
    count = 0
    for i in range(n):
        d = dests[i]
        while d:
            to = lowest_index(d)
            d &= d - ONE
            if move_outcome(nb, s, froms[i], to) != FORBIDDEN:
                out[count] = move_action(froms[i], to)
                count += 1
    return count


@njit(cache=True)
def any_move_enables(nb: Masks, s: Masks, froms: Ints, dests: Masks, n: Int) -> bool:
    """Whether some candidate move allows a removal or, in the literal reading, ends the game
    (:func:`counts_as_allowing`)."""
    for i in range(n):
        d = dests[i]
        while d:
            to = lowest_index(d)
            d &= d - ONE
            if counts_as_allowing(s, move_outcome(nb, s, froms[i], to)):
                return True
    return False


@njit(cache=True)
def move_is_legal(nb: Masks, s: Masks, fr: Int, to: Int) -> bool:
    """Whether moving the pawn on ``fr`` to ``to`` is legal now (the same rule as :func:`legal_moves`)."""
    if s[S_STEP] != MOVE_STEP or fr < 0 or to < 0 or fr >= MAX_TILES or to >= MAX_TILES:
        return False
    froms = np.empty(16, np.int64)
    dests = np.empty(16, np.uint64)
    comps = np.empty(MAX_TILES, np.uint64)
    n = move_candidates(nb, s, froms, dests, comps)
    found = False
    for i in range(n):
        if froms[i] == fr and (dests[i] >> U(to)) & ONE:
            found = True
    if not found:
        return False
    if every_candidate_legal(s):
        return True
    allowed, enables = move_verdict(nb, s, fr, to)
    if enables:
        return True
    if not allowed or s[S_EDITION] != NESTORGAMES:
        return False
    return not any_move_enables(nb, s, froms, dests, n)


@njit(cache=True)
def has_legal_move(nb: Masks, s: Masks) -> bool:
    """Whether the player to move has a legal move (else the move step is skipped, or in the
    2008 edition the player is eliminated)."""
    # some pawn can move at all: one next to an empty tile (reach needs no flood for that)
    empty = s[S_TILES] & ~all_pawns(s)
    own = s[S_PAWNS + np.int64(s[S_TO_MOVE])]
    movable = False
    while own:
        if nb[lowest_index(own)] & empty:
            movable = True
            break
        own &= own - ONE
    if not movable:
        return False
    nestorgames = s[S_EDITION] == NESTORGAMES
    if (nestorgames and not is_equaliser(s)) or every_candidate_legal(s):
        return True  # outside the equaliser every move is allowed, so the fallback has one
    froms = np.empty(16, np.int64)
    dests = np.empty(16, np.uint64)
    comps = np.empty(MAX_TILES, np.uint64)
    n = move_candidates(nb, s, froms, dests, comps)
    some_allowed = False
    for i in range(n):
        d = dests[i]
        while d:
            to = lowest_index(d)
            d &= d - ONE
            allowed, enables = move_verdict(nb, s, froms[i], to)
            if enables:
                return True
            some_allowed = some_allowed or allowed
    return nestorgames and some_allowed


# --- the flow of a game ------------------------------------------------------------------
@njit(cache=True)
def alive_mask(s: Masks) -> Int:
    """Bit per kernel player holding pawns and not eliminated."""
    m = 0
    for k in range(np.int64(s[S_PLAYERS])):
        if s[S_PAWNS + k]:
            m |= 1 << k
    return m & ~np.int64(s[S_OUT])


@njit(cache=True)
def finish(s: Masks, winners: Int, drawn: Int) -> None:
    """End the game: players in ``winners`` get +1, in ``drawn`` 0, the others -1."""
    s[S_WINNERS] = U(winners)
    s[S_DRAWN] = U(drawn)
    s[S_STEP] = U(OVER_STEP)


@njit(cache=True)
def check_end(s: Masks, mover: Int) -> bool:
    """``rules/hex.md``, End (pawn counts; 2008: elimination). True if the game is over."""
    alive = alive_mask(s)
    if alive & (alive - 1):
        return False
    if alive:
        finish(s, alive, 0)
        return True
    players = np.int64(s[S_PLAYERS])
    everyone = (1 << players) - 1
    at_start = np.int64(s[S_ALIVE_AT_START])
    if s[S_EDITION] == EDITION_2008:
        finish(s, 0, at_start)
    elif players == 2:
        finish(s, everyone & ~(1 << mover), 0)
    elif at_start == everyone:
        finish(s, 0, everyone)
    else:
        finish(s, at_start & ~(1 << mover), 0)
    return True


@njit(cache=True)
def end_turn(s: Masks, removed: bool) -> None:
    """Close the mover's turn: quiet turns (every turn without a removal adds one, a removal
    resets them; both editions), the stalemate draw (nestorgames), the next player."""
    alive = alive_mask(s)
    s[S_QUIET] = ZERO if removed else s[S_QUIET] + ONE
    if s[S_EDITION] == NESTORGAMES and np.int64(s[S_QUIET]) >= popcount(U(alive)):
        finish(s, 0, alive)
        return
    s[S_TURN] += ONE
    s[S_TO_MOVE] = U((np.int64(s[S_TO_MOVE]) + 1) % np.int64(s[S_PLAYERS]))
    s[S_STEP] = U(MOVE_STEP)
    s[S_ALIVE_AT_START] = U(alive)


@njit(cache=True)
def settle(nb: Masks, s: Masks) -> None:
    """Skip the steps that offer no decision until a player has a choice or the game ends.

    ``rules/hex.md``: a seat with no pawns is passed over without counting a
    turn; a move step with no legal move is skipped (2008: the player is
    eliminated); a remove step with no legal removal ends the turn.
    """
    players = np.int64(s[S_PLAYERS])
    while s[S_STEP] != OVER_STEP:
        p = np.int64(s[S_TO_MOVE])
        if s[S_STEP] == MOVE_STEP:
            alive = alive_mask(s)
            if not (alive & (alive - 1)) and check_end(s, p):
                return
            out = np.int64(s[S_OUT])
            if not s[S_PAWNS + p] or (out >> p) & 1:
                if s[S_EDITION] == EDITION_2008 and not (out >> p) & 1:
                    s[S_OUT] = U(out | (1 << p))  # a player with no balls is eliminated
                s[S_TO_MOVE] = U((p + 1) % players)
                continue
            if has_legal_move(nb, s):
                return
            if s[S_EDITION] == EDITION_2008:
                # cannot move then remove: eliminated at the start of the turn
                s[S_ALIVE_AT_START] = U(alive_mask(s))
                s[S_PAWNS + p] = ZERO
                s[S_OUT] = U(out | (1 << p))
                if check_end(s, p):
                    return
                s[S_TURN] += ONE
                s[S_QUIET] += ONE  # the eliminated player's turn removed nothing
                s[S_TO_MOVE] = U((p + 1) % players)
                continue
            s[S_STEP] = U(REMOVE_STEP)
        else:
            # is some removal legal? (stops at the first one: cheaper than the whole list)
            if removal_exists(nb, s, p, s[S_PAWNS + p], all_pawns(s), is_equaliser(s)):
                return
            end_turn(s, False)


@njit(cache=True)
def capture_enemies(nb: Masks, s: Masks, mover: Int, empty: Mask) -> Mask:
    """Remove every enemy group without freedom (all enemies at once); return the pawns taken."""
    dead = ZERO
    players = np.int64(s[S_PLAYERS])
    for k in range(players):
        if k != mover:
            dead |= dead_groups(nb, s[S_PAWNS + k], empty)
    if dead:
        for k in range(players):
            s[S_PAWNS + k] &= ~dead
    return dead


@njit(cache=True)
def play_move(nb: Masks, s: Masks, fr: Int, to: Int) -> None:
    """Move a pawn (no legality check), capture enemy groups without freedom (``rules/hex.md``, Move)."""
    p = np.int64(s[S_TO_MOVE])
    s[S_PAWNS + p] ^= bit(fr) | bit(to)
    dead = capture_enemies(nb, s, p, s[S_TILES] & ~all_pawns(s))
    s[S_CAPTURED] = dead
    s[S_ISOLATED] = ZERO
    if dead and check_end(s, p):
        return
    s[S_STEP] = U(REMOVE_STEP)


@njit(cache=True)
def play_removal(nb: Masks, ring: Ints, s: Masks, t: Int) -> None:
    """Remove a tile and the parts it isolates, then capture enemy groups, then own groups
    without freedom (``rules/hex.md``, Remove). No legality check."""
    p = np.int64(s[S_TO_MOVE])
    pawns = all_pawns(s)
    gone = removal_gone(nb, s, t, pawns)
    was_connected = s[S_CONNECTED] != ZERO
    s[S_TILES] &= ~gone
    s[S_CONNECTED] = ONE
    if was_connected:
        # only the tiles next to the gone ones change: they gain a free edge, their arcs change
        tiles = s[S_TILES]
        touched = neighbours_of(nb, gone) & tiles
        s[S_EDGE] = (s[S_EDGE] & tiles) | touched
        safe = s[S_SAFE] & tiles & ~touched
        m = touched
        while m:
            i = lowest_index(m)
            m &= m - ONE
            if single_arc(ring, tiles, i):
                safe |= bit(i)
        s[S_SAFE] = safe
    else:
        refresh_surface(nb, ring, s)
    s[S_ISOLATED] = gone & ~bit(t)
    empty = s[S_TILES] & ~pawns
    dead = capture_enemies(nb, s, p, empty)
    empty |= dead
    own = dead_groups(nb, s[S_PAWNS + p], empty)
    s[S_PAWNS + p] &= ~own
    s[S_CAPTURED] = dead | own
    if (dead | own) and check_end(s, p):
        return
    end_turn(s, True)


@njit(cache=True)
def play(nb: Masks, ring: Ints, s: Masks, action: Int) -> None:
    """Play a legal action and settle to the next decision."""
    if is_move(action):
        fr, to = move_tiles(action)
        play_move(nb, s, fr, to)
    else:
        play_removal(nb, ring, s, removal_tile(action))
    settle(nb, s)


@njit(cache=True)
def is_legal(nb: Masks, s: Masks, action: Int) -> bool:
    """Whether ``action`` (a kernel action integer) is legal now."""
    if s[S_STEP] == OVER_STEP or action < 0 or action >= KERNEL_ACTIONS:
        return False
    if is_move(action):
        fr, to = move_tiles(action)
        return move_is_legal(nb, s, fr, to)
    if s[S_STEP] != REMOVE_STEP:
        return False
    return bool(((legal_removals(nb, s) >> U(removal_tile(action))) & ONE) != ZERO)


@njit(cache=True)
def legal_actions(nb: Masks, s: Masks, out: Ints) -> int:
    """Write the legal actions (ascending) into ``out`` (at least :data:`MAX_MOVES` long)."""
    step = s[S_STEP]
    if step == MOVE_STEP:
        return legal_moves(nb, s, out)
    if step == REMOVE_STEP:
        m = legal_removals(nb, s)
        n = 0
        while m:
            out[n] = removal_action(lowest_index(m))
            m &= m - ONE
            n += 1
        return n
    return 0


FEATURES = ("pawns", "freedoms", "mobility", "removable", "area", "tiles", "atari")
"""The columns :func:`features` writes, in order (the ``F_*`` constants are their indices)."""
F_PAWNS, F_FREEDOMS, F_MOBILITY, F_REMOVABLE, F_AREA, F_TILES, F_ATARI = range(7)


@njit(cache=True)
def features(nb: Masks, s: Masks, seat_of: Ints, out: Ints) -> None:
    """Per kernel player ``k``, row ``seat_of[k]`` of ``out`` gets the :data:`FEATURES`:

    pawns on the table; freedoms, the empty tiles next to its pawns;
    mobility, the (pawn, destination) pairs of :func:`reach` (before the
    must-allow-removal rule); removable, the empty tiles with a free edge;
    area, the empty tiles some pawn of it can reach; tiles on the table;
    atari, its pawns in groups with exactly one freedom (capturable at once).
    Removable and tiles are the same for everyone.
    """
    comps = np.empty(MAX_TILES, np.uint64)
    pawns = all_pawns(s)
    empty = s[S_TILES] & ~pawns
    ncomps = empty_components(nb, empty, comps)
    removable = popcount(empty & s[S_EDGE])
    tiles = popcount(s[S_TILES])
    for k in range(np.int64(s[S_PLAYERS])):
        mine = s[S_PAWNS + k]
        mobility = 0
        area = ZERO
        m = mine
        while m:
            dest = reach(nb, lowest_index(m), empty, comps, ncomps)
            mobility += popcount(dest)
            area |= dest
            m &= m - ONE
        row = seat_of[k]
        out[row, F_PAWNS] = popcount(mine)
        out[row, F_FREEDOMS] = popcount(neighbours_of(nb, mine) & empty)
        out[row, F_MOBILITY] = mobility
        out[row, F_REMOVABLE] = removable
        out[row, F_AREA] = popcount(area)
        out[row, F_TILES] = tiles
        atari = 0
        rest = mine
        while rest:
            group = flood(nb, lowest_bit(rest), mine)
            rest &= ~group
            if popcount(neighbours_of(nb, group) & empty) == 1:
                atari += popcount(group)
        out[row, F_ATARI] = atari


@njit(cache=True)
def returns_of(s: Masks, out: Floats) -> None:
    """``out[k]``: +1 for a winner, 0 for a shared draw, -1 otherwise (kernel player order)."""
    winners = np.int64(s[S_WINNERS])
    drawn = np.int64(s[S_DRAWN])
    for k in range(np.int64(s[S_PLAYERS])):
        if (winners >> k) & 1:
            out[k] = 1.0
        elif (drawn >> k) & 1:
            out[k] = 0.0
        else:
            out[k] = -1.0
