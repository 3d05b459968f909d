"""``limitgames.pettingzoo.hex_v0``: the game ``hex`` as a PettingZoo AEC environment (see :mod:`.env`).

``env(**variant)`` is wrapped as PettingZoo's classic environments are; ``raw_env`` is not.
"""

from __future__ import annotations

from typing import Any

from limitgames.pettingzoo.env import LimitAECEnv, make_env

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """A wrapped environment (``render_mode``, ``max_cycles`` and the game's variant parameters)."""
    return make_env("hex", **kwargs)


def raw_env(**kwargs: Any) -> LimitAECEnv:
    """The unwrapped environment."""
    return LimitAECEnv("hex", **kwargs)
