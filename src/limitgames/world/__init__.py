"""Poyé's LIMIT (``world``): the rules engine.

Importing this package registers the game (``get_game("world")``).
The modules are layers, listed from the bottom; each imports only modules listed before it:

1. ``words``, ``data`` (the data file, overrides), ``nation`` (a board), ``state`` (the
   table and its flow);
2. the phases and the cards: ``market``, ``tracks`` (standard of living and plants placed by
   a nation), ``solo`` (solo mode), ``allies`` (who a nation's allies are), ``cards`` (when a
   card may be played, its cost), ``social``, ``card_effects``, ``alliances`` (the optional
   alliance step), ``wars`` (targeted cards), ``political``, ``international``, ``scoring``,
   ``setup``;
3. the game: ``notation``, ``observe``, ``encoding``, ``game_state`` (the class of every
   game), ``info``, ``position``, ``game``, ``referee``, ``debrief``.
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
