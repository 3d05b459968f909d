"""The compiled MCTS (limitgames.hex.mcts) against slower paths of the same questions.

- its evaluation against the Python learned evaluation (agents/hex_evaluation.py);
- its finished-game results against ``outcome_values``;
- its MCTS-Solver against the naive exhaustive minimax of tests/hex/test_solver.py, over the
  naive reference engine (two players: the minimax value is unique);
- the tree's bookkeeping (visits add up), tree reuse and the merging of transpositions.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from limitgames.agents import make_agent
from limitgames.agents.evaluation import outcome_values
from limitgames.agents.hex_evaluation import evaluate as python_evaluate
from limitgames.agents.hex_evaluation import evaluation_array
from limitgames.core import get_game
from limitgames.hex import kernel
from limitgames.hex.mcts import HexSearch, evaluate, outcome
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


@pytest.mark.parametrize("players", [2, 3])
def test_compiled_evaluation_and_results_match_the_python_ones(players: int) -> None:
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
            expected = python_evaluate(state)
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


@pytest.mark.parametrize("table", [True, False])
@pytest.mark.parametrize(
    ("name", "pos", "expected"),
    _two_player_fixture(),
    ids=[case.values[0] for case in _two_player_fixture()],
)
def test_solver_proves_the_minimax_value(
    name: str, pos: dict[str, Any], expected: list[float] | None, table: bool
) -> None:
    clean = {k: v for k, v in pos.items() if k not in ("seats", "result", "equaliser")}
    reference = RefState.from_position(clean)
    naive = naive_values(reference, {})
    state = get_game("hex").state_from_position(clean)
    assert isinstance(state, HexState)
    s, surface = state.kernel_vector(), state.surface
    assert s is not None and surface is not None
    search = HexSearch(table=table, solver=True, seed=3)
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
    agent = make_agent("mcts:iterations=20000", 1)
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
    from limitgames.hex.mcts import REUSE_NODES

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
    from limitgames.hex.mcts import _score

    drawn = next(
        state
        for seed in range(40)
        for state in _random_states(2, games=1, seed=100 + seed)[-1:]
        if state.returns() == [0.0, 0.0]
    )
    s = drawn.kernel_vector()
    out = np.zeros(3)
    for me in (0, 1):
        params = np.zeros(7)
        params[5], params[6] = 0.25, me  # contempt, the searching kernel player
        _score(s, out, params)
        assert out[me] == -0.25 and out[1 - me] == 0.0
    won = next(
        state
        for seed in range(40)
        for state in _random_states(2, games=1, seed=200 + seed)[-1:]
        if state.returns() != [0.0, 0.0]
    )
    params = np.zeros(7)
    params[5] = 0.25  # a decided game is scored as it is
    _score(won.kernel_vector(), out, params)
    assert sorted(out[:2].tolist()) == [-1.0, 1.0]
