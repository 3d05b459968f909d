"""The games' evaluations and rules of thumb: the counts a player would make."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from limitgames.agents import make_agent
from limitgames.agents.cards_evaluation import binomial_cdf, count_up_to_last, over_limit_chance
from limitgames.agents.evaluation import evaluation_for, outcome_values
from limitgames.agents.world_evaluation import nation_value
from limitgames.core import available_games, get_game
from limitgames.world.data import DEFAULT_DATA, data_with_overrides

COLOURS = ("red", "yellow", "green", "blue", "purple")


def test_outcome_values() -> None:
    assert outcome_values([3.0, -2.0]) == [1.0, -1.0]
    assert outcome_values([1.0, 1.0, 0.0]) == [0.0, 0.0, -1.0]
    assert outcome_values([1.0, 0.0, 0.0, 0.0]) == [1.0, -1.0, -1.0, -1.0]


def test_binomial_cdf() -> None:
    assert binomial_cdf(-1, 3, 0.5) == 0.0
    assert binomial_cdf(3, 3, 0.5) == 1.0
    assert binomial_cdf(0, 2, 0.5) == pytest.approx(0.25)
    assert binomial_cdf(1, 2, 0.5) == pytest.approx(0.75)


def cards_view(
    limit: Any, pile: list[list[Any]], hidden_red: int = 0, others_hidden: int = 2
) -> dict[str, Any]:
    """A two-seat observation for seat 0: red limit ``limit``, the given pile."""
    zero = dict.fromkeys(COLOURS, 0)
    return {
        "seat": 0,
        "phase": "play",
        "limit_card": {c: (limit if c == "red" else 5) for c in COLOURS},
        "hand": {**zero, "blue": 4},
        "hidden": {**zero, "red": hidden_red, "blue": 2 - hidden_red},
        "hidden_counts": [2, others_hidden],
        "pile": pile,
        "draw_pile_known": [],
        "known_cards": [zero, zero],
    }


def test_over_limit_chance_counts_the_hidden_cards_that_could_raise_the_limit() -> None:
    pile = [[1, "red"], [0, "blue"], [1, "red"], [1, "red"]]
    # 3 red against limit 1: over unless both of the other's hidden cards are red.
    chance = over_limit_chance(cards_view(1, pile), "red", 3)
    share = (12 - 3) / (60 - 3 - 1 - 6)  # unseen red / unseen cards
    assert chance == pytest.approx(1 - share**2)
    # My own hidden red raises the limit for sure.
    assert over_limit_chance(cards_view(1, pile, hidden_red=1), "red", 3) < chance
    assert over_limit_chance(cards_view(5, pile), "red", 3) == 0.0
    assert over_limit_chance(cards_view("X", pile), "red", 12) == 0.0
    assert count_up_to_last(cards_view(1, pile), 1) == ("red", 3)
    assert count_up_to_last(cards_view(1, pile), 0) == ("blue", 1)


def test_world_nation_value_rewards_food_and_calm() -> None:
    nation: dict[str, Any] = {
        "sol": {"A": 2, "B": 1, "C": 1, "D": 1, "E": 1},
        "population": {"position": 4, "value": 5},
        "money": 25,
        "territory": 5,
        "stock": {"renewable": 0, "industrial": 0, "military": 6},
        "plants": {"renewable": {"position": 4, "value": 5}},
        "pollution": 1,
        "disruption": 2,
        "unrest": 6,
    }
    base = nation_value(DEFAULT_DATA, nation, crises=1)
    assert base == (2 + 1 + 1) * 2 + 4 * 2 + 25 + 2 - 2 - 2
    hungry = {**nation, "plants": {"renewable": {"position": 2, "value": 2}}}
    assert nation_value(DEFAULT_DATA, hungry, 1) == base - 3
    restless = {**nation, "unrest": 10}
    assert nation_value(DEFAULT_DATA, restless, 1) == base - 2 * (4 + 1)
    # the game's data reaches the computer: pollution -7 per token, demographic index 9 at 4
    index = [1, 1, 1, 9, 2, 3, 4, 5, 5]
    mine = data_with_overrides(
        {"scoring": {"pollution": -7}, "tracks": {"demographic_index": index}}, "mine.toml"
    )
    assert nation_value(mine, nation, 1) == (2 + 1 + 1) * 9 + 4 * 2 + 25 + 2 - 7 - 2


@pytest.mark.parametrize(
    "game_id", [g for g in ("hex", "cards", "world") if g in available_games()]
)
def test_evaluations_are_bounded_and_sum_sensibly(game_id: str) -> None:
    rng = random.Random(1)
    variant = {"players": 2}
    state = get_game(game_id).new_initial_state(seed=2, **variant)
    evaluate = evaluation_for(game_id)
    for _ in range(60):
        if state.is_terminal():
            break
        values = evaluate(state)
        assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values)
        assert math.isclose(values[0], -values[1], abs_tol=1e-9)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def test_cards_policy_suspects_a_sure_excess() -> None:
    if "cards" not in available_games():
        pytest.skip("the cards engine is not available")
    agent = make_agent("heuristic", seed=0)
    state = get_game("cards").new_initial_state(seed=3, players=2)
    rng = random.Random(0)
    suspected = 0
    for _ in range(300):
        if state.is_terminal():
            break
        seat = state.current_player()
        if seat == 0:
            action = agent.choose(state)
            if state.action_to_string(action).startswith("suspect"):
                view = state.observation(0)
                colour, count = count_up_to_last(view, 1)  # type: ignore[misc]
                assert over_limit_chance(view, colour, count) > 0.5
                suspected += 1
        else:
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
        state.apply(action)
    assert suspected > 0


def test_the_shipped_hex_weights_fit_the_features_and_value_positions_sensibly() -> None:
    from limitgames.agents import hex_evaluation
    from tests.hex.positions import load

    assert hex_evaluation.WEIGHTS is not None, (
        "hex_evaluation.json no longer fits FEATURE_NAMES: re-run the script"
    )
    for seed in range(5):
        state = get_game("hex").new_initial_state(seed=seed, size=5)
        rng = random.Random(seed)
        while not state.is_terminal():
            values = hex_evaluation.evaluate(state)
            assert all(-1.0 <= v <= 1.0 for v in values) and values[0] == -values[1]
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    # red has 3 pawns to blue's 1, and blue's pawn on (4,0) has one freedom, (3,0), which red can
    # reach through (2,0) at once: red stands well (hand reasoning)
    ahead = load({(0, 0): 0, (1, 0): 0, (0, 1): 0, (2, 0): None, (3, 0): None, (4, 0): 1})
    assert hex_evaluation.evaluate(ahead)[0] > 0.3


def test_the_written_out_two_player_hex_evaluation_equals_the_general_one() -> None:
    from limitgames.agents import hex_evaluation

    assert hex_evaluation.WEIGHTS is not None
    rng = random.Random(4)
    state = get_game("hex").new_initial_state(seed=4, size=6)
    while not state.is_terminal():
        hex_state: Any = state
        rows = hex_state.feature_matrix().tolist()
        x = hex_evaluation._vector(rows, 0, state.current_player(), hex_state.step == "remove")
        z = sum(w * v for w, v in zip(hex_evaluation.WEIGHTS, x, strict=True))
        assert hex_evaluation.evaluate(state)[0] == pytest.approx(math.tanh(z / 2.0))
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
