"""limitgames: play and study the three games called Limit.

- ``hex``: Cameron Browne's Limit (abstract, hexagonal tiles).
- ``cards``: Uwe Rosenberg's Limits (bluffing card game).
- ``world``: Alexandre Poyé's LIMIT (civilization game after World3).

The rules engines sit on :mod:`limitgames.core`, the game protocol.
"""

__version__ = "0.1.0"
