"""The notation of Limits' actions: canonical forms, aliases, errors."""

from __future__ import annotations

import pytest

from limitgames.cards import CARDS, NUM_ACTIONS
from limitgames.cards.notation import action_kind, action_name, parse_action_text
from limitgames.core import NotationError


def test_every_action_round_trips() -> None:
    state = CARDS.new_initial_state(seed=1, players=6)
    names = [state.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert names[:3] == ["hide red", "hide yellow", "hide green"]
    assert names[5] == "play red" and names[14] == "exchange purple"
    assert names[15] == "suspect 0" and names[20] == "suspect 5" and names[21] == "pass"
    assert len(set(names)) == NUM_ACTIONS
    for action, name in enumerate(names):
        assert state.parse_action(name) == action
        assert action_kind(action) == name.split()[0]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Play RED", "play red"),
        ("hide  b", "hide blue"),
        ("exchange violet", "exchange purple"),
        ("play p", "play purple"),
        ("suspect seat 3", "suspect 3"),
        (" pass ", "pass"),
    ],
)
def test_aliases(text: str, canonical: str) -> None:
    assert action_name(parse_action_text(text)) == canonical


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("play", "write 'play COLOUR'"),
        ("play pink", "'pink' is not a colour"),
        ("suspect", "write 'suspect SEAT'"),
        ("suspect barbara", "write 'suspect SEAT'"),
        ("suspect 9", "there is no seat 9"),
        ("pass now", "'pass' takes nothing"),
        ("discard red", "unknown action 'discard'"),
    ],
)
def test_errors_name_the_problem(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        parse_action_text(text)


def test_action_name_rejects_non_actions() -> None:
    with pytest.raises(ValueError, match="not a Limits action"):
        action_name(NUM_ACTIONS)
