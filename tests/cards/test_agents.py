"""The project's agents on Limits: legal choices, and no peeking at hidden cards."""

from __future__ import annotations

import random

from limitgames.agents import make_agent
from limitgames.cards import CARDS, CardsState


def _midgame(seed: int, steps: int) -> CardsState:
    rng = random.Random(seed)
    state = CARDS.new_initial_state(seed=seed, players=4)
    for _ in range(steps):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def test_ismcts_plays_legal_actions_without_peeking() -> None:
    state = _midgame(3, 9)
    seat = state.current_player()
    twin = state.clone()
    # Move every other seat's hidden card into its hand and hide another one instead.
    for s in range(4):
        if s != seat and sum(twin.hidden[s]):
            old = next(c for c in range(5) if twin.hidden[s][c])
            new = next((c for c in range(5) if c != old and twin.hands[s][c]), old)
            twin.hidden[s][old] -= 1
            twin.hands[s][old] += 1
            twin.hands[s][new] -= 1
            twin.hidden[s][new] += 1
    assert twin.key() != state.key() and twin.observation(seat) == state.observation(seat)
    choices = []
    for position in (state, twin):
        agent = make_agent("ismcts:iterations=15", seed=7)
        action = agent.choose(position)
        assert action in position.legal_actions()
        choices.append(action)
    assert choices[0] == choices[1]


def test_heuristic_and_random_finish_a_game() -> None:
    state = CARDS.new_initial_state(seed=2, players=3)
    agents = [
        make_agent("heuristic", seed=1),
        make_agent("random", seed=2),
        make_agent("heuristic", seed=3),
    ]
    while not state.is_terminal():
        state.apply(agents[state.current_player()].choose(state))
    assert state.colour_card_total() == 60 and state.winners()
