"""The game registry: every game by its id.

Engines register themselves when imported (``register(HexGame())``). The
registry knows where the project's own engines live and imports them on first
use, so ``get_game("hex")`` works without importing the engine first.
"""

from __future__ import annotations

import importlib

from limitgames.core.errors import LimitGamesError
from limitgames.core.protocol import Game

_GAMES: dict[str, Game] = {}

BUILTIN_GAMES: dict[str, str] = {
    "hex": "limitgames.hex",
    "cards": "limitgames.cards",
    "world": "limitgames.world",
}
"""The project's own games: id -> module that registers it."""


class UnknownGameError(LimitGamesError, KeyError):
    """No game of that id."""

    def __str__(self) -> str:
        return str(self.args[0])


def register(game: Game) -> Game:
    """Add ``game`` under ``game.info.id`` (replacing an earlier one); return it."""
    _GAMES[game.info.id] = game
    return game


def get_game(game_id: str) -> Game:
    """The game called ``game_id``. Raises :class:`UnknownGameError` listing the known ids."""
    if game_id not in _GAMES and game_id in BUILTIN_GAMES:
        try:
            importlib.import_module(BUILTIN_GAMES[game_id])
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(BUILTIN_GAMES[game_id]):
                raise UnknownGameError(f"the game {game_id!r} is not available yet") from None
            raise
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(available_games())
        raise UnknownGameError(f"unknown game {game_id!r} (known: {known})") from None


def available_games() -> list[str]:
    """The ids of every game that can be loaded, built-in ones first."""
    ids = []
    for game_id, module in BUILTIN_GAMES.items():
        if game_id in _GAMES:
            ids.append(game_id)
            continue
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        if game_id in _GAMES:
            ids.append(game_id)
    ids.extend(sorted(g for g in _GAMES if g not in ids))
    return ids
