"""The agent interface, spec strings and the agent registry.

A spec is ``name`` or ``name:key=value,key=value`` (``mcts:seconds=1,playouts=heuristic``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from limitgames.core import Action, LimitGamesError, ModuleLoadError, State
from limitgames.translation import gettext


class AgentSpecError(LimitGamesError, ValueError):
    """A spec string naming an unknown agent or a bad option."""


class Agent(ABC):
    """A computer player.

    Attributes:
        spec: the spec string it was made from.
        last_info: what the agent reports about its last choice (for example
            ``{"visits": 812, "share": 0.41, "value": 0.63}``); may be empty.
    """

    name: str = "agent"

    def __init__(self, spec: str, seed: int | None = None) -> None:
        self.spec = spec
        self.rng = random.Random(seed)
        self.last_info: dict[str, Any] = {}
        self._fitted: str | None = None

    @staticmethod
    def legal_actions_of(state: State) -> list[Action]:
        """``state.legal_actions()``; raises ValueError if the game is over (nothing to choose)."""
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the game is over: there is no action to choose")
        return actions

    @abstractmethod
    def choose(self, state: State) -> Action:
        """A legal action for ``state.current_player()``. ``state`` is not changed."""

    def check_game(self, game_id: str) -> None:  # noqa: B027 - optional hook
        """Refuse a game this agent's options do not fit (default: every game fits).

        Raises:
            AgentSpecError: a one-line message naming the option the game does not take.
        """

    def fit_game(self, game_id: str) -> None:
        """:meth:`check_game`, once per game id (agents call it when first asked to choose).

        Raises:
            AgentSpecError: as :meth:`check_game`.
        """
        if self._fitted != game_id:
            self.check_game(game_id)
            self._fitted = game_id

    def observe(self, state: State, action: Action) -> None:  # noqa: B027 - optional hook
        """Told every action played in the game (by any seat), before it is applied to ``state``."""

    def reset(self) -> None:  # noqa: B027 - optional hook
        """Forget everything about the previous game."""


AgentFactory = Callable[[str, dict[str, str], "int | None"], Agent]
_AGENTS: dict[str, tuple[AgentFactory, str]] = {}


def register_agent(name: str, factory: AgentFactory, help: str) -> None:
    """Make ``name`` available to :func:`make_agent`; ``factory(spec, options, seed)`` builds one."""
    _AGENTS[name] = (factory, help)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"mcts:seconds=1,c=1.4"`` into ``("mcts", {"seconds": "1", "c": "1.4"})``."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise AgentSpecError(f"agent option {item!r} in {spec!r} is not key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def make_agent(spec: str, seed: int | None = None, game: str | None = None) -> Agent:
    """Build an agent from its spec, for the game ``game`` if given.

    Raises:
        AgentSpecError: an unknown name or option, or (with ``game``) an option that game
            does not take (:meth:`Agent.check_game`; without ``game`` the agent refuses it
            when first asked to choose).
        ModuleLoadError: a module of the project's agents failed to import.
    """
    name, options = parse_spec(spec)
    _load_builtin_agents()
    if name not in _AGENTS:
        known = ", ".join(sorted(_AGENTS))
        raise AgentSpecError(
            gettext("unknown agent %(name)r (known: %(known)s)") % {"name": name, "known": known}
        )
    factory, _ = _AGENTS[name]
    agent = factory(spec, options, seed)
    if game is not None:
        agent.fit_game(game)
    return agent


def list_agents() -> dict[str, str]:
    """Every registered agent name with its one-line help. Raises ModuleLoadError (see
    :func:`make_agent`)."""
    _load_builtin_agents()
    return {name: help for name, (_, help) in sorted(_AGENTS.items())}


def _load_builtin_agents() -> None:
    """Import the modules that register the project's own agents.

    Raises:
        ModuleLoadError: one of them failed to import (an agent is never left out quietly).
    """
    import importlib

    for module in BUILTIN_AGENT_MODULES:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise ModuleLoadError(module, exc, "the project's agents") from exc


BUILTIN_AGENT_MODULES: list[str] = [
    "limitgames.agents.random_agent",
    "limitgames.agents.heuristic",
    "limitgames.agents.mcts",
    "limitgames.agents.hex_mcts",
    "limitgames.agents.puct",
    "limitgames.agents.ismcts",
    "limitgames.agents.alphabeta",
    "limitgames.agents.world_nation",
]
"""Modules that register the project's own agents when imported."""
