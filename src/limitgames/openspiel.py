"""The three games as OpenSpiel Python games (``pip install limitgames[openspiel]``).

Importing this module registers ``limitgames_hex``, ``limitgames_cards`` and
``limitgames_world`` with ``pyspiel``; every variant parameter of a game is a
game parameter (``pyspiel.load_game("limitgames_hex", {"size": 6, "players": 3})``;
the path parameters ``limit_cards`` / ``data`` take ``""`` for the shipped
data, an int parameter whose default is ``None`` takes ``-1`` for it (world's
``stress_tests``: the data's own count; cards' ``hand`` and ``limit_pile``: the
rulebook's), and
hex's 2008 edition is ``edition="ed2008"``, since OpenSpiel reads a bare
``2008`` back as a number).

- Chance is explicit: the setup's chance nodes of each engine
  (:class:`~limitgames.core.encoding.SetupChance`: hex's layout and colour
  deal; the shuffles and start player of cards and world) come first, each
  with its outcomes and their probabilities; no chance node comes later.
  hex's layout node offers ``layouts`` equally likely numbered layouts
  (parameter ``layouts``, default 65536).
- Actions are the engines' fixed indices (``num_distinct_actions``).
- The observer follows ``pyspiel.IIGObservationType``: ``perfect_recall``
  gives the information state string (the tensor stays the seat's
  observation tensor: no information-state tensor is declared);
  ``private_info`` ``SINGLE_PLAYER`` includes the seat's own cards,
  ``NONE`` blanks them (the public observation); ``ALL_PLAYERS`` is
  only offered for hex (perfect information). At a chance node the tensor is
  zeros and the string names the chance node (never an error).
- ``resample_from_infostate`` deals a state consistent with the seat's
  information through the engine's ``determinize`` (for ISMCTS).
- Returns: +1 / 0 / -1 (the project's scale), at the end only.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np

from limitgames.core import get_game
from limitgames.core.errors import missing_extra

try:
    import pyspiel
except ImportError as _error:  # name the extra to install, not just the module
    raise missing_extra(_error, ("pyspiel",), "openspiel", "limitgames.openspiel") from _error
from limitgames.core.protocol import TERMINAL
from limitgames.core.record import outcome_json

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_PRIVATE_SEGMENTS: dict[str, tuple[str, ...]] = {"cards": ("hand", "hidden"), "world": ("hand",)}


def _params_to_variant(game_id: str, params: dict[str, Any]) -> dict[str, Any]:
    variant = {k: v for k, v in params.items() if k != "layouts"}
    if variant.get("edition") == "ed2008":
        variant["edition"] = "2008"
    for key in ("limit_cards", "data"):
        if variant.get(key) == "":
            variant[key] = None
    for p in get_game(game_id).info.parameters:  # -1 stands for an int's "None" default
        if p.kind == "int" and p.default is None and variant.get(p.name, -1) == -1:
            variant[p.name] = None
    return variant


def _default_params(game_id: str) -> dict[str, Any]:
    info = get_game(game_id).info
    params: dict[str, Any] = {}
    for p in info.parameters:
        if p.kind == "path" or (p.default is None and p.kind == "str"):
            params[p.name] = ""
        elif p.default is None:
            params[p.name] = -1
        else:
            params[p.name] = p.default
    if game_id == "hex":
        params["layouts"] = 1 << 16
    return params


def _game_type(game_id: str, zero_sum: bool = False) -> Any:
    info = get_game(game_id).info
    perfect = info.perfect_information
    return pyspiel.GameType(
        short_name=f"limitgames_{game_id}",
        long_name=f"{info.title} ({info.designer}, limitgames)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if zero_sum
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_default_params(game_id),
    )


class LimitGame(pyspiel.Game):  # type: ignore[misc]
    """One of the three games, with its variant, as a ``pyspiel.Game``."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = _default_params(self.game_id)
        merged.update(params or {})
        self.engine = get_game(self.game_id)
        self.variant = self.engine.info.resolve_variant(_params_to_variant(self.game_id, merged))
        self.layouts = int(merged.get("layouts", 0))
        self.spec = self.engine.encoding_spec(**self.variant)
        spec = self.spec
        two = spec.players == 2 and spec.zero_sum
        game_info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_distinct_actions,
            max_chance_outcomes=self.layouts
            if self.game_id == "hex" and spec.max_chance_outcomes
            else spec.max_chance_outcomes,
            num_players=spec.players,
            min_utility=spec.min_utility,
            max_utility=spec.max_utility,
            utility_sum=0.0 if two else None,
            max_game_length=spec.max_game_length + spec.max_chance_nodes,
        )
        super().__init__(_game_type(self.game_id, two), game_info, merged)

    def new_initial_state(self) -> LimitState:
        return LimitState(self)

    def __deepcopy__(self, memo: Any) -> LimitGame:
        """A game is never changed once made: its copies are itself (``pyspiel`` deep-copies
        each attribute of a state it clones, this game among them)."""
        return self

    def new_setup_chance(self) -> Any:
        if self.game_id == "hex":
            from limitgames.hex.encoding import HexSetupChance

            return HexSetupChance(self.engine, self.variant, layouts=self.layouts)
        return self.engine.setup_chance(**self.variant)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LimitObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return LimitObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Held:
    """What a :class:`LimitState` holds: the setup's chance nodes and the engine's state.

    ``pyspiel`` clones a Python state by making a new initial state and deep-copying each
    attribute of the old one; this holder copies itself with the engine's cheap
    ``State.clone()`` and the setup's ``copy()`` instead of a generic deep copy.
    """

    __slots__ = ("inner", "player", "setup")

    def __init__(self, setup: Any, inner: Any, player: int | None = None) -> None:
        self.setup = setup
        self.inner = inner
        self.player = player
        """The current player in pyspiel's numbering, kept between actions (``None``: not
        known yet): pyspiel asks for it several times per action."""

    def __deepcopy__(self, memo: Any) -> _Held:
        return _Held(
            None if self.setup is None or self.inner is not None else self.setup.copy(),
            None if self.inner is None else self.inner.clone(),
            self.player,
        )


