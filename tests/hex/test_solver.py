"""The exact solver (limitgames.hex.solver) against an exhaustive minimax written naively here,
over the naive reference engine (tests/hex/reference.py), never over the engine under test.

Two players: the mover picks the child best for itself (zero-sum, so this is minimax).
Three players: max-n, ties between actions equally good for the mover broken by the first
action in the engine's legal order, which is reading order (row, then column) of the pawn's
cell, then of the destination (the solver's stated assumption).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from limitgames.core import get_game
from limitgames.hex.solver import solve
from limitgames.hex.state import HexState
from tests.hex.positions import position
from tests.hex.reference import RefState


def _order(action: tuple[Any, ...]) -> tuple[Any, ...]:
    cells = action[1:]
    return (action[0], *[(c[1], c[0]) for c in cells])


def naive_values(state: RefState, memo: dict[str, tuple[float, ...]]) -> tuple[float, ...]:
    """Every seat's result under perfect play (max-n; minimax for two seats)."""
    key = repr(sorted(state.comparable().items(), key=str))
    if key in memo:
        return memo[key]
    if state.is_over():
        assert state.result is not None
        values = tuple(state.result)
    else:
        mover = state.to_move
        assert mover is not None
        best: tuple[float, ...] | None = None
        for action in sorted(state.legal_actions(), key=_order):
            child = naive_values(state.apply(action), memo)
            if best is None or child[mover] > best[mover]:
                best = child
        assert best is not None
        values = best
    memo[key] = values
    return values


def _row() -> dict[str, Any]:
    return position({(q, 0): p for q, p in enumerate([None, 0, None, 0, None, 1, None])})


HAND_CHECKED = [
    # a1 . | b1 R | c1 . | d1 R | e1 . | f1 B | g1 .: b1-a1 forces x g1, then blue's only move f1-e1
    # and only removal x f1 take blue's last freedom (self-capture): red wins
    ("one-row", _row(), [1.0, -1.0]),
    # red (1,0) between empty (0,0) and (2,0), blue (3,0),(4,0): red to (2,0) captures the blue group
    (
        "must-allow",
        position({(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): 1, (4, 0): 1}),
        [1.0, -1.0],
    ),
    # red (0,0), blue (4,0), three empty tiles between: red to (3,0) takes blue's last freedom
    (
        "line5",
        position({(0, 0): 0, (1, 0): None, (2, 0): None, (3, 0): None, (4, 0): 1}),
        [1.0, -1.0],
    ),
    # 2008 Figure 6: white must move to the only empty tile, then remove the vacated one, capturing red
    (
        "figure-6",
        position({(0, 0): 1, (1, 0): 0, (0, 1): None}, edition="2008", turn=9),
        [1.0, -1.0],
    ),
    # blue (0,0) touches only (1,0) (empty) and red (0,1); red (1,1)-(1,0) takes its last freedom
    ("capture-in-one", position({(0, 0): 1, (1, 0): None, (0, 1): 0, (1, 1): 0}), [1.0, -1.0]),
]


def _played(state: Any, rng: random.Random, plies: int) -> Any:
    for _ in range(plies):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def _random_positions() -> list[Any]:
    """Seeded small positions: size-2 layouts (2 and 3 players) and size-2 games part-played
    (fast), and size-3 games part-played (slow: the naive minimax takes minutes there)."""
    game = get_game("hex")
    rng = random.Random(7)
    out = []
    for players in (2, 3):
        for seed in range(10):
            state = game.new_initial_state(seed=seed, size=2, players=players)
            out.append(pytest.param(f"size2-{players}p-seed{seed}", state.observation(None), None))
    for seed in range(10):
        state = _played(
            game.new_initial_state(seed=50 + seed, size=2, players=2 + seed % 2), rng, 1 + seed % 4
        )
        if not state.is_terminal():
            out.append(pytest.param(f"size2-part-{seed}", state.observation(None), None))
    for seed in range(8):
        state = _played(
            game.new_initial_state(seed=100 + seed, size=3, players=2 + seed % 2),
            rng,
            rng.randrange(2, 10),
        )
        if not state.is_terminal():
            out.append(
                pytest.param(
                    f"size3-part-{seed}", state.observation(None), None, marks=pytest.mark.slow
                )
            )
    return out


FIXTURE = [pytest.param(*case) for case in HAND_CHECKED] + _random_positions()


def test_the_fast_fixture_alone_has_thirty_positions() -> None:
    assert sum(1 for case in FIXTURE if not case.marks) >= 30


@pytest.mark.parametrize(
    ("name", "pos", "expected"), FIXTURE, ids=[case.values[0] for case in FIXTURE]
)
def test_solver_agrees_with_naive_minimax(
    name: str, pos: dict[str, Any], expected: list[float] | None
) -> None:
    clean = {k: v for k, v in pos.items() if k not in ("seats", "result", "equaliser")}
    naive = list(naive_values(RefState.from_position(clean), {}))
    if expected is not None:
        assert naive == expected, "the hand reasoning and the naive minimax disagree"
    state = get_game("hex").state_from_position(clean)
    assert isinstance(state, HexState)
    solution = solve(state, seconds=120, table_bits=14)
    assert solution.values == naive
    if solution.best_action is not None:  # the action it names reaches that value
        child = state.clone()
        child.apply(solution.best_action)
        again = solve(child, seconds=120, table_bits=14)
        assert again.values is not None and again.values[solution.seat] == naive[solution.seat]


def test_alphabeta_with_solve_plays_a_small_ending_exactly() -> None:
    from limitgames.agents import make_agent

    state = get_game("hex").state_from_position(_row())
    agent = make_agent("alphabeta:seconds=1,solve=yes", 1)
    action = agent.choose(state)
    assert agent.last_info["depth"] == "exact" and agent.last_info["proven"] == "win"
    # the naive minimax says which first moves win: b1-a1 and d1-e1 (b1-c1 and d1-c1 lose)
    start = RefState.from_position(_row())
    winning = {
        f"{state.cell_name(a[1])}-{state.cell_name(a[2])}"
        for a in start.legal_actions()
        if naive_values(start.apply(a), {})[0] == 1.0
    }
    assert winning == {"b1-a1", "d1-e1"}
    assert state.action_to_string(action) in winning
