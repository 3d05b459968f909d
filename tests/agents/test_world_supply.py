"""The supply step as the computer nation projects it (``world_evaluation.supplied``, the
``shortage=board`` option of ``nation``, levels hard and expert): a position before the supply
step is judged as it will stand after it, the same way as the position after it."""

from __future__ import annotations

import random

import pytest

from limitgames.agents import AgentSpecError, level_spec, make_agent
from limitgames.agents.world_evaluation import (
    BEFORE_SUPPLY,
    SHORTAGE_PLANTS,
    plan_value,
    supplied,
)
from limitgames.agents.world_nation import NationAgent, nation_scores
from limitgames.world.data import PLANTS
from limitgames.world.nation import RENEWABLE
from limitgames.world.social import column_c, supply
from limitgames.world.state import OPTIONS, RESOLVE, WorldState
from tests.world.scenario import at_policy, new_state, set_board


def through_policy(state: WorldState) -> WorldState:
    """Every nation passes until the political phase is over (the game then runs on to its
    next choice: the supply shortage's plant levels, or later)."""
    while state.stage == "decide_policy":
        legal = state.legal_actions()
        state.apply(("pass",) if ("pass",) in legal else legal[0])
    return state


def hungry(market_renewable: int = 10) -> WorldState:
    """Generation 3 of 4 nations (seed 3), seat 0 to play with Market Access in hand,
    population at position 5 (eats 10 renewable at supply), no renewable in stock, 40 $, the
    renewable plant at 2, unrest 6; the marketplace holds ``market_renewable`` renewable at
    price position 3 (2 $ each). The other nations hold Market Access and have not passed."""
    state = new_state(players=4, seed=3)
    state.generation = 3
    nation = at_policy(state, 0, ["market-access"])
    set_board(nation, population=5, stock_renewable=0, money=40, renewable=2, unrest=6)
    state.market_stock[RENEWABLE] = market_renewable
    state.market_price[RENEWABLE] = 3
    return state


def test_the_supply_shortage_is_projected_onto_the_board() -> None:
    # Population position 5 eats 10; a stock of 0 feeds no level: 5 levels short. Each level
    # costs a population level (5 -> 0, kept at 1), a plant level and 3 steps of unrest:
    # 6 + 15 = 21 on a track of 11, so 10 disruption tokens. Of the 5 plant levels only the
    # renewable plant's one (2 -> 1) can go: the others stand at 1.
    state = hungry()
    board, overflow = supplied(state, 0)
    assert board.population == 1
    assert board.unrest == 11 and overflow == 10 and board.disruption == 10
    assert board.plants == [1, 1, 1] and board.stock[RENEWABLE] == 0
    assert state.nations[0].population == 5  # the nation's own board is untouched
    # fed: 10 renewable in stock, nothing changes but the stock (10 eaten)
    set_board(state.nations[0], stock_renewable=12)
    board, overflow = supplied(state, 0)
    assert (board.population, board.unrest, overflow, board.stock[RENEWABLE]) == (5, 6, 0, 2)


def test_preventing_the_shortage_is_worth_more_than_letting_it_happen() -> None:
    # The position of docs/agents.md, "Why more search wrecked the world": Market Access and
    # 10 renewable bought (20 $) feed the population; passing, when every other nation passes
    # too, carries the game through the supply step with the 5 levels unfed. Judged by the
    # penalty (9 points a level before supply, the board after it) the starved nation after
    # supply looked better than the fed one before it; projected, the fed one is worth more
    # (it keeps its population and unrest and takes no disruption token).
    state = hungry()
    fed = state.clone()
    fed.apply(("play", "market-access"))
    fed.apply(("buy", 10, "renewable"))
    assert fed.nations[0].stock[RENEWABLE] == 10 and fed.stage == "decide_policy"
    starved = state.clone()
    starved.apply(("pass",))
    through_policy(starved)
    assert starved.nations[0].disruption == 10  # the shortage happened
    assert nation_scores(fed, projected=True)[0] > nation_scores(starved, projected=True)[0]
    assert plan_value(fed, 0, projected=True) > plan_value(starved, 0, projected=True)
    # passing now (other nations still to play) is judged as the same starvation to come
    passed = state.clone()
    passed.apply(("pass",))
    assert passed.stage == "decide_policy"
    assert nation_scores(fed, projected=True)[0] > nation_scores(passed, projected=True)[0]