class LimitState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the setup's chance nodes, then the engine's state."""

    def __init__(self, game: LimitGame, inner: Any = None) -> None:
        super().__init__(game)
        self.lg = game
        # the setup's chance nodes are made on first use: a clone replaces them at once
        self._held = _Held(None, inner)

    def _made(self) -> _Held:
        """The holder, with the setup's chance nodes made if nothing was made yet (and the
        engine's state, if the setup draws nothing)."""
        held = self._held
        if held.setup is None and held.inner is None:
            held.setup = self.lg.new_setup_chance()
            if held.setup.is_done():
                held.inner = held.setup.initial_state()
        return held

    @property
    def inner(self) -> Any:
        """The engine's state once the setup's chance nodes are all played, else ``None``."""
        held = self._held
        return held.inner if held.inner is not None else self._made().inner

    @property
    def setup(self) -> Any:
        """The setup's chance nodes (:class:`~limitgames.core.encoding.SetupChance`); ``None``
        for a state made from an engine's state."""
        return self._made().setup

    # --- pyspiel's state API ---------------------------------------------------------------------
    # The state changes only through apply_action (the engine's state behind ``inner`` is not to
    # be changed directly), so the current player is kept from one action to the next; the
    # questions a rollout asks at every step (is_terminal, is_chance_node, legal_actions) are
    # answered here in Python without a round trip through pyspiel's C++ State.
    def current_player(self) -> int:
        held = self._held
        player = held.player
        if player is None:
            player = held.player = self._find_current_player()
        return player

    def _find_current_player(self) -> int:
        inner = self._held.inner
        if inner is None:
            inner = self._made().inner
            if inner is None:
                return _CHANCE
        player = inner.current_player()
        return _TERMINAL if player == TERMINAL else int(player)

    def is_chance_node(self) -> bool:
        return self.current_player() == _CHANCE

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the one to move), as pyspiel's C++ State
        gives them for a Python game: at a chance node the outcomes in the order of
        :meth:`chance_outcomes` (whoever asks), ``[]`` at the end or for a player not to move,
        else the indices in increasing order."""
        current = self.current_player()
        if current == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if current == _TERMINAL or (player is not None and player != current):
            return []
        return self._held.inner.legal_action_indices()  # type: ignore[no-any-return]

    def _legal_actions(self, player: int) -> list[int]:
        return self._held.inner.legal_action_indices()  # type: ignore[no-any-return]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.setup is not None and self.inner is None
        return list(self.setup.outcomes())

    def _apply_action(self, action: int) -> None:
        held = self._made()
        held.player = None
        if held.inner is None:
            setup = held.setup
            setup.apply(int(action))
            if setup.is_done():
                held.inner = setup.initial_state()
            return
        held.inner.apply_index(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self.setup.outcome_to_string(int(action)))
        return str(self.inner.action_to_string(self.inner.index_to_action(int(action))))

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        if self.inner is None:
            return [0.0] * self.lg.spec.players
        return [float(r) for r in self.inner.returns()]

    def outcome(self) -> dict[str, Any] | None:
        """Why and how the finished game ended (``{"termination": "last_with_pawns",
        "winners": [0], ...}``, :meth:`limitgames.core.events.Outcome.to_json`), or ``None``
        while it goes on (or when the engine does not say)."""
        return None if self.inner is None else outcome_json(self.inner)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any = None
    ) -> LimitState:
        """A state ``player_id`` cannot tell from this one, the unseen cards dealt at random
        (the engine's ``determinize``, seeded from ``probability_sampler()`` when given, a
        callable returning floats in [0, 1), else from Python's ``random``)."""
        seed = (
            int(probability_sampler() * 2**53)
            if callable(probability_sampler)
            else random.getrandbits(63)
        )
        return LimitState(self.lg, self.inner.determinize(player_id, random.Random(seed)))

    def __deepcopy__(self, memo: Any) -> LimitState:
        other = LimitState(self.lg)
        other._held = self._held.__deepcopy__(memo)
        return other

    def __str__(self) -> str:
        if self.inner is None:
            return f"setup chance node {len(self.setup.applied)}"
        return str(self.inner)


class LimitObserver:
    """An observer following ``pyspiel.IIGObservationType`` (see the module docstring)."""

    def __init__(self, game: LimitGame, iig_obs_type: Any) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS and game.game_id != "hex":
            raise ValueError("only hex (perfect information) has an all-players observer")
        self.private = private != pyspiel.PrivateInfoType.NONE
        self.public = bool(iig_obs_type.public_info)
        size = int(np.prod(game.spec.observation_shape))
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor.reshape(game.spec.observation_shape)}
        self._blank = self._private_slices()

    def _private_slices(self) -> list[slice]:
        game_id = self.game.game_id
        if self.private or game_id not in _PRIVATE_SEGMENTS:
            return []
        if game_id == "cards":
            from limitgames.cards.encoding import SEGMENTS
        else:
            from limitgames.world.data import variant_data
            from limitgames.world.encoding import segments

            SEGMENTS = segments(variant_data(self.game.variant))
        out, at = [], 0
        for name, size in SEGMENTS:
            if name in _PRIVATE_SEGMENTS[game_id]:
                out.append(slice(at, at + size))
            at += size
        return out

    def set_from(self, state: LimitState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state`` (zeros at a chance node)."""
        if state.inner is None or not self.public:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = np.asarray(
            state.inner.observation_tensor(player), dtype=np.float32
        ).reshape(-1)
        for part in self._blank:
            self.tensor[part] = 0.0

    def string_from(self, state: LimitState, player: int) -> str:
        """The information state string (perfect recall), or the observation as JSON (the
        public one without ``private_info``); finished rounds (cards) are left to perfect recall."""
        if state.inner is None:
            return f"setup chance node {len(state.setup.applied)}"
        if self.perfect_recall:
            return str(state.inner.information_state_string(player))
        public = not self.private and self.game.game_id != "hex"
        obs = dict(state.inner.observation(None if public else player))
        obs.pop("rounds", None)
        return json.dumps(obs, sort_keys=True, separators=(",", ":"), default=str)


class HexOpenSpielGame(LimitGame):
    """``limitgames_hex``: Browne's Limit."""

    game_id = "hex"


class CardsOpenSpielGame(LimitGame):
    """``limitgames_cards``: Rosenberg's Limits."""

    game_id = "cards"


class WorldOpenSpielGame(LimitGame):
    """``limitgames_world``: Poyé's LIMIT."""

    game_id = "world"


def determinize_resampler(state: LimitState, player: int) -> LimitState:
    """For ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``: our determinization."""
    return state.resample_from_infostate(player, None)


for _cls in (HexOpenSpielGame, CardsOpenSpielGame, WorldOpenSpielGame):
    pyspiel.register_game(_game_type(_cls.game_id), _cls)

__all__ = [
    "CardsOpenSpielGame",
    "HexOpenSpielGame",
    "LimitGame",
    "LimitObserver",
    "LimitState",
    "WorldOpenSpielGame",
    "determinize_resampler",
]
