"""Browne's Limit (game id ``hex``): the exact rules engine.

- :class:`HexGame` / :class:`HexState`: the protocol (``limitgames.core``).
- :mod:`.kernel`: the movement phase's rules, compiled with Numba on 64-bit
  tile masks (:mod:`.bitboard`), with whole playouts and batch entry points;
- :mod:`.surface`: cells and their numbering as tiles; :mod:`.codec`: action
  integers with named fields; :mod:`.placement`: the 2008 placement phase;
  :mod:`.layout`: the random layouts (:mod:`.layout_rule`, what a legal layout
  is; :mod:`.uniform_layout`, the uniform law's chain); :mod:`.groups`: flood
  fills and reach; :mod:`.notation`: cell names and action notation;
  :mod:`.position`: position JSON; :mod:`.info`: metadata.

The compiled tree search built on the kernel lives with the agents
(:mod:`limitgames.agents.hex_search`): the rules engine imports no agent.

Rules: ``rules/hex.md`` (every gap in the rulebooks decided), after the
nestorgames rules and the 2008 rules by Cameron Browne.
"""

from limitgames.core import register
from limitgames.hex.game import HexGame
from limitgames.hex.info import HEX_INFO
from limitgames.hex.position import position_json, state_from_position
from limitgames.hex.state import HexState

GAME = register(HexGame())

__all__ = ["GAME", "HEX_INFO", "HexGame", "HexState", "position_json", "state_from_position"]
