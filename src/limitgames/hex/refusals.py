"""Why a hex action is refused, in words: the rule that forbids a move or a removal.

``rules/hex.md``: "A turn is two steps" (reach through empty tiles; a removal needs an empty
tile with a free edge and may not split the surface between pawns), "Must, if possible" (with
the ``must_remove`` reading) and "First move equaliser". Each function is asked only about an
action the kernel found illegal, and names the first rule it breaks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from limitgames.hex import groups, kernel
from limitgames.hex.bitboard import Masks
from limitgames.hex.codec import move_tiles
from limitgames.hex.surface import Surface


def why_move_illegal(
    surface: Surface,
    s: Masks,
    fr: int,
    to: int,
    *,
    name: Callable[[int], str],
    colour: str,
    edition: str,
    legal: Callable[[], list[Any]],
    notation: Callable[[Any], str],
) -> str:
    """The rule that forbids moving the pawn on tile ``fr`` to tile ``to`` (tile numbers of
    ``surface``) in the kernel state ``s`` (``uint64[STATE_SIZE]``). ``name`` names a tile,
    ``colour`` is the mover's, ``legal`` lists the legal actions and ``notation`` writes one."""
    nb = surface.neighbour_masks
    player = int(s[kernel.S_TO_MOVE])
    if fr >= len(surface.cells) or to >= len(surface.cells):
        return "there is no such tile"
    tiles = int(s[kernel.S_TILES])
    pawns = int(kernel.all_pawns(s))
    if not (int(s[kernel.S_PAWNS + player]) >> fr) & 1:
        return f"there is no {colour} pawn on {name(fr)}"
    if not (tiles >> to) & 1:
        return f"there is no tile on {name(to)}"
    if (pawns >> to) & 1:
        return f"{name(to)} is not empty"
    comps = np.empty(64, dtype=np.uint64)
    empty = np.uint64(tiles & ~pawns)
    n = groups.empty_components(nb, empty, comps)
    if not (int(groups.reach(nb, fr, empty, comps, n)) >> to) & 1:
        return (
            f"{name(to)} cannot be reached from {name(fr)} through empty tiles (pawns block pawns)"
        )
    allowed, _ = kernel.move_verdict(nb, s, fr, to)
    if not allowed:
        return "the first move equaliser forbids capturing on this turn"
    if edition == "2008":
        return "after this move no tile could be removed, and both steps are compulsory"
    ending = ""
    for action in legal():
        outcome = kernel.move_outcome(nb, s, *move_tiles(action))
        if outcome == kernel.ALLOWS_REMOVAL:
            return (
                "after this move no tile could be removed, and another move "
                f"({notation(action)}) allows a removal"
            )
        if outcome == kernel.ENDS_GAME and not ending:
            ending = notation(action)
    return (
        f"after this move no tile could be removed, and a move that ends the game ({ending}) "
        "is possible, which counts as allowing a removal (must_remove=literal, the default "
        "reading of 'must, if possible'; must_remove=continuing reads it otherwise)"
    )


def why_removal_illegal(surface: Surface, s: Masks, t: int, *, name: Callable[[int], str]) -> str:
    """The rule that forbids removing tile ``t`` in the kernel state ``s``."""
    if t >= len(surface.cells) or not (int(s[kernel.S_TILES]) >> t) & 1:
        return "there is no tile there"
    called = name(t)
    pawns = kernel.all_pawns(s)
    if (int(pawns) >> t) & 1:
        return f"{called} is not empty: only empty tiles can be removed"
    if not (int(s[kernel.S_EDGE]) >> t) & 1:
        return f"{called} has no free edge"
    if not kernel.removal_gone(surface.neighbour_masks, s, t, pawns):
        return f"removing {called} would split the surface into parts that both hold pawns"
    return "the first move equaliser forbids capturing on this turn"
