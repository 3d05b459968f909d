"""The ``puct`` agent (limitgames.agents.puct): legal moves on every size, a win in one, its work
budget and its time cap, its options refused by name."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limitgames.agents import AgentSpecError, make_agent
from limitgames.agents.hex_network import HexNetwork
from limitgames.agents.puct import PuctSearch
from limitgames.core import get_game
from limitgames.hex.state import HexState
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


def _hex(seed: int, size: int) -> HexState:
    state = get_game("hex").new_initial_state(seed=seed, size=size)
    assert isinstance(state, HexState)
    return state


def _leaves(node: object) -> list[object]:
    """Every expanded node of a PUCT tree below (and with) ``node``."""
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        if getattr(n, "actions", None) is not None:
            out.append(n)
            todo.extend(c for c in n.children if c is not None)  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("mix", [0.25, 1.0])
def test_a_mixed_leaf_is_the_networks_value_and_one_playouts_result_in_their_shares(
    mix: float,
) -> None:
    """A network of zeros but its value bias (``atanh(0.5)``) values every position 0.5 for its
    mover, so with two players a leaf's spread values are (0.5, -0.5). A playout's result is
    a finished game's: (1, -1), (-1, 1) or (0, 0). So every mixed leaf holds, for its mover,
    ``(1 - mix) 0.5 + mix z`` with ``z`` in {-1, 0, 1}, and the two seats' values sum to 0."""
    shapes = HexNetwork.shapes(width=8, rounds=2, hidden=4, policy=4)
    arrays = {name: np.zeros(shape, np.float32) for name, shape in shapes.items()}
    arrays["value2_b"][0] = np.arctanh(0.5)
    state = _hex(9, 5)
    search = PuctSearch(HexNetwork(arrays), batch=4, mix=mix, seed=3)
    search.search(state, 120, None)
    leaves = [n for n in _leaves(search._root) if len(n.actions) > 0]  # type: ignore[attr-defined]
    assert len(leaves) > 20
    seen = set()
    for leaf in leaves:
        results = leaf.results  # type: ignore[attr-defined]
        mover = leaf.mover  # type: ignore[attr-defined]
        z = (results[mover] - (1 - mix) * 0.5) / mix
        assert min(abs(z - v) for v in (-1.0, 0.0, 1.0)) < 1e-5, results  # float32 net
        assert abs(results[0] + results[1]) < 1e-5
        seen.add(round(z))
    assert seen >= {-1, 1}  # playouts are won by either side from these positions


def test_without_mixing_no_playout_is_played() -> None:
    state = _hex(9, 5)
    search = PuctSearch(HexNetwork.random(1), batch=4)
    search.search(state, 60, None)
    assert all(n.results is None for n in _leaves(search._root))  # type: ignore[attr-defined]


def test_playout_returns_leaves_the_states_alone_and_gives_finished_games_results() -> None:
    from limitgames.agents.puct import playout_returns
    from limitgames.hex.bitboard import seed_word

    state = _hex(2, 6)
    s = state.kernel_vector()
    surface = state.surface
    assert s is not None and surface is not None
    states = np.stack([s] * 50)
    before = states.copy()
    rng = np.array([seed_word(4)], np.uint64)
    returns = np.full((50, 3), 9.0)
    playout_returns(surface.neighbour_masks, surface.ring, states, rng, 1.0, returns)
    np.testing.assert_array_equal(states, before)
    for row in returns:
        # two players: a sole winner (1) and a loser (-1), or a shared end (0, 0); seat 3 unused
        assert (row[0], row[1]) in {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)} and row[2] == 0.0
    # one stream, fifty draws: the same start does not give fifty copies of one game
    assert len({tuple(r) for r in returns}) > 1


def test_the_mix_and_greed_options_are_checked_and_a_seed_gives_the_same_move() -> None:
    with pytest.raises(AgentSpecError, match=r"mix must lie in 0\.\.1"):
        make_agent("puct:mix=1.5", game="hex")
    with pytest.raises(AgentSpecError, match=r"greed must lie in 0\.\.1"):
        make_agent("puct:mix=0.5,greed=-1", game="hex")
    state = get_game("hex").new_initial_state(seed=8, size=6)
    moves = {
        make_agent("puct:iterations=80,mix=0.5", seed=6, game="hex").choose(state) for _ in "ab"
    }
    assert len(moves) == 1


