"""Drawing Browne's Limit in the terminal (Rich), and telling in words what happened.

Each tile is a 6-character cell on its colour (odd rows shifted half a cell,
as the hexagons lie), showing its name and the pawn standing on it as the
owner's initial. Removed tiles show as a faint dot so the shape stays
readable. During the 2008 placement the empty cells where a tile may go are
drawn as ``+b3``.

Cells are named for people in one frame for both editions: column letters
and row numbers from the top-left of the surface (:func:`display_frame`),
as the nestorgames edition does; the 2008 engine's own frame (room for the
surface to grow, names like ``ag33``) stays in the records.

Reading and rendering only: no rule is decided here; what happened is read
from the states before and after a decision (``HexState.last_captured``,
``last_isolated``, pawn counts, step and turn) and ``docs/rules/hex.md``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Sequence

from rich.console import Console
from rich.text import Text

from limitgames.cli.seats import is_you, phrase
from limitgames.core import State
from limitgames.hex.codec import Kind, kind_of, move_tiles, placement_cell, removal_tile
from limitgames.hex.notation import Frame
from limitgames.hex.placement import tile_sites
from limitgames.hex.state import HexState
from limitgames.hex.surface import Cell
from limitgames.translation import gettext, ngettext

TILE_STYLE: dict[str | None, str] = {
    "red": "on red3",
    "blue": "on dodger_blue3",
    "yellow": "on gold3",
    "black": "on grey15",
    None: "on grey50",
}
PAWN_STYLE: dict[str, str] = {
    "red": "bold white on red1",
    "blue": "bold white on blue1",
    "yellow": "bold black on yellow1",
    "white": "bold black on white",
    "black": "bold white on black",
}
CELL_WIDTH = 6


PLACEMENT_MARGIN = 3
"""2008 placement: the first tile is named d4, leaving three rows and columns to grow into."""


def display_frame(state: HexState, previous: Frame | None = None) -> Frame:
    """The frame that names cells for people (``a1`` towards the top-left of the surface).

    nestorgames: the game's own frame (the initial layout's bounding box).
    2008, movement phase: the bounding box of the tiles laid, fixed for the
    rest of the game, as in a nestorgames game. 2008, placement: ``previous``
    (or a frame with the first tile on ``d4``), moved up or left only when a
    tile or a cell where a tile may go would fall outside it, by whole pairs
    of rows so the drawing keeps its shape.
    """
    if state.edition != "2008":
        return state.frame
    surface = state.surface
    if surface is not None:
        return Frame.around(list(surface.cells))
    cells = [cell for cell, _, _ in state.tiles()]
    if state.tiles_left():
        cells += tile_sites(dict.fromkeys(cells, -1))
    frame = previous or Frame.around([(0, 0)], margin=PLACEMENT_MARGIN)
    top = min(r for _, r in cells)
    row0 = frame.row0
    while top < row0:
        row0 -= 2
    grown = Frame(row0, frame.col0 if row0 == frame.row0 else 0)
    if row0 != frame.row0:
        grown.col0 = frame.col0 + grown.column((0, 0)) - frame.column((0, 0))
    left = min(grown.column(c) for c in cells)
    if left < grown.col0:
        grown.col0 = left
    return grown


def placement_sites(state: HexState) -> list[Cell]:
    """The empty cells where the seat to move may put a tile now (2008 placement)."""
    if state.is_terminal() or state.step not in ("tile", "second-tile"):
        return []
    return [placement_cell(a) for a in state.legal_actions() if kind_of(a) == Kind.TILE]


_CELL_NAME = re.compile(r"\b([a-z]{1,3}\d{1,3})\b")


def rename_cells(text: str, source: Frame, target: Frame) -> str:
    """``text`` with every cell name of ``source`` written in ``target`` (e.g. ``ag33`` -> ``c4``)."""
    if source.row0 == target.row0 and source.col0 == target.col0:
        return text
    return _CELL_NAME.sub(lambda m: target.name(source.cell(m.group(1))), text)


def last_marks(state: HexState) -> tuple[Cell | None, Cell | None]:
    """The cell the last move went to and the last tile removed (``None`` if none yet)."""
    surface = state.surface
    moved = removed = None
    if surface is None:
        return None, None
    for action in reversed(state.history()):
        kind = kind_of(action)
        if kind == Kind.MOVE and moved is None:
            moved = surface.cells[move_tiles(action)[1]]
        elif kind == Kind.REMOVE and removed is None:
            removed = surface.cells[removal_tile(action)]
        if (moved is not None and removed is not None) or kind not in (Kind.MOVE, Kind.REMOVE):
            break
    return moved, removed


def surface_text(
    state: HexState,
    highlight: Collection[str] = (),
    frame: Frame | None = None,
    sites: Collection[Cell] = (),
) -> Text:
    """The surface as Rich text, cells named in ``frame`` (default :func:`display_frame`).

    Cells whose names are in ``highlight`` are marked with ``*``; the empty
    cells in ``sites`` (where a tile may go) are drawn as ``+name``; the pawn
    that moved last is followed by ``<`` and the tile removed last shows as ``x``.
    """
    frame = frame or display_frame(state)
    moved, removed = last_marks(state)
    names = state.seat_names()
    tiles = state.tiles()
    cells = {cell: (colour, owner) for cell, colour, owner in tiles}
    ghosts = set()
    surface = state.surface
    if surface is not None:
        ghosts = {c for c in surface.cells if c not in cells}
    open_sites = [c for c in sites if c not in cells]
    every = list(cells) + list(ghosts) + open_sites
    if not every:
        return Text(gettext("(the table is empty)"), style="dim")
    rows: dict[int, dict[int, tuple[int, int]]] = {}
    for cell in every:
        rr = cell[1] - frame.row0
        col = frame.column(cell) - frame.col0
        rows.setdefault(rr, {})[col] = cell
    min_col = min(c for row in rows.values() for c in row)
    text = Text()
    for rr in range(min(rows), max(rows) + 1):
        row = rows.get(rr, {})
        line = Text(" " * (CELL_WIDTH // 2 if rr & 1 else 0))
        if row:
            for col in range(min_col, max(row) + 1):
                found = row.get(col)
                if found is None:
                    line.append(" " * CELL_WIDTH)
                    continue
                cell = found
                name = frame.name(cell)
                if cell in ghosts:
                    if cell == removed:
                        line.append("  x   ", style="bold grey70")
                    else:
                        line.append("  ·   ", style="grey30")
                    continue
                if cell not in cells:
                    line.append(f"+{name:<4} ", style="bold green")
                    continue
                colour, owner = cells[cell]
                mark = "*" if name in highlight else " "
                style = TILE_STYLE.get(colour, "on grey50")
                line.append(f"{mark}{name:<3}", style=style + (" bold" if mark == "*" else ""))
                if owner is not None:
                    seat_colour = names[owner]
                    line.append(
                        seat_colour[0].upper(), style=PAWN_STYLE.get(seat_colour, "bold reverse")
                    )
                else:
                    line.append(" ", style=style)
                line.append("<" if cell == moved and owner is not None else " ", style="bold")
        text.append(line)
        text.append("\n")
    return text


def status_text(state: HexState, names: Sequence[str] | None = None) -> str:
    """One line: turn, who is to move and which step, pawn counts."""
    names = list(names or state.seat_names())
    counts = state.pawn_counts()
    balls = state.edition == "2008"
    pawns = ", ".join(f"{names[s]} {counts[s]}" for s in range(state.num_players))
    if state.is_terminal():
        words = (
            gettext("Game over after %(turns)d turns. Balls: %(counts)s.")
            if balls
            else gettext("Game over after %(turns)d turns. Pawns: %(counts)s.")
        )
        return words % {"turns": state.turn, "counts": pawns}
    seat = state.current_player()
    step = {
        "move": gettext("move a ball (then remove a tile)")
        if balls
        else gettext("move a pawn (then remove a tile)"),
        "remove": gettext("remove an empty tile with a free edge"),
        "tile": gettext("place a tile (on a + cell)"),
        "second-tile": gettext("place a second tile (on a + cell)"),
        "ball": gettext("put a ball on one of the two tiles just placed (* cells)"),
        "ball-any": gettext("put a ball on an empty tile (* cells)"),
    }[state.step]
    extra = ""
    if state.step in ("move", "remove"):
        extra = gettext(" · turn %(turn)d") % {"turn": state.turn}
        if any(mark is not None for mark in last_marks(state)):
            extra += gettext(" · < last move, x last removal")
        if state.equaliser():
            extra += gettext(" · first move equaliser: no capture this turn")
        if state.quiet_turns:
            extra += gettext(" · %(num)d turn(s) without removal") % {"num": state.quiet_turns}
    else:
        extra = gettext(" · placement · tiles left %(tiles)d · balls left %(balls)d") % {
            "tiles": state.tiles_left(),
            "balls": state.balls_left(seat),
        }
    values = {"step": step, "extra": extra, "counts": pawns}
    if balls:
        return phrase(
            names[seat],
            gettext("You are to %(step)s%(extra)s. Balls: %(counts)s."),
            gettext("%(player)s is to %(step)s%(extra)s. Balls: %(counts)s."),
            **values,
        )
    return phrase(
        names[seat],
        gettext("You are to %(step)s%(extra)s. Pawns: %(counts)s."),
        gettext("%(player)s is to %(step)s%(extra)s. Pawns: %(counts)s."),
        **values,
    )


def result_text(state: State) -> str:
    """Who won, or who drew, in words (``red wins``, ``a draw between blue and yellow``)."""
    names = state.seat_names()
    returns = state.returns()
    winners = [names[s] for s, r in enumerate(returns) if r > 0]
    drawn = [names[s] for s, r in enumerate(returns) if r == 0]
    if winners:
        return " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
    if drawn:
        return "a draw between " + " and ".join(drawn)
    return "everybody loses"


def render(
    console: Console,
    state: State,
    seat: int | None = None,
    highlight: Collection[str] = (),
    names: Sequence[str] | None = None,
    frame: Frame | None = None,
) -> None:
    """Draw the surface (cells named in ``frame``, default :func:`display_frame`; 2008 tile
    sites marked) and the status line."""
    assert isinstance(state, HexState)
    console.print(surface_text(state, highlight, frame, placement_sites(state)))
    console.print(status_text(state, names), highlight=False)


# --- what happened, in words ------------------------------------------------------------------
def _listing(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s and %(second)s") % {
        "first": ", ".join(items[:-1]),
        "second": items[-1],
    }


def _piece(balls: bool, count: int) -> str:
    """``pawn``/``pawns`` (``ball``/``balls`` in the 2008 edition), translated."""
    return ngettext("ball", "balls", count) if balls else ngettext("pawn", "pawns", count)


def decision_words(
    before: HexState,
    action: int,
    seat: int,
    names: Sequence[str],
    frame: Frame | None = None,
) -> str:
    """``"red moves c4-e5"``, ``"You remove the tile d4"``, ``"white places a tile on b3"``;
    cells named in ``frame`` (default: :func:`display_frame` of ``before``, the drawing the
    player decided on)."""
    frame = frame or display_frame(before)
    text = rename_cells(before.action_to_string(action), before.frame, frame)
    who = names[seat]
    kind = kind_of(action)
    if kind == Kind.MOVE:
        return phrase(
            who, gettext("You move %(action)s"), gettext("%(player)s moves %(action)s"), action=text
        )
    if kind == Kind.REMOVE:
        return phrase(
            who,
            gettext("You remove the tile %(cell)s"),
            gettext("%(player)s removes the tile %(cell)s"),
            cell=text[2:],
        )
    if kind == Kind.TILE:
        return phrase(
            who,
            gettext("You place a tile on %(cell)s"),
            gettext("%(player)s places a tile on %(cell)s"),
            cell=text[1:],
        )
    return phrase(
        who,
        gettext("You put a ball on %(cell)s"),
        gettext("%(player)s puts a ball on %(cell)s"),
        cell=text[1:],
    )


def _self_capture(mover: str, balls: bool, where: list[str]) -> str:
    n = len(where)
    values = {"player": mover, "piece": _piece(balls, n), "cells": _listing(where)}
    if is_you(mover):
        words = ngettext(
            "Self-capture: Your own %(piece)s on %(cells)s had no freedom left and was removed.",
            "Self-capture: Your own %(piece)s on %(cells)s had no freedom left and were removed.",
            n,
        )
    else:
        words = ngettext(
            "Self-capture: %(player)s's own %(piece)s on %(cells)s had no freedom left and was "
            "removed.",
            "Self-capture: %(player)s's own %(piece)s on %(cells)s had no freedom left and were "
            "removed.",
            n,
        )
    return words % values


def _capture(mover: str, owner: str, balls: bool, where: list[str]) -> str:
    n = len(where)
    values = {
        "player": mover,
        "owner": owner,
        "num": n,
        "piece": _piece(balls, n),
        "cells": _listing(where),
    }
    if is_you(mover):
        words = ngettext(
            "You capture %(owner)s's %(piece)s on %(cells)s.",
            "You capture %(num)d of %(owner)s's %(piece)s on %(cells)s.",
            n,
        )
    elif is_you(owner):
        words = ngettext(
            "%(player)s captures your %(piece)s on %(cells)s.",
            "%(player)s captures %(num)d of your %(piece)s on %(cells)s.",
            n,
        )
    else:
        words = ngettext(
            "%(player)s captures %(owner)s's %(piece)s on %(cells)s.",
            "%(player)s captures %(num)d of %(owner)s's %(piece)s on %(cells)s.",
            n,
        )
    return words % values


def _owners_after_move(before: HexState, action: int) -> dict[Cell, int]:
    """Who owns the pawn on each cell once ``action``'s move (if it is one) is made."""
    owners = {cell: owner for cell, _, owner in before.tiles() if owner is not None}
    if kind_of(action) == Kind.MOVE and before.surface is not None:
        fr, to = move_tiles(action)
        cells = before.surface.cells
        owners[cells[to]] = owners.pop(cells[fr])
    return owners


