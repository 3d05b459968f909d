"""Properties of random LIMIT games: they end, tokens are conserved, hidden cards stay hidden."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limitgames.core import GameRecord, get_game
from limitgames.testing import check_game
from limitgames.world.observe import log as log_of
from limitgames.world.state import WorldState
from tests.world.scenario import new_state, totals


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_games_end_and_conserve_tokens(players: int, seed: int) -> None:
    state = new_state(players, seed=seed)
    rng = random.Random(seed)
    start = totals(state)
    steps = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        steps += 1
        assert steps < 5000
        assert totals(state) == start
    assert state.generation <= 7
    assert len(state.scores) == players
    assert sum(len(g) for g in state.crises) <= 6  # at most 3 more in the generation of the 4th


def _shuffle_hidden(state: WorldState, seat: int, rng: random.Random) -> WorldState:
    """A copy where every other nation's hand holds different cards (same count per deck: the
    card backs are public) and every deck is in another order."""
    other = state.clone()
    for nation in other.nations:
        if nation.seat == seat:
            continue
        hand: list[str] = []
        for deck, cards in nation.decks.items():
            held = [c for c in nation.hand if state.data.cards[c].deck == deck]
            pool = cards + held
            rng.shuffle(pool)
            nation.decks[deck] = pool[: len(cards)]
            hand += pool[len(cards) :]
        nation.hand = hand
    return other


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), stop=st.integers(0, 300))
def test_observation_ignores_other_hands(players: int, seed: int, stop: int) -> None:
    state = new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    for seat in range(players):
        mine = json.dumps(state.observation(seat), sort_keys=True)
        changed = _shuffle_hidden(state, seat, rng)
        assert json.dumps(changed.observation(seat), sort_keys=True) == mine
        dealt = state.determinize(seat, rng)
        assert json.dumps(dealt.observation(seat), sort_keys=True) == mine


def test_observation_never_shows_other_hands() -> None:
    state = new_state(3, seed=5)
    obs = state.observation(0)
    assert obs["hand"] == state.nations[0].hand
    assert all("hand" not in view for view in obs["nations"])
    assert "hand" not in state.observation(None)
    # the cards drawn in the new-policy step are shown to their owner only
    text = json.dumps(state.observation(1))
    top = state.pending[-1]
    if top.kind == "keep" and top.seat != 1:
        for card in top.args[1]:
            assert card not in text


@pytest.mark.slow  # the conformance suite on world (180 s under load)
def test_conformance_suite() -> None:
    game = get_game("world")
    for players in (2, 4, 6):
        check_game(game, {"players": players}, games=1, seed=players)


def test_determinize_keeps_card_counts() -> None:
    state = new_state(4, seed=3)
    rng = random.Random(1)
    for _ in range(60):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    dealt = state.determinize(0, rng)
    for a, b in zip(state.nations, dealt.nations, strict=True):
        assert len(a.hand) == len(b.hand)
        assert a.card_count() == b.card_count()
        assert sorted(a.hand + [c for d in a.decks.values() for c in d]) == sorted(
            b.hand + [c for d in b.decks.values() for c in d]
        )
    assert dealt.nations[0].hand == state.nations[0].hand
    dealt.playout(rng)
    assert dealt.is_terminal()


def test_record_round_trip() -> None:
    state = new_state(3, seed=11)
    state.playout(random.Random(2))
    record = GameRecord.of_state(state, seed=11)
    again = GameRecord.loads(record.dumps()).replay()
    assert again.returns() == state.returns()
    assert again.observation(None) == state.observation(None)


def test_clone_is_independent() -> None:
    state = new_state(4, seed=8)
    rng = random.Random(0)
    for _ in range(40):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    before = json.dumps(state.observation(None), sort_keys=True)
    twin = state.clone()
    twin.playout(rng)
    assert json.dumps(state.observation(None), sort_keys=True) == before


def test_simultaneous_choices_are_hidden_until_all_have_chosen() -> None:
    state = new_state(2, seed=4)
    first = state.current_player()
    second = 1 - first
    state.apply(("deck", "society"))
    kept = state.legal_actions()[0]
    state.apply(kept)
    assert state.current_player() == second and state.stage == "new_policy"
    seen = state.observation(second)["nations"][first]
    assert seen["deck_counts"]["society"] == 10 and seen["hand_count"] == 4
    assert not any("draws 5" in line for line in log_of(state, second))
    own = state.observation(first)["nations"][first]
    assert own["deck_counts"]["society"] == 9 and own["hand_count"] == 5
    state.apply(("deck", "military"))
    state.apply(state.legal_actions()[0])
    assert state.stage != "new_policy"
    seen = state.observation(second)["nations"][first]
    assert seen["deck_counts"]["society"] == 9 and seen["hand_count"] == 5
    log = log_of(state, second)
    assert any("draws 5 from the society deck" in line for line in log)
    assert not any(line.startswith(state.name(first)) and "you keep" in line for line in log)
    assert any(
        line.startswith(state.name(first)) and "you keep" in line for line in log_of(state, first)
    )


def test_key_tells_positions_apart() -> None:
    state = new_state(3, seed=2)
    twin = state.clone()
    assert state.key() == twin.key() and hash(state.key()) == hash(twin.key())
    twin.apply(twin.legal_actions()[0])
    assert state.key() != twin.key()


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), stop=st.integers(0, 200))
def test_determinize_depends_only_on_what_the_seat_knows(
    players: int, seed: int, stop: int
) -> None:
    state = new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal():
            return
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    seat = state.current_player()
    twin = _shuffle_hidden(state, seat, rng)
    assert (
        state.determinize(seat, random.Random(7)).key()
        == twin.determinize(seat, random.Random(7)).key()
    )


def test_determinize_undoes_choices_hidden_in_an_open_step() -> None:
    state = new_state(3, seed=4)
    first = state.current_player()
    state.apply(("deck", "society"))
    state.apply(state.legal_actions()[0])
    seat = state.current_player()
    assert seat != first and state.stage == "new_policy"
    dealt = state.determinize(seat, random.Random(3))
    redo = dealt.nations[first]
    assert redo.card_count()["society"] == 10 and len(redo.hand) == 4
    assert dealt.pending[0].kind == "deck" and dealt.pending[0].seat == first
    assert json.dumps(dealt.observation(seat), sort_keys=True) == json.dumps(
        state.observation(seat), sort_keys=True
    )
    dealt.playout(random.Random(5))
    assert dealt.is_terminal()
    assert state.nations[first].card_count()["society"] == 9  # the real state is untouched


WORDS = [
    "play education",
    "pass",
    "raise A",
    "lower E",
    "plant military",
    "target square",
    "spend 99",
    "spend 3",
    "resist",
    "yield",
    "take fossil",
    "buy 50 fossil",
    "sell 1 renewable",
    "no-trade",
    "price fossil up",
    "deck society",
    "keep terrorism",
    "discard education",
    "withdraw policy-planning",
    "give 5",
    "contribute 1000",
    "recall education",
    "gain military",
    "produce industrial",
]


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    stop=st.integers(0, 250),
    picks=st.lists(st.sampled_from(WORDS), max_size=8),
)
def test_wrong_actions_are_refused_and_change_nothing(
    seed: int, stop: int, picks: list[str]
) -> None:
    from limitgames.core import IllegalActionError

    state = new_state(3, seed=seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    for text in picks:
        action = state.parse_action(text)
        if state.is_legal(action):
            continue
        before = (state.key(), json.dumps(state.observation(None), sort_keys=True))
        try:
            state.apply(action)
        except IllegalActionError as exc:
            assert exc.reason
        else:
            raise AssertionError(f"{text} was accepted although is_legal said no")
        assert (state.key(), json.dumps(state.observation(None), sort_keys=True)) == before
