"""Properties of Limits over random games (Hypothesis) and the conformance suite."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limitgames.cards import CARDS, CardsState
from limitgames.cards.observe import unseen_colour_counts
from limitgames.core import GameRecord
from limitgames.testing import check_game

players_st = st.integers(min_value=2, max_value=6)
seeds_st = st.integers(min_value=0, max_value=2**32)


def _random_state(players: int, seed: int, steps: int | None = None) -> CardsState:
    """A random game, played for ``steps`` decisions (to the end if ``None``)."""
    rng = random.Random(seed)
    state = CARDS.new_initial_state(seed=seed, players=players)
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        n += 1
    return state


def _check_invariants(state: CardsState) -> None:
    assert state.colour_card_total() == 60
    for s in range(state.n):
        assert all(x >= 0 for x in state.hands[s]) and all(x >= 0 for x in state.hidden[s])
        cards = [h + x for h, x in zip(state.hands[s], state.hidden[s], strict=True)]
        assert all(k <= c for k, c in zip(state.known[s], cards, strict=True)), (
            "known cards not held"
        )
        assert all(k <= c for k, c in zip(state.known_hand[s], state.hands[s], strict=True)), (
            "not in hand"
        )
        assert all(k <= c for k, c in zip(state.known_hand[s], state.known[s], strict=True))
        assert sum(cards) <= state.full_hand
    for colour in range(5):
        total = sum(h[colour] + x[colour] for h, x in zip(state.hands, state.hidden, strict=True))
        total += state.pile.count(colour) + state.draw.count(colour)
        assert total == 12
    assert len(state.draw) == len(state.draw_known)
    limit_cards = len(state.limit_pile) + len(state.put_aside) + sum(map(len, state.taken))
    assert limit_cards + (state.limit_card is not None) == 24


@settings(max_examples=40, deadline=None)
@given(players=players_st, seed=seeds_st)
def test_random_games_end_and_conserve_cards(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = CARDS.new_initial_state(seed=seed, players=players)
    decisions = 0
    while not state.is_terminal():
        _check_invariants(state)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        decisions += 1
        assert decisions < 5000
    _check_invariants(state)
    taken = sum(len(t) for t in state.taken)
    assert taken == 24 - {2: 14, 3: 6, 4: 6, 5: 10, 6: 10}[players]
    assert sum(state.scores()) == sum(state.points) - 2 * taken
    best = max(state.scores())
    sole = state.scores().count(best) == 1
    assert state.returns() == [
        (1.0 if sole else 0.0) if x == best else -1.0 for x in state.scores()
    ]
    assert state.winners() == [s for s in range(players) if state.scores()[s] == best]


@settings(max_examples=60, deadline=None)
@given(
    players=players_st, seed=seeds_st, steps=st.integers(min_value=0, max_value=150), data=st.data()
)
def test_observation_ignores_other_seats_hidden_cards(
    players: int, seed: int, steps: int, data: st.DataObject
) -> None:
    state = _random_state(players, seed, steps)
    if state.is_terminal():
        return
    seat = data.draw(st.integers(min_value=0, max_value=players - 1))
    before = json.dumps(state.observation(seat), sort_keys=True)
    # Permute the other seats' hidden cards among them (seats with as many hidden
    # cards), then swap each one's hidden card with a hand card of another colour.
    others = [s for s in range(players) if s != seat]
    rng = random.Random(seed)
    twin = state.clone()
    moved = [list(twin.hidden[s]) for s in others]
    rng.shuffle(moved)
    for s in others:
        same = next(i for i, h in enumerate(moved) if sum(h) == sum(twin.hidden[s]))
        twin.hidden[s] = moved.pop(same)
    for s in others:
        hid = [c for c in range(5) if twin.hidden[s][c]]
        held = [c for c in range(5) if twin.hands[s][c] and c not in hid]
        if hid and held:
            a, b = rng.choice(hid), rng.choice(held)
            twin.hidden[s][a] -= 1
            twin.hands[s][a] += 1
            twin.hands[s][b] -= 1
            twin.hidden[s][b] += 1
    # The unknown places of the draw pile and the unseen limit cards are hidden too.
    unknown = [i for i, k in enumerate(twin.draw_known) if not k]
    colours = [twin.draw[i] for i in unknown]
    rng.shuffle(colours)
    for i, c in zip(unknown, colours, strict=True):
        twin.draw[i] = c
    fixed = twin.limit_bottom_known
    unseen = twin.limit_pile[fixed:] + twin.put_aside
    rng.shuffle(unseen)
    twin.limit_pile[fixed:] = unseen[: len(twin.limit_pile) - fixed]
    twin.put_aside = unseen[len(twin.limit_pile) - fixed :]
    assert twin.colour_card_total() == 60
    # A determinization depends only on what the seat knows (and the generator).
    assert (
        twin.determinize(seat, random.Random(1)).key()
        == state.determinize(seat, random.Random(1)).key()
    )
    assert json.dumps(twin.observation(seat), sort_keys=True) == before
    assert json.dumps(twin.observation(None), sort_keys=True) == json.dumps(
        state.observation(None), sort_keys=True
    )


@settings(max_examples=60, deadline=None)
@given(
    players=players_st, seed=seeds_st, steps=st.integers(min_value=0, max_value=200), data=st.data()
)
def test_determinizations_are_consistent_with_the_observation(
    players: int, seed: int, steps: int, data: st.DataObject
) -> None:
    state = _random_state(players, seed, steps)
    seat = data.draw(st.integers(min_value=0, max_value=players - 1))
    world = state.determinize(seat, random.Random(seed + 1))
    assert isinstance(world, CardsState)
    assert world.observation(seat) == state.observation(seat)
    _check_invariants(world)
    assert world.hands[seat] == state.hands[seat] and world.hidden[seat] == state.hidden[seat]
    # known cards of the draw pile keep their places
    for c, k, c2 in zip(state.draw, state.draw_known, world.draw, strict=True):
        if k:
            assert c == c2
    assert unseen_colour_counts(world, seat) == unseen_colour_counts(state, seat)
    # the world plays on to the end; the original is untouched
    snapshot = state.key()
    world.playout(random.Random(seed))
    assert world.is_terminal() and state.key() == snapshot


def test_determinizations_vary_the_unseen_cards() -> None:
    state = _random_state(4, 7, 10)
    worlds = {state.determinize(0, random.Random(k)).key() for k in range(20)}
    assert len(worlds) > 10
    assert all(state.determinize(0, random.Random(k)).hands[0] == state.hands[0] for k in range(5))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance(players: int) -> None:
    check_game(CARDS, {"players": players}, games=4, seed=100 * players)


def test_record_round_trip_with_names() -> None:
    state = _random_state(4, 99)
    record = GameRecord.of_state(state, seats=["human:ann", "random", "random", "random"], seed=99)
    text = record.dumps()
    again = GameRecord.loads(text).replay()
    assert again.returns() == state.returns() and again.history() == state.history()
    assert json.loads(text)["chance"][2]["kind"] == "start player"
