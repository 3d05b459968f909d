"""Levels are defined by work with a wall-time cap: the same seed and work give the same move
whatever the load, and the cap stops a search whose work would take too long.

No test here times anything: "the cap stops the search" is checked by the work done (a search
given far more work than it can do before a tiny cap reports less than it was given), and
"whatever the load" by playing the same search twice, once while another process keeps a core
busy, and comparing the moves.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from limitgames.agents import LEVELS, level_spec, make_agent
from limitgames.agents.base import parse_spec
from limitgames.agents.evaluation import solved_choice
from limitgames.core import Action, State, get_game
from limitgames.hex.solver import solve_vector
from limitgames.testing import positions_along_a_game

WORK_OPTIONS = ("iterations", "nodes")
"""The options that give a search's work budget."""
GAMES = ("hex", "cards", "world")


def options_of(spec: str) -> dict[str, str]:
    return parse_spec(spec)[1]


def smaller(spec: str, divisor: int, cap: float = 120.0) -> str:
    """``spec`` with every work budget divided by ``divisor`` and the cap set to ``cap`` s (a
    level's own search, made quick enough for a test and never stopped by its cap)."""

    def divide(match: re.Match[str]) -> str:
        return f"{match.group(1)}={max(1, int(match.group(2)) // divisor)}"

    spec = re.sub(r"\b(iterations|nodes|placement|solve_nodes)=(\d+)", divide, spec)
    return re.sub(r"\bseconds=[0-9.]+", f"seconds={cap:g}", spec)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_searching_level_has_a_work_budget_and_a_cap(game_id: str) -> None:
    for level in LEVELS:
        spec = level_spec(game_id, level)
        name, options = parse_spec(spec)
        if level == "easy":
            # the one-ply heuristic: one evaluation per legal action, no search to budget
            assert name == "heuristic", spec
            continue
        assert any(key in options for key in WORK_OPTIONS), f"{spec}: no work budget"
        assert float(options["seconds"]) > 0, f"{spec}: no wall-time cap"
        if options.get("solve") == "yes":
            assert "solve_nodes" in options, f"{spec}: the exact solver has no work budget"
        make_agent(spec, game=game_id)  # every option fits the game


@pytest.mark.parametrize("game_id", GAMES)
def test_the_ladder_keeps_its_order_of_work(game_id: str) -> None:
    # within one kind of search, each level does more work than the one below
    by_agent: dict[str, list[int]] = {}
    for level in LEVELS[1:]:
        name, options = parse_spec(level_spec(game_id, level))
        work = next(int(options[key]) for key in WORK_OPTIONS if key in options)
        by_agent.setdefault(name, []).append(work)
    for works in by_agent.values():
        assert works == sorted(works) and len(set(works)) == len(works)


def test_smaller_divides_the_work_and_lifts_the_cap() -> None:
    spec = "hexmcts:iterations=16000,placement=20,solve_nodes=200000,seconds=1,c=1,solve=yes"
    assert smaller(spec, 10) == (
        "hexmcts:iterations=1600,placement=2,solve_nodes=20000,seconds=120,c=1,solve=yes"
    )