def test_a_position_is_worth_the_same_just_before_and_just_after_supply() -> None:
    # Population position 5 eats 10; 3 in stock feed position 3: 2 levels short. After the
    # supply step the population stands at 3, unrest 8 + 6 = 14 -> 11 and 3 disruption
    # tokens, and the nation owes 2 plant levels (a choice still to make: military 2 -> 1,
    # then renewable 3 -> 2, industrial being at 1). Projected, the position before is the
    # position after: same value; the penalty gave -2.9 against 14.2.
    state = new_state(players=4, seed=3, alliances="off")
    state.generation = 3
    nation = at_policy(state, 0, [])
    set_board(nation, population=5, stock_renewable=3, money=40, renewable=3, military=2, unrest=8)
    for other in state.nations[1:]:
        other.passed, other.hand = True, []
    after = state.clone()
    after.apply(("pass",))
    assert after.stage == "supply" and after.pending[-1].kind == "plant"
    moved = after.nations[0]
    assert (moved.population, moved.unrest, moved.disruption) == (3, 11, 3)
    assert moved.plants == [3, 1, 2]  # the 2 levels are still to be chosen
    assert supplied(after, 0)[0].plants == supplied(state, 0)[0].plants == [2, 1, 1]
    before_value, after_value = plan_value(state, 0, True), plan_value(after, 0, True)
    assert before_value == pytest.approx(after_value, abs=1.0)
    assert nation_scores(state, True)[0] == pytest.approx(nation_scores(after, True)[0], abs=1.0)
    assert abs(plan_value(state, 0) - plan_value(after, 0)) > 10.0  # the penalty's horizon


def engine_supply(state: WorldState, seat: int) -> tuple[list[int], int]:
    """The reference: the engine's own supply step (``world/social.py``) on a copy, the plant
    levels it owes lowered through the engine's plant choice, taking the first plant it
    offers in :data:`SHORTAGE_PLANTS` order. Returns the board's (population, unrest,
    disruption, renewable stock, plants) and the disruption tokens the nation gained."""
    copy = state.clone()
    nation = copy.nations[seat]
    held = nation.disruption
    supply(copy, nation, column_c(nation))
    for choice in list(copy.deferred):
        copy.deferred.remove(choice)
        while choice is not None:
            offered = OPTIONS["plant"](copy, choice)
            if not offered:
                break
            names = [PLANTS[i] for i in SHORTAGE_PLANTS]
            action = min(offered, key=lambda a: names.index(str(a[1])))
            copy.pending = []
            RESOLVE["plant"](copy, choice, action)
            choice = copy.pending.pop() if copy.pending else None
    board = [nation.population, nation.unrest, nation.disruption, nation.stock[RENEWABLE]]
    return board + list(nation.plants), nation.disruption - held


def test_the_projection_agrees_with_the_engines_supply_step() -> None:
    # Differential: boards drawn at random (population, renewable stock, unrest, plants,
    # Vegetarianism) projected by ``supplied`` and run through the engine's supply step.
    rng = random.Random(24)
    for _ in range(200):
        state = new_state(players=4, seed=3)
        state.stage = "social_start"
        nation = state.nations[0]
        set_board(
            nation,
            population=rng.randint(1, 9),
            stock_renewable=rng.randint(0, 30),
            unrest=rng.randint(1, 11),
            renewable=rng.randint(1, 5),
            industrial=rng.randint(1, 4),
            military=rng.randint(1, 4),
            territory=5,
            disruption=rng.randint(0, 3),
        )
        nation.permanent = ["vegetarianism"] if rng.random() < 0.3 else []
        state.disruption_reserve = rng.randint(0, 14)
        board, overflow = supplied(state, 0)
        projected = [board.population, board.unrest, board.disruption, board.stock[RENEWABLE]]
        assert (projected + list(board.plants), overflow) == engine_supply(state, 0)


def test_the_shortage_option_sets_the_projection_and_only_hard_and_expert_use_it() -> None:
    assert make_agent("nation:iterations=10").projected is False  # type: ignore[attr-defined]
    agent = make_agent("nation:iterations=10,shortage=board")
    assert isinstance(agent, NationAgent) and agent.projected
    with pytest.raises(AgentSpecError, match="shortage='soon'"):
        make_agent("nation:shortage=soon")
    for level, projected in (("medium", False), ("hard", True), ("expert", True)):
        built = make_agent(level_spec("world", level))
        assert isinstance(built, NationAgent) and built.projected is projected
    assert "shortage" not in level_spec("world", "medium")


def test_the_projection_is_skipped_only_where_it_changes_nothing() -> None:
    # plan_value makes the projected board only before the supply step or while a plant
    # choice is owed; elsewhere it reads the nation's own board. That shortcut holds if,
    # at every other decision, supplied() would give the nation's own board and no token:
    # checked at every decision of a seeded 2-nation heuristic game.
    state = new_state(players=2, seed=6)
    agent = make_agent("heuristic", 2)
    skipped = 0
    while not state.is_terminal():
        owed = any(c.kind == "plant" for c in (*state.pending, *state.deferred))
        if state.stage not in BEFORE_SUPPLY and not owed:
            for seat, nation in enumerate(state.nations):
                board, overflow = supplied(state, seat)
                assert board.key() == nation.key() and overflow == 0
            skipped += 1
        state.apply(agent.choose(state))
    assert skipped >= 5  # consumption, production, crises... of every generation