def eliminated_pawns(before: HexState, action: int, after: HexState) -> dict[int, int]:
    """Seat -> pawns (balls) that left the table with ``action`` without being captured: the
    2008 edition's elimination of a player who cannot move and then remove a tile."""
    captured = set(after.last_captured()) if kind_of(action) in (Kind.MOVE, Kind.REMOVE) else set()
    now = {cell for cell, _, owner in after.tiles() if owner is not None}
    eliminated: dict[int, int] = defaultdict(int)
    for cell, owner in _owners_after_move(before, action).items():
        if cell not in captured and cell not in now:
            eliminated[owner] += 1
    return dict(eliminated)


def what_happened(
    before: HexState,
    action: int,
    after: HexState,
    seat: int,
    names: Sequence[str],
    frame: Frame | None = None,
) -> list[str]:
    """Everything a decision did besides itself, in words, in the order it happened.

    Captures (whose pawns, where), self-captures, tiles cut off with a
    removal, players out or eliminated, steps and turns skipped because they
    offered no choice, and the count of turns without a removal (``docs/rules/hex.md``:
    Move, Remove, Must if possible, End, and the 2008 edition). Cells are named in
    ``frame`` (default: :func:`display_frame` of ``after``).
    """
    frame = frame or display_frame(after)
    balls = before.edition == "2008"
    kind = kind_of(action)
    out: list[str] = []
    mover = names[seat]
    owners = _owners_after_move(before, action)
    captured = after.last_captured() if kind in (Kind.MOVE, Kind.REMOVE) else []
    by_owner: dict[int, list[str]] = defaultdict(list)
    for cell in captured:
        by_owner[owners.get(cell, -1)].append(frame.name(cell))
    for owner, where in sorted(by_owner.items()):
        if owner == seat:
            out.append(_self_capture(mover, balls, where))
        elif owner >= 0:
            out.append(_capture(mover, names[owner], balls, where))
    if kind == Kind.REMOVE:
        cut = [frame.name(c) for c in after.last_isolated()]
        if cut:
            words = ngettext(
                "The tile %(cells)s, cut off from every pawn, left the table too.",
                "The tiles %(cells)s, cut off from every pawn, left the table too.",
                len(cut),
            )
            out.append(words % {"cells": _listing(cut)})
    if before.placement is not None and after.placement is None:
        out.append(
            gettext(
                "The placement is over and the movement phase begins; cells are now named from "
                "the top-left of the laid surface."
            )
        )
    eliminated = eliminated_pawns(before, action, after)
    pieces = gettext("ball(s)") if balls else gettext("pawn(s)")
    for owner in sorted(eliminated):
        out.append(
            phrase(
                names[owner],
                gettext(
                    "You cannot move and then remove a tile: you are eliminated and your "
                    "%(num)d %(pieces)s leave the table."
                ),
                gettext(
                    "%(player)s cannot move and then remove a tile: %(player)s is eliminated and "
                    "its %(num)d %(pieces)s leave the table."
                ),
                num=eliminated[owner],
                pieces=pieces,
            )
        )
    before_counts, after_counts = before.pawn_counts(), after.pawn_counts()
    if not after.is_terminal():
        for owner in range(before.num_players):
            if before_counts[owner] and not after_counts[owner] and owner not in eliminated:
                out.append(
                    phrase(
                        names[owner],
                        gettext("You have no %(pieces)s left and are out of the game."),
                        gettext("%(player)s has no %(pieces)s left and is out of the game."),
                        pieces=_piece(balls, 2),
                    )
                )
    out += _skipped(before, action, after, seat, names, len(eliminated))
    return out