@pytest.fixture
def busy_core() -> Iterator[None]:
    """Another process spinning on a core for the duration of the test (ended by its pid)."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def moves(spec: str, game_id: str, states: list[State]) -> list[Action]:
    """The choices of one agent (seed 5) at ``states``, asked in order as in one game."""
    agent = make_agent(spec, seed=5, game=game_id)
    return [agent.choose(state) for state in states]


CASES = [
    ("hex", {}, "medium", 20),
    ("hex", {}, "hard", 8),
    ("hex", {"players": 3}, "hard", 8),
    ("hex", {"edition": "2008"}, "medium", 20),
    ("cards", {}, "medium", 10),
    ("world", {}, "medium", 6),
]


@pytest.mark.parametrize(("game_id", "variant", "level", "divisor"), CASES)
def test_the_same_seed_and_work_give_the_same_moves_on_a_busy_machine(
    game_id: str,
    variant: dict[str, object],
    level: str,
    divisor: int,
    request: pytest.FixtureRequest,
) -> None:
    spec = smaller(level_spec(game_id, level), divisor)
    states = positions_along_a_game(game_id, 3, 11, variant)
    quiet = moves(spec, game_id, states)
    request.getfixturevalue("busy_core")
    assert moves(spec, game_id, states) == quiet


@pytest.mark.parametrize(
    ("game_id", "spec"),
    [
        ("hex", "hexmcts:iterations=100000000,seconds=0.05,playouts=tactical"),
        ("hex", "mcts:iterations=100000000,seconds=0.05"),
        ("hex", "alphabeta:nodes=100000000,seconds=0.05"),
        ("cards", "ismcts:iterations=100000000,seconds=0.05"),
        ("world", "nation:iterations=100000000,seconds=0.05"),
    ],
)
def test_a_tiny_cap_stops_a_search_with_far_more_work(game_id: str, spec: str) -> None:
    agent = make_agent(spec, seed=2, game=game_id)
    state = next(s for s in positions_along_a_game(game_id, 3, 2) if len(s.legal_actions()) > 1)
    action = agent.choose(state)
    assert state.is_legal(action)
    work = agent.last_info.get("iterations", agent.last_info.get("nodes"))
    assert work is not None and work < 100_000_000


def test_alphabeta_searches_at_most_its_nodes_and_repeats_itself() -> None:
    state = get_game("hex").new_initial_state(seed=3, size=4)
    first = make_agent("alphabeta:nodes=300", seed=1, game="hex")
    action = first.choose(state)
    assert first.last_info["nodes"] <= 301  # the node that finds the budget spent is counted
    capped = make_agent("alphabeta:nodes=300,seconds=120", seed=1, game="hex")
    assert capped.choose(state) == action
    assert capped.last_info["nodes"] == first.last_info["nodes"]


def test_alphabeta_refuses_a_placement_budget_on_a_game_without_one() -> None:
    from limitgames.agents import AgentSpecError

    with pytest.raises(AgentSpecError, match="placement"):
        make_agent("alphabeta:nodes=10,placement=5", game="cards")
    make_agent("alphabeta:nodes=10,placement=5", game="hex")


def ending(seed: int = 4) -> State:
    """A 2-player hex position of 21 tiles or fewer reached by seeded random play."""
    import random

    rng = random.Random(seed)
    state = get_game("hex").new_initial_state(seed=seed)
    while len(state.tiles()) > 21:  # type: ignore[attr-defined]
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert not state.is_terminal()
    return state


def test_the_solver_gives_up_after_exactly_its_nodes() -> None:
    state = ending()
    vector = state.kernel_vector()  # type: ignore[attr-defined]
    surface = state.surface  # type: ignore[attr-defined]
    values, action, nodes = solve_vector(
        surface.neighbour_masks, surface.ring, vector, seconds=600.0, table_bits=16, nodes=500
    )
    # a position of about 20 tiles takes far more than 500 positions to prove
    assert values is None and action == -1 and nodes == 500
    # a finished game needs no search: its value with any node budget
    over = get_game("hex").new_initial_state(seed=1, size=2)
    while not over.is_terminal():
        over.apply(over.legal_actions()[0])
    v = over.kernel_vector()  # type: ignore[attr-defined]
    s = over.surface  # type: ignore[attr-defined]
    done, _, counted = solve_vector(s.neighbour_masks, s.ring, v, nodes=1)
    assert done is not None and counted == 0


def test_the_solver_with_enough_nodes_agrees_with_the_unbounded_one() -> None:
    state = get_game("hex").new_initial_state(seed=2, size=2)
    vector = state.kernel_vector()  # type: ignore[attr-defined]
    surface = state.surface  # type: ignore[attr-defined]
    unbounded = solve_vector(surface.neighbour_masks, surface.ring, vector, table_bits=12)
    assert unbounded[0] is not None
    bounded = solve_vector(
        surface.neighbour_masks, surface.ring, vector, table_bits=12, nodes=unbounded[2]
    )
    assert bounded == unbounded
    starved = solve_vector(
        surface.neighbour_masks, surface.ring, vector, table_bits=12, nodes=unbounded[2] - 1
    )
    assert starved[0] is None


def test_a_solver_cap_stops_it_before_its_nodes() -> None:
    # far more nodes than 0.01 s allows: the cap ends the search unsolved
    assert solved_choice(ending(), 0.01, 10**12) is None
