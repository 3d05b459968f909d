"""Position evaluations: one number per seat saying how well each seat stands.

An evaluation is a function ``evaluate(state) -> list[float]`` returning one
value per seat in ``[-1, 1]`` (1: that seat is winning, -1: losing), on the
same scale as ``State.returns()`` of the project's games. A terminal state is
worth its returns. Evaluations read only what every seat may see (the
spectator's observation, or the engine's public feature API) so that search
agents on games with hidden information stay honest.

Each game's evaluation lives in its own module (``hex_evaluation`` ...),
listed in :data:`EVALUATION_MODULES` and loaded on first use. A game without
one gets :func:`neutral_evaluation`. A module may also define a rule-of-thumb
``policy(state, rng) -> action`` (games with hidden information, where a
one-ply evaluation of a determinization says little); the ``heuristic``
agent then plays it.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from limitgames.agents.base import AgentSpecError
from limitgames.core import Action, ModuleLoadError, State

Evaluation = Callable[[State], list[float]]
"""``evaluate(state) -> [value of seat 0, value of seat 1, ...]``, each in ``[-1, 1]``."""

EVALUATION_MODULES: dict[str, str] = {
    "hex": "limitgames.agents.hex_evaluation",
    "cards": "limitgames.agents.cards_evaluation",
    "world": "limitgames.agents.world_evaluation",
}
"""game id -> module defining ``evaluate(state) -> list[float]``."""

Solver = Callable[[State, float, "int | None"], "tuple[list[float], Action] | None"]
"""``solve(state, seconds, nodes) -> (exact values per seat, a best action)``, or ``None`` when
the position is too big or not solved within ``seconds`` or ``nodes`` positions (``None``: no
node limit) (a module-level ``solve`` of the game's module)."""


Policy = Callable[[State, random.Random], Action]
"""``policy(state, rng) -> action``: a game's rule-of-thumb choice for the seat to move,
reading only what the seat knows: ``state.observation(seat)``, the legal actions and their
forms, or a determinization ``state.determinize(seat, rng)``."""

_CUSTOM: dict[str, Evaluation] = {}
_POLICIES: dict[str, Policy | None] = {}


def register_evaluation(game_id: str, evaluate: Evaluation) -> None:
    """Use ``evaluate`` for the game ``game_id`` (for games added by users and tests)."""
    _CUSTOM[game_id] = evaluate


def outcome_values(returns: Sequence[float]) -> list[float]:
    """Final returns as results: 1 for the sole top seat, 0 for a shared top, -1 otherwise.

    Search agents back these up, so they play to win (as tournaments count)
    whatever scale a game's returns use (``returns=score`` variants give points).
    """
    best = max(returns)
    top = sum(1 for r in returns if r == best)
    return [(1.0 if top == 1 else 0.0) if r == best else -1.0 for r in returns]


def neutral_evaluation(state: State) -> list[float]:
    """The results of a terminal state, else 0 for every seat (no knowledge)."""
    if state.is_terminal():
        return outcome_values(state.returns())
    return [0.0] * state.num_players


def evaluation_for(game_id: str, variant: str | None = None) -> Evaluation:
    """The evaluation of ``game_id``: a registered one, the game's module, or the neutral one.

    ``variant`` names another evaluation of the game's module (its ``EVALUATIONS``
    dict, e.g. hex's ``hand``), for comparisons.

    Raises:
        ValueError: an unknown ``variant``.
        ModuleLoadError: the game's evaluation module failed to import.
    """
    if variant is not None:
        module_name = EVALUATION_MODULES.get(game_id)
        table = (
            getattr(importlib.import_module(module_name), "EVALUATIONS", {}) if module_name else {}
        )
        if variant not in table:
            known = ", ".join(sorted(table)) or "none"
            raise ValueError(f"{game_id} has no evaluation {variant!r} (known: {known})")
        chosen: Evaluation = table[variant]
        return chosen
    if game_id in _CUSTOM:
        return _CUSTOM[game_id]
    module = _evaluation_module(game_id)
    if module is not None:
        evaluate: Evaluation = module.evaluate
        _CUSTOM[game_id] = evaluate
        return evaluate
    return neutral_evaluation


def _evaluation_module(game_id: str) -> Any:
    """The evaluation module of ``game_id`` (:data:`EVALUATION_MODULES`), or ``None`` if it has
    none.

    Raises:
        ModuleLoadError: it failed to import (never taken for a game without an evaluation,
            which would quietly weaken every agent that uses it).
    """
    module_name = EVALUATION_MODULES.get(game_id)
    if module_name is None:
        return None
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise ModuleLoadError(module_name, exc, f"the evaluation of {game_id!r}") from exc


def policy_for(game_id: str) -> Policy | None:
    """The game's rule-of-thumb policy (a module-level ``policy``), or ``None``. Raises
    ModuleLoadError (see :func:`evaluation_for`)."""
    if game_id not in _POLICIES:
        module = _evaluation_module(game_id)
        found: Policy | None = getattr(module, "policy", None) if module is not None else None
        _POLICIES[game_id] = found
    return _POLICIES[game_id]


def playout_depth_for(game_id: str, default: int = 12) -> int:
    """The game's cut-off for heuristic playouts (a module-level ``PLAYOUT_DEPTH``), or
    ``default``. Raises ModuleLoadError (see :func:`evaluation_for`)."""
    module = _evaluation_module(game_id)
    if module is None:
        return default
    return int(getattr(module, "PLAYOUT_DEPTH", default))


def has_evaluation(game_id: str) -> bool:
    """Whether ``game_id`` has an evaluation of its own (not the neutral one)."""
    return evaluation_for(game_id) is not neutral_evaluation


def squash(margins: list[float], scale: float) -> list[float]:
    """Turn raw per-seat scores into values in ``(-1, 1)``.

    Each seat's value is ``tanh((score - mean of the other seats' scores) / scale)``.
    """
    n = len(margins)
    if n == 1:
        return [math.tanh(margins[0] / scale)]
    total = sum(margins)
    return [math.tanh((m - (total - m) / (n - 1)) / scale) for m in margins]


def solver_for(game_id: str) -> Solver | None:
    """The game's exact solver (a module-level ``solve`` in its evaluation module), if it has one."""
    module_name = EVALUATION_MODULES.get(game_id)
    if module_name is None:
        return None
    solver: Solver | None = getattr(importlib.import_module(module_name), "solve", None)
    return solver


def solved_choice(
    state: State, seconds: float, nodes: int | None = None
) -> tuple[Action, dict[str, Any]] | None:
    """The game's exact solver on ``state`` within ``seconds`` and, if given, ``nodes``
    positions searched (work: the same answer under any load): a best action and the
    ``last_info`` saying so (``depth: "exact"``, ``value``, ``win``, ``proven``, ``seconds``),
    or ``None`` (no solver, too big, or not solved within its budget)."""
    solver = solver_for(state.game_id)
    if solver is None:
        return None
    started = time.perf_counter()
    solved = solver(state, seconds, nodes)
    if solved is None:
        return None
    values, action = solved
    value = values[state.current_player()]
    return action, {
        "depth": "exact",
        "value": value,
        "win": (value + 1) / 2,
        "proven": {1.0: "win", 0.0: "draw", -1.0: "loss"}.get(value, "?"),
        "seconds": round(time.perf_counter() - started, 3),
    }


def check_evaluation_option(agent: str, variant: str | None, game_id: str) -> None:
    """Refuse ``eval=variant`` for a game whose evaluation module has no such evaluation.

    Raises:
        AgentSpecError: naming the option ``eval`` and the evaluations the game has.
    """
    if variant is None:
        return
    try:
        evaluation_for(game_id, variant)
    except ValueError as exc:
        raise AgentSpecError(f"{agent}: option eval={variant} does not fit: {exc}") from None


def check_solve_option(agent: str, solve: bool, game_id: str) -> None:
    """Refuse ``solve=yes`` for a game without an exact solver.

    Raises:
        AgentSpecError: naming the option ``solve``.
    """
    if solve and solver_for(game_id) is None:
        raise AgentSpecError(
            f"{agent}: option solve=yes does not fit {game_id!r}: it has no exact solver"
        )
