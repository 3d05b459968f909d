"""The smaller games of Limits (variant parameters ``colours``, ``cards_per_colour``, ``hand``,
``limit_pile``): deck, deal and end counted by hand, the rulebook's game unchanged."""

from __future__ import annotations

import random

import pytest

from limitgames.cards import CARDS, default_limit_cards
from limitgames.core import Chance, VariantError

MINI = {"players": 2, "colours": 2, "cards_per_colour": 4, "hand": 3, "limit_pile": 1}


def _colour_totals(state: object) -> list[int]:
    """Colour cards per colour in hands, hidden, pile and draw pile (counted naively)."""
    totals = [0] * 5
    for seat in range(state.n):  # type: ignore[attr-defined]
        for c in range(5):
            totals[c] += state.hands[seat][c] + state.hidden[seat][c]  # type: ignore[attr-defined]
    for c in list(state.pile) + list(state.draw):  # type: ignore[attr-defined]
        totals[c] += 1
    return totals


def test_the_mini_deck_and_deal_by_hand_count() -> None:
    state = CARDS.new_initial_state(seed=3, **MINI)
    # 2 colours x 4 cards = 8: red 4, yellow 4, no green, blue or purple.
    assert _colour_totals(state) == [4, 4, 0, 0, 0]
    assert state.colour_card_total() == 8
    # Two hands of 3 dealt: 8 - 6 = 2 cards left in the draw pile.
    assert [sum(h) for h in state.hands] == [3, 3]
    assert len(state.draw) == 2
    # One limit card is played; the other 23 of the 24 are put aside unseen.
    obs = state.observation(0)
    assert obs["limit_pile"] == 0 and obs["limit_cards_put_aside"] == 23
    assert obs["limit_card"] is not None
    # The deck's record has 8 letters, r and y only.
    deck = next(o["value"] for o in state.chance_outcomes() if o["kind"] == "colour cards")
    assert sorted(deck) == sorted("rrrryyyy")


def test_the_mini_hide_step_leaves_one_card_and_the_game_ends_with_the_limit_card() -> None:
    state = CARDS.new_initial_state(seed=5, **MINI)
    # Two players hide two cards each (rulebook, "Sonderregeln"): four hide decisions.
    for _ in range(4):
        assert state.legal_actions() and max(state.legal_actions()) < 5  # hide actions
        state.apply(state.legal_actions()[0])
    assert [sum(h) for h in state.hands] == [1, 1]
    assert [sum(h) for h in state.hidden] == [2, 2]
    returns = state.playout(random.Random(1))
    # One limit card: whoever takes it scores -2 and loses; the other wins (+1 point).
    assert state.is_terminal() and sorted(returns) == [-1.0, 1.0]
    assert sorted(len(t) for t in state.taken) == [0, 1]
    assert state.colour_card_total() == 8


def test_random_mini_games_keep_the_deck_and_end() -> None:
    for seed in range(30):
        state = CARDS.new_initial_state(seed=seed, **MINI)
        rng = random.Random(seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            assert _colour_totals(state) == [4, 4, 0, 0, 0]
            # No exchange: a hand of 3 minus 2 hidden never holds four cards of a colour.
            assert all(not 10 <= a < 15 for a in state.legal_actions())


def test_a_mini_game_replays_from_its_chance_outcomes() -> None:
    state = CARDS.new_initial_state(seed=11, **MINI)
    state.playout(random.Random(2))
    twin = CARDS.new_initial_state(chance=Chance(replay=state.chance_outcomes()), **MINI)
    for action in state.history():
        twin.apply(action)
    assert twin.key() == state.key()


def test_three_colours_of_three_for_three_players() -> None:
    state = CARDS.new_initial_state(
        seed=1, players=3, colours=3, cards_per_colour=3, hand=2, limit_pile=2
    )
    # 3 x 3 = 9 cards, three hands of 2 (1 hidden each a round): 3 left to draw.
    assert _colour_totals(state) == [3, 3, 3, 0, 0]
    assert len(state.draw) == 3 and state.observation(None)["limit_pile"] == 1


def test_the_rulebook_game_is_unchanged() -> None:
    state = CARDS.new_initial_state(seed=7, players=2)
    assert _colour_totals(state) == [12] * 5
    assert [sum(h) for h in state.hands] == [6, 6]
    obs = state.observation(None)
    assert obs["limit_cards_put_aside"] == 14 and obs["limit_pile"] == 24 - 14 - 1
    # The same seed deals the same deck as before the smaller variants existed:
    # the rulebook's deck is drawn as rng.sample("rygbp" * 12, 60) after the limit cards.
    rng = random.Random(7)
    codes = default_limit_cards().codes
    rng.sample(codes, len(codes))
    expected = "".join(rng.sample("rygbp" * 12, 60))
    deck = next(o["value"] for o in state.chance_outcomes() if o["kind"] == "colour cards")
    assert deck == expected


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ({"players": 2, "hand": 2}, "at least 3"),
        ({"players": 4, "colours": 2, "cards_per_colour": 4}, "need 20 colour cards"),
        ({"players": 2, "limit_pile": 25}, "the set has 24"),
        ({"players": 2, "colours": 1}, "below the minimum"),
        ({"players": 2, "cards_per_colour": 13}, "above the maximum"),
    ],
)
def test_impossible_small_games_are_refused_in_one_line(
    variant: dict[str, int], words: str
) -> None:
    with pytest.raises(VariantError) as caught:
        CARDS.new_initial_state(seed=1, **variant)
    assert words in str(caught.value) and "\n" not in str(caught.value)