def _skipped(
    before: HexState,
    action: int,
    after: HexState,
    seat: int,
    names: Sequence[str],
    eliminations: int,
) -> list[str]:
    """The steps and turns that were passed over after ``action`` because they offered no choice."""
    if after.is_terminal():
        return []
    kind = kind_of(action)
    out: list[str] = []
    mover = names[seat]
    nxt = after.current_player()
    if before.placement is not None:
        if before.step == "second-tile" and not (nxt == seat and after.step == "ball"):
            out.append(
                phrase(
                    mover,
                    gettext(
                        "No ball of yours can go on either new tile: the turn ends without a ball."
                    ),
                    gettext(
                        "No ball of %(player)s's can go on either new tile: the turn ends "
                        "without a ball."
                    ),
                )
            )
        if before.step in ("second-tile", "ball", "ball-any") and not (
            nxt == seat and after.placement is not None and after.step == "ball"
        ):
            k = (seat + 1) % before.num_players
            while k != nxt and k != seat:
                if after.placement is not None:
                    out.append(
                        phrase(
                            names[k],
                            gettext("You cannot place anything and pass."),
                            gettext("%(player)s cannot place anything and passes."),
                        )
                    )
                k = (k + 1) % before.num_players
        return out
    if kind == Kind.MOVE and not (nxt == seat and after.step == "remove"):
        out.append(
            phrase(
                mover,
                gettext("No tile can be removed after that move: your removal step is skipped."),
                gettext(
                    "No tile can be removed after that move: %(player)s's removal step is skipped."
                ),
            )
        )
    turn_ended = not (kind == Kind.MOVE and nxt == seat and after.step == "remove")
    if not turn_ended:
        return out
    passed = after.turn - before.turn - 1 - eliminations
    if passed > 0:
        order = list(before.seat_order())
        counts = after.pawn_counts()
        idle: list[str] = []
        k = order.index(seat)
        for _ in range(2 * len(order)):
            if len(idle) == passed:
                break
            k = (k + 1) % len(order)
            if counts[order[k]]:  # seats without pawns are passed over without a turn
                idle.append(names[order[k]])
        if len(idle) == passed:
            for who in idle:
                out.append(
                    phrase(
                        who,
                        gettext("You can neither move nor remove a tile: your turn passes."),
                        gettext("%(player)s can neither move nor remove a tile: the turn passes."),
                    )
                )
        else:
            words = ngettext(
                "%(num)d turn passed with no possible move or removal.",
                "%(num)d turns passed with no possible move or removal.",
                passed,
            )
            out.append(words % {"num": passed})
    if after.step == "remove":
        out.append(
            phrase(
                names[nxt],
                gettext("You cannot move any %(piece)s: the move step is skipped."),
                gettext("%(player)s cannot move any %(piece)s: the move step is skipped."),
                piece=_piece(before.edition == "2008", 1),
            )
        )
    if before.edition != "2008" and after.quiet_turns and after.quiet_turns > before.quiet_turns:
        alive = sum(1 for c in after.pawn_counts() if c)
        words = gettext(
            "%(num)d turn(s) in a row without a removal: the game is drawn when this reaches "
            "%(alive)d, the number of players with pawns."
        )
        out.append(words % {"num": after.quiet_turns, "alive": alive})
    return out