@pytest.mark.parametrize("players", [2, 3])
def test_playout_returns_equals_one_playout_at_a_time(players: int) -> None:
    """The compiled batch against a naive loop: each state copied, played by
    ``tactics.tactical_playout`` from the same stream in the same order, and scored by
    ``kernel.returns_of`` (zeros for an unfinished game), on positions of seeded random games
    of sizes 3-8."""
    import random

    from limitgames.agents.puct import playout_returns
    from limitgames.hex import kernel
    from limitgames.hex.bitboard import seed_word
    from limitgames.hex.surface import MAX_TILES
    from limitgames.hex.tactics import tactical_playout

    rng = random.Random(players)
    for size in range(3, 9):
        state = get_game("hex").new_initial_state(seed=size, size=size, players=players)
        vectors = []
        while not state.is_terminal() and len(vectors) < 12:
            s = state.kernel_vector()
            if s is not None:
                vectors.append(s.copy())
            state.apply(rng.choice(state.legal_actions()))
        assert isinstance(state, HexState) and state.surface is not None and vectors
        nb, ring = state.surface.neighbour_masks, state.surface.ring
        states = np.stack(vectors)
        for greed in (0.0, 0.5, 1.0):
            fast_rng = np.array([seed_word(size)], np.uint64)
            fast = np.zeros((len(states), 3))
            playout_returns(nb, ring, states, fast_rng, greed, fast)
            naive_rng = np.array([seed_word(size)], np.uint64)
            naive = np.zeros((len(states), 3))
            history = np.empty(8 * MAX_TILES, np.int64)
            movers = np.empty(8 * MAX_TILES, np.int64)
            for b, start in enumerate(states):
                s = start.copy()
                tactical_playout(nb, ring, s, naive_rng, 0, -1, history, movers, greed)
                if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
                    kernel.returns_of(s, naive[b])
            np.testing.assert_array_equal(fast, naive)
            assert fast_rng[0] == naive_rng[0]  # the stream advanced alike


def naive_select(
    visits: np.ndarray, totals: np.ndarray, prior: np.ndarray, value: float, c: float
) -> int:
    """PUCT's choice written straight from the formula in NumPy (the reference of the compiled
    ``puct_select``): ``Q`` the edge's mean, or the node's value less the first-play urgency if
    it is untried; ``U = c P sqrt(max(N, 1)) / (1 + n)``; the first edge with the largest sum."""
    from limitgames.agents.puct import FIRST_PLAY_URGENCY

    q = np.where(visits > 0, totals / np.maximum(visits, 1), value - FIRST_PLAY_URGENCY)
    u = c * prior * np.sqrt(max(float(visits.sum()), 1.0)) / (1.0 + visits)
    return int(np.argmax(q + u))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 50),
            st.floats(-1, 1),
            st.floats(0, 1),
        ),
        min_size=1,
        max_size=40,
    ),
    st.floats(-1, 1),
    st.sampled_from([0.5, 1.0, 1.5, 3.0]),
)
def test_compiled_select_equals_the_formula(
    edges: list[tuple[int, float, float]], value: float, c: float
) -> None:
    """Edges drawn by Hypothesis (visits 0-50, a mean result, a prior weight), ties included."""
    from limitgames.agents.puct import puct_select

    visits = np.array([n for n, _, _ in edges], dtype=np.float64)
    totals = np.array([n * m for n, m, _ in edges], dtype=np.float64)
    prior = np.array([p for _, _, p in edges], dtype=np.float64)
    prior = prior / prior.sum() if prior.sum() > 0 else np.full(len(edges), 1.0 / len(edges))
    assert puct_select(visits, totals, prior, value, c) == naive_select(
        visits, totals, prior, value, c
    )


@pytest.mark.parametrize("size", [3, 5, 8])
def test_the_search_with_the_compiled_select_equals_the_naive_one(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On seeded random games, a whole search (virtual loss, tree reuse over a game) visits the
    root's edges exactly as the same search with the NumPy formula does."""
    import random

    from limitgames.agents import puct

    network = HexNetwork.random(size)
    rng = random.Random(size)
    state = get_game("hex").new_initial_state(seed=size, size=size)
    fast, naive = PuctSearch(network, batch=4), PuctSearch(network, batch=4)
    checked = 0
    while not state.is_terminal() and checked < 6:
        assert isinstance(state, HexState)
        fast_action, fast_info = fast.search(state, 120, None)
        with monkeypatch.context() as patch:
            patch.setattr(puct, "puct_select", naive_select)
            naive_action, naive_info = naive.search(state, 120, None)
        assert (fast_action, fast_info["top"]) == (naive_action, naive_info["top"])
        assert fast_info["visits"] == naive_info["visits"]
        checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked
