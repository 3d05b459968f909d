"""The games the lobby offers: metadata, variant parameters and computer levels."""

from __future__ import annotations

from typing import Any

from limitgames.core import available_games, get_game
from limitgames.translation import gettext
from limitgames.web.computer import level_notes
from limitgames.web.live_game import DataFiles


def catalog(data_files: DataFiles | None = None) -> list[dict[str, Any]]:
    """The games the lobby offers: metadata, variant parameters and computer levels.

    Each parameter is its game's declaration (``GameInfo.parameters``) in the request's
    language: ``name``, ``label``, ``kind``, ``default``, ``help``, ``choices`` with their
    ``choice_labels``, ``minimum``, ``maximum``. A parameter of kind ``path`` is offered as a
    choice among the names of the data sets in ``data_files`` (and left out when there are
    none).
    """
    offered = data_files or {}
    games = []
    for game_id in available_games():
        if game_id.startswith("toy-") and game_id not in _extra_lobby_games:
            continue
        info = get_game(game_id).info
        games.append(
            {
                "id": info.id,
                "title": info.title,
                "designer": info.designer,
                "year": info.year,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "perfect_information": info.perfect_information,
                "description": gettext(info.description),
                "parameters": [
                    {
                        "name": p.name,
                        "label": gettext(p.title),
                        "kind": "str" if p.kind == "path" else p.kind,
                        "default": p.default,
                        "help": gettext(p.help),
                        "choices": (
                            [None, *sorted(offered.get(info.id, {}))]
                            if p.kind == "path"
                            else list(p.choices)
                            if p.choices is not None
                            else None
                        ),
                        "choice_labels": (
                            [gettext(p.choice_label(c)) for c in p.choices]
                            if p.kind != "path" and p.choices is not None
                            else None
                        ),
                        "minimum": p.minimum,
                        "maximum": p.maximum,
                    }
                    for p in info.parameters
                    if not p.local and (p.kind != "path" or offered.get(info.id))
                ],
                "levels": level_notes(info.id),
            }
        )
    return games


def variant_words(game_id: str, variant: dict[str, Any]) -> str:
    """A game's variant as people read it, in the request's language, from the game's own
    declaration (``GameInfo.parameters``): ``"Spieler 3, Ziel Sieg, Variante Stapel nein"``.
    Each parameter's label, then its choice's label, ``yes``/``no`` for a flag, or the value
    (a number, a data set's name); parameters not declared, or set to ``None``, are left out.
    """
    info = get_game(game_id).info
    parts = []
    for p in info.parameters:
        value = variant.get(p.name)
        if value is None:
            continue
        if isinstance(value, bool):
            shown = gettext("yes") if value else gettext("no")
        elif p.choices is not None and value in p.choices:
            shown = gettext(p.choice_label(value))
        else:
            shown = str(value)
        parts.append(f"{gettext(p.title)} {shown}")
    return ", ".join(parts)


_extra_lobby_games: set[str] = set()


def offer_in_lobby(game_id: str) -> None:
    """Also list a ``toy-`` game (from tests) in the lobby."""
    _extra_lobby_games.add(game_id)


__all__ = ["catalog", "offer_in_lobby", "variant_words"]
