"""ISMCTS never reads hidden state: its choice is the same whatever the other seats hold.

For each hidden-information game that is registered (``cards``, ``world``,
and the toy game), a position is reached by random play; another position
that the seat to move cannot tell from it (same observation for that seat,
other seats' hidden cards dealt anew by ``determinize``) is made; ISMCTS with
a fixed seed must choose the same action with the same statistics in both.
"""

from __future__ import annotations

import random

import pytest

import tests.agents.toy_tricks  # noqa: F401 - registers toy-tricks
from limitgames.agents import make_agent
from limitgames.core import available_games, get_game

VARIANTS = {"cards": {"players": 3}, "world": {"players": 2}, "toy-tricks": {"hand": 4}}
HIDDEN = [g for g in ("cards", "world") if g in available_games()] + ["toy-tricks"]


@pytest.mark.parametrize("game_id", HIDDEN)
@pytest.mark.parametrize("spec", ["ismcts:iterations=60", "heuristic"])
def test_choice_does_not_depend_on_hidden_cards(game_id: str, spec: str) -> None:
    rng = random.Random(0)
    state = get_game(game_id).new_initial_state(seed=4, **VARIANTS[game_id])
    for _ in range(5):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    seat = state.current_player()
    for k in range(3):
        twin = state.determinize(seat, random.Random(100 + k))
        assert twin.observation(seat) == state.observation(seat)
        first, second = make_agent(spec, seed=5), make_agent(spec, seed=5)
        assert first.choose(state) == second.choose(twin)
        first.last_info.pop("seconds", None)
        second.last_info.pop("seconds", None)
        assert first.last_info == second.last_info
