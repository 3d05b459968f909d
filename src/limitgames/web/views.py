"""Server-side drawing of a game for one seat: SVG and HTML from Jinja2 templates.

:func:`render_view` draws ``state.observation(seat)`` (``None``: a spectator)
and nothing else, so a view can never show what that seat may not know. Each
game has its drawing module (``hex_svg``, ``cards_html``) with
``draw(observation, names, seat) -> (board_html, side_html)``; a game without
one is shown as its observation, in a readable table.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from limitgames.core import State
from limitgames.core.outcome import result_in_words

TEMPLATES = Path(__file__).parent / "templates"

environment = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(["html", "svg", "j2"], default_for_string=True, default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
"""The Jinja2 environment of every page and drawing (autoescaping on)."""

DRAWINGS: dict[str, str] = {
    "hex": "limitgames.web.hex_svg",
    "cards": "limitgames.web.cards_html",
}
"""game id -> module with ``draw(observation, names, seat)`` and ``status(observation, names)``."""


def _drawing(game_id: str) -> Any:
    module = DRAWINGS.get(game_id)
    return importlib.import_module(module) if module is not None else None


def result_text(state: State) -> str:
    """The result in words: ``red wins``, ``red and blue share the win``, ``draw``."""
    return result_in_words(state.seat_names(), state.returns())


def render_view(state: State, seat: int | None, perfect_information: bool = True) -> dict[str, Any]:
    """Draw ``state`` as ``seat`` sees it.

    Returns ``{"board": html, "side": html, "status": text, "observation": dict}``;
    the observation is ``state.observation(seat)`` (what that seat may know).
    """
    observation = state.observation(seat)
    names = state.seat_names()
    drawing = _drawing(state.game_id)
    if drawing is not None:
        board, side = drawing.draw(observation, names, seat)
        detail = drawing.status(observation, names)
    else:
        board = environment.get_template("observation.html.j2").render(observation=observation)
        side, detail = "", ""
    if state.is_terminal():
        status = f"Game over: {result_text(state)}."
    else:
        mover = names[state.current_player()]
        status = f"{mover} to play" + (f": {detail}" if detail else "") + "."
    return {"board": board, "side": side, "status": status, "observation": observation}
