"""Drawing any game's state in the terminal, by dispatching to the game's own view module."""

from __future__ import annotations

import importlib
from typing import Any

from rich.console import Console

from limitgames.core import GameRecord, State
from limitgames.core.events import Outcome
from limitgames.core.outcome import ending_at_table, result_in_words
from limitgames.translation import gettext as _
from limitgames.translation import ngettext

VIEWS: dict[str, str] = {
    "hex": "limitgames.cli.hex_view",
    "cards": "limitgames.cli.cards_view",
    "world": "limitgames.cli.world_view",
}
"""game id -> module with ``render(console, state, seat)`` and ``result_text(state)``."""


def _view(game_id: str) -> Any:
    module = VIEWS.get(game_id)
    if module is None:
        return None
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError:
        return None


def render_state(console: Console, state: State, seat: int | None = None) -> None:
    """Draw ``state`` as ``seat`` may see it (``None``: spectator)."""
    view = _view(state.game_id)
    if view is not None:
        view.render(console, state, seat)
    else:
        console.print_json(data=state.observation(seat))


def result_text(state: State) -> str:
    """The result in words: who won, or a draw."""
    view = _view(state.game_id)
    if view is not None and hasattr(view, "result_text"):
        return str(view.result_text(state))
    return result_in_words(state.seat_names(), state.returns())


def render_final(console: Console, state: State, record: GameRecord) -> None:
    """The end of ``limit replay``: the final position, the move count and the result.

    Cards are drawn with the players' names kept in the record (``meta.names``).
    """
    names = record.meta.get("names") if isinstance(record.meta, dict) else None
    if state.game_id == "cards" and isinstance(names, list) and len(names) == state.num_players:
        from limitgames.cli import cards_view

        cards_view.render(console, state, None, names=[str(n) for n in names])
        console.print(replayed_line(record), highlight=False)
        console.print(cards_view.result_text(state, [str(n) for n in names]), highlight=False)
        return
    render_state(console, state, None)
    console.print(replayed_line(record), highlight=False)
    if state.is_terminal():
        view = _view(state.game_id)
        if view is not None and hasattr(view, "ending_text"):
            console.print(str(view.ending_text(state)), highlight=False)
        console.print(_("Result: %(result)s.") % {"result": result_text(state)}, highlight=False)
    elif ended_at_table(record):
        assert record.outcome is not None
        outcome = Outcome.from_json(record.outcome)
        names = [_(n) for n in state.seat_names()]
        console.print(ending_at_table(outcome, names), highlight=False)
    else:
        console.print(_("The game is not finished."), highlight=False)


def ended_at_table(record: GameRecord) -> bool:
    """Whether ``record`` says its game ended at the table (a resignation, an agreed draw,
    a time-out: a game stored by ``limit serve``), not by the rules."""
    if record.result is None or record.outcome is None:
        return False
    return not Outcome.from_json(record.outcome).termination.decided_by_rules


def replayed_line(record: GameRecord) -> str:
    """``N actions replayed and verified.`` in the session's language."""
    count = len(record.actions)
    return ngettext(
        "%(count)d action replayed and verified.", "%(count)d actions replayed and verified.", count
    ) % {"count": count}
