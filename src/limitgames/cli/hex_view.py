"""Drawing Browne's Limit in the terminal (Rich): the surface with cell names, pawns, whose turn.

Each tile is a 6-character cell on its colour (odd rows shifted half a cell,
as the hexagons lie), showing its name and the pawn standing on it as the
owner's initial. Removed tiles show as a faint dot so the shape stays
readable. Rendering only: no rule is decided here.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.console import Console
from rich.text import Text

from limitgames.core import State
from limitgames.hex.state import HexState

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


def surface_text(state: HexState, highlight: Collection[str] = ()) -> Text:
    """The surface as Rich text; cells whose names are in ``highlight`` are marked with ``*``."""
    frame = state.frame
    names = state.seat_names()
    tiles = state.tiles()
    cells = {cell: (colour, owner) for cell, colour, owner in tiles}
    ghosts = set()
    surface = state.surface
    if surface is not None:
        ghosts = {c for c in surface.cells if c not in cells}
    every = list(cells) + list(ghosts)
    if not every:
        return Text("(the table is empty)", style="dim")
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
                    line.append("  ·   ", style="grey30")
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
                line.append(" ")
        text.append(line)
        text.append("\n")
    return text


def status_text(state: HexState) -> str:
    """One line: turn, who is to move and which step, pawn counts."""
    names = state.seat_names()
    counts = state.pawn_counts()
    pawns = ", ".join(f"{names[s]} {counts[s]}" for s in range(state.num_players))
    if state.is_terminal():
        return f"Game over after {state.turn} turns: {result_text(state)}. Pawns: {pawns}."
    seat = state.current_player()
    step = {
        "move": "move a pawn (then remove a tile)",
        "remove": "remove an empty tile with a free edge",
        "tile": "place a tile",
        "second-tile": "place a second tile",
        "ball": "put a ball on one of the two tiles just placed",
        "ball-any": "put a ball on an empty tile",
    }[state.step]
    extra = ""
    if state.step in ("move", "remove"):
        extra = f" · turn {state.turn}"
        if state.equaliser():
            extra += " · first move equaliser: no capture this turn"
        if state.quiet_turns:
            extra += f" · {state.quiet_turns} turn(s) without removal"
    else:
        extra = (
            f" · placement · tiles left {state.tiles_left()} · balls left {state.balls_left(seat)}"
        )
    return f"{names[seat]} to {step}{extra}. Pawns: {pawns}."


def result_text(state: State) -> str:
    """Who won, or who drew, in words."""
    names = state.seat_names()
    returns = state.returns()
    winners = [names[s] for s, r in enumerate(returns) if r > 0]
    drawn = [names[s] for s, r in enumerate(returns) if r == 0]
    if winners:
        return " and ".join(winners) + " wins"
    if drawn:
        return "draw between " + " and ".join(drawn)
    return "everybody loses"


def render(
    console: Console, state: State, seat: int | None = None, highlight: Collection[str] = ()
) -> None:
    """Draw the surface and the status line."""
    assert isinstance(state, HexState)
    console.print(surface_text(state, highlight))
    console.print(status_text(state), highlight=False)