def _are_many(players: Sequence[str]) -> bool:
    """Whether ``players`` take a plural verb in English (several, or "You")."""
    return len(players) > 1 or (len(players) == 1 and is_you(players[0]))


def end_reason(
    state: HexState, names: Sequence[str], last_seat: int | None = None, eliminated: bool = False
) -> str:
    """Why the game ended, one sentence per end condition of ``docs/rules/hex.md`` (End, and
    the 2008 edition's elimination).

    ``last_seat`` took the last turn (if known); ``eliminated`` says the losers
    were eliminated at the start of a turn (2008) rather than captured.
    """
    returns = state.returns()
    counts = state.pawn_counts()
    winners = [names[s] for s, r in enumerate(returns) if r > 0]
    drawn = [names[s] for s, r in enumerate(returns) if r == 0]
    losers = [names[s] for s, r in enumerate(returns) if r < 0]
    if state.edition == "2008":
        if winners:
            if eliminated:
                how = (
                    gettext("%(players)s could not move and then remove a tile and were eliminated")
                    if _are_many(losers)
                    else gettext(
                        "%(players)s could not move and then remove a tile and was eliminated"
                    )
                ) % {"players": _listing(losers)}
            else:
                how = (
                    gettext("%(players)s have no %(pieces)s left")
                    if _are_many(losers)
                    else gettext("%(players)s has no %(pieces)s left")
                ) % {"players": _listing(losers), "pieces": _piece(True, 2)}
            tail = (
                gettext("%(how)s: %(players)s are the last player left and win.")
                if _are_many(winners)
                else gettext("%(how)s: %(players)s is the last player left and wins.")
            )
            return tail % {"how": how, "players": _listing(winners)}
        words = gettext("The last players were eliminated together: a draw between %(players)s.")
        return words % {"players": _listing(drawn)}
    if not any(counts):
        taker = names[last_seat] if last_seat is not None else gettext("the player who took it")
        if drawn:
            words = gettext(
                "The last turn left no pawn on the table with all three players still in: "
                "a draw between %(players)s."
            )
            return words % {"players": _listing(drawn)}
        if winners:
            words = (
                gettext(
                    "The last turn left no pawn on the table: %(player)s, who took it, loses, and "
                    "%(players)s, still in the game, win."
                )
                if _are_many(winners)
                else gettext(
                    "The last turn left no pawn on the table: %(player)s, who took it, loses, and "
                    "%(players)s, still in the game, wins."
                )
            )
            return words % {"player": taker, "players": _listing(winners)}
        words = gettext("The last turn left no pawn on the table: %(player)s, who took it, loses.")
        return words % {"player": taker}
    if winners:
        gone = [names[s] for s in range(len(counts)) if not counts[s]]
        first = (
            gettext("%(players)s have no %(pieces)s left")
            if _are_many(gone)
            else gettext("%(players)s has no %(pieces)s left")
        ) % {"players": _listing(gone), "pieces": _piece(False, 2)}
        second = (
            gettext("%(players)s are the only player with pawns on the table.")
            if _are_many(winners)
            else gettext("%(players)s is the only player with pawns on the table.")
        ) % {"players": _listing(winners)}
        return f"{first}: {second}"
    words = gettext(
        "Stalemate: %(num)d turns in a row without a removal, as many as the players still "
        "holding pawns: a draw between %(players)s."
    )
    return words % {"num": state.quiet_turns, "players": _listing(drawn)}


def result_for(state: HexState, seat: int | None, names: Sequence[str]) -> str:
    """The result for ``seat`` (``"You won."``) or for everybody (``"red wins."``)."""
    returns = state.returns()
    if seat is None:
        winners = [names[s] for s, r in enumerate(returns) if r > 0]
        drawn = [names[s] for s, r in enumerate(returns) if r == 0]
        if winners:
            words = (
                gettext("%(players)s win.") if len(winners) > 1 else gettext("%(players)s wins.")
            )
            return words % {"players": _listing(winners)}
        if drawn:
            return gettext("A draw between %(players)s.") % {"players": _listing(drawn)}
        return gettext("Everybody loses.")
    who = names[seat]
    result = returns[seat]
    if result > 0:
        return phrase(who, gettext("You won."), gettext("%(player)s won."))
    if result == 0:
        others = [names[s] for s, r in enumerate(returns) if r == 0 and s != seat]
        return phrase(
            who,
            gettext("Draw: You shared the result with %(players)s."),
            gettext("Draw: %(player)s shared the result with %(players)s."),
            players=_listing(others),
        )
    return phrase(who, gettext("You lost."), gettext("%(player)s lost."))
