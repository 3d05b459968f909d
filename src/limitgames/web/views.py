"""Server-side drawing of a game for one seat: SVG and HTML from Jinja2 templates.

:func:`render_view` draws ``state.observation(seat)`` (``None``: a spectator)
and nothing else, so a view can never show what that seat may not know. Each
game has its drawing module (``hex_svg``, ``cards_html``, ``world_html``) with
``draw(observation, names, seat) -> (board_html, side_html)``; a module that
needs more (world: the seat's log channel, previews of its own options) takes
it from its ``knowledge(state, seat)``, which reads only what the seat may know.
A game without a module is shown as its observation, in a readable table.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from limitgames.core import State
from limitgames.core.outcome import result_in_words
from limitgames.translation import N_, gettext, ngettext
from limitgames.world.words import NATION_WORDS, nation_name

TEMPLATES = Path(__file__).parent / "templates"

environment = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(["html", "svg", "j2"], default_for_string=True, default=True),
    trim_blocks=True,
    lstrip_blocks=True,
    extensions=["jinja2.ext.i18n"],
    # the templates ship with the package: no stat() of the file before every view (0.3 ms each here)
    auto_reload=False,
)
"""The Jinja2 environment of every page and drawing (autoescaping on; ``_()`` translates)."""
environment.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
environment.globals["game_word"] = gettext
"""``game_word(text)``: a game word from the game's data (a card's name, cost or effect),
translated as it is, with no ``%`` formatting (unlike ``_()``), so a data file may hold any text."""

COLOUR_WORDS: frozenset[str] = frozenset(
    (N_("red"), N_("blue"), N_("yellow"), N_("white"), N_("black"), N_("green"), N_("purple"))
)
"""The colours that name seats (hex) and cards (cards), translated wherever they are shown."""


def shown_name(name: str) -> str:
    """A seat's name as the page shows it: a colour or a nation (world) in the page's language,
    a person's name as is."""
    if name in NATION_WORDS:
        return nation_name(name)
    return gettext(name) if name in COLOUR_WORDS else name


environment.globals["shown_name"] = shown_name
environment.filters["shown_name"] = shown_name

DRAWINGS: dict[str, str] = {
    "hex": "limitgames.web.hex_svg",
    "cards": "limitgames.web.cards_html",
    "world": "limitgames.web.world_html",
}
"""game id -> module with ``draw(observation, names, seat)`` and ``status(observation, names)``;
a module may also have ``knowledge(state, seat) -> dict``, what the seat may know besides its
observation (world: its log channel, card texts, previews of its own options), passed to
``draw`` as keyword arguments."""


NARRATIONS: dict[str, str] = {
    "hex": "limitgames.web.hex_narration",
}
"""game id -> module with ``narrate(before, after)``, ``end_reason(state)`` and ``last_marks(state)``
(games of perfect information only: the words are the same for every seat)."""


def _drawing(game_id: str) -> Any:
    module = DRAWINGS.get(game_id)
    return importlib.import_module(module) if module is not None else None


def _narration(state: State, perfect_information: bool) -> Any:
    module = NARRATIONS.get(state.game_id)
    if module is None or not perfect_information:
        return None
    return importlib.import_module(module)


def outcome_for(state: State, seats: Sequence[int], names: Sequence[str] | None = None) -> str:
    """The result for the people at ``seats``: ``You won``, ``You lost`` or ``Draw``.

    A spectator, or one screen playing several seats, gets the result in
    words (``Red wins``). ``""`` while the game goes on.
    """
    if not state.is_terminal():
        return ""
    returns = state.returns()
    if len(seats) != 1:
        text = result_text(state, names)
        return text[:1].upper() + text[1:]
    value = returns[seats[0]]
    if value > 0:
        return gettext("You won")
    return gettext("Draw") if value == 0 else gettext("You lost")


def result_text(state: State, names: Sequence[str] | None = None) -> str:
    """The result in words: ``red wins``, ``red and blue share the win``, ``draw``.

    ``names`` are the seats' names (default ``state.seat_names()``).
    """
    shown = [shown_name(n) for n in names or state.seat_names()]
    return result_in_words(shown, state.returns())


def render_view(
    state: State,
    seat: int | None,
    perfect_information: bool = True,
    previous: State | None = None,
    seats: Sequence[int] = (),
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Draw ``state`` as ``seat`` sees it.

    Returns ``{"board": html, "side": html, "status": text, "observation": dict,
    "announcements": [sentence], "last": marks or None, "end_screen": {"outcome",
    "reason"} or None}``; the observation is ``state.observation(seat)`` (what
    that seat may know). ``previous`` is the state one decision earlier (the
    announcements tell what that decision did; ``None``: nothing to tell), and
    ``seats`` the seats of the page (``end_screen.outcome`` is said to them).
    ``names`` are the seats' names as people call them (default
    ``state.seat_names()``; the web app passes the lobby's names for games
    whose seats have no names of their own, see ``LiveGame.seat_names``).
    """
    observation = state.observation(seat)
    names = list(names or state.seat_names())
    drawing = _drawing(state.game_id)
    narration = _narration(state, perfect_information)
    marks = narration.last_marks(state) if narration is not None else None
    if drawing is not None:
        extra: dict[str, Any] = {"marks": marks} if marks is not None else {}
        if hasattr(drawing, "knowledge"):
            extra.update(drawing.knowledge(state, seat))
        board, side = drawing.draw(observation, names, seat, **extra)
        detail = drawing.status(observation, names)
    else:
        board = environment.get_template("observation.html.j2").render(observation=observation)
        side, detail = "", ""
    if state.is_terminal():
        status = gettext("Game over: %(result)s.") % {"result": result_text(state, names)}
    else:
        mover = shown_name(names[state.current_player()])
        if detail:
            status = gettext("%(player)s to play: %(step)s.") % {"player": mover, "step": detail}
        else:
            status = gettext("%(player)s to play.") % {"player": mover}
    announcements: list[str] = []
    if narration is not None and previous is not None:
        announcements = narration.narrate(previous, state)
    ending = None
    if state.is_terminal():
        reason = narration.end_reason(state) if narration is not None else ""
        ending = {"outcome": outcome_for(state, seats, names), "reason": reason}
    return {
        "board": board,
        "side": side,
        "status": status,
        "observation": observation,
        "announcements": announcements,
        "last": marks,
        "end_screen": ending,
    }
