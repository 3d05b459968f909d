"""Computer players, written against the game protocol only.

An agent is made from a spec string (``"random"``, ``"mcts:seconds=1"``) by
:func:`make_agent` and asked for an action with ``agent.choose(state)``.
An agent for a game with hidden information never reads the hidden parts of
``state``: it uses ``state.determinize(seat, rng)`` and ``state.observation(seat)``.
"""

from limitgames.agents.base import Agent, AgentSpecError, list_agents, make_agent, register_agent

__all__ = ["Agent", "AgentSpecError", "list_agents", "make_agent", "register_agent"]
