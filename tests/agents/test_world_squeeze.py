"""The crisis outlook's ``squeeze`` (``outlook=squeeze`` of ``nation``): the disruption tokens the
next social phase will push past the unrest track's end (``world_evaluation.overflow_ahead``),
checked against hand reasoning on the rulebook's tracks (``world/data.toml``: level values
1, 2, 3, 5, 10, 20, 30, 50, 100; unrest track of 11; growth +1 population position at class C
SoL 1-2; 3 unrest per population level unfed; the store keeps at most 10 renewable)."""

from __future__ import annotations

import pytest

from limitgames.agents import AgentSpecError, make_agent
from limitgames.agents.world_evaluation import overflow_ahead
from limitgames.agents.world_nation import crisis_outlook
from limitgames.world.state import WorldState
from tests.world.scenario import new_state, set_board


def squeezed(**fields: object) -> WorldState:
    """Generation 4 of 4 nations (seed 3), nation 0's board set by ``fields``, every other
    nation well fed at unrest 6."""
    state = new_state(players=4, seed=3)
    state.generation = 4
    for n in state.nations[1:]:
        set_board(n, population=2, renewable=4, stock_renewable=10, unrest=6, sol="11111")
    set_board(state.nations[0], **fields)
    return state


HUNGRY = dict(population=5, renewable=4, stock_renewable=3, unrest=9, sol="11111")
"""Population at position 5 grows to 6 (level 20); food: 3 kept plus the renewable plant's 5
= 8; 20 > 8, level(5) = 10 > 8, level(4) = 5 <= 8: 2 population levels unfed. Unrest 9, class
struggle A - E = 0, plus 3 x 2 = 15: 4 steps past 11, 4 tokens."""


def test_a_people_that_outgrows_its_land_overflows_the_unrest_track() -> None:
    state = squeezed(**HUNGRY)
    assert overflow_ahead(state.data, state.nations[0]) == 4
    # class struggle: A at 3, E at 1 adds 2 more steps
    set_board(state.nations[0], sol="33111")
    assert overflow_ahead(state.data, state.nations[0]) == 6
    # fed: a full store (10 kept of 20) and the plant at 5 (10) give 20 = level(6): no step
    set_board(state.nations[0], sol="11111", stock_renewable=20, renewable=5)
    assert overflow_ahead(state.data, state.nations[0]) == 0
    # the well-fed others: population 2 grows to 3 (level 3), food 10 + 5: nothing
    assert all(overflow_ahead(state.data, n) == 0 for n in state.nations[1:])


def test_the_squeeze_raises_the_chance_of_the_military_crisis() -> None:
    """Disruption reserve 14 (6 + 2 x 4). Without the squeeze the need is one token per nation
    (4) and unrest 9 is not past 9: 4 / (4 + 14). With it, nation 0 adds its 4 tokens ahead:
    8 / (8 + 14). No crisis is placed; the World Bank and the pollution reserve give the other
    two kinds the same chances either way."""
    state = squeezed(**HUNGRY)
    assert state.disruption_reserve == 14
    plain = crisis_outlook(state)
    ahead = crisis_outlook(state, squeeze=True)
    assert ahead - plain == pytest.approx(8 / 22 - 4 / 18)


def test_the_outlook_option_is_checked_by_name() -> None:
    make_agent("nation:outlook=squeeze,iterations=4", seed=1, game="world")
    with pytest.raises(AgentSpecError, match="outlook='soon'"):
        make_agent("nation:outlook=soon", game="world")
