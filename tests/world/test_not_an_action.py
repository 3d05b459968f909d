"""Only what is not a world action at all is "not an action of this game": an error of the
engine while judging a well-formed action is a bug, and comes through as it is."""

from __future__ import annotations

from typing import Any

import pytest

from limitgames.core import IllegalActionError, get_game
from limitgames.world.state import ACCEPT, WorldState, is_world_action


def fresh() -> WorldState:
    state = get_game("world").new_initial_state(seed=5, players=2)
    assert isinstance(state, WorldState)
    return state


@pytest.mark.parametrize(
    "action",
    [5, "play education", None, (), (7, "education"), ("play", ["education"]), ["pass"]],
)
def test_what_is_not_a_world_action_is_refused_as_such(action: Any) -> None:
    state = fresh()
    before = state.key()
    assert not is_world_action(action)
    assert not state.is_legal(action)
    with pytest.raises(IllegalActionError, match="not an action of this game"):
        state.apply(action)
    assert state.key() == before


def test_a_well_formed_action_that_is_not_an_option_says_which_decision_is_due() -> None:
    state = fresh()
    assert is_world_action(("frobnicate", 3))
    assert not state.is_legal(("frobnicate", 3))
    with pytest.raises(IllegalActionError) as raised:
        state.apply(("frobnicate", 3))
    assert "not an action of this game" not in str(raised.value)
    assert "must decide" in str(raised.value)  # "not an option now (circle must decide: deck)"


def test_an_engine_key_error_is_not_turned_into_not_an_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = fresh()
    kind = state.pending[-1].kind
    legal = state.legal_actions()[0]

    def broken(state: WorldState, choice: Any, action: Any) -> str | None:
        raise KeyError("planted engine bug")

    monkeypatch.setitem(ACCEPT, kind, broken)  # a deliberately broken rule of this decision
    with pytest.raises(KeyError, match="planted engine bug"):
        state.apply(legal)
    with pytest.raises(KeyError, match="planted engine bug"):
        state.is_legal(legal)
