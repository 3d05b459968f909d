"""What Poyé's LIMIT is: its metadata and variant parameters (``rules/world.md``)."""

from __future__ import annotations

from limitgames.core import GameInfo, Parameter
from limitgames.translation import N_

__all__ = ["WORLD_INFO"]

WORLD_INFO = GameInfo(
    id="world",
    title="LIMIT",
    designer="Alexandre Poyé",
    year=2023,
    min_players=2,
    max_players=6,
    parameters=(
        Parameter(
            "players",
            "int",
            4,
            N_("number of nations"),
            minimum=2,
            maximum=6,
            label=N_("nations"),
        ),
        Parameter(
            "data",
            "path",
            None,
            N_("a TOML file overriding values of the game data (see docs/world.md)"),
            label=N_("data"),
        ),
        Parameter(
            "overrides",
            "str",
            None,
            N_(
                "values of the game data as JSON, like a data file (a record embeds the data "
                "file's values here)"
            ),
            local=True,
            label=N_("data values"),
        ),
        Parameter(
            "stress_tests",
            "int",
            None,
            N_("stress tests before scoring (0-2; default from the data)"),
            minimum=0,
            maximum=2,
            label=N_("stress tests"),
        ),
        Parameter(
            "alliances",
            "str",
            "auto",
            N_(
                "the optional alliance step (p21): auto (on for 4-6 nations, off for 2-3, as "
                "the rulebook advises), on or off"
            ),
            choices=("auto", "on", "off"),
            label=N_("alliances"),
            choice_labels=(N_("auto (4-6 nations)"), N_("on"), N_("off")),
        ),
        Parameter(
            "solo",
            "bool",
            False,
            N_(
                "solo mode (p24): you against the star nation, an event card instead of the "
                "alliance step (sets players to 2)"
            ),
            label=N_("solo"),
        ),
        Parameter(
            "money",
            "str",
            "crises",
            N_(
                "the value of money at scoring (p23): crises (5 points per 10 $, 1 less per "
                "crisis tile) or fixed (the rulebook's variant: money has the same value "
                "whatever the state of the world, 2 points per 10 $)"
            ),
            choices=("crises", "fixed"),
            label=N_("money"),
            choice_labels=(N_("5 per 10 $, less per crisis"), N_("2 per 10 $, fixed")),
        ),
        Parameter(
            "draws",
            "str",
            "deck",
            N_(
                "deck: cards are drawn from the top of the shuffled decks; table: a referee "
                "tells the cards drawn at a real table (chance outcomes 'cards', see limit "
                "referee)"
            ),
            choices=("deck", "table"),
            label=N_("draws"),
            choice_labels=(N_("deck (shuffled)"), N_("table (a referee tells)")),
        ),
        Parameter(
            "returns",
            "str",
            "win",
            N_(
                "how a game's result is counted for agents and tournaments: win (+1 for the "
                "sole best score, 0 when shared, -1 for the others) or score"
            ),
            choices=("win", "score"),
            label=N_("returns"),
            choice_labels=(N_("win"), N_("score")),
        ),
    ),
    rules_version="world-3",  # world-3: the alliance step (on by default at 4-6 nations), solo
    # mode; world-2: the full-effect rule for every card; readings
    rules_doc="docs/rules/world.md; usage in docs/world.md",
    perfect_information=False,
    description=N_(
        "Seven generations of political, social and international phases: 37 politics cards "
        "per nation, a marketplace, wars, financial, environmental and military crises, and a "
        "score of happiness, money, territory, military and historical impact."
    ),
)
"""The ``world`` game's metadata; its variant parameters are explained on
:class:`limitgames.world.game.WorldGame`."""
