"""Limits (Uwe Rosenberg, AMIGO 2001): the rules engine for the game id ``cards``.

Pure library: imports only :mod:`limitgames.core` and the standard library.
Modules: ``material`` (colours, limit cards and their sets), ``notation``
(actions and their notation), ``rules`` (the state and how play goes on),
``observe`` (observations and determinizations), ``encoding`` (the research
encodings), ``game_state`` (the state of every game: the rules with its
observations and encodings), ``game`` (metadata).
"""

from limitgames.cards.game import RULES_VERSION, CardsGame
from limitgames.cards.game_state import CardsGameState
from limitgames.cards.material import (
    COLOURS,
    NO_LIMIT,
    LimitCardsError,
    LimitCardSet,
    default_limit_cards,
    load_limit_cards,
    parse_limit_cards,
)
from limitgames.cards.notation import EXCHANGE, HIDE, NUM_ACTIONS, PASS, PLAY, SUSPECT
from limitgames.cards.rules import CardsState
from limitgames.core.registry import register

CARDS: CardsGame = CardsGame()
register(CARDS)

__all__ = [
    "CARDS",
    "COLOURS",
    "EXCHANGE",
    "HIDE",
    "NO_LIMIT",
    "NUM_ACTIONS",
    "PASS",
    "PLAY",
    "RULES_VERSION",
    "SUSPECT",
    "CardsGame",
    "CardsGameState",
    "CardsState",
    "LimitCardSet",
    "LimitCardsError",
    "default_limit_cards",
    "load_limit_cards",
    "parse_limit_cards",
]
