"""Poyé's LIMIT (``world``): the rules engine.

Importing this package registers the game (``get_game("world")``).
Modules by concern: ``data`` (the data file, overrides), ``nation`` (a
board), ``setup``, ``state`` (flow and protocol), ``tracks`` (standard of living and plants placed by a nation), ``political``, ``cards``,
``market``, ``social``, ``international``, ``scoring``, ``notation``,
``observe``, ``alliances`` (the optional alliance step), ``solo`` (solo mode).
"""

from __future__ import annotations

from limitgames.core import register
from limitgames.world import (  # noqa: F401
    alliances,
    allies,
    card_effects,
    cards,
    international,
    market,
    political,
    scoring,
    social,
    solo,
    tracks,
    wars,
)
from limitgames.world.game import WorldGame
from limitgames.world.game_state import WorldGameState
from limitgames.world.state import WorldState

WORLD = register(WorldGame())

__all__ = ["WORLD", "WorldGame", "WorldGameState", "WorldState"]
