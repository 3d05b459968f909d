"""The compiled moves of the uniform layout chain (:mod:`limitgames.hex.uniform_layout`).

:func:`start_layout` lays the chain's start (a noodle or a compact cluster, greedily
coloured), :func:`run_chain` runs its steps (swaps, shears, local and global jumps,
each accepted as the module docstring of :mod:`limitgames.hex.uniform_layout`
derives) and :func:`total_violations` counts ``V``. All compiled with Numba, on
the xorshift64 stream of :mod:`limitgames.hex.bitboard`.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
import numpy.typing as npt
from numba import njit

from limitgames.hex.bitboard import Floats, Int, Ints, Masks, U, rng_below, rng_next, rng_uniform

Window: TypeAlias = npt.NDArray[np.int8]
"""``int8`` arrays over the ``W x W`` window: ``col`` (-1 empty, else colour 0..3), ``deg`` and
``npn`` (tile and pawn-free tile counts among the six neighbours)."""
Lines: TypeAlias = npt.NDArray[np.int16]
"""``int16[3, W * W]``: the line of each cell across each axis (row, column, diagonal)."""
Small: TypeAlias = int | np.int8 | np.int64
"""A colour or a neighbour count as the chain passes it: a Python ``int``, an element of a
:data:`Window` array or its ``int64`` cast."""

# ---------------------------------------------------------------------------
# The compiled chain.
#
# The tiles live in a W x W window of axial cells (W = 4n + 8), cell (q, r) at
# index r * W + q; the six neighbours of index x are x + off[k] with
# off = (1, 1 - W, -W, -1, W - 1, W), the order of DIRECTIONS. Arrays over the
# window: col (int8, -1 empty, else colour 0..3), deg (tiles among the six
# neighbours, for every cell), npn (pawn-free tiles among the six neighbours).
# Tiles stay at least 3 cells away from the window's edges (the window is
# re-centred when one comes closer), so every index used is inside the window
# and no neighbour wraps to another row. Colour c carries a pawn when
# c < players. V = sum over tiles of bad(tile) + monochrome adjacent pairs,
# bad = [deg < 2] + [pawn colour and npn == 0].
# ---------------------------------------------------------------------------

_MARGIN = 3


@njit(cache=True, inline="always")
def _add(col: Window, deg: Window, npn: Window, x: Int, c: Small, players: Int, off: Ints) -> None:
    col[x] = c
    free = 1 if c >= players else 0
    for k in range(6):
        y = x + off[k]
        deg[y] += 1
        npn[y] += free


@njit(cache=True, inline="always")
def _remove(col: Window, deg: Window, npn: Window, x: Int, players: Int, off: Ints) -> None:
    free = 1 if col[x] >= players else 0
    col[x] = -1
    for k in range(6):
        y = x + off[k]
        deg[y] -= 1
        npn[y] -= free


@njit(cache=True, inline="always")
def _bad_of(c: Small, d: Small, f: Small, players: Int) -> int:
    """Violations of one tile of colour ``c`` with ``d`` neighbours, ``f`` of them pawn-free."""
    b = 1 if d < 2 else 0
    if c < players and f == 0:
        b += 1
    return b


@njit(cache=True, inline="always")
def _bad(col: Window, deg: Window, npn: Window, x: Int, players: Int) -> int:
    return _bad_of(col[x], deg[x], npn[x], players)


@njit(cache=True, inline="always")
def _count_colour(col: Window, x: Int, c: Small, skip: Int, off: Ints) -> int:
    """Neighbours of ``x`` of colour ``c``, not counting cell ``skip``."""
    m = 0
    for k in range(6):
        y = x + off[k]
        if y != skip and col[y] == c:
            m += 1
    return m


@njit(cache=True, inline="always")
def _adj(adjtab: Ints, x: Int, y: Int, reach: Int) -> int:
    """1 if cells x and y are neighbours (``adjtab`` indexed by ``y - x + reach``)."""
    d = y - x
    if d < -reach or d > reach:
        return 0
    return int(adjtab[d + reach])


@njit(cache=True)
def total_violations(
    col: Window, deg: Window, npn: Window, pos: Ints, players: Int, off: Ints
) -> int:
    v = 0
    mono = 0
    for i in range(pos.shape[0]):
        x = pos[i]
        v += _bad(col, deg, npn, x, players)
        mono += _count_colour(col, x, col[x], -1, off)
    return v + mono // 2


@njit(cache=True)
def _connected_after_leaving(
    col: Window, a: Int, off: Ints, stamp: Ints, stack: Ints, tag: Int
) -> bool:
    """Whether the tiles are connected, given they were before the tile on ``a`` left.

    Every part left by the removal holds a neighbour of ``a``, so it is enough
    that the occupied neighbours of ``a`` are connected: at once when they
    form one arc around ``a`` (consecutive neighbours touch), else by a search.
    """
    prev = col[a + off[5]] >= 0
    arcs = 0
    need = 0
    first = -1
    for k in range(6):
        occ = col[a + off[k]] >= 0
        if occ:
            need += 1
            if first < 0:
                first = a + off[k]
            if not prev:
                arcs += 1
        prev = occ
    if arcs <= 1:
        return True
    stamp[first] = tag
    stack[0] = first
    top = 1
    found = 0
    while top > 0:
        top -= 1
        x = stack[top]
        d = x - a
        for k in range(6):
            if d == off[k]:
                found += 1
                break
        if found == need:
            return True
        for k in range(6):
            y = x + off[k]
            if col[y] >= 0 and stamp[y] != tag:
                stamp[y] = tag
                stack[top] = y
                top += 1
    return False


@njit(cache=True)
def _all_connected(col: Window, pos: Ints, off: Ints, stamp: Ints, stack: Ints, tag: Int) -> bool:
    m = pos.shape[0]
    stamp[pos[0]] = tag
    stack[0] = pos[0]
    top = 1
    seen = 1
    while top > 0:
        top -= 1
        x = stack[top]
        for k in range(6):
            y = x + off[k]
            if col[y] >= 0 and stamp[y] != tag:
                stamp[y] = tag
                stack[top] = y
                top += 1
                seen += 1
    return bool(seen == m)


@njit(cache=True)
def _recentre(
    col: Window, deg: Window, npn: Window, pos: Ints, W: Int, players: Int, off: Ints, tmp: Ints
) -> None:
    """Translate the tiles to the middle of the window (a translation: the layout is unchanged)."""
    m = pos.shape[0]
    qmin = W
    qmax = 0
    rmin = W
    rmax = 0
    for i in range(m):
        q = pos[i] % W
        r = pos[i] // W
        qmin = min(qmin, q)
        qmax = max(qmax, q)
        rmin = min(rmin, r)
        rmax = max(rmax, r)
    dq = (W - (qmax - qmin + 1)) // 2 - qmin
    dr = (W - (rmax - rmin + 1)) // 2 - rmin
    if dq == 0 and dr == 0:
        return
    for i in range(m):
        tmp[i] = col[pos[i]]
        _remove(col, deg, npn, pos[i], players, off)
    for i in range(m):
        pos[i] += dr * W + dq
        _add(col, deg, npn, pos[i], tmp[i], players, off)


@njit(cache=True, inline="always")
def _near_edge(x: Int, W: Int) -> bool:
    q = x % W
    r = x // W
    return bool(q < _MARGIN or r < _MARGIN or q > W - 1 - _MARGIN or r > W - 1 - _MARGIN)


@njit(cache=True)
def run_chain(
    col: Window,
    deg: Window,
    npn: Window,
    pos: Ints,
    W: Int,
    players: Int,
    steps: Int,
    beta: float,
    cuts: Ints,
    off: Ints,
    off2: Ints,
    adjtab: Ints,
    reach: Int,
    boltz: Floats,
    lines: Lines,
    lower: Ints,
    shifts: Ints,
    rng: Masks,
    stamp: Ints,
    stack: Ints,
    tmp: Ints,
    upper: Ints,
    seam: Ints,
    state: Ints,
) -> None:
    """Run ``steps`` steps of the chain. ``state = [V, search tag]`` is read and updated.

    ``cuts`` holds the move thresholds on a 16-bit draw: swap below ``cuts[0]``,
    shear below ``cuts[1]``, local jump below ``cuts[2]``, else global jump.
    """
    m = pos.shape[0]
    v = state[0]
    tag = state[1]
    for _ in range(steps):
        # one word: tile i (bits 0-15), swap partner j (16-31), move kind (32-47),
        # shear axis (48-63) and sign (bit 16). A 16-bit choice is uniform within
        # 2e-4 (relative); the choices whose reverse move draws a different value
        # (a jump's target) use rng_below instead, uniform within 2**-26.
        word = rng_next(rng, 0)
        i = np.int64(((word & U(0xFFFF)) * U(m)) >> U(16))
        j = np.int64((((word >> U(16)) & U(0xFFFF)) * U(m - 1)) >> U(16))
        if j >= i:
            j += 1
        sel = np.int64((word >> U(32)) & U(0xFFFF))
        top16 = word >> U(48)
        if sel < cuts[0]:
            # ---- swap the colours of tiles i and j
            a = pos[i]
            b = pos[j]
            ca = np.int64(col[a])
            cb = np.int64(col[b])
            if ca == cb:
                continue
            u = rng_uniform(rng)
            # the largest dV that can still be accepted: boltz[k] > u
            kmax = 0
            while kmax < 63 and boltz[kmax + 1] > u:
                kmax += 1
            legal = v == 0
            near = _adj(adjtab, a, b, reach)
            dv = (
                _count_colour(col, a, cb, b, off)
                + _count_colour(col, b, ca, a, off)
                - _count_colour(col, a, ca, -1, off)
                - _count_colour(col, b, cb, -1, off)
            )
            pa = ca < players
            pb = cb < players
            if pa != pb and not (legal and dv > kmax):
                # pawn-free tiles around a gain (da = +1) or lose one
                da = 1 if cb >= players else -1
                fa = npn[a] - da if near == 1 else npn[a]
                fb = npn[b] + da if near == 1 else npn[b]
                dv += _bad_of(cb, deg[a], fa, players) - _bad(col, deg, npn, a, players)
                dv += _bad_of(ca, deg[b], fb, players) - _bad(col, deg, npn, b, players)
                for k in range(6):
                    x = a + off[k]
                    if x == b or col[x] < 0:
                        continue
                    f = npn[x] + da
                    if _adj(adjtab, x, b, reach) == 1:
                        f -= da
                    dv += _bad_of(col[x], deg[x], f, players) - _bad(col, deg, npn, x, players)
                for k in range(6):
                    x = b + off[k]
                    if x == a or col[x] < 0 or _adj(adjtab, x, a, reach) == 1:
                        continue
                    dv += _bad_of(col[x], deg[x], npn[x] - da, players) - _bad(
                        col, deg, npn, x, players
                    )
            if dv > kmax:
                continue
            # accepted (dv <= kmax  <=>  u < exp(-beta dv))
            if pa != pb:
                _remove(col, deg, npn, a, players, off)
                _remove(col, deg, npn, b, players, off)
                _add(col, deg, npn, a, cb, players, off)
                _add(col, deg, npn, b, ca, players, off)
            else:
                col[a] = cb
                col[b] = ca
            v += dv
        elif sel < cuts[1]:
            # ---- shear: tiles beyond the line of tile i slide one cell along an axis
            axis = np.int64((top16 * U(3)) >> U(16))
            sh = shifts[axis] if ((word >> U(16)) & U(1)) == U(1) else -shifts[axis]
            lo0 = off[lower[axis, 0]]
            lo1 = off[lower[axis, 1]]
            la = lines[axis]
            kappa = la[pos[i]]
            # upper[:nup]: tiles beyond the line; upper[nup:]: the others, from the end;
            # seam[:nlow]: tiles on the line; seam[m - nhigh:]: tiles on the next line
            nup = 0
            nrest = 0
            nlow = 0
            nhigh = 0
            for t in range(m):
                lt = la[pos[t]]
                if lt > kappa:
                    upper[nup] = t
                    nup += 1
                    if lt == kappa + 1:
                        nhigh += 1
                        seam[m - nhigh] = t
                else:
                    nrest += 1
                    upper[m - nrest] = t
                    if lt == kappa:
                        seam[nlow] = t
                        nlow += 1
            if nup == 0:
                continue
            u = rng_uniform(rng)
            kmax = 0
            while kmax < 63 and boltz[kmax + 1] > u:
                kmax += 1
            legal = v == 0
            # violations the shear changes, evaluated before moving anything:
            # tiles on line kappa + 1 trade their neighbours on line kappa ...
            dv = 0
            for t in range(m - nhigh, m):
                x = pos[seam[t]]
                c = col[x]
                d = deg[x]
                f = npn[x]
                for o in (lo0, lo1):
                    y = x + o
                    if col[y] >= 0:
                        d -= 1
                        f -= col[y] >= players
                        dv -= col[y] == c
                    y = x + sh + o
                    if col[y] >= 0:
                        d += 1
                        f += col[y] >= players
                        dv += col[y] == c
                dv += _bad_of(c, d, f, players) - _bad(col, deg, npn, x, players)
                if legal and dv > kmax:
                    break
            if legal and dv > kmax:
                continue
            # ... and tiles on line kappa see the tiles above them shifted
            for t in range(nlow):
                y = pos[seam[t]]
                d = deg[y]
                f = npn[y]
                for o in (-lo0, -lo1):
                    z = y + o
                    if col[z] >= 0:
                        d -= 1
                        f -= col[z] >= players
                    z = y + o - sh
                    if col[z] >= 0:  # z - sh is on line kappa + 1: a tile that slides onto z
                        d += 1
                        f += col[z] >= players
                dv += _bad_of(col[y], d, f, players) - _bad(col, deg, npn, y, players)
                if legal and dv > kmax:
                    break
            if dv > kmax:
                continue
            # slide the smaller side (sliding the other side the other way gives the
            # same layout up to translation)
            if 2 * nup <= m:
                first = 0
                last = nup
                move = sh
            else:
                first = nup
                last = m
                move = -sh
            for t in range(first, last):
                tmp[t] = col[pos[upper[t]]]
                _remove(col, deg, npn, pos[upper[t]], players, off)
            for t in range(first, last):
                pos[upper[t]] += move
                _add(col, deg, npn, pos[upper[t]], tmp[t], players, off)
            tag += 1
            if _all_connected(col, pos, off, stamp, stack, tag):
                v += dv
                lim = W - 1 - _MARGIN
                for t in range(first, last):
                    x = pos[upper[t]]
                    if (
                        lines[0, x] < _MARGIN
                        or lines[1, x] < _MARGIN
                        or lines[0, x] > lim
                        or lines[1, x] > lim
                    ):
                        _recentre(col, deg, npn, pos, W, players, off, tmp)
                        break
            else:
                for t in range(first, last):
                    _remove(col, deg, npn, pos[upper[t]], players, off)
                for t in range(first, last):
                    pos[upper[t]] -= move
                    _add(col, deg, npn, pos[upper[t]], tmp[t], players, off)
        else:
            # ---- jump: tile i from a to b
            a = pos[i]
            local = sel < cuts[2]
            if local:
                b = a + off2[rng_below(rng, 0, 18)]
            else:
                other = rng_below(rng, 0, m - 1)
                if other >= i:
                    other += 1
                b = pos[other] + off[rng_below(rng, 0, 6)]
            if col[b] >= 0:
                continue
            near = _adj(adjtab, a, b, reach)
            degb = deg[b] - near
            if degb == 0:
                continue
            c = np.int64(col[a])
            u = rng_uniform(rng)
            # acceptance min(1, scale * exp(-beta dV)); a global jump's scale is deg_a / deg_b
            scale = 1.0 if local else deg[a] / degb
            kmax = -1
            while kmax < 63 and scale * boltz[kmax + 1] > u:
                kmax += 1
            legal = v == 0
            if kmax < 0 and legal:
                continue
            free = 1 if c >= players else 0
            # the moved tile at b, then at a
            dv = _bad_of(c, degb, npn[b] - near * free, players) + _count_colour(col, b, c, a, off)
            if legal and dv > kmax:
                continue
            if not legal:
                dv -= _bad(col, deg, npn, a, players) + _count_colour(col, a, c, -1, off)
            # tiles around a lose a (and gain b if they touch it)
            for k in range(6):
                x = a + off[k]
                if col[x] < 0:
                    continue
                xb = _adj(adjtab, x, b, reach)
                dv += _bad_of(col[x], deg[x] - 1 + xb, npn[x] - free + xb * free, players) - _bad(
                    col, deg, npn, x, players
                )
            if legal and dv > kmax:
                continue
            # tiles around b only (not around a) gain b
            for k in range(6):
                x = b + off[k]
                if x == a or col[x] < 0 or _adj(adjtab, x, a, reach) == 1:
                    continue
                dv += _bad_of(col[x], deg[x] + 1, npn[x] + free, players) - _bad(
                    col, deg, npn, x, players
                )
            if dv > kmax:
                continue
            _remove(col, deg, npn, a, players, off)
            _add(col, deg, npn, b, c, players, off)
            tag += 1
            if not _connected_after_leaving(col, a, off, stamp, stack, tag):
                _remove(col, deg, npn, b, players, off)
                _add(col, deg, npn, a, c, players, off)
                continue
            pos[i] = b
            v += dv
            if _near_edge(b, W):
                _recentre(col, deg, npn, pos, W, players, off, tmp)
    state[0] = v
    state[1] = tag


@njit(cache=True)
def start_layout(
    col: Window,
    deg: Window,
    npn: Window,
    pos: Ints,
    W: Int,
    n: Int,
    players: Int,
    off: Ints,
    rng: Masks,
    p_noodle: float,
    p_touch2: float,
) -> None:
    """Lay a random connected start, not necessarily legal (see :data:`START_MIX`).

    With probability ``p_noodle`` a noodle: each new cell touches the previous
    one and no other (or exactly one other, with probability ``p_touch2`` per
    candidate), restarting if it walks into a dead end; otherwise a compact
    cluster (each new cell next to a random cell already laid). Then each cell
    in laying order takes, among the colours with tiles left, one with the
    fewest neighbours of that colour already laid (ties at random).
    """
    m = 4 * n
    centre = (W // 2) * W + W // 2
    cand = np.empty(6, np.int64)
    noodle = rng_uniform(rng) < p_noodle
    while True:
        pos[0] = centre
        col[centre] = 0
        cnt = 1
        while cnt < m:
            nc = 0
            if noodle:
                h = pos[cnt - 1]
                for d in range(6):
                    y = h + off[d]
                    if col[y] >= 0 or _near_edge(y, W):
                        continue
                    touch = 0
                    for e in range(6):
                        if col[y + off[e]] >= 0:
                            touch += 1
                    if touch == 1 or (touch == 2 and rng_uniform(rng) < p_touch2):
                        cand[nc] = y
                        nc += 1
                if nc == 0:
                    break
                y = cand[rng_below(rng, 0, nc)]
            else:
                y = pos[rng_below(rng, 0, cnt)] + off[rng_below(rng, 0, 6)]
                if col[y] >= 0 or _near_edge(y, W):
                    continue
            col[y] = 0
            pos[cnt] = y
            cnt += 1
        if cnt == m:
            break
        for t in range(cnt):
            col[pos[t]] = -1
    for t in range(m):
        col[pos[t]] = -1
    left = np.full(4, n, np.int64)
    best = np.empty(4, np.int64)
    for t in range(m):
        x = pos[t]
        lowest = 99
        nb = 0
        for c in range(4):
            if left[c] == 0:
                continue
            clash = _count_colour(col, x, c, -1, off)
            if clash < lowest:
                lowest = clash
                nb = 0
            if clash == lowest:
                best[nb] = c
                nb += 1
        c = best[rng_below(rng, 0, nb)]
        left[c] -= 1
        _add(col, deg, npn, x, c, players, off)
