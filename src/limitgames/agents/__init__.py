"""Computer players, written against the game protocol only.

An agent is made from a spec string (``"random"``, ``"mcts:seconds=1"``) by
:func:`make_agent` and asked for an action with ``agent.choose(state)``.
An agent for a game with hidden information never reads the hidden parts of
``state``: it uses ``state.determinize(seat, rng)`` and ``state.observation(seat)``.

Built-in agents: ``random``, ``heuristic`` (one-ply greedy with the game's
evaluation), ``mcts`` (UCT, max-n), ``hexmcts`` (hex only: the compiled MCTS of
:mod:`limitgames.agents.hex_search`), ``alphabeta`` (iterative deepening with a
transposition table), ``ismcts`` (single-observer information-set MCTS). An
option a game does not take is refused with its name (``make_agent(spec,
game=...)``, or at the agent's first move).
People pick a level instead: :func:`level_spec` (easy, medium, hard, expert).
"""

from limitgames.agents.base import (
    BUILTIN_AGENT_MODULES,
    Agent,
    AgentSpecError,
    list_agents,
    make_agent,
    register_agent,
)
from limitgames.agents.levels import LEVELS, is_level, level_spec

__all__ = [
    "BUILTIN_AGENT_MODULES",
    "LEVELS",
    "Agent",
    "AgentSpecError",
    "is_level",
    "level_spec",
    "list_agents",
    "make_agent",
    "register_agent",
]
