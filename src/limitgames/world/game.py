"""The ``world`` game: Poyé's LIMIT for 2-6 nations (metadata and factory)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from limitgames.core import Chance, Game, GameInfo, Parameter, State, VariantError
from limitgames.world.data import embed_overrides, variant_data


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

    info = GameInfo(
        id="world",
        title="LIMIT",
        designer="Alexandre Poyé",
        year=2023,
        min_players=2,
        max_players=6,
        parameters=(
            Parameter("players", "int", 4, "number of nations", minimum=2, maximum=6),
            Parameter(
                "data",
                "path",
                None,
                "a TOML file overriding values of the game data (see docs/world.md)",
            ),
            Parameter(
                "overrides",
                "str",
                None,
                "values of the game data as JSON, like a data file (a record embeds the data "
                "file's values here)",
                local=True,
            ),
            Parameter(
                "stress_tests",
                "int",
                None,
                "stress tests before scoring (0-2; default from the data)",
                minimum=0,
                maximum=2,
            ),
            Parameter(
                "alliances",
                "str",
                "auto",
                "the optional alliance step (p21): auto (on for 4-6 nations, off for 2-3, as the "
                "rulebook advises), on or off",
                choices=("auto", "on", "off"),
            ),
            Parameter(
                "solo",
                "bool",
                False,
                "solo mode (p24): you against the star nation, an event card instead of the "
                "alliance step (sets players to 2)",
            ),
            Parameter(
                "draws",
                "str",
                "deck",
                "deck: cards are drawn from the top of the shuffled decks; table: a referee tells "
                "the cards drawn at a real table (chance outcomes 'cards', see limit referee)",
                choices=("deck", "table"),
            ),
            Parameter(
                "returns",
                "str",
                "win",
                "how a game's result is counted for agents and tournaments: win (+1 for the sole "
                "best score, 0 when shared, -1 for the others) or score",
                choices=("win", "score"),
            ),
        ),
        rules_version="world-3",  # world-3: the alliance step (on by default at 4-6 nations), solo
        # mode; world-2: the full-effect rule for every card; readings
        rules_doc="docs/rules/world.md; usage in docs/world.md",
        perfect_information=False,
        description=(
            "Seven generations of political, social and international phases: 37 politics cards per "
            "nation, a marketplace, wars, financial, environmental and military crises, and a score of "
            "happiness, money, territory, military and historical impact."
        ),
    )

    def new_initial_state(
        self, seed: int | None = None, chance: Any = None, **variant: Any
    ) -> State:
        """A new game. Raises VariantError for a bad parameter or data file."""
        from limitgames.world.state import WorldState

        resolved = embed_overrides(self.info.resolve_variant(variant))
        if resolved.get("solo"):
            resolved["players"] = 2  # you and the star nation (p24); one seat decides
        data = variant_data(resolved)
        if resolved["stress_tests"] is None:
            resolved["stress_tests"] = data.end["stress_tests"]
        return WorldState(resolved, data, chance if chance is not None else Chance(seed))

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
