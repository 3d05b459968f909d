"""The game protocol, records, registry and errors. Standard library only."""

from limitgames.core.chance import Chance, fresh_seed, seed_commitment
from limitgames.core.errors import (
    IllegalActionError,
    LimitGamesError,
    MissingExtraError,
    ModuleLoadError,
    NotationError,
    PositionError,
    RecordError,
    VariantError,
)
from limitgames.core.protocol import (
    TERMINAL,
    Action,
    AmountForm,
    Game,
    GameInfo,
    Parameter,
    State,
    parse_variant_options,
)
from limitgames.core.record import GameRecord
from limitgames.core.registry import (
    UnknownGameError,
    available_games,
    get_game,
    register,
)

__all__ = [
    "TERMINAL",
    "Action",
    "AmountForm",
    "Chance",
    "Game",
    "GameInfo",
    "GameRecord",
    "IllegalActionError",
    "LimitGamesError",
    "MissingExtraError",
    "ModuleLoadError",
    "NotationError",
    "Parameter",
    "PositionError",
    "RecordError",
    "State",
    "UnknownGameError",
    "VariantError",
    "available_games",
    "fresh_seed",
    "get_game",
    "parse_variant_options",
    "register",
    "seed_commitment",
]
