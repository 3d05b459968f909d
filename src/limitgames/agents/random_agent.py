"""The uniformly random agent: every legal action equally likely."""

from __future__ import annotations

from limitgames.agents.base import Agent, AgentSpecError, register_agent
from limitgames.core import Action, State


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def choose(self, state: State) -> Action:
        actions = self.legal_actions_of(state)
        return actions[self.rng.randrange(len(actions))]


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    if options:
        raise AgentSpecError(f"random takes no options (got {', '.join(options)})")
    return RandomAgent(spec, seed)


register_agent("random", _make, "uniformly random legal actions")
