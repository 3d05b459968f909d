"""The engines' words that the lobby shows, marked for the translation catalogues.

The games describe themselves and their variant parameters in English
(``GameInfo.description``, ``Parameter.help``, parameter names and choices);
the lobby shows them translated (:func:`limitgames.web.app.catalog`,
``static/lobby.js``). The engines stay free of the web layer, so their words
are listed here with :func:`~limitgames.translation.N_` for Babel to extract;
``tests/web/test_languages.py`` fails when an engine's text is not listed
(then copy the new text here and run ``scripts/translations.sh``).
"""

from __future__ import annotations

from limitgames.translation import N_

DESCRIPTIONS: tuple[str, ...] = (
    N_(
        "An abstract game of movement and capture on a surface of hexagonal tiles that shrinks "
        "every turn."
    ),
    N_(
        "Play colour cards on a pile without exceeding a limit card that hidden cards raise; "
        "suspect a player of having exceeded it. The limit cards shipped are a reconstruction."
    ),
    N_(
        "Seven generations of political, social and international phases: 37 politics cards per "
        "nation, a marketplace, wars, financial, environmental and military crises, and a score "
        "of happiness, money, territory, military and historical impact."
    ),
)
"""Each game's ``GameInfo.description``."""

PARAMETER_HELP: tuple[str, ...] = (
    N_("nestorgames (coloured tiles laid at random) or 2008 (placement phase)"),
    N_("2 (red, blue / white, red) or 3 (+ yellow / black)"),
    N_("tiles per colour and pawns per player (4 x size tiles)"),
    N_(
        "random (nestorgames: colours dealt to the seats by chance; red moves first) or fixed "
        "(seat 1 red, seat 2 blue, seat 3 yellow); the 2008 edition always seats white, red, black"
    ),
    N_(
        "nestorgames: how the tiles are laid at random: grown (tile by tile into a compact "
        "group, as hands lay them at a table) or uniform (every legal layout equally likely: "
        "mostly long thin shapes)"
    ),
    N_("number of players"),
    N_(
        "how a game's result is counted for agents and tournaments: win (+1 for the sole winner, "
        "0 for a shared win, -1 for the others) or score (points minus 2 per limit card taken)"
    ),
    N_("number of nations"),
    N_("stress tests before scoring (0-2; default from the data)"),
    N_(
        "the optional alliance step (p21): auto (on for 4-6 nations, off for 2-3, as the "
        "rulebook advises), on or off"
    ),
    N_(
        "solo mode (p24): you against the star nation, an event card instead of the alliance "
        "step (sets players to 2)"
    ),
    N_(
        "deck: cards are drawn from the top of the shuffled decks; table: a referee tells the "
        "cards drawn at a real table (chance outcomes 'cards', see limit referee)"
    ),
    N_(
        "how a game's result is counted for agents and tournaments: win (+1 for the sole best "
        "score, 0 when shared, -1 for the others) or score"
    ),
)
"""Each variant parameter's ``help``."""

PARAMETER_WORDS: tuple[str, ...] = (
    N_("edition"),
    N_("players"),
    N_("size"),
    N_("colours"),
    N_("layout"),
    N_("returns"),
    N_("stress_tests"),
    N_("alliances"),
    N_("solo"),
    N_("draws"),
    N_("data"),
)
"""The parameters' names, as the lobby labels them (their choices are values, shown as they
are typed: the help texts name them)."""

LEVEL_WORDS: tuple[str, ...] = (N_("random"), N_("easy"), N_("medium"), N_("hard"), N_("expert"))
"""The computer's levels."""
