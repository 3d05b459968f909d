"""The shipped limit-card set (reconstructed) and loading other sets."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from limitgames.cards import CARDS, NO_LIMIT, LimitCardsError, default_limit_cards, load_limit_cards
from limitgames.cards.material import COLOURS, limit_card_code, limit_card_from_code
from limitgames.core import GameRecord, VariantError


def test_shipped_set_is_labelled_reconstructed() -> None:
    cards = default_limit_cards()
    assert cards.reconstructed is True
    assert "RECONSTRUCTED" in cards.note
    assert len(cards.cards) == 24


def test_shipped_set_meets_every_constraint_of_the_spec() -> None:
    cards = default_limit_cards().cards
    # the card the rulebook shows: blue 3, red X, yellow 0, green 3, purple 5
    assert limit_card_from_code("X0335") in cards
    # the card a review shows: green 0, yellow 7, red 2
    assert any(c[0] == 2 and c[1] == 7 and c[2] == 0 for c in cards)
    for card in cards:
        assert len(card) == 5
        assert all(v == NO_LIMIT or 0 <= v <= 9 for v in card)
        assert card.count(NO_LIMIT) <= 1
        assert 8 <= sum(v for v in card if v != NO_LIMIT) <= 16, limit_card_code(card)
    with_x = [c for c in cards if NO_LIMIT in c]
    assert len(with_x) == 20 and len(cards) - len(with_x) == 4
    for colour in range(5):
        assert sum(1 for c in with_x if c[colour] == NO_LIMIT) == 4, COLOURS[colour]
    assert sum(1 for c in cards if 0 in c) > len(cards) // 2  # most cards have a 0
    columns = [Counter(c[colour] for c in cards) for colour in range(5)]
    assert all(col == columns[0] for col in columns)  # the colours are treated alike


def test_codes_round_trip() -> None:
    for card in default_limit_cards().cards:
        assert limit_card_from_code(limit_card_code(card)) == card
    with pytest.raises(ValueError, match="not a limit card code"):
        limit_card_from_code("X03")


def _write(tmp_path: Path, data: object, name: str = "set.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_load_another_set_from_a_file(tmp_path: Path) -> None:
    codes = ["1111X"] * 7 + [{"red": 2, "yellow": "X", "green": 0, "blue": 0, "purple": 9}]
    path = _write(tmp_path, {"format": "limitgames-limit-cards", "name": "mine", "cards": codes})
    loaded = load_limit_cards(path)
    assert loaded.name == "mine" and not loaded.reconstructed and len(loaded.cards) == 8
    state = CARDS.new_initial_state(seed=3, players=4, limit_cards=str(path))
    assert state.limit_card in loaded.cards
    assert len(state.limit_pile) == 8 - 6 - 1
    # The record holds the cards: it replays even when the file is gone.
    state.playout(__import__("random").Random(1))
    text = GameRecord.of_state(state, seed=3).dumps()
    path.unlink()
    again = GameRecord.loads(text).replay()
    assert again.returns() == state.returns()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"cards": []}, "the set has no cards"),
        ({"cards": "X0335"}, "'cards' must be a list"),
        ({"format": "other", "cards": []}, "format is 'other'"),
        ({"name": "x"}, "no 'cards' list"),
        ([{"red": 1, "yellow": 2, "green": 3, "blue": 4}], "card 1: no value for purple"),
        ([{"red": 1, "yellow": 2, "green": 3, "blue": 4, "purple": 12}], "card 1: purple is 12"),
        ([{"red": 1, "yellow": 2, "green": 3, "blue": 4, "purple": "y"}], "card 1: purple is 'y'"),
        (
            [{"red": 1, "yellow": 2, "green": 3, "blue": 4, "purple": 0, "pink": 1}],
            "unknown colour 'pink'",
        ),
        (["X0335", "X03"], "card 2: 'X03' is not a limit card code"),
        ([17], "card 1 is neither"),
    ],
)
def test_malformed_sets_name_the_problem(tmp_path: Path, data: object, message: str) -> None:
    path = _write(tmp_path, data)
    with pytest.raises(LimitCardsError, match=message):
        load_limit_cards(path)


def test_unreadable_or_non_json_files(tmp_path: Path) -> None:
    with pytest.raises(LimitCardsError, match="cannot read the file"):
        load_limit_cards(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(LimitCardsError, match="not JSON"):
        load_limit_cards(bad)


def test_a_set_too_small_for_the_players(tmp_path: Path) -> None:
    path = _write(tmp_path, ["X0335"] * 14)
    with pytest.raises(LimitCardsError, match="14 cards, but 2 players put 14 aside"):
        CARDS.new_initial_state(seed=1, players=2, limit_cards=str(path))
    assert isinstance(LimitCardsError("x"), VariantError)
