"""The compiled MCTS (limitgames.agents.hex_search) against slower paths of the same questions.

- its evaluation against the Python learned evaluation (agents/hex_evaluation.py);
- its finished-game results against ``outcome_values``;
- its MCTS-Solver against the naive exhaustive minimax of tests/hex/test_solver.py, over the
  naive reference engine (two players: the minimax value is unique);
- the tree's bookkeeping (visits add up), tree reuse and the merging of transpositions.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from limitgames.agents import make_agent
from limitgames.agents.evaluation import outcome_values
from limitgames.agents.hex_evaluation import WEIGHTS, evaluation_array, feature_vector
from limitgames.agents.hex_evaluation import evaluate as python_evaluate
from limitgames.agents.hex_search import HexSearch, evaluate, outcome
from limitgames.core import get_game
from limitgames.hex import kernel
from limitgames.hex.state import HexState
from tests.hex.reference import RefState
from tests.hex.test_solver import FIXTURE, _row, naive_values


def _random_states(players: int, games: int, seed: int) -> list[HexState]:
    rng = random.Random(seed)
    found = []
    for g in range(games):
        state = get_game("hex").new_initial_state(
            seed=seed * 100 + g,
            players=players,
            size=rng.choice([3, 5, 8]),
            # both laws: the thin uniform shapes freeze into draws, the grown ones seldom do
            layout=("uniform", "grown")[g % 2],
        )
        while not state.is_terminal():
            assert isinstance(state, HexState)
            found.append(state.clone())
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        assert isinstance(state, HexState)
        found.append(state)
    return found


def _naive_values(state: HexState) -> list[float]:
    """The learned model written out from its definition: seat ``s`` is worth
    ``tanh(w . x(s) / 2)`` with ``x`` the Python feature vector (not the compiled code)."""
    assert WEIGHTS is not None
    return [
        math.tanh(sum(w * x for w, x in zip(WEIGHTS, feature_vector(state, seat), strict=True)) / 2)
        for seat in range(state.num_players)
    ]


@pytest.mark.parametrize("players", [2, 3])
def test_compiled_evaluation_and_results_match_the_python_ones(players: int) -> None:
    """The compiled evaluation, inside the search (from the kernel vector) and as the agents
    call it (``hex_evaluation.evaluate``), against the model written out naively."""
    weights = evaluation_array()
    rows = np.zeros((3, 7), np.int64)
    out = np.zeros(3)
    checked = 0
    for state in _random_states(players, games=6, seed=players):
        s, surface = state.kernel_vector(), state.surface
        assert s is not None and surface is not None
        order = state.seat_order()  # kernel player k plays seat order[k]
        if state.is_terminal():
            outcome(s, out)
            expected = outcome_values(state.returns())
        else:
            evaluate(surface.neighbour_masks, s, weights, rows, out)
            expected = _naive_values(state)
            assert python_evaluate(state) == pytest.approx(expected, abs=1e-12)
        assert [out[k] for k in range(players)] == pytest.approx(
            [expected[order[k]] for k in range(players)], abs=1e-12
        )
        checked += 1
    assert checked > 100


def _reference_notation(state: HexState, action: tuple[Any, ...]) -> str:
    """The notation of a reference-engine action (``("move", from, to)``, ``("remove", t)``)."""
    if action[0] == "move":
        return f"{state.cell_name(action[1])}-{state.cell_name(action[2])}"
    return f"x {state.cell_name(action[1])}"


def _two_player_fixture() -> list[Any]:
    return [
        case
        for case in FIXTURE
        if not case.marks and case.values[1].get("players", 2) == 2 and case.values[0] != "figure-6"
    ]


_SEARCHES = {
    "table": {"table": True},
    "tree": {"table": False},
    # the expert's options: tactical playouts, tactical order, progressive widening, RAVE
    "tactical": {"table": True, "greed": 1.0, "order": 1.0, "widen": 2.0, "rave": 300.0},
}


@pytest.mark.parametrize("options", list(_SEARCHES.values()), ids=list(_SEARCHES))
@pytest.mark.parametrize(
    ("name", "pos", "expected"),
    _two_player_fixture(),
    ids=[case.values[0] for case in _two_player_fixture()],
)
def test_solver_proves_the_minimax_value(
    name: str, pos: dict[str, Any], expected: list[float] | None, options: dict[str, Any]
) -> None:
    clean = {k: v for k, v in pos.items() if k not in ("seats", "result", "equaliser")}
    reference = RefState.from_position(clean)
    naive = naive_values(reference, {})
    state = get_game("hex").state_from_position(clean)
    assert isinstance(state, HexState)
    s, surface = state.kernel_vector(), state.surface
    assert s is not None and surface is not None
    search = HexSearch(solver=True, seed=3, **options)
    report = search.search(surface.neighbour_masks, surface.ring, s, iterations=300_000)
    mover = state.current_player()
    assert report.proven == naive[mover], f"{name}: proven {report.proven}, minimax {naive}"
    child = state.clone()
    child.apply(report.action)  # the action it plays reaches that value
    by_text = {_reference_notation(state, a): a for a in reference.legal_actions()}
    assert (
        naive_values(reference.apply(by_text[state.action_to_string(report.action)]), {})[mover]
        == naive[mover]
    )


def test_the_agent_plays_a_forced_win_and_says_so() -> None:
    state = get_game("hex").state_from_position(_row())
    agent = make_agent("hexmcts:iterations=20000", 1)
    action = agent.choose(state)
    # the naive minimax in test_solver: b1-a1 and d1-e1 win, b1-c1 and d1-c1 lose
    assert state.action_to_string(action) in {"b1-a1", "d1-e1"}
    assert agent.last_info["proven"] == "win"


def _search(state: HexState, search: HexSearch, iterations: int) -> Any:
    s, surface = state.kernel_vector(), state.surface
    assert s is not None and surface is not None
    return search.search(surface.neighbour_masks, surface.ring, s, iterations=iterations)


def test_visits_add_up_without_the_table() -> None:
    state = get_game("hex").new_initial_state(seed=4)
    assert isinstance(state, HexState)
    search = HexSearch(table=False, solver=False, reuse=False, seed=1)
    report = _search(state, search, 5000)
    # every iteration passes the root and then exactly one of its children
    assert report.iterations == 5000 == report.root_visits
    assert sum(child.visits for child in report.children) == 5000
    # without the table every iteration adds one node (the root is the first)
    assert report.nodes == 5001
    legal = set(state.legal_actions())
    assert {child.action for child in report.children} <= legal


def test_the_tree_is_reused_after_a_move_and_a_reply() -> None:
    state = get_game("hex").new_initial_state(seed=6)
    assert isinstance(state, HexState)
    search = HexSearch(seed=2, depth=None)
    first = _search(state, search, 20000)
    assert first.reused == 0
    state.apply(first.action)
    # the reply most searched under that action: its node is in the tree
    reply = _search(state, search, 1)
    assert reply.reused > 0
    state.apply(reply.children[0].action)
    again = _search(state, search, 100)
    assert again.reused > 0
    fresh = HexSearch(seed=2, depth=None, reuse=False)
    assert _search(state, fresh, 100).reused == 0


def test_a_reused_tree_is_cleared_rather_than_doubled_once_its_arrays_are_large() -> None:
    """Below REUSE_NODES a tree more than half full is kept (its arrays double during the
    search); from REUSE_NODES on it is cleared at the start of the next search."""
    from limitgames.agents.hex_search import REUSE_NODES

    state = get_game("hex").new_initial_state(seed=6)
    assert isinstance(state, HexState)
    small = HexSearch(seed=2, depth=None)
    first = _search(state, small, 20000)  # fills more than half of 16k nodes
    assert first.nodes * 2 > 1 << 14
    state.apply(first.action)
    assert _search(state, small, 1).reused > 0
    large = HexSearch(seed=2, depth=None)
    large._allocate(REUSE_NODES)
    before = get_game("hex").new_initial_state(seed=6)
    assert isinstance(before, HexState)
    report = _search(before, large, 20000)
    large.counters[0] = REUSE_NODES // 2 + 1  # as if more than half were used
    before.apply(report.action)
    assert _search(before, large, 1).reused == 0


def test_the_table_merges_transpositions() -> None:
    # a small surface searched deeply reaches positions by different orders of actions
    state = get_game("hex").new_initial_state(seed=11, size=3)
    assert isinstance(state, HexState)
    merged = _search(state, HexSearch(table=True, solver=False, seed=5, depth=None), 20000)
    tree = _search(state, HexSearch(table=False, solver=False, seed=5, depth=None), 20000)
    # the whole game tree is small here: without the table each path is its own node
    assert merged.nodes < tree.nodes <= 20001


def test_every_search_keeps_the_kernel_state_unchanged() -> None:
    state = get_game("hex").new_initial_state(seed=8, players=3)
    assert isinstance(state, HexState)
    before = state.kernel_vector()
    assert before is not None
    surface = state.surface
    assert surface is not None
    s = before.copy()
    HexSearch(seed=1, evaluation=evaluation_array(), depth=12, prior=0.5).search(
        surface.neighbour_masks, surface.ring, s, iterations=2000
    )
    assert (s == before).all()
    assert int(s[kernel.S_STEP]) != kernel.OVER_STEP


def test_a_finished_game_is_refused() -> None:
    state = _random_states(2, games=1, seed=9)[-1]
    s, surface = state.kernel_vector(), state.surface
    assert s is not None and surface is not None and state.is_terminal()
    with pytest.raises(ValueError, match="game is over"):
        HexSearch().search(surface.neighbour_masks, surface.ring, s, iterations=10)


def test_contempt_scores_a_draw_below_zero_for_the_searching_player_only() -> None:
    from limitgames.agents.hex_search.evaluation import scored_outcome

    drawn = next(
        state
        for seed in range(40)
        for state in _random_states(2, games=1, seed=100 + seed)[-1:]
        if state.returns() == [0.0, 0.0]
    )
    s = drawn.kernel_vector()
    out = np.zeros(3)
    for me in (0, 1):
        scored_outcome(s, out, me, 0.25)  # the searching kernel player, its contempt
        assert out[me] == -0.25 and out[1 - me] == 0.0
    won = next(
        state
        for seed in range(40)
        for state in _random_states(2, games=1, seed=200 + seed)[-1:]
        if state.returns() != [0.0, 0.0]
    )
    scored_outcome(won.kernel_vector(), out, 0, 0.25)  # a decided game is scored as it is
    assert sorted(out[:2].tolist()) == [-1.0, 1.0]


def test_all_moves_as_first_credits_the_actions_each_mover_played_later() -> None:
    """``_update_amaf`` on a hand-made iteration. Node 0 (player 0 to move) lists a move to
    tile 5, a move to tile 6 and the removal of tile 7; it played the move to 5 into node 1
    (player 1), which lists the removals of tiles 8 and 9 and played the removal of 8 into
    node 2, where the playout began: player 0 moved a pawn to tile 6, player 1 removed tile 9,
    player 0 removed tile 8. Result: player 0 won (+1), player 1 lost (-1).

    By hand: node 0's edges to 5 (played by 0 at node 0) and to 6 (played by 0 in the playout)
    are credited with +1; the removal of 7 was never played. Node 1's removal of 8 (played
    there) and of 9 (played by 1 in the playout) are credited with -1. The removal of 8 by
    player 0 in the playout does not count for player 1's node.
    """
    from limitgames.agents.hex_search.tree import (
        _AMAF_KEYS,
        _COUNT,
        _FIRST,
        _MOVER,
        _NODE_INTS,
        _update_amaf,
    )
    from limitgames.hex.codec import REMOVAL_BASE

    ints = np.zeros((3, _NODE_INTS), np.int64)
    ints[0, _FIRST], ints[0, _COUNT], ints[0, _MOVER] = 0, 3, 0
    ints[1, _FIRST], ints[1, _COUNT], ints[1, _MOVER] = 3, 2, 1
    ints[2, _FIRST], ints[2, _COUNT], ints[2, _MOVER] = -1, 0, 0
    removal = REMOVAL_BASE
    edge_action = np.array([1 * 64 + 5, 2 * 64 + 6, removal + 7, removal + 8, removal + 9])
    edge_amaf = np.zeros((5, 2))
    path = np.array([0, 1, 2])
    path_action = np.array([1 * 64 + 5, removal + 8])
    history = np.array([3 * 64 + 6, removal + 9, removal + 8])
    movers = np.array([0, 1, 0])
    result = np.array([1.0, -1.0, 0.0])
    seen = np.zeros((3, _AMAF_KEYS), np.bool_)
    _update_amaf(
        path, path_action, 3, history, movers, 3, ints, edge_action, edge_amaf, result, seen
    )
    assert edge_amaf.tolist() == [[1, 1], [1, 1], [0, 0], [1, -1], [1, -1]]


def test_progressive_widening_keeps_few_actions_in_play_and_tries_the_tactical_ones_first() -> None:
    from limitgames.agents.hex_search.tree import _COUNT, _EXPANDED, _FIRST
    from limitgames.hex import tactics

    state = get_game("hex").new_initial_state(seed=6)
    assert isinstance(state, HexState)
    search = HexSearch(seed=2, greed=1.0, order=1.0, widen=2.0, table=False)
    report = _search(state, search, 1000)
    root = int(search.counters[2])
    expanded = int(search.ints[root, _EXPANDED])
    # the root was visited 1000 times: at most 1 + 2 sqrt(999) = 64 of its 121 actions in play
    assert expanded <= 1 + int(2 * np.sqrt(report.root_visits - 1)) == 64
    assert int(search.ints[root, _COUNT]) == 121
    first = int(search.ints[root, _FIRST])
    actions = search.edge_action[first : first + int(search.ints[root, _COUNT])].copy()
    kinds = np.empty(len(actions), np.int64)
    s, surface = state.kernel_vector(), state.surface
    assert s is not None and surface is not None
    tactics.action_kinds(surface.neighbour_masks, s, actions, len(actions), kinds)
    assert (np.diff(kinds) <= 0).all()  # best kinds first
    assert sum(child.visits for child in report.children) == report.root_visits == 1000
