"""OpenSpiel: the games pass pyspiel's random simulation test, and OpenSpiel's own bots play ours."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the open_spiel wheel is not installed (extra: openspiel)"
)

from limitgames.agents import make_agent  # noqa: E402
from limitgames.openspiel import LimitState, determinize_resampler  # noqa: E402

CASES = [
    ("limitgames_hex", {"size": 4}, 4),
    ("limitgames_hex", {"size": 3, "players": 3}, 2),
    ("limitgames_hex", {"edition": "ed2008", "size": 3}, 2),
    ("limitgames_cards", {"players": 3}, 2),
    ("limitgames_world", {"players": 2}, 1),
]


@pytest.mark.parametrize(("name", "params", "sims"), CASES)
def test_random_simulation(name: str, params: dict[str, object], sims: int) -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game(name, params), num_sims=sims, serialize=False, verbose=False
    )


def test_chance_nodes_and_observers_are_safe_at_chance() -> None:
    game = pyspiel.load_game("limitgames_cards", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    # asking for an observation at a chance node is not an error (a known pitfall)
    assert state.observation_string(0).startswith("setup chance node")
    assert not any(state.observation_tensor(0))
    from open_spiel.python.observation import make_observation

    none = pyspiel.PrivateInfoType.NONE
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=none)
    )
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    public.set_from(state, 0)
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    private.set_from(state, 0)
    assert np.any(private.tensor != public.tensor)  # the seat's own hand is private


def _play(game: object, ours: dict[int, object], bots: dict[int, object], seed: int) -> list[float]:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        player = state.current_player()
        if player in bots:
            action = bots[player].step(state)  # type: ignore[attr-defined]
        else:
            assert isinstance(state, LimitState)
            inner = state.inner
            action = inner.action_to_index(ours[player].choose(inner))  # type: ignore[attr-defined]
        state.apply_action(action)
    return list(state.returns())


def test_openspiel_mcts_plays_our_agent_at_hex() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("limitgames_hex", {"size": 3})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=np.random.RandomState(0))
    for seed in range(2):
        returns = _play(
            game, {1 - seed: make_agent("mcts:iterations=30", seed=seed)}, {seed: bot}, seed
        )
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiel_ismcts_with_our_resampler_plays_cards() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("limitgames_cards", {"players": 3})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=np.random.RandomState(1))
    bot.set_resampler(determinize_resampler)
    returns = _play(
        game, {1: make_agent("heuristic", seed=1), 2: make_agent("random", seed=2)}, {0: bot}, 3
    )
    assert len(returns) == 3 and max(returns) >= 0.0


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("limitgames_hex", {"size": 3}),
        ("limitgames_cards", {"players": 3}),
        ("limitgames_world", {"players": 2}),
    ],
)
def test_legal_indices_are_the_mask_and_clones_are_independent(
    name: str, params: dict[str, object]
) -> None:
    """Over seeded random games: the adapter's legal actions (the engines' quick
    ``legal_action_indices``) equal the ``True`` entries of the engine's full mask, the naive
    reading; a clone taken at every step plays on alone and leaves the original as it was."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(11)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            mask = state.inner.legal_action_mask()
            assert state.legal_actions() == [i for i, legal in enumerate(mask) if legal]
            before = str(state.inner.key())
            copy = state.clone()
            action = rng.choice(state.legal_actions())
            copy.apply_action(action)
            assert str(state.inner.key()) == before and copy.history() != state.history()
            state.apply_action(action)
            assert str(copy.inner.key()) == str(state.inner.key())


def test_a_clone_of_a_chance_node_keeps_its_draws() -> None:
    game = pyspiel.load_game("limitgames_cards", {"players": 2})
    state = game.new_initial_state()
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    copy = state.clone()
    assert copy.history() == state.history() == [first]
    assert copy.chance_outcomes() == state.chance_outcomes()


def test_a_finished_game_says_why_it_ended() -> None:
    game = pyspiel.load_game("limitgames_hex", {"size": 3})
    state = game.new_initial_state()
    rng = random.Random(4)
    assert isinstance(state, LimitState) and state.outcome() is None
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    outcome = state.outcome()
    assert outcome is not None and outcome["returns"] == state.returns()
    assert outcome["termination"] in ("last_with_pawns", "table_emptied", "stalemate")


@pytest.mark.parametrize(("name", "params", "sims"), CASES[:4])
def test_the_python_answers_equal_pyspiels_own(
    name: str, params: dict[str, object], sims: int
) -> None:
    # is_terminal, is_chance_node, current_player and legal_actions are answered in Python
    # (the current player kept between actions); pyspiel's C++ State, reached through the
    # base class, is the reference: it asks the Python state for _legal_actions and chance
    # outcomes through its own bookkeeping
    game = pyspiel.load_game(name, params)
    rng = random.Random(7)
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            assert state.is_terminal() == pyspiel.State.is_terminal(state)
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.is_player_node() == pyspiel.State.is_player_node(state)
            for player in (None, 0, 1):
                ours = state.legal_actions() if player is None else state.legal_actions(player)
                theirs = (
                    pyspiel.State.legal_actions(state)
                    if player is None
                    else pyspiel.State.legal_actions(state, player)
                )
                assert ours == list(theirs)
            if state.is_terminal():
                break
            twin = state.clone()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            assert twin.current_player() == pyspiel.State.current_player(twin)
            assert state.current_player() == state._find_current_player()
