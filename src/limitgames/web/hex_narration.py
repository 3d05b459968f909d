"""What just happened in a game of Browne's Limit (``hex``), in words, for the game page.

The page announces every decision in a live region and ends with the reason the game
ended. The words are the game's one narrator, :mod:`limitgames.hex.words`, telling the
engine's events (:meth:`HexState.apply_with_events`) and its outcome
(:meth:`HexState.outcome`); the terminal tells the same sentences. The board's marks of
the latest decisions (:func:`last_marks`) are read from the state's history and its
:meth:`HexState.last_captured` and :meth:`HexState.last_isolated`.
"""

from __future__ import annotations

from typing import Any

from limitgames.hex import words
from limitgames.hex.codec import Kind, kind_of, removal_tile
from limitgames.hex.events import last_move_and_removal
from limitgames.hex.state import HexState
from limitgames.hex.surface import Cell
from limitgames.web.views import shown_name

_KINDS: dict[Kind | None, str] = {
    Kind.MOVE: "move",
    Kind.REMOVE: "remove",
    Kind.TILE: "tile",
    Kind.BALL: "ball",
}
"""The last decision's kind as the page reads it (``last.kind``)."""


def _names(state: HexState) -> list[str]:
    """The seats' names (colours) in the current language."""
    return [shown_name(n) for n in state.seat_names()]


def _tile_cell(state: HexState, tile: int) -> Cell:
    surface = state.surface
    assert surface is not None
    return surface.cells[tile]


def last_marks(state: HexState) -> dict[str, Any]:
    """Where the board marks the latest decisions: ``{"kind", "from", "to", "removed", "gone",
    "captured", "action"}``.

    ``from``/``to`` name the last move of the game and ``removed`` the last
    removed tile (``None`` when there was none yet), with ``gone``: the cells
    ``[q, r, name]`` of the tiles that left the table with the last decision
    (the removed tile and the empty parts it isolated). ``captured`` names the
    cells whose pawns the last decision captured, ``action`` that decision in
    notation and ``kind`` its kind (``"move"``, ``"remove"``, ``"tile"``, ``"ball"``; ``None``
    at the start).
    """
    marks: dict[str, Any] = {
        "kind": None,
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
    marks["kind"] = _KINDS.get(kind_of(history[-1]))
    if state.surface is None:  # 2008 placement: nothing moves or leaves the table yet
        return marks
    moved, removed = last_move_and_removal(history)
    if moved is not None:
        marks["from"] = state.cell_name(_tile_cell(state, moved[0]))
        marks["to"] = state.cell_name(_tile_cell(state, moved[1]))
    if removed is not None:
        marks["removed"] = state.cell_name(_tile_cell(state, removed))
    last = history[-1]
    if kind_of(last) == Kind.REMOVE:
        gone = [_tile_cell(state, removal_tile(last)), *state.last_isolated()]
        marks["gone"] = [[q, r, state.cell_name((q, r))] for q, r in gone]
    if kind_of(last) in (Kind.MOVE, Kind.REMOVE):
        marks["captured"] = [state.cell_name(c) for c in state.last_captured()]
    return marks


def narrate(before: HexState, after: HexState) -> list[str]:
    """The sentences that tell what the last decision did (``after`` is ``before`` plus it),
    from the engine's events (:func:`limitgames.hex.words.event_sentences`). Returns ``[]``
    when ``after`` is not one decision further than ``before``.
    """
    history = after.history()
    if len(history) != len(before.history()) + 1 or before.is_terminal():
        return []
    events = before.clone().apply_with_events(history[-1])
    return words.event_sentences(events, _names(after), edition=after.edition)


def end_reason(state: HexState) -> str:
    """Why the game ended, in one sentence (``""`` while it goes on), from the engine's
    outcome (:func:`limitgames.hex.words.end_reason`)."""
    outcome = state.outcome()
    if outcome is None:
        return ""
    return words.end_reason(outcome, _names(state), edition=state.edition)
