"""The LIMIT computer nation (``agents/world_nation.py``): the crisis terms of its value, its
personalities, its options and the world levels built on it."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from limitgames.agents import LEVELS, AgentSpecError, level_spec, make_agent
from limitgames.agents.ismcts import InfoNode
from limitgames.agents.world_nation import (
    CRISIS_COST,
    END_COST,
    PERSONALITIES,
    RANK_SCALE,
    SPREAD,
    NationAgent,
    crisis_outlook,
    crisis_penalty,
    mix,
    nation_scores,
    nation_values,
)
from limitgames.world.nation import INDUSTRIAL
from limitgames.world.state import WorldState
from tests.world.scenario import at_policy, new_state, set_board


def three_crises(pollution_reserve: int) -> WorldState:
    """Generation 4 of a 4-nation game with 3 crisis tiles placed (an environmental one in
    generation 2; a financial and a military one this generation, so neither can come again
    now): only an environmental tile can still come this generation, and it would be the 4th."""
    state = new_state(players=4, seed=3)
    state.generation = 4
    state.crises = [[], ["environmental"], [], ["financial", "military"]]
    state.pollution_reserve = pollution_reserve
    return state


def test_an_empty_pollution_reserve_is_the_fourth_crisis() -> None:
    # Every plant at position 1 pollutes nothing (rulebook: positions 1-3 cost nothing), so a
    # reserve of 5 never empties: 3 tiles expected. An empty reserve brings the
    # environmental crisis for sure: 4.
    assert crisis_outlook(three_crises(5)) == pytest.approx(3.0)
    assert crisis_outlook(three_crises(0)) == pytest.approx(4.0)


def test_the_chance_of_a_crisis_grows_as_the_reserve_shrinks() -> None:
    # One industrial plant at position 5 adds 1 pollution a generation (rulebook example:
    # "produces 10 ... lose 2 and receive 1"). With 3 tokens left the chance is 1 / (1 + 3).
    state = three_crises(3)
    state.nations[0].plants[INDUSTRIAL] = 5
    assert crisis_outlook(state) == pytest.approx(3.25)
    state.pollution_reserve = 1  # 1 / (1 + 1)
    assert crisis_outlook(state) == pytest.approx(3.5)


def test_the_fourth_crisis_costs_every_nation_the_generations_it_cuts_off() -> None:
    # Generation 4 of 7: a 4th tile for sure costs one crisis (CRISIS_COST) and the 3
    # generations it cuts off (END_COST each): 8 + 3 x 5 = 23 points with today's weights.
    assert crisis_penalty(4.0, 3, 3) == pytest.approx(CRISIS_COST + 3 * END_COST)
    # a quarter of a crisis, which would be the 4th: a quarter of each term
    assert crisis_penalty(3.25, 3, 3) == pytest.approx(0.25 * CRISIS_COST + 0.75 * END_COST)
    # a crisis expected early (1 placed, 1.5 expected) cuts nothing off
    assert crisis_penalty(1.5, 1, 5) == pytest.approx(0.5 * CRISIS_COST)
    # every nation's projected score is lower by exactly that amount
    safe, doomed = nation_scores(three_crises(5)), nation_scores(three_crises(0))
    for a, b in zip(safe, doomed, strict=True):
        assert a - b == pytest.approx(CRISIS_COST + 3 * END_COST)


def test_the_evaluation_prefers_the_action_that_avoids_the_fourth_crisis() -> None:
    # One pollution token left on the reserve, 3 crises placed. Extraction (5 $, 1 pollution,
    # 2 fossil) takes the last token: the environmental crisis, the 4th, ends the game after
    # this generation. Passing keeps it. The nation's plants sit at position 1 (no fossil
    # needed), so the 2 fossil gain it nothing either way; every personality passes.
    state = three_crises(1)
    nation = at_policy(state, 0, ["extraction"])
    set_board(nation, money=20)
    children = {}
    for action in (("play", "extraction"), ("pass",)):
        child = state.clone()
        child.apply(action)
        children[action[0]] = child
    assert crisis_outlook(children["play"]) == pytest.approx(4.0)
    assert crisis_outlook(children["pass"]) == pytest.approx(3.0)
    for personality in PERSONALITIES.values():
        played = nation_values(children["play"], personality)
        passed = nation_values(children["pass"], personality)
        assert passed[0] > played[0]
    # the whole world loses by it: every nation's projected score falls
    for a, b in zip(nation_scores(children["pass"]), nation_scores(children["play"]), strict=True):
        assert a > b


def test_values_mix_own_score_world_and_rank() -> None:
    # Scores 65, 15, 40, 40: the mean is 40 (world term 0). Seat 0, balanced (0.6 own, 0.1
    # world, 0.3 rank): 0.6 tanh(25 / 25) + 0.3 tanh((65 - 95 / 3) / 15).
    values = mix([65.0, 15.0, 40.0, 40.0], PERSONALITIES["balanced"])
    lead = 65.0 - (15.0 + 40.0 + 40.0) / 3
    assert values[0] == pytest.approx(
        0.6 * math.tanh(25.0 / SPREAD) + 0.3 * math.tanh(lead / RANK_SCALE)
    )
    assert all(-1.0 <= v <= 1.0 for v in values)


def test_personalities_weigh_a_wrecked_world_differently() -> None:
    # Seat 0 leads a wrecked world (30 against 20, 20, 20) or ties in a living one (50 each).
    # Competitive (0.3 own, 0.7 rank): 0.3 tanh(-10/25) + 0.7 tanh(10/15) = -0.114 + 0.408
    # = 0.294 against 0.3 tanh(10/25) = 0.114: it takes the wreck. Cooperative (0.5 own,
    # 0.5 world): 0.5 tanh(-0.4) + 0.5 tanh(-0.7) = -0.49 against tanh(0.4) = 0.38; balanced:
    # -0.113 against 0.266. Both keep the world alive.
    wrecked, alive = [30.0, 20.0, 20.0, 20.0], [50.0] * 4
    assert (
        mix(wrecked, PERSONALITIES["competitive"])[0] > mix(alive, PERSONALITIES["competitive"])[0]
    )
    assert (
        mix(wrecked, PERSONALITIES["cooperative"])[0] < mix(alive, PERSONALITIES["cooperative"])[0]
    )
    assert mix(wrecked, PERSONALITIES["balanced"])[0] < mix(alive, PERSONALITIES["balanced"])[0]
    assert mix(wrecked, PERSONALITIES["balanced"])[0] == pytest.approx(-0.113, abs=1e-3)


def test_the_independent_nation_plays_for_its_own_score_only() -> None:
    # independent (1 own, 0 world, 0 rank): tanh((score - 40) / 25), whatever the others
    # score. Seat 0 at 50 is worth tanh(0.4) = 0.380 beside 20s or beside 70s.
    independent = PERSONALITIES["independent"]
    beside_poor = mix([50.0, 20.0, 20.0, 20.0], independent)[0]
    beside_rich = mix([50.0, 70.0, 70.0, 70.0], independent)[0]
    assert beside_poor == pytest.approx(beside_rich) == pytest.approx(0.380, abs=1e-3)
    # a crisis still costs it in full: it lowers every nation's projected score by the same
    # CRISIS_COST + 3 x END_COST (test above), its own included
    safe, doomed = (
        nation_values(three_crises(5), independent),
        nation_values(three_crises(0), independent),
    )
    assert safe[0] > doomed[0]


def test_a_finished_game_is_worth_its_final_scores() -> None:
    state = new_state(players=2, seed=1)
    agents = [make_agent("heuristic", 7), make_agent("heuristic", 8)]
    while not state.is_terminal():
        state.apply(agents[state.current_player()].choose(state))
    assert nation_scores(state) == [float(s) for s in state.scores]


def test_an_unknown_personality_is_refused_with_its_name() -> None:
    with pytest.raises(AgentSpecError, match="personality='greedy'"):
        make_agent("nation:personality=greedy")
    with pytest.raises(AgentSpecError, match=r"unknown option.*mood"):
        make_agent("nation:mood=calm")
    with pytest.raises(AgentSpecError, match="width"):
        make_agent("nation:width=0")
    agent = make_agent("nation:personality=competitive,iterations=10,seconds=1")
    assert isinstance(agent, NationAgent)
    assert agent.personality == PERSONALITIES["competitive"]
    assert agent.budget.iterations == 10 and agent.budget.seconds == 1.0


def test_world_levels_build_and_are_defined_by_work() -> None:
    for level in LEVELS:
        agent = make_agent(level_spec("world", level), seed=1)
        if level != "easy":
            assert isinstance(agent, NationAgent)
            # work per decision, with a wall-time cap
            assert agent.budget.iterations is not None and agent.budget.seconds is not None
    iterations = [
        make_agent(level_spec("world", level)).budget.iterations  # type: ignore[attr-defined]
        for level in LEVELS[1:]
    ]
    assert iterations == sorted(iterations) and len(set(iterations)) == len(iterations)


def test_the_nation_never_reads_hidden_cards_and_plays_legal_moves() -> None:
    rng = random.Random(0)
    state = new_state(players=2, seed=4)
    for _ in range(5):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    seat = state.current_player()
    for k in range(2):
        twin = state.determinize(seat, random.Random(100 + k))
        assert twin.observation(seat) == state.observation(seat)
        first, second = make_agent("nation:iterations=20", 5), make_agent("nation:iterations=20", 5)
        chosen = first.choose(state)
        assert chosen == second.choose(twin)
        first.last_info.pop("seconds", None)
        second.last_info.pop("seconds", None)
        assert first.last_info == second.last_info
        state.clone().apply(chosen)  # legal (an amount from a form's range included)


def test_the_search_overrules_the_rule_of_thumb_only_by_a_clear_margin() -> None:
    # Root children in the rule of thumb's order; seat 0's mean is totals / visits.
    # The second looks 0.10 better on 10 visits (margin 0.05, at least 8 visits): played.
    # Only 0.02 better: the rule of thumb's first stays. 0.10 better on 4 visits: too few.
    agent = make_agent("nation:iterations=10", 1)
    assert isinstance(agent, NationAgent)

    def node(action: tuple[str, ...], mean: float, visits: int) -> InfoNode:
        n = InfoNode(None, action, 2)
        n.visits, n.totals = visits, [mean * visits, 0.0]
        return n

    agent._first = ("pass",)
    first = node(("pass",), 0.10, 20)
    assert agent.pick([first, node(("play", "education"), 0.20, 10)], 0).action != ("pass",)
    assert agent.pick([first, node(("play", "education"), 0.12, 10)], 0) is first
    assert agent.pick([first, node(("play", "education"), 0.20, 4)], 0) is first


def test_the_tree_stops_at_its_plies() -> None:
    """``plies=1`` (the default) judges each root option one decision past the root, on a fresh
    determinization each iteration; a deeper tree also expands the decisions after it (the
    mover's follow-up, the other nations' replies) in random order, whose means then average
    mostly random continuations (docs/agents.md, "The computer nation")."""
    state = new_state(players=2, seed=4)
    start = len(state.history())
    depths: dict[int, set[int]] = {}
    for plies in (1, 3):
        agent = make_agent(f"nation:iterations=30,plies={plies}", 2)
        assert isinstance(agent, NationAgent)
        made = agent.make_leaf

        def recording(root: WorldState, made: Any = made, plies: int = plies) -> Any:
            leaf = made(root)

            def judged(det: WorldState, rng: random.Random) -> list[float]:
                depths.setdefault(plies, set()).add(len(det.history()) - start)
                return list(leaf(det, rng))

            return judged

        agent.make_leaf = recording  # type: ignore[method-assign]
        agent.choose(state)
    assert depths[1] == {1}
    assert max(depths[3]) > 1 and max(depths[3]) <= 3
    with pytest.raises(AgentSpecError, match="plies"):
        make_agent("nation:plies=0")
