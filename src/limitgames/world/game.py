"""The ``world`` game: Poyé's LIMIT for 2-6 nations (metadata and factory)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from limitgames.core import Chance, Game, State, VariantError
from limitgames.world.data import embed_overrides, variant_data
from limitgames.world.info import WORLD_INFO


def _not_solo(variant: dict[str, Any]) -> dict[str, Any]:
    """``variant``, unless it is solo mode, which has no research encoding (one seat, the event
    pile drawn during play). Raises VariantError."""
    if variant.get("solo"):
        raise VariantError("solo mode has no research encoding (use players=2-6)")
    return variant


class WorldGame(Game):
    """Poyé's LIMIT, a civilization game after the World3 model (rules: ``rules/world.md``).

    Variant parameters: ``players`` (2-6), ``alliances`` (``auto``: the alliance step on for
    4-6 nations, off for 2-3; ``on``; ``off``), ``solo`` (one seat against the star nation), ``data`` (a TOML file overriding
    values of the shipped ``data.toml``; read once, embedded into ``overrides`` and dropped, so
    a record replays without the file), ``overrides`` (the same as JSON text), ``stress_tests`` (how many stress
    tests before scoring; default the data's ``end.stress_tests``), ``returns``
    (``win``: +1 for the sole nation with the best score, 0 for each of several sharing it,
    -1 for the others; ``score``: the final scores).
    """

    info = WORLD_INFO

    def new_initial_state(
        self, seed: int | None = None, chance: Any = None, **variant: Any
    ) -> State:
        """A new game. Raises VariantError for a bad parameter or data file."""
        from limitgames.world.game_state import WorldGameState

        resolved = embed_overrides(self.info.resolve_variant(variant))
        if resolved.get("solo"):
            resolved["players"] = 2  # you and the star nation (p24); one seat decides
        data = variant_data(resolved)
        if resolved["stress_tests"] is None:
            resolved["stress_tests"] = data.end["stress_tests"]
        return WorldGameState(resolved, data, chance if chance is not None else Chance(seed))

    def encoding_spec(self, **variant: Any) -> Any:
        """The fixed sizes of ``variant`` for the research adapters (:mod:`limitgames.world.encoding`)."""
        from limitgames.world.encoding import encoding_spec

        return encoding_spec(_not_solo(self.info.resolve_variant(variant)))

    def setup_chance(self, **variant: Any) -> Any:
        """The start player and the deck shuffles as explicit chance nodes (:mod:`limitgames.world.encoding`)."""
        from limitgames.world.encoding import WorldSetupChance

        _not_solo(self.info.resolve_variant(variant))
        return WorldSetupChance(self, variant)

    def state_from_position(self, position: Mapping[str, Any], chance: Any = None) -> State:
        """A game from a position at a step of a generation (see ``world.position``); ``chance``
        hands back the outcomes drawn since (the cards told in a refereed game).

        Raises PositionError naming the wrong field.
        """
        from limitgames.world.position import state_from_position

        return state_from_position(position, chance=chance)
