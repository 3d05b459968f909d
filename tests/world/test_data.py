"""The data file: sources, overrides and their errors; the notation."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from limitgames.core import GameRecord, NotationError, VariantError, get_game
from limitgames.world.data import (
    DEFAULT_DATA,
    SOURCES,
    data_with_overrides,
    iter_values,
    reconstructed_values,
)
from tests.world.scenario import at_policy, new_state, play, set_board


def test_every_value_has_a_source() -> None:
    values = list(iter_values(DEFAULT_DATA.raw))
    assert len(values) > 150
    assert {source for _, _, source in values} == set(SOURCES)


def test_reconstructed_values_are_listed() -> None:
    paths = dict(reconstructed_values())
    assert paths["market.prices"] == [1, 1, 2, 3, 5, 10, 20]
    assert "tracks.fossil_cost" in paths
    assert "cards.public-expenditure.params.money_per_pop" in paths
    assert "scoring.territory" not in paths


def test_cards_have_the_documented_fields() -> None:
    cards = DEFAULT_DATA.cards
    assert len(cards) == 37
    decks = {
        d: sum(1 for c in cards.values() if c.deck == d)
        for d in ("society", "military", "production")
    }
    assert decks == {"society": 12, "military": 12, "production": 13}
    starters = sorted(c.id for c in cards.values() if c.kind == "starter")
    assert starters == ["craftsmanship", "education", "industrialization", "public-expenditure"]
    assert sorted(c.id for c in cards.values() if c.kind == "technology") == [
        "market-access",
        "mass-destruction",
        "robotization",
    ]
    assert cards["vegetarianism"].permanent and not cards["education"].permanent


def test_override_changes_a_value() -> None:
    data = data_with_overrides(
        {
            "scoring": {"pollution": -3},
            "cards": {"education": {"params": {"money_per_pop": {"value": 2}}}},
        }
    )
    assert data.scoring["pollution"] == -3
    assert data.cards["education"].p("money_per_pop") == 2
    assert DEFAULT_DATA.scoring["pollution"] == -2


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"scoring": {"polution": -3}}, "unknown key scoring.polution"),
        ({"scorings": {}}, "unknown section"),
        ({"scoring": {"pollution": "a lot"}}, "scoring.pollution must be integer"),
        ({"market": {"prices": [1, 2, 3]}}, "market.prices must be a list of 7 integers"),
        (
            {"cards": {"education": {"params": {"cost": 3}}}},
            "unknown key cards.education.params.cost",
        ),
        ({"cards": {"educashun": {}}}, "unknown card"),
        ({"cards": {"education": {"deck": "military"}}}, "cannot be changed"),
        ({"tracks": {"unrest_start": 12}}, "tracks.unrest_start must be 1..11"),
        ({"market": {"prices": [0, 1, 2, 3, 5, 10, 20]}}, "at least 1"),
        ({"nation": {"production": [2, 9, 1]}}, r"nation.production\[1\] must be 1..8"),
        ({"setup": {"world_bank_per_nation": -5}}, "must not be negative"),
    ],
)
def test_bad_overrides_are_refused(override: dict[str, object], message: str) -> None:
    with pytest.raises(VariantError, match=message):
        data_with_overrides(override)


def test_data_file_variant(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("[setup]\nworld_bank_per_nation = 50\n", encoding="utf-8")
    state = get_game("world").new_initial_state(seed=1, players=2, data=str(path))
    assert state.world_bank == 100
    bad = tmp_path / "bad.toml"
    bad.write_text("[setup\n", encoding="utf-8")
    with pytest.raises(VariantError, match="not valid TOML"):
        get_game("world").new_initial_state(seed=1, players=2, data=str(bad))
    with pytest.raises(VariantError, match="cannot read"):
        get_game("world").new_initial_state(seed=1, players=2, data=str(tmp_path / "none.toml"))


def test_a_record_embeds_its_data_file_and_replays_after_it_is_deleted(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        "[setup]\nworld_bank_per_nation = 50\n[readings]\nwar_plants = 'any'\n", encoding="utf-8"
    )
    state = get_game("world").new_initial_state(seed=5, players=3, data=str(path))
    assert state.variant["data"] is None and "world_bank_per_nation" in state.variant["overrides"]
    state.playout(random.Random(2))
    text = GameRecord.of_state(state).dumps()
    path.unlink()
    again = GameRecord.loads(text).replay()
    assert again.returns() == state.returns() and again.history() == state.history()
    assert again.data.setup["world_bank_per_nation"] == 50  # type: ignore[attr-defined]
    assert again.data.readings["war_plants"] == "any"  # type: ignore[attr-defined]


def test_overrides_as_json_and_their_errors() -> None:
    game = get_game("world")
    state = game.new_initial_state(
        seed=1, players=2, overrides='{"setup": {"world_bank_per_nation": 60}}'
    )
    assert state.world_bank == 120
    with pytest.raises(VariantError, match="overrides: not valid JSON"):
        game.new_initial_state(seed=1, players=2, overrides="{")
    with pytest.raises(VariantError, match=r"unknown key scoring\.polution"):
        game.new_initial_state(seed=1, players=2, overrides='{"scoring": {"polution": 1}}')


def test_log_lines_state_the_amounts_of_the_data() -> None:
    # Speculation with the World Bank's share 7 $ and the player's 3 $ (not the printed 5 and 5)
    override = {"cards": {"speculation": {"params": {"bank_to_limit": 7, "money_to_limit": 3}}}}
    state = new_state(2, overrides=json.dumps(override))
    n = at_policy(state, 0, ["speculation"])
    set_board(n, money=10)
    bank, box = state.world_bank, state.limit_box["money"]
    play(state, "play speculation")
    assert (
        "circle: Speculation (cost): 7 $ from the World Bank and 3 $ of yours to the LIMIT box"
        in (state.log_lines(0))
    )
    assert n.money == 7 and state.world_bank == bank - 7 and state.limit_box["money"] == box + 10


def test_players_out_of_range() -> None:
    with pytest.raises(VariantError):
        get_game("world").new_initial_state(seed=1, players=7)


@pytest.mark.parametrize(
    "text",
    [
        "play education",
        "pass",
        "raise A",
        "lower e",
        "plant industrial",
        "target square",
        "spend 12",
        "resist",
        "yield",
        "take fossil",
        "buy 3 fossil",
        "sell 2 military",
        "no-trade",
        "price fossil up",
        "deck society",
        "keep surcharge",
        "discard terrorism",
        "withdraw policy-planning",
        "give 2",
        "contribute 10",
        "recall education",
        "gain military",
        "produce military",
    ],
)
def test_notation_round_trips(text: str) -> None:
    state = new_state(2)
    action = state.parse_action(text)
    assert state.parse_action(state.action_to_string(action)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("dance", "unknown verb"),
        ("play teleportation", "not a card"),
        ("spend lots", "whole number"),
        ("buy 3 gold", "not a resource"),
        ("target hexagon", "not a nation"),
        ("raise F", "not a class"),
        ("pass now", "write 'pass'"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    state = new_state(2)
    with pytest.raises(NotationError, match=message):
        state.parse_action(text)


def test_illegal_action_leaves_the_state_unchanged() -> None:
    from limitgames.testing import check_illegal_is_harmless

    state = new_state(2)
    check_illegal_is_harmless(state, ("play", "terrorism"))
    check_illegal_is_harmless(state, "nonsense")


def test_returns_variant() -> None:
    import random

    win = get_game("world").new_initial_state(seed=3, players=3)
    score = get_game("world").new_initial_state(seed=3, players=3, returns="score")
    win.playout(random.Random(1))
    score.playout(random.Random(1))
    assert score.returns() == [float(s) for s in score.scores]  # type: ignore[attr-defined]
    best = max(win.scores)  # type: ignore[attr-defined]
    sole = win.scores.count(best) == 1  # type: ignore[attr-defined]
    assert win.returns() == [(1.0 if sole else 0.0) if s == best else -1.0 for s in win.scores]  # type: ignore[attr-defined]
    with pytest.raises(VariantError):
        get_game("world").new_initial_state(seed=3, players=3, returns="elo")
