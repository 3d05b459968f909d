"""perft: hand-counted small positions (the reasoning is in each fixture's "why") and regression
counts computed by the naive reference (``tests/hex/reference.py``; regenerate them with
``tests/hex/make_perft_fixtures.py``). The engine must match both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from limitgames.core import get_game
from limitgames.core.perft import divide, perft
from tests.hex import reference

HERE = Path(__file__).parent
SMALL = json.loads((HERE / "perft_small.json").read_text())
REGRESSION = json.loads((HERE / "perft_regression.json").read_text())


def _cases(fixtures: list[dict[str, Any]]) -> list[Any]:
    return [
        pytest.param(f, int(d), n, id=f"{f['id']}-d{d}")
        for f in fixtures
        for d, n in f["perft"].items()
    ]


def _check_engine(fixture: dict[str, Any], depth: int, expected: int) -> None:
    state = get_game("hex").state_from_position(fixture["position"])
    got = perft(state, depth)
    if got != expected:  # show the divide to find the bug fast
        detail = {state.action_to_string(a): c for a, c in divide(state, depth)}
        source = fixture["source"] + (' -- see its "why"' if "why" in fixture else "")
        pytest.fail(
            f"engine perft({depth}) = {got}, expected {expected} (source: {source}); divide: {detail}"
        )


@pytest.mark.parametrize(("fixture", "depth", "expected"), _cases(SMALL))
def test_hand_counted_perft(fixture: dict[str, Any], depth: int, expected: int) -> None:
    assert fixture["source"] == "hand" and fixture["why"]
    _check_engine(fixture, depth, expected)


@pytest.mark.parametrize(("fixture", "depth", "expected"), _cases(REGRESSION))
def test_regression_perft(fixture: dict[str, Any], depth: int, expected: int) -> None:
    """Counts from the reference ("source": "reference"), or by hand (with a "why")."""
    assert fixture["source"] in ("reference", "hand")
    assert fixture["source"] == "reference" or fixture.get("why")
    _check_engine(fixture, depth, expected)


@pytest.mark.parametrize(("fixture", "depth", "expected"), _cases(SMALL))
def test_the_reference_agrees_with_the_hand_counts(
    fixture: dict[str, Any], depth: int, expected: int
) -> None:
    state = reference.RefState.from_position(fixture["position"])
    assert reference.perft(state, depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("fixture", "depth", "expected"), _cases(REGRESSION))
def test_the_regression_counts_are_the_references(
    fixture: dict[str, Any], depth: int, expected: int
) -> None:
    """Guards the file against hand edits: the reference recomputes every count (about 10 s)."""
    state = reference.RefState.from_position(fixture["position"])
    assert reference.perft(state, depth) == expected


def test_divide_sums_to_perft() -> None:
    state = get_game("hex").state_from_position(SMALL[0]["position"])
    assert sum(c for _, c in divide(state, 3)) == perft(state, 3) == 4


def _shallow(fixtures: list[dict[str, Any]], deepest: int) -> list[Any]:
    return [case for case in _cases(fixtures) if case.values[1] <= deepest]


@pytest.mark.parametrize(("fixture", "depth", "expected"), _shallow(SMALL + REGRESSION, 3))
def test_divide_totals_equal_the_fixture_counts(
    fixture: dict[str, Any], depth: int, expected: int
) -> None:
    """At every depth, also 1: a first action that ends the game is a whole sequence of one
    decision and counts 1 (line5: the capture of the last blue pawn is one of its 3)."""
    state = get_game("hex").state_from_position(fixture["position"])
    assert sum(count for _, count in divide(state, depth)) == expected


def test_a_game_ending_first_action_counts_one_at_depth_one() -> None:
    state = get_game("hex").state_from_position(SMALL[0]["position"])  # line5, see its "why"
    counts = {state.action_to_string(a): c for a, c in divide(state, 1)}
    assert counts == {"a1-b1": 1, "a1-c1": 1, "a1-d1": 1}
