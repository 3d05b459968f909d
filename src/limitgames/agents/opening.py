"""A deeper search in hex's opening: more work for the decisions of the first turns.

The exact solver shows that most games of hex are decided within the first three turns
(``docs/agents.md``, "When the games are decided"): a mistake there is rarely recovered, and
one late in the game is often of no consequence. A search that spends the same work on every
decision spends too little where it counts. The ``opening`` options of ``hexmcts`` and
``puct`` give the decisions of the movement phase's first ``opening`` turns (both steps of a
turn, the move and the removal; ``turn`` counts every turn of every seat from 1, as the first
move equaliser does, ``rules/hex.md``) ``opening_work`` times the budget:

- a budget of work (``iterations``) gets that many times the iterations; a wall-time cap
  given with it is **not** raised, so a level still answers within its cap;
- a budget of time only (``seconds``) gets that many times the seconds.

The 2008 placement phase is not boosted (its search is the Python UCT with its own
``placement`` budget).
"""

from __future__ import annotations

from dataclasses import dataclass

from limitgames.agents.base import AgentSpecError
from limitgames.agents.budget import Budget, OptionReader
from limitgames.core import State
from limitgames.hex.state import HexState

__all__ = ["Opening", "read_opening"]


@dataclass(frozen=True)
class Opening:
    """How much more work the opening's decisions get.

    Attributes:
        turns: the movement phase's first ``turns`` turns are the opening (0: none).
        work: the factor on the budget there (at least 1).
    """

    turns: int = 0
    work: float = 1.0

    def budget(self, state: State, budget: Budget) -> Budget:
        """The budget of the decision at ``state``: ``budget`` itself outside the opening,
        else its iterations (with a cap: the cap unchanged) or, for a budget of time only,
        its seconds times :attr:`work`. Only a hex position in its movement phase can be in
        the opening (``HexState.turn``)."""
        if self.turns <= 0 or self.work == 1.0 or not _in_opening(state, self.turns):
            return budget
        if budget.iterations is not None:
            return Budget(max(1, round(budget.iterations * self.work)), budget.seconds)
        assert budget.seconds is not None
        return Budget(None, budget.seconds * self.work)


def _in_opening(state: State, turns: int) -> bool:
    if not isinstance(state, HexState) or state.kernel_vector() is None:
        return False
    return state.turn <= turns


def read_opening(reader: OptionReader) -> Opening:
    """The ``opening=T`` (turns, default 0: off) and ``opening_work=F`` (default 3, at least
    1) options of a hex search agent.

    Raises:
        AgentSpecError: for a value that is not a number in range (the option is named).
    """
    turns = reader.integer("opening", 0, minimum=0)
    work = reader.number("opening_work", 3.0, minimum=0.0)
    assert turns is not None and work is not None
    if work < 1.0:
        raise AgentSpecError(
            f"{reader.agent}: option opening_work must be at least 1 (got {work:g})"
        )
    return Opening(turns, work)
