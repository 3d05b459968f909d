"""The game registry: every game by its id.

Engines register themselves when imported (``register(HexGame())``). The
registry knows where the project's own engines live and imports them on first
use, so ``get_game("hex")`` works without importing the engine first. An engine
that fails to import raises :class:`~limitgames.core.errors.ModuleLoadError`
(naming the module and the error): it is never left out of the games quietly.
"""

from __future__ import annotations

import importlib

from limitgames.core.errors import LimitGamesError, ModuleLoadError
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


def _import_builtin(game_id: str) -> None:
    """Import the module of the built-in game ``game_id`` (it registers the game).

    Raises:
        ModuleLoadError: the module (or something it imports) failed to import.
    """
    module = BUILTIN_GAMES[game_id]
    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise ModuleLoadError(module, exc, f"the game {game_id!r}") from exc


def get_game(game_id: str) -> Game:
    """The game called ``game_id``.

    Raises:
        UnknownGameError: no game of that id (the message lists the known ids).
        ModuleLoadError: the module of a built-in game failed to import.
    """
    if game_id not in _GAMES and game_id in BUILTIN_GAMES:
        _import_builtin(game_id)
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(available_games())
        raise UnknownGameError(f"unknown game {game_id!r} (known: {known})") from None


def available_games() -> list[str]:
    """The ids of every game, built-in ones first.

    Raises:
        ModuleLoadError: the module of a built-in game failed to import (a game is never
            left out of the list quietly, which would shrink every test over the games).
    """
    ids = []
    for game_id in BUILTIN_GAMES:
        if game_id not in _GAMES:
            _import_builtin(game_id)
        if game_id in _GAMES:
            ids.append(game_id)
    ids.extend(sorted(g for g in _GAMES if g not in ids))
    return ids
