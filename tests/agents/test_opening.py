"""The opening's deeper search (``opening=T,opening_work=F`` of ``hexmcts`` and ``puct``).

Expected budgets are worked by hand from the rule in ``agents/opening.py``: the movement
phase's turns ``1..T`` get ``F`` times the iterations (the cap unchanged), or ``F`` times the
seconds for a budget of time only; ``turn`` counts every seat's turns from 1
(``rules/hex.md``, first move equaliser).
"""

from __future__ import annotations

import pytest

from limitgames.agents import make_agent
from limitgames.agents.base import AgentSpecError
from limitgames.agents.budget import Budget
from limitgames.agents.opening import Opening
from limitgames.core import get_game
from limitgames.hex.state import HexState


def _after_turns(state: HexState, turns: int) -> HexState:
    """``state`` after ``turns`` whole turns played by the first legal action of each step."""
    state = state.clone()
    start = state.turn
    while state.turn < start + turns:
        state.apply(state.legal_actions()[0])
    return state


def test_the_budget_is_raised_in_the_first_turns_only() -> None:
    state = get_game("hex").new_initial_state(seed=2, size=6)
    assert isinstance(state, HexState) and state.turn == 1
    opening = Opening(turns=2, work=3.0)
    work = Budget(iterations=1000, seconds=3.0)
    # turn 1 (red's move, then its removal) and turn 2 (blue's) are the opening
    assert opening.budget(state, work) == Budget(3000, 3.0)  # the cap is not raised
    state.apply(state.legal_actions()[0])  # red's move: the removal of turn 1 follows
    assert state.turn == 1 and opening.budget(state, work) == Budget(3000, 3.0)
    second = _after_turns(state, 1)
    assert second.turn == 2 and opening.budget(second, work) == Budget(3000, 3.0)
    third = _after_turns(second, 1)
    assert third.turn == 3 and opening.budget(third, work) == work
    # a budget of time only: the time itself is the work
    assert opening.budget(state, Budget(seconds=1.0)) == Budget(None, 3.0)
    assert opening.budget(third, Budget(seconds=1.0)) == Budget(None, 1.0)
    # off: no turns, or a factor of 1
    assert Opening(0, 3.0).budget(state, work) == work
    assert Opening(2, 1.0).budget(state, work) == work


def test_the_2008_placement_phase_and_other_games_are_not_boosted() -> None:
    placing = get_game("hex").new_initial_state(seed=3, size=4, edition="2008")
    assert isinstance(placing, HexState) and placing.placement is not None
    work = Budget(iterations=100)
    assert Opening(6, 3.0).budget(placing, work) == work
    cards = get_game("cards").new_initial_state(seed=1)
    assert Opening(6, 3.0).budget(cards, work) == work


@pytest.mark.parametrize("agent", ["hexmcts:reuse=no", "puct:reuse=no"])
def test_the_search_does_the_raised_work(agent: str) -> None:
    state = get_game("hex").new_initial_state(seed=5, size=8)
    assert isinstance(state, HexState)
    searcher = make_agent(f"{agent},iterations=40,opening=1,opening_work=2.5", seed=1, game="hex")
    searcher.choose(state)
    assert searcher.last_info["iterations"] == 100  # 40 x 2.5 on turn 1
    later = _after_turns(state, 1)
    searcher.choose(later)
    assert searcher.last_info["iterations"] == 40


def test_bad_opening_options_are_refused_by_name() -> None:
    with pytest.raises(AgentSpecError, match="opening_work must be at least 1"):
        make_agent("hexmcts:iterations=10,opening=3,opening_work=0.5", game="hex")
    with pytest.raises(AgentSpecError, match="opening must be at least 0"):
        make_agent("puct:iterations=10,opening=-1", game="hex")
    with pytest.raises(AgentSpecError, match=r"opening_work=.*is not a number"):
        make_agent("puct:iterations=10,opening_work=lots", game="hex")
    with pytest.raises(AgentSpecError, match=r"unknown option.*opening"):
        make_agent("mcts:iterations=10,opening=3", game="hex")
