"""The fast exact solver (limitgames.hex.solver) against the plain one (tests/hex/plain_solver.py):
the move ordering, the cutoffs taken from the children's table entries, the null windows and
max-n's stop at the first win must never change a value.

The plain solver is the solver before those were added; both solvers' values are checked
against a naive minimax over the reference engine in tests/hex/test_solver.py. With three
players both solvers break ties by the first action in legal order, except between winning
actions (a game has one winner, so every winning action gives the same result per seat): the
values must be equal seat by seat, and the fast solver's best action must reach them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limitgames.core import get_game
from limitgames.hex.solver import solve
from limitgames.hex.state import HexState
from tests.hex.plain_solver import plain_values


def _movement(state: Any, rng: random.Random, plies: int) -> Any:
    """Play random actions through the 2008 placement phase, then ``plies`` more."""
    while not state.is_terminal() and state.kernel_vector() is None:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    for _ in range(plies):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def _near_stalemate(state: HexState) -> HexState:
    """The same position one quiet turn short of the stalemate draw (``rules/hex.md``, End),
    so that draws are among the values compared."""
    position = state.observation(None)
    position = {k: v for k, v in position.items() if k not in ("seats", "result", "equaliser")}
    position["quiet_turns"] = state.num_players - 1
    loaded = get_game("hex").state_from_position(position)
    assert isinstance(loaded, HexState)
    return loaded


def _agree(state: HexState) -> None:
    expected = plain_values(state)
    solution = solve(state, seconds=600, table_bits=16)
    assert solution.values == expected
    if solution.best_action is not None:  # the action it names reaches the mover's value
        child = state.clone()
        child.apply(solution.best_action)
        assert plain_values(child)[solution.seat] == expected[solution.seat]


def _states(size: int, count: int, seed: int) -> list[Any]:
    """Seeded positions: new layouts and part-played games, 2 and 3 players, both editions and
    both readings of "must allow a removal"."""
    game = get_game("hex")
    rng = random.Random(seed)
    out = []
    for i in range(count):
        players = 2 + i % 2
        variant: dict[str, Any] = {"size": size, "players": players}
        if i % 4 >= 2:
            variant["edition"] = "2008"
        elif i % 8 == 1:
            variant["must_remove"] = "continuing"
        if i % 4 == 0 and "edition" not in variant:
            variant["layout"] = "uniform"
        state = _movement(game.new_initial_state(seed=seed * 1000 + i, **variant), rng, i % 5)
        if i % 3 == 2 and not state.is_terminal():
            state = _near_stalemate(state)
        if not state.is_terminal():
            out.append(pytest.param(state, id=f"{i}-p{players}-{variant.get('edition', 'ng')}"))
    return out


@pytest.mark.parametrize("state", _states(2, 48, 3))
def test_the_fast_solver_equals_the_plain_one_at_size_2(state: HexState) -> None:
    _agree(state)


@pytest.mark.slow
@pytest.mark.parametrize("state", _states(3, 16, 5))
def test_the_fast_solver_equals_the_plain_one_at_size_3(state: HexState) -> None:
    _agree(state)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    edition=st.sampled_from(["nestorgames", "2008"]),
    plies=st.integers(0, 6),
    quiet=st.booleans(),
)
def test_the_fast_solver_equals_the_plain_one_on_random_size_2_games(
    seed: int, players: int, edition: str, plies: int, quiet: bool
) -> None:
    state = get_game("hex").new_initial_state(seed=seed, size=2, players=players, edition=edition)
    state = _movement(state, random.Random(seed), plies)
    if not state.is_terminal():
        _agree(_near_stalemate(state) if quiet else state)


def test_the_fast_solver_equals_the_plain_one_on_draws() -> None:
    # draws are rare (every size-2 layout is won by someone): part-played size-2 games one
    # quiet turn short of the stalemate draw, where some are drawn
    game = get_game("hex")
    values = []
    for plies in (6, 8):
        for seed in range(30):
            state = _movement(game.new_initial_state(seed=seed, size=2), random.Random(seed), plies)
            if state.is_terminal():
                continue
            state = _near_stalemate(state)
            expected = plain_values(state)
            assert solve(state, seconds=600, table_bits=12).values == expected
            values.append(expected[0])
    assert values.count(0.0) >= 2, "the seeded set should hold draws"
