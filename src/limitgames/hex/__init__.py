"""Browne's Limit (game id ``hex``): the exact rules engine.

- :class:`HexGame` / :class:`HexState`: the protocol (``limitgames.core``).
- :mod:`.surface`: cells and bitmask geometry; :mod:`.movement`: moves,
  captures and removals on bitmasks; :mod:`.placement`: the 2008 placement
  phase; :mod:`.layout`: the random layout generator; :mod:`.notation`: cell
  names and action notation; :mod:`.position`: position JSON.

Rules: ``rules/hex.md`` (every gap in the rulebooks decided), after the
nestorgames rules and the 2008 rules by Cameron Browne.
"""

from limitgames.core import register
from limitgames.hex.game import HEX_INFO, HexGame
from limitgames.hex.position import position_json, state_from_position
from limitgames.hex.state import HexState

GAME = register(HexGame())

__all__ = ["GAME", "HEX_INFO", "HexGame", "HexState", "position_json", "state_from_position"]
