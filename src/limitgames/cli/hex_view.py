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

Reading and rendering only: no rule is decided here; what happened is told by the
game's one narrator, :mod:`limitgames.hex.words`, from the engine's events and outcome
(the browser tells the same sentences).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from rich.console import Console
from rich.text import Text

from limitgames.cli.seats import is_you, phrase
from limitgames.core import State
from limitgames.core.events import Event
from limitgames.core.outcome import result_in_words
from limitgames.hex.codec import Kind, kind_of, placement_cell
from limitgames.hex.events import MovementBegins, last_move_and_removal
from limitgames.hex.notation import Frame
from limitgames.hex.placement import tile_sites
from limitgames.hex.state import HexState
from limitgames.hex.surface import Cell
from limitgames.hex.words import end_reason as words_end_reason
from limitgames.hex.words import event_sentences
from limitgames.hex.words import result_for as words_result_for
from limitgames.translation import gettext

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
    """The cell the last move went to and the last tile removed (``None`` if none yet), from
    :func:`limitgames.hex.events.last_move_and_removal`."""
    surface = state.surface
    if surface is None:
        return None, None
    moved, removed = last_move_and_removal(state.history())
    return (
        surface.cells[moved[1]] if moved is not None else None,
        surface.cells[removed] if removed is not None else None,
    )


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
    """One line: turn, who is to move and which step, pawn counts. ``names``: the seats'
    names (default: their colours in the current language)."""
    names = list(names or [gettext(name) for name in state.seat_names()])
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
    """Who won, or who drew, in words, in the current language (``red wins``, ``draw``)."""
    names = [gettext(name) for name in state.seat_names()]
    return result_in_words(names, state.returns())


def ending_text(state: State) -> str:
    """Why the finished game ended, in words (``limit replay``); ``""`` while it goes on."""
    assert isinstance(state, HexState)
    return end_reason(state, [gettext(name) for name in state.seat_names()])


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


# --- what happened, in words (the game's one narrator, limitgames.hex.words) -----------------
def you_seat(names: Sequence[str]) -> int | None:
    """The seat of the one person at the screen (named ``You``), or ``None``."""
    return next((seat for seat, name in enumerate(names) if is_you(name)), None)


def _renamer(source: Frame, target: Frame) -> Callable[[str], str]:
    """A tile's name in ``source`` -> its name in ``target``."""
    return lambda name: target.name(source.cell(name))


def decision_events(before: HexState, action: int) -> list[Event]:
    """What ``action`` does in ``before`` (:meth:`HexState.apply_with_events` on a copy)."""
    return before.clone().apply_with_events(action)


def decision_words(
    before: HexState, action: int, names: Sequence[str], frame: Frame | None = None
) -> str:
    """The decision itself in words (``"You moved from c4 to e5."``, ``"Red removed the tile
    d4."``), cells named in ``frame`` (default: :func:`display_frame` of ``before``, the
    drawing the player decided on)."""
    events = decision_events(before, action)
    rename = _renamer(before.frame, frame or display_frame(before))
    told = event_sentences(
        events, names, edition=before.edition, you=you_seat(names), tile_name=rename
    )
    return told[0] if told else before.action_to_string(action)


def what_happened(
    before: HexState, action: int, names: Sequence[str], frame: Frame | None = None
) -> list[str]:
    """Everything ``action`` did besides itself, in words, in the order it happened
    (:func:`limitgames.hex.words.event_sentences`): captures, cut-off tiles, players out or
    eliminated, steps and turns skipped, the count of turns without a removal. Cells are
    named in ``frame`` (default: :func:`display_frame` of the state after ``action``); when
    the 2008 movement phase begins, a line says that cells are named anew."""
    events = decision_events(before, action)
    after = before.clone()
    after.apply(action)
    rename = _renamer(before.frame, frame or display_frame(after))
    told = event_sentences(
        events, names, edition=before.edition, you=you_seat(names), tile_name=rename
    )[1:]  # the first sentence is the decision (decision_words)
    if any(isinstance(event, MovementBegins) for event in events):
        told.append(gettext("Cells are now named from the top-left of the laid surface."))
    return told


def end_reason(state: HexState, names: Sequence[str]) -> str:
    """Why the game ended (:func:`limitgames.hex.words.end_reason`); ``""`` while it goes on."""
    outcome = state.outcome()
    if outcome is None:
        return ""
    return words_end_reason(outcome, names, edition=state.edition, you=you_seat(names))


def result_for(state: HexState, seat: int | None, names: Sequence[str]) -> str:
    """The result for ``seat`` (``"You won."``) or for everybody (``"Red wins."``);
    ``""`` while the game goes on."""
    outcome = state.outcome()
    if outcome is None:
        return ""
    return words_result_for(outcome, names, seat, you=you_seat(names))
