"""The ``puct`` agent (limitgames.agents.puct): legal moves on every size, a win in one, its work
budget and its time cap, its options refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from limitgames.agents import AgentSpecError, make_agent
from limitgames.agents.hex_network import HexNetwork
from limitgames.agents.puct import PuctSearch
from limitgames.core import get_game
from tests.hex.positions import load


@pytest.mark.parametrize("size", [2, 3, 4, 8])
def test_a_legal_move_and_a_legal_removal_on_every_size(size: int) -> None:
    state = get_game("hex").new_initial_state(seed=size, size=size)
    agent = make_agent("puct:iterations=48,batch=8", seed=1, game="hex")
    for _ in range(2):  # the move, then the removal of the same turn
        if state.is_terminal():
            break
        action = agent.choose(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_a_win_in_one_is_played() -> None:
    """Red (seat 0) on b1 next to the empty c1; blue's only pawn on d1 has c1 as its one
    freedom (d1's other neighbour cells hold no tile): b1-c1 captures it and wins at once
    (``rules/hex.md``: a player with no pawns is out, the last one with pawns wins). Every
    other move lets blue live; checked here on clones, not by the agent's own code."""
    tiles = {(0, 0): 0, (1, 0): None, (2, 0): 1, (0, 1): None, (-1, 1): None, (-1, 2): None}
    state = load(tiles, turn=5)
    winning = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        if child.is_terminal() and child.returns()[0] == 1.0:
            winning.add(action)
    assert [state.action_to_string(a) for a in winning] == ["b1-c1"]
    assert len(state.legal_actions()) == 4
    agent = make_agent("puct:iterations=8", seed=2, game="hex")
    assert agent.choose(state) in winning
    assert agent.last_info["proven"] == "win"
    # the search itself (without the shortcut: the win a node deeper) finds it too
    search = PuctSearch(HexNetwork.random(3), batch=4)
    search._winning_action = lambda s: None  # type: ignore[method-assign]
    action, info = search.search(state, 200, None)
    assert action in winning and info["value"] == 1.0


def test_work_is_counted_exactly_and_gives_the_same_move_under_any_load() -> None:
    state = get_game("hex").new_initial_state(seed=7, size=6)
    moves = []
    for _ in range(2):
        agent = make_agent("puct:iterations=37,batch=8", seed=5, game="hex")
        moves.append(agent.choose(state))
        # 37 descents: four full batches of 8 and one of 5 (collisions end a batch early and
        # are not counted, so the count is exact whatever the batches)
        assert agent.last_info["iterations"] == 37
    assert moves[0] == moves[1]


def test_the_time_cap_stops_a_search_whose_work_would_take_hours() -> None:
    """No clock is read here: a search with 10**9 iterations (hours of work) and a cap of
    0.05 s returns having done far less of it."""
    state = get_game("hex").new_initial_state(seed=3, size=8)
    agent = make_agent("puct:iterations=1000000000,seconds=0.05", seed=1, game="hex")
    assert agent.choose(state) in state.legal_actions()
    assert 0 < agent.last_info["iterations"] < 10**9


def test_unknown_options_networks_and_games_are_refused_by_name() -> None:
    with pytest.raises(AgentSpecError, match=r"unknown option.*playouts"):
        make_agent("puct:playouts=random", game="hex")
    with pytest.raises(AgentSpecError, match="net='nope'"):
        make_agent("puct:net=nope", game="hex")
    with pytest.raises(AgentSpecError, match="batch must be at least 1"):
        make_agent("puct:batch=0", game="hex")
    with pytest.raises(AgentSpecError, match="puct plays only hex"):
        make_agent("puct", game="cards")


def test_the_policy_and_values_the_search_reports_are_well_formed() -> None:
    state = get_game("hex").new_initial_state(seed=11, size=4)
    agent = make_agent("puct:iterations=64,batch=16", seed=1, game="hex")
    agent.choose(state)
    info = agent.last_info
    assert -1.0 <= info["value"] <= 1.0 and 0.0 <= info["share"] <= 1.0
    assert 1 <= len(info["top"]) <= 3
    assert np.isclose(info["win"], (info["value"] + 1) / 2, atol=1e-3)


def test_the_tree_is_reused_for_the_removal_after_the_move() -> None:
    """The removal step follows the agent's own move: its position is a child of the last
    root, so the search starts from that child's visits (``reused``); with ``reuse=no`` it
    starts afresh."""
    for spec, reused in (("puct:iterations=200", True), ("puct:iterations=200,reuse=no", False)):
        state = get_game("hex").new_initial_state(seed=4, size=5)
        agent = make_agent(spec, seed=1, game="hex")
        seat = state.current_player()
        state.apply(agent.choose(state))
        assert state.current_player() == seat  # the same seat removes now
        agent.choose(state)
        assert (agent.last_info["reused"] > 0) is reused
