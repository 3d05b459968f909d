"""The three games as PettingZoo AEC environments (``pip install limitgames[pettingzoo]``).

``from limitgames.pettingzoo import hex_v0, cards_v0, world_v0``; ``hex_v0.env(size=6)``.
The version suffix is bumped whenever an environment's behaviour changes.
"""

from limitgames.pettingzoo import cards_v0, hex_v0, world_v0

__all__ = ["cards_v0", "hex_v0", "world_v0"]
