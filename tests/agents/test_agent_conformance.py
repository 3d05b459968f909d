"""Every agent returns a legal action and leaves the state alone, on every registered game.

Whether agents keep their time budget (+10%) is measured, not tested:
``benchmarks/bench_budgets.py`` prints each agent's CPU and wall time per decision.

Runs over ``available_games()`` (the project's engines that have landed) and
the toy games of the test suite, so it grows as engines are added. Positions
are taken along a random game (the start, and later positions).
"""

from __future__ import annotations

import pytest

import tests.agents.toy_tricks
import tests.core.toy  # noqa: F401 - registers toy-nim
from limitgames.agents import AgentSpecError, list_agents, make_agent
from limitgames.core import State, available_games
from limitgames.testing import positions_along_a_game

BUDGET = 0.2

SPECS = [
    "random",
    "heuristic",
    "heuristic:epsilon=0.5",
    f"mcts:seconds={BUDGET}",
    f"ismcts:seconds={BUDGET}",
    f"alphabeta:seconds={BUDGET}",
    "mcts:iterations=25,playouts=random",
    "ismcts:iterations=25",
    "alphabeta:depth=2",
    f"hexmcts:seconds={BUDGET}",
    "hexmcts:iterations=25,playouts=tactical",
    "nation:iterations=25",
    "puct:iterations=25,batch=8",
]
ONLY_FOR = {"hexmcts": {"hex"}, "puct": {"hex"}}
"""Agents made for some games only; the others refuse them (checked below)."""
SMALL_VARIANTS = {"hex": {"size": 4}, "cards": {"players": 3}}


def test_every_builtin_agent_is_checked() -> None:
    from limitgames.agents import base

    list_agents()  # loads the built-in agents
    builtin = {
        name
        for name, (factory, _) in base._AGENTS.items()
        if factory.__module__ in base.BUILTIN_AGENT_MODULES
    }
    checked = {spec.partition(":")[0] for spec in SPECS}
    assert builtin and builtin <= checked, "add a spec for each new agent to SPECS"


def positions(game_id: str, count: int = 3, seed: int = 3) -> list[State]:
    """``count`` positions along one random game, on the small variants."""
    return positions_along_a_game(game_id, count, seed, SMALL_VARIANTS.get(game_id, {}))


@pytest.mark.parametrize("game_id", sorted({*available_games(), "toy-nim", "toy-tricks"}))
@pytest.mark.parametrize("spec", SPECS)
def test_agent_returns_a_legal_action(game_id: str, spec: str) -> None:
    games = ONLY_FOR.get(spec.partition(":")[0])
    if games is not None and game_id not in games:
        with pytest.raises(AgentSpecError, match="plays only"):
            make_agent(spec, seed=1, game=game_id)
        return
    agent = make_agent(spec, seed=1, game=game_id)
    for state in positions(game_id):
        before = state.observation(None)
        action = agent.choose(state)
        assert state.is_legal(action), f"{spec} chose {action!r}, illegal in {game_id}"
        assert state.observation(None) == before, f"{spec} changed the state it was given"
        state.apply(action)
