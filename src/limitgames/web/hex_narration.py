"""What just happened in a game of Browne's Limit (``hex``), in words, for the game page.

The page announces every decision in a live region and ends with the reason
the game ended. Everything here is read from the engine: the state before and
after the decision (:meth:`HexState.last_captured`, :meth:`HexState.last_isolated`
and the kernel's state vector: pawns, eliminated players, winners, quiet
turns); the browser does not diff boards to find out. The rules narrated are
``rules/hex.md`` (Move, Remove, "Must, if possible", End, Edition "2008").
"""

from __future__ import annotations

from typing import Any

from limitgames.hex import kernel
from limitgames.hex.codec import Kind, kind_of, move_tiles, placement_cell, removal_tile
from limitgames.hex.state import HexState
from limitgames.hex.surface import Cell
from limitgames.translation import gettext, ngettext
from limitgames.web.views import shown_name


def _listing(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (in the current language)."""
    if len(words) <= 1:
        return "".join(words)
    return gettext("%(first)s and %(second)s") % {
        "first": ", ".join(words[:-1]),
        "second": words[-1],
    }


def _sentence(text: str) -> str:
    """``text`` with its first letter in capitals (names begin sentences)."""
    return text[:1].upper() + text[1:]


def _names(state: HexState) -> list[str]:
    """The seats' names (colours) in the current language."""
    return [shown_name(n) for n in state.seat_names()]


def _kernel(state: HexState) -> list[int]:
    vector = state.kernel_vector()
    return [] if vector is None else [int(v) for v in vector]


def _pawns_of(state: HexState) -> dict[Cell, int]:
    return {cell: seat for cell, _, seat in state.tiles() if seat is not None}


def _tile_cell(state: HexState, tile: int) -> Cell:
    surface = state.surface
    assert surface is not None
    return surface.cells[tile]


def last_marks(state: HexState) -> dict[str, Any]:
    """Where the board marks the latest decisions: ``{"from", "to", "removed", "gone",
    "captured", "action"}``.

    ``from``/``to`` name the last move of the game and ``removed`` the last
    removed tile (``None`` when there was none yet), with ``gone``: the cells
    ``[q, r, name]`` of the tiles that left the table with the last decision
    (the removed tile and the empty parts it isolated). ``captured`` names the
    cells whose pawns the last decision captured, ``action`` that decision in
    notation (``None`` at the start).
    """
    marks: dict[str, Any] = {
        "from": None,
        "to": None,
        "removed": None,
        "gone": [],
        "captured": [],
        "action": None,
    }
    history = state.history()
    if not history:
        return marks
    marks["action"] = state.action_to_string(history[-1])
    if state.surface is None:  # 2008 placement: nothing moves or leaves the table yet
        return marks
    for action in reversed(history):
        kind = kind_of(action)
        if kind == Kind.MOVE and marks["from"] is None:
            fr, to = move_tiles(action)
            marks["from"] = state.cell_name(_tile_cell(state, fr))
            marks["to"] = state.cell_name(_tile_cell(state, to))
        elif kind == Kind.REMOVE and marks["removed"] is None:
            marks["removed"] = state.cell_name(_tile_cell(state, removal_tile(action)))
        if kind not in (Kind.MOVE, Kind.REMOVE) or (marks["from"] and marks["removed"]):
            break
    last = history[-1]
    if kind_of(last) == Kind.REMOVE:
        gone = [_tile_cell(state, removal_tile(last)), *state.last_isolated()]
        marks["gone"] = [[q, r, state.cell_name((q, r))] for q, r in gone]
    if kind_of(last) in (Kind.MOVE, Kind.REMOVE):
        marks["captured"] = [state.cell_name(c) for c in state.last_captured()]
    return marks


def _decision_words(before: HexState, action: Any, mover: str) -> str:
    kind = kind_of(action)
    text = before.action_to_string(action)
    if kind == Kind.MOVE:
        fr, to = text.split("-")
        words = gettext("%(player)s moved from %(start)s to %(end)s.")
        return _sentence(words % {"player": mover, "start": fr, "end": to})
    if kind == Kind.REMOVE:
        words = gettext("%(player)s removed the tile %(cell)s.")
        return _sentence(words % {"player": mover, "cell": text[2:]})
    cell = before.cell_name(placement_cell(action))
    if kind == Kind.TILE:
        return _sentence(
            gettext("%(player)s placed a tile on %(cell)s.") % {"player": mover, "cell": cell}
        )
    return _sentence(
        gettext("%(player)s put a ball on %(cell)s.") % {"player": mover, "cell": cell}
    )


def narrate(before: HexState, after: HexState) -> list[str]:
    """The sentences that tell what the last decision did (``after`` is ``before`` plus it).

    In the order of the rules: the decision; the empty tiles a removal cut off;
    the pawns it captured, by owner (self-capture named as such); players left without pawns or
    eliminated (2008); the steps and turns then skipped because no decision was
    possible (``rules/hex.md``, "Must, if possible"). Returns ``[]`` when
    ``after`` is not one decision further than ``before``.
    """
    history = after.history()
    if len(history) != len(before.history()) + 1 or before.is_terminal():
        return []
    action = history[-1]
    names = _names(after)
    mover_seat = before.current_player()
    mover = names[mover_seat]
    kind = kind_of(action)
    sentences = [_decision_words(before, action, mover)]
    if kind == Kind.REMOVE:
        isolated = sorted(after.cell_name(c) for c in after.last_isolated())
        if isolated:
            count = len(isolated)
            words = ngettext(
                "Removing %(cell)s cut off %(num)d empty tile, which left the table with it: "
                "%(cells)s.",
                "Removing %(cell)s cut off %(num)d empty tiles, which left the table with it: "
                "%(cells)s.",
                count,
            )
            sentences.append(
                words
                % {
                    "cell": before.action_to_string(action)[2:],
                    "num": count,
                    "cells": _listing(isolated),
                }
            )
    if kind in (Kind.MOVE, Kind.REMOVE):
        owners = _pawns_of(before)
        taken: dict[int, list[str]] = {}
        for cell in after.last_captured():
            taken.setdefault(owners.get(cell, -1), []).append(after.cell_name(cell))
        # enemies are captured first, then the mover's own groups (rules/hex.md, Remove)
        for seat, cells in sorted(taken.items(), key=lambda item: (item[0] == mover_seat, item[0])):
            if seat < 0:
                continue
            count = len(cells)
            values = {
                "player": mover,
                "num": count,
                "owner": names[seat],
                "cells": _listing(sorted(cells)),
            }
            balls = after.edition == "2008"
            if seat == mover_seat:
                words = (
                    ngettext(
                        "%(player)s lost %(num)d own ball on %(cells)s: "
                        "self-capture, the group had no empty tile next to it.",
                        "%(player)s lost %(num)d own balls on %(cells)s: "
                        "self-capture, the group had no empty tile next to it.",
                        count,
                    )
                    if balls
                    else ngettext(
                        "%(player)s lost %(num)d own pawn on %(cells)s: "
                        "self-capture, the group had no empty tile next to it.",
                        "%(player)s lost %(num)d own pawns on %(cells)s: "
                        "self-capture, the group had no empty tile next to it.",
                        count,
                    )
                )
            elif balls:
                words = ngettext(
                    "%(player)s captured %(num)d %(owner)s ball on %(cells)s.",
                    "%(player)s captured %(num)d %(owner)s balls on %(cells)s.",
                    count,
                )
            else:
                words = ngettext(
                    "%(player)s captured %(num)d %(owner)s pawn on %(cells)s.",
                    "%(player)s captured %(num)d %(owner)s pawns on %(cells)s.",
                    count,
                )
            sentences.append(_sentence(words % values))
    sentences += _eliminations(before, after, names)
    sentences += _skipped(before, after, kind, mover_seat, names)
    return sentences


def _eliminations(before: HexState, after: HexState, names: list[str]) -> list[str]:
    if before.surface is None and after.surface is None:
        return []
    counts_before = before.pawn_counts()
    counts_after = after.pawn_counts()
    out_before = _kernel(before)[kernel.S_OUT] if before.surface is not None else 0
    out_after = _kernel(after)[kernel.S_OUT]
    order = after.seat_order()
    sentences = []
    for seat, name in enumerate(names):
        player = order.index(seat)
        newly_out = bool((out_after >> player) & 1) and not (out_before >> player) & 1
        if counts_before[seat] and not counts_after[seat]:
            captured = {c for c in after.last_captured()}
            if after.edition == "2008" and not any(
                _pawns_of(before).get(c) == seat for c in captured
            ):
                words = ngettext(
                    "%(player)s cannot move and then remove a tile: %(player)s is eliminated "
                    "and %(player)s's %(num)d ball leaves the table.",
                    "%(player)s cannot move and then remove a tile: %(player)s is eliminated "
                    "and %(player)s's %(num)d balls leave the table.",
                    counts_before[seat],
                )
                sentences.append(_sentence(words % {"player": name, "num": counts_before[seat]}))
            elif after.edition == "2008":
                words = gettext("%(player)s has no balls left and is eliminated.")
                sentences.append(_sentence(words % {"player": name}))
            else:
                words = gettext("%(player)s has no pawns left and is out.")
                sentences.append(_sentence(words % {"player": name}))
        elif newly_out and counts_before[seat]:
            sentences.append(_sentence(gettext("%(player)s is eliminated.") % {"player": name}))
    return sentences


def _skipped(
    before: HexState, after: HexState, kind: Kind | None, mover_seat: int, names: list[str]
) -> list[str]:
    """Steps and turns passed over between the decision and the next one."""
    if after.is_terminal() or after.surface is None or kind not in (Kind.MOVE, Kind.REMOVE):
        return []
    sentences = []
    mover = names[mover_seat]
    next_seat = after.current_player()
    turn_over = kind == Kind.REMOVE or after.turn != before.turn or next_seat != mover_seat
    if kind == Kind.MOVE and turn_over:
        words = gettext("%(player)s can remove no tile: the remove step is skipped.")
        sentences.append(_sentence(words % {"player": mover}))
    if not turn_over:
        return sentences
    # walk the turns after the mover's: a seat with pawns whose turn passed had no decision
    order = after.seat_order()
    counts = after.pawn_counts()
    had = before.pawn_counts()
    out = _kernel(after)[kernel.S_OUT]
    out_before = _kernel(before)[kernel.S_OUT]
    turns = after.turn - before.turn - 1
    k = order.index(mover_seat)
    for _ in range(4 * len(order)):
        if turns <= 0:
            break
        k = (k + 1) % len(order)
        seat = order[k]
        if had[seat] and (out >> k) & 1 and not (out_before >> k) & 1:
            turns -= 1  # a 2008 elimination at the start of this seat's turn (told above)
            continue
        if not counts[seat] or (out >> k) & 1:
            continue
        name = names[seat]
        words = gettext("%(player)s can neither move nor remove: %(player)s's turn is skipped.")
        sentences.append(_sentence(words % {"player": name}))
        turns -= 1
    if after.step == "remove":
        name = names[next_seat]
        words = gettext("%(player)s can make no move: the move step is skipped.")
        sentences.append(_sentence(words % {"player": name}))
    return sentences


def end_reason(state: HexState) -> str:
    """Why the game ended, in one sentence (``""`` while it goes on).

    One sentence per end condition of ``rules/hex.md`` (End; Edition "2008"):
    a sole player with pawns wins; a turn that leaves no pawn (2 players: the
    player who took it loses; 3 players: a draw if all three began it,
    otherwise that player loses and the other wins); the stalemate draw after
    as many turns without a removal as players holding pawns; 2008: the last
    player left wins, or the last players eliminated together draw.
    """
    if not state.is_terminal():
        return ""
    s = _kernel(state)
    names = _names(state)
    order = state.seat_order()

    def seats_in(mask: int) -> list[str]:
        return [names[order[k]] for k in range(len(order)) if (mask >> k) & 1]

    winners, drawn = seats_in(s[kernel.S_WINNERS]), seats_in(s[kernel.S_DRAWN])
    counts = state.pawn_counts()
    mover = names[order[s[kernel.S_TO_MOVE]]]
    if state.edition == "2008":
        if winners:
            words = gettext(
                "%(player)s is the last player left: every other player "
                "was eliminated (no balls left, or no move followed by a removal)."
            )
            return _sentence(words % {"player": winners[0]})
        words = gettext(
            "The last players, %(players)s, were eliminated together: a draw between them."
        )
        return words % {"players": _listing(drawn)}
    if sum(counts) == 0:
        if len(names) == 2:
            words = gettext(
                "No pawn is left on the table: %(player)s, who took the last turn, loses."
            )
            return words % {"player": mover}
        if drawn:
            return gettext(
                "No pawn is left on the table after a turn that all three players began "
                "with pawns: a draw."
            )
        words = gettext(
            "No pawn is left on the table: %(player)s, who took the last turn, loses, "
            "and %(winners)s wins."
        )
        return words % {"player": mover, "winners": _listing(winners)}
    if winners:
        words = gettext("%(player)s is the only player with pawns left and wins.")
        return _sentence(words % {"player": winners[0]})
    quiet = s[kernel.S_QUIET]
    words = ngettext(
        "%(num)d turn in a row without a removal, as many as players still holding pawns: "
        "a draw between %(players)s.",
        "%(num)d turns in a row without a removal, as many as players still holding pawns: "
        "a draw between %(players)s.",
        quiet,
    )
    return words % {"num": quiet, "players": _listing(drawn)}
