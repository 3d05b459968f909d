"""The world heuristic nation (``world_evaluation.policy``) and the cheap leaf evaluation."""

from __future__ import annotations

import random

import pytest

import tests.agents.world_careful  # noqa: F401 - registers the agent "careful"
from limitgames.agents.base import make_agent
from limitgames.agents.world_evaluation import (
    board_score,
    evaluate_observation,
    evaluate_state,
    plan_value,
    policy,
)
from limitgames.world.scoring import score_nation
from limitgames.world.state import Choice, WorldState
from tests.world.scenario import at_policy, new_state, set_board


def positions(games: int, players: int) -> list[WorldState]:
    """Positions of random games (every 3rd decision), veiled simultaneous steps included."""
    out: list[WorldState] = []
    for seed in range(games):
        state = new_state(players=players, seed=seed)
        rng = random.Random(seed)
        ply = 0
        while not state.is_terminal():
            if ply % 3 == 0:
                out.append(state.clone())
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            ply += 1
        out.append(state)
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_cheap_evaluation_equals_the_observation_one(players: int) -> None:
    states = positions(8, players)
    assert len(states) > 200
    assert any(s.veil for s in states)  # boards seen as before a simultaneous step's choices
    for state in states:
        assert evaluate_state(state) == pytest.approx(evaluate_observation(state), abs=1e-12)
        crises = sum(len(g) for g in state.crises)
        for nation in state.nations:  # the number the engine's scorecard adds up
            assert (
                board_score(state.data, nation, crises)
                == score_nation(state.data, nation, crises)["total"]
            )


def test_hungry_nation_feeds_before_it_educates() -> None:
    # Population 5 (position 4) eats 5 at the coming supply; it holds 2 renewable: 2 levels
    # short (a population level, a plant and unrest +3 each). Craftsmanship (1 $, gain 2 of a
    # resource: renewable) leaves it 1 level short; Education (+1 class A) only gains 2
    # happiness points. Expected: Craftsmanship, then renewable.
    state = new_state(players=4, seed=3)
    nation = at_policy(state, 0, ["education", "craftsmanship"])
    set_board(nation, population=4, renewable=2, stock_renewable=2, money=10)
    assert policy(state, random.Random(0)) == ("play", "craftsmanship")
    state.apply(("play", "craftsmanship"))
    assert policy(state, random.Random(0)) == ("gain", "renewable")


def test_surplus_is_sold_over_the_whole_range() -> None:
    # 30 renewable, population 2 (eats 2 now), renewable plant at 2 (2 a generation), class C
    # at 1 (population grows to 3, eating 3 next time): it needs 2 + 1 kept; the other 27
    # sell at 3 $ (0.5 points a $ with no crisis) against 0.05 for a spare unit. 27 is not in
    # the sampled legal list (1-10, 15, 22, 30), only in the form's range 1-30.
    state = new_state(players=4, seed=3)
    nation = at_policy(state, 0, ["market-access"])
    set_board(nation, population=2, renewable=2, stock_renewable=30, sol="11111")
    state.market_price[0] = 4  # 3 $ a unit
    state.apply(("play", "market-access"))
    assert state.pending[-1].kind == "trade"
    assert ("sell", 27, "renewable") not in state.legal_actions()
    assert policy(state, random.Random(0)) == ("sell", 27, "renewable")


def test_raise_goes_where_class_struggle_stays_low() -> None:
    # Classes 2,2,2,2,1 and unrest 8: raising A or E adds the same happiness (both count),
    # but class struggle adds A - E: raising A gives 8 + 2 = 10 (the uprising zone), raising
    # E gives 8 + 0. Expected: E.
    state = new_state(players=4, seed=3)
    nation = at_policy(state, 0, [])
    set_board(nation, sol="22221", unrest=8)
    state.pending = [Choice("raise", 0, (1, 0, "test"))]
    state._legal = None
    assert set(state.legal_actions()) == {("raise", "A"), ("raise", "E")}
    assert policy(state, random.Random(0)) == ("raise", "E")


def test_goods_for_consumption_count_while_supply_waits_on_a_choice() -> None:
    # At the supply step (a shortage's plant choice pending), consumption is still to come.
    # Class C at 3 and population 10 consume 10 industrial (rulebook p15). With 10 in stock
    # none is short; with 0 every population level (1, 2, 3, 5, 10: 5 levels) is short, at
    # SHORT_GOODS = 4 points each: 20 points. Next generation's need is the same in both (the
    # stock is used up), and industrial stock scores nothing: the difference is exactly 20.
    values = []
    for goods in (10, 0):
        state = new_state(players=2, seed=1)
        set_board(state.nations[0], population=5, sol="33311", stock_industrial=goods)
        state.stage = "supply"
        values.append(plan_value(state, 0))
    assert values[0] - values[1] == pytest.approx(20.0)


def test_a_standard_of_living_loss_left_to_place_counts() -> None:
    # Two steps of standard of living to lower, still on the stack: each costs the
    # demographic index of population 10 (2, rulebook p23), as a counted class would: 4 points.
    state = new_state(players=2, seed=1)
    set_board(state.nations[0], population=5, sol="33311")
    before = plan_value(state, 0)
    state.pending = [Choice("lower", 0, (2, 0, "test"))]
    assert before - plan_value(state, 0) == pytest.approx(4.0)


def test_four_heuristic_nations_play_to_the_end() -> None:
    state = new_state(players=4, seed=5)
    agents = [make_agent("heuristic", 50 + i) for i in range(4)]
    while not state.is_terminal():
        state.apply(agents[state.current_player()].choose(state))
    assert state.stage == "scoring" or state.is_terminal()
    assert (
        sum(len(g) for g in state.crises) <= 4 + 2
    )  # the game stops in the 4th crisis' generation
    assert len(state.returns()) == 4


def test_careful_player_plays_a_whole_game() -> None:
    state = new_state(players=4, seed=6)
    agents = [make_agent("careful", i) for i in range(2)] + [make_agent("heuristic", 9)] * 2
    while not state.is_terminal():
        state.apply(agents[state.current_player()].choose(state))
    assert len(state.returns()) == 4
