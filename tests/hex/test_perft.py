"""perft: hand-counted small positions (the reasoning is in the fixture's "why") and regression counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from limitgames.core import get_game
from limitgames.core.perft import divide, perft

HERE = Path(__file__).parent
SMALL = json.loads((HERE / "perft_small.json").read_text())
REGRESSION = json.loads((HERE / "perft_regression.json").read_text())


def _cases(fixtures: list[dict[str, Any]]) -> list[Any]:
    return [pytest.param(f, int(d), n, id=f"{f['id']}-d{d}") for f in fixtures for d, n in f["perft"].items()]


@pytest.mark.parametrize(("fixture", "depth", "expected"), _cases(SMALL))
def test_hand_counted_perft(fixture: dict[str, Any], depth: int, expected: int) -> None:
    state = get_game("hex").state_from_position(fixture["position"])
    got = perft(state, depth)
    if got != expected:  # show the divide to find the bug fast
        detail = {state.action_to_string(a): c for a, c in divide(state, depth)}
        pytest.fail(f"perft({depth}) = {got}, expected {expected}; divide: {detail}")


@pytest.mark.parametrize(("fixture", "depth", "expected"), _cases(REGRESSION))
def test_regression_perft(fixture: dict[str, Any], depth: int, expected: int) -> None:
    state = get_game("hex").state_from_position(fixture["position"])
    assert perft(state, depth) == expected


def test_divide_sums_to_perft() -> None:
    state = get_game("hex").state_from_position(SMALL[0]["position"])
    assert sum(c for _, c in divide(state, 3)) == perft(state, 3) == 4
