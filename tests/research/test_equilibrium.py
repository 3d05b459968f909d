"""The solver of small games (:mod:`limitgames.equilibrium`) and the mini-Limits through the
OpenSpiel adapter: checked on Kuhn poker against OpenSpiel's own exploitability and the known
value -1/18, and on a tiny Limits against a naive best response written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the open_spiel wheel is not installed (extra: openspiel)"
)

import limitgames.openspiel  # noqa: E402,F401 - registers limitgames_cards
from limitgames import equilibrium  # noqa: E402
from tests.research.naive_best_response import best_response_value  # noqa: E402

MINI = {"players": 2, "colours": 2, "cards_per_colour": 4, "hand": 3, "limit_pile": 1}


def test_the_mini_variant_passes_pyspiels_random_simulation_test() -> None:
    game = pyspiel.load_game("limitgames_cards", MINI)
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


def test_the_mini_variants_chance_nodes_by_hand_count() -> None:
    game = pyspiel.load_game("limitgames_cards", MINI)
    state = game.new_initial_state()
    # The one limit card: each of the 24 distinct cards of the shipped set, 1/24.
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 24 and all(abs(p - 1 / 24) < 1e-12 for _, p in outcomes)
    state.apply_action(outcomes[0][0])
    # Then 8 colour cards from the top: red or yellow, 4/8 each at first; then the start player.
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    for _ in range(8):
        state.apply_action(state.chance_outcomes()[0][0])  # red while any is left, then yellow
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    assert state.current_player() == 1 and not state.is_chance_node()
    # The deal alternates from the start player: seat 1 gets cards 1, 3, 5 (r, r, y), seat 0
    # gets cards 2, 4, 6 (r, r, y); the draw pile holds y, y.
    assert state.inner.hands[1][:2] == [2, 1] and state.inner.hands[0][:2] == [2, 1]
    assert state.inner.draw == [1, 1]


def test_the_solver_on_kuhn_poker_agrees_with_openspiel() -> None:
    from open_spiel.python import policy as openspiel_policy
    from open_spiel.python.algorithms import exploitability

    game = pyspiel.load_game("kuhn_poker")
    tree = equilibrium.walk_tree(game)
    # Kuhn poker: 3 x 2 deals, 4 histories each player-decision-wise: 12 information sets.
    assert len(tree.infosets) == 12 and tree.nodes["terminal"] == 30
    solution = equilibrium.solve(tree, 1e-4)
    assert solution.exploitability < 1e-4
    # The game's value for the first player is -1/18 (Kuhn, 1950).
    assert abs(solution.values[0] + 1 / 18) < 1e-3
    table = openspiel_policy.TabularPolicy(game)
    for key, probs in solution.policy.table.items():
        for action, p in probs.items():
            table.action_probability_array[table.state_lookup[key]][action] = p
    theirs = exploitability.exploitability(game, table)
    assert abs(equilibrium.exploitability(tree, solution.policy) - theirs) < 1e-9


def _tiny_game(tmp_path: Path) -> Any:
    cards = tmp_path / "two_cards.json"
    # Two limit cards: red 1 / yellow 0, and red X / yellow 1 (the other colours are unused).
    cards.write_text(json.dumps(["10XXX", "X1XXX"]), encoding="utf-8")
    return pyspiel.load_game(
        "limitgames_cards",
        {
            "players": 2,
            "colours": 2,
            "cards_per_colour": 3,
            "hand": 3,
            "limit_pile": 1,
            "limit_cards": str(cards),
        },
    )


def _as_strategy(policy: equilibrium.TreePolicy) -> Any:
    def strategy(state: Any) -> dict[int, float]:
        key = state.information_state_string(state.current_player())
        probs = policy.table.get(key)
        if probs is None:
            actions = state.legal_actions()
            return {a: 1.0 / len(actions) for a in actions}
        return probs

    return strategy


@pytest.mark.slow
def test_a_tiny_limits_is_solved_and_its_exploitability_matches_a_naive_best_response(
    tmp_path: Path,
) -> None:
    game = _tiny_game(tmp_path)
    tree = equilibrium.walk_tree(game)
    solution = equilibrium.solve(tree, 0.001 * tree.payoff_range())
    assert solution.exploitability < 0.002
    for policy in (solution.policy, equilibrium.TreePolicy()):  # the equilibrium, uniform
        strategy = _as_strategy(policy)
        values = equilibrium.expected_returns(tree, policy)
        best = [best_response_value(game, seat, strategy) for seat in (0, 1)]
        naive = (best[0] - values[0] + best[1] - values[1]) / 2
        assert abs(equilibrium.exploitability(tree, policy) - naive) < 1e-9
    # The uniform strategy is far from the equilibrium; the equilibrium's is tiny.
    assert equilibrium.exploitability(tree, equilibrium.TreePolicy()) > 0.1


@pytest.mark.slow
def test_a_saved_strategy_loads_back_and_agents_become_strategies(tmp_path: Path) -> None:
    game = _tiny_game(tmp_path)
    tree = equilibrium.walk_tree(game)
    solution = equilibrium.solve(tree, 0.01)
    path = tmp_path / "policy.json.gz"
    solution.policy.save(path, {"variant": "tiny"})
    loaded = equilibrium.TreePolicy.load(path, tree)
    assert (
        abs(
            equilibrium.exploitability(tree, loaded)
            - equilibrium.exploitability(tree, solution.policy)
        )
        < 1e-4
    )
    random_policy = equilibrium.agent_policy(tree, "random", samples=1, seed=1)
    assert random_policy.table == {}  # uniform by definition: not sampled
    greedy = equilibrium.agent_policy(tree, "heuristic", samples=2, seed=1)
    for key, probs in greedy.table.items():
        info = tree.infosets[key]
        assert sorted(probs) == info.actions and abs(sum(probs.values()) - 1) < 1e-12
        assert all(p in (0.0, 0.5, 1.0) for p in probs.values())  # two samples
