"""The readings of lost icons and the full-effect rule: each a named choice of the data file.

Each test sets a reading to its other value and checks the rule it names against hand
reasoning from the rulebook's text (seed 004) and rules/world.md; the default value is
checked by the phase and card tests.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from limitgames.core import IllegalActionError, VariantError
from limitgames.world import international
from limitgames.world.data import DEFAULT_DATA, SOURCES, data_with_overrides
from limitgames.world.state import WorldState
from tests.world.scenario import at_policy, new_state, play, set_board


def _with(players: int = 2, **readings: Any) -> WorldState:
    return new_state(players, overrides=json.dumps({"readings": readings}))


def test_every_reading_is_a_named_choice_with_its_source_and_reason() -> None:
    readings = DEFAULT_DATA.raw["readings"]
    assert len(readings) >= 9
    for key, entry in readings.items():
        assert entry["source"] in SOURCES, key
        assert entry["why"] and "\n" not in entry["why"], key
        if "choices" in entry:
            assert entry["value"] in entry["choices"] and len(entry["choices"]) >= 2, key


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"war_plants": "all"}, "readings.war_plants: 'all' is not one of industrial-or-military"),
        ({"full_effect": 1}, "readings.full_effect must be string"),
        (
            {"military_operation_takes": ["gold:2", "renewable:5", "industrial:5"]},
            "'gold:2' is not 'resource:N'",
        ),
        ({"no_such_reading": "x"}, "unknown key readings.no_such_reading"),
    ],
)
def test_a_bad_reading_is_refused_in_one_line(override: dict[str, Any], message: str) -> None:
    with pytest.raises(VariantError, match=message) as info:
        data_with_overrides({"readings": override}, "mine.toml")
    assert "\n" not in str(info.value)


# --- the full-effect rule (p13: "Card effects must always be fully realized") -----------------
def _policy(state: WorldState, hand: list[str], **board: Any) -> Any:
    return set_board(at_policy(state, 0, hand), **board)


def test_graduate_studies_needs_room_for_all_three_steps() -> None:
    # 44433: A, B, C at the top (4); D and E can each rise 1: 2 steps of room, the card gives 3
    state = new_state(2)
    _policy(state, ["graduate-studies"], population=2, money=10, sol="44433")
    with pytest.raises(IllegalActionError, match=r"classes can rise 2 step\(s\) in all, not 3"):
        play(state, "play graduate-studies")
    state = new_state(2)
    n = _policy(state, ["graduate-studies"], population=2, money=10, sol="44432")  # room 3
    play(state, "play graduate-studies", "raise D")  # D or E may rise first; then E twice

    assert n.sol == [4, 4, 4, 4, 4] and n.money == 10 - 2 * 2  # 2 $ per POP, POP 2


def test_urbanization_needs_room_for_both_steps() -> None:
    state = new_state(2)
    _policy(state, ["urbanization"], population=2, stock_industrial=5, sol="44443")
    with pytest.raises(IllegalActionError, match="its effect cannot be fully realized"):
        play(state, "play urbanization")


def test_robotization_no_longer_charges_the_full_price_for_one_level() -> None:
    # the case: industrial plant at position 7 (value 30) of 8 rises only 1 level; the
    # renewable plant is at the territory held (5), so no plant has room for Robotization's 2
    state = new_state(2)
    _policy(state, ["robotization"], money=40, industrial=7, renewable=5, territory=5)
    with pytest.raises(IllegalActionError, match="room to rise 2 level"):
        play(state, "play robotization")
    state = new_state(2)
    n = _policy(state, ["robotization"], money=40, industrial=6, renewable=5, territory=5)
    play(state, "play robotization")  # only the industrial plant is possible: taken at once
    assert n.plants[1] == 8 and n.money == 40 - 20  # position 6 is worth 20 $


@pytest.mark.parametrize(
    ("card", "unrest", "ok"),
    [
        ("public-expenditure", 1, False),  # -1 from 1: the cube cannot move
        ("public-expenditure", 2, True),
        ("investment-policy", 3, False),  # -3 needs 4
        ("investment-policy", 4, True),
        ("overconsumption", 3, False),
    ],
)
def test_unrest_cards_need_room_on_the_track(card: str, unrest: int, ok: bool) -> None:
    state = new_state(2)
    _policy(state, [card], population=2, money=20, unrest=unrest, stock_industrial=10)
    assert (("play", card) in state.legal_actions()) is ok
    assert state.is_legal(("play", card)) is ok


def test_the_partial_reading_plays_and_applies_what_can_be() -> None:
    state = _with(full_effect="partial")
    n = _policy(state, ["robotization"], money=40, industrial=7, renewable=5, territory=5)
    play(state, "play robotization")
    assert n.plants[1] == 8 and n.money == 40 - 30  # +1 level for the full 30 $
    state = _with(full_effect="partial")
    n = _policy(state, ["public-expenditure"], population=2, money=20, unrest=1)
    play(state, "play public-expenditure")
    assert n.unrest == 1 and n.money == 18


# --- crises --------------------------------------------------------------------------------
def test_environmental_crisis_readings() -> None:
    state = _with(
        3,
        environmental_crisis_plant="industrial",
        environmental_crisis_loss="fossil",
        environmental_crisis_target="most-pollution",
    )
    state.pollution_reserve = 0
    a = set_board(state.nations[0], population=6, industrial=4, fossil=5, pollution=1)
    b = set_board(state.nations[1], population=2, industrial=1, fossil=0, pollution=4)
    c = set_board(state.nations[2], population=3, industrial=2, fossil=3, pollution=2)
    box = state.limit_box["fossil"]
    international.environmental_crisis(state)
    # 1 environmental tile: industrial -1 level each (not below 1); 1 fossil each to the box
    assert (a.plants[1], b.plants[1], c.plants[1]) == (3, 1, 1)
    assert (a.fossil, b.fossil, c.fossil) == (4, 0, 2) and state.limit_box["fossil"] == box + 2
    assert (a.territory, b.territory, c.territory) == (5, 5, 5)
    # b has the most pollution: it loses a population level (2 -> 1); nobody is 2 below it
    assert (a.population, b.population, c.population) == (6, 1, 3)


def test_military_crisis_reading_most_military_plant() -> None:
    state = _with(military_crisis_target="most-military-plant")
    state.disruption_reserve = 0
    a = set_board(state.nations[0], population=2, stock_military=9, military=2)
    b = set_board(state.nations[1], population=2, stock_military=0, military=4)
    state.cursor = 0
    international.military_crisis(state)
    assert (a.plants[2], b.plants[2]) == (2, 3)  # b's plant is the highest, not a's stock


# --- war and target cards ------------------------------------------------------------------
def test_war_plants_any_lets_the_attacker_choose_the_renewable_plant() -> None:
    state = _with(war_plants="any")
    _policy(state, ["annexation-of-territory"], stock_military=12)
    set_board(state.nations[1], stock_military=0, renewable=3, industrial=2, military=2)
    play(state, "play annexation-of-territory", "spend 10")
    assert state.legal_actions() == [
        ("plant", "renewable"),
        ("plant", "industrial"),
        ("plant", "military"),
    ]


def test_military_operation_takes_what_the_reading_names() -> None:
    state = _with(military_operation_takes=["military:3", "fossil:1", "industrial:5"])
    a = _policy(state, ["military-operation"], stock_military=10)
    t = set_board(
        state.nations[1], stock_military=4, fossil=6, stock_renewable=9, stock_industrial=0
    )
    play(state, "play military-operation", "spend 3", "yield")
    assert state.legal_actions() == [("take", "military"), ("take", "fossil")]  # no industrial
    play(state, "take military")
    assert t.stock[2] == 1 and a.stock[2] == 10 - 3 + 3


def test_tourism_reading_sol_lowers_the_target_classes() -> None:
    state = _with(tourism_reduces="sol")
    _policy(state, ["development-of-tourism"])
    t = set_board(state.nations[1], sol="33311", money=50, unrest=6)
    play(state, "play development-of-tourism")  # the only target is taken at once
    assert t.money == 50 - (3 - 1) * 10 and t.unrest == 6
    # 33311: only C may fall first (p9: cuts go to lower classes first); then B or C
    play(state, "lower B")
    assert t.sol == [3, 2, 2, 1, 1]


def test_interference_reading_population_value() -> None:
    state = _with(interference_takes="population-value")
    a = _policy(state, ["political-interference"], money=0)
    t = set_board(state.nations[1], population=5, money=30)  # position 5 is worth 10
    play(state, "play political-interference")
    assert t.money == 20 and a.money == 10


def test_financial_crisis_reading_per_population_position() -> None:
    state = _with(financial_crisis_per="population-position")
    state.crises = [["financial"]]
    a = set_board(state.nations[0], population=5, money=30)  # position 5 (value 10)
    b = set_board(state.nations[1], population=2, money=30)
    state.cursor = 0
    international.financial_crisis(state)
    assert (a.money, b.money) == (25, 28)  # 1 $ x 1 tile x the position, not the value


def test_crisis_classes_reading_named_class() -> None:
    # military crisis, 1 tile: the lowest class loses 1. 33311: E is at 1 and cannot fall;
    # 'that-can-fall' lowers C (the lowest that may), 'named-class' lowers nothing
    for reading, expected in (("that-can-fall", [3, 3, 2, 1, 1]), ("named-class", [3, 3, 3, 1, 1])):
        state = _with(crisis_classes=reading)
        state.disruption_reserve = 0
        n = set_board(state.nations[0], sol="33311", population=1)
        set_board(state.nations[1], population=1)
        state.cursor = 0
        international.military_crisis(state)
        assert n.sol == expected, reading


# --- every reading is a named choice the engine reads ------------------------------------------
def test_a_reading_the_engine_never_reads_is_refused() -> None:
    """``solo_star_in_crises`` was a reading that took any value ("banana") and that no rule
    read: a user's file naming it is refused as an unknown key, in one line."""
    with pytest.raises(VariantError, match=r"unknown key readings\.solo_star_in_crises") as info:
        data_with_overrides({"readings": {"solo_star_in_crises": "banana"}}, "mine.toml")
    assert "\n" not in str(info.value)


def test_every_reading_is_read_by_a_rule() -> None:
    """Each key of ``[readings]`` is looked up by the engine (``readings["KEY"]`` in a module of
    ``limitgames.world``): a reading no rule reads would change nothing when set."""
    from pathlib import Path

    import limitgames.world

    source = "\n".join(
        p.read_text(encoding="utf-8") for p in Path(limitgames.world.__file__).parent.glob("*.py")
    )
    unread = [k for k in DEFAULT_DATA.raw["readings"] if f'readings["{k}"]' not in source]
    assert unread == []


def test_a_string_reading_without_choices_is_refused() -> None:
    """A reading is a named choice: a string reading shipped without its choices would accept
    any value, so the data refuses it."""
    from limitgames.world.data import WorldData, fresh_raw

    raw = fresh_raw()
    del raw["readings"]["war_plants"]["choices"]
    with pytest.raises(VariantError, match=r"readings\.war_plants: a reading names its choices"):
        WorldData(raw, "broken.toml")


# --- the military crisis when no nation holds any military (a decision) -------------------------
def test_military_crisis_when_nobody_holds_military_every_nation_ties_for_the_most() -> None:
    """Default reading ``military_crisis_none_held = "all"``: both nations hold 0 military, so
    both hold "the most" (0) and each military plant falls one level: 3 -> 2 and 2 -> 1."""
    entry = DEFAULT_DATA.raw["readings"]["military_crisis_none_held"]
    assert entry["value"] == "all" and entry["source"] == "decision"
    state = _with()
    state.disruption_reserve = 0
    a = set_board(state.nations[0], population=1, stock_military=0, military=3)
    b = set_board(state.nations[1], population=1, stock_military=0, military=2)
    state.cursor = 0
    international.military_crisis(state)
    assert (a.plants[2], b.plants[2]) == (2, 1)


def test_military_crisis_reading_none_held_spares_every_nation() -> None:
    """Reading "none": holding nothing is not holding the most; the plants stay at 3 and 2."""
    state = _with(military_crisis_none_held="none")
    state.disruption_reserve = 0
    a = set_board(state.nations[0], population=1, stock_military=0, military=3)
    b = set_board(state.nations[1], population=1, stock_military=0, military=2)
    state.cursor = 0
    international.military_crisis(state)
    assert (a.plants[2], b.plants[2]) == (3, 2)
    assert "no nation holds any military, none has the most" in "\n".join(state.log_lines(None))


def test_military_crisis_reading_none_held_changes_nothing_when_someone_holds_military() -> None:
    """Reading "none" with a holding 1 and b 0: a has the most, loses its level (3 -> 2)."""
    state = _with(military_crisis_none_held="none")
    state.disruption_reserve = 0
    a = set_board(state.nations[0], population=1, stock_military=1, military=3)
    b = set_board(state.nations[1], population=1, stock_military=0, military=2)
    state.cursor = 0
    international.military_crisis(state)
    assert (a.plants[2], b.plants[2]) == (2, 2)


# --- labels: what is printed and what is reconstructed ----------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        ("social", "uprising"),
        ("solo", "star_territory"),
        ("solo", "star_fossil"),
        ("solo", "star_money"),
        ("readings", "environmental_crisis_target"),
    ],
)
def test_values_whose_icons_are_lost_are_labelled_reconstructed(path: tuple[str, str]) -> None:
    """The rulebook prints these numbers (or the example supports the target) but their icons
    are lost (p17 uprising: 'Spend 1 [icon] per [icon] 2 levels lower'; p24 '5 [icon] + 8
    [icon] + 40 [icon]'; p20 'the nation(s) with the most [icons]'): not 'rulebook'."""
    section, key = path
    entry = DEFAULT_DATA.raw[section][key]
    assert entry["source"] == "reconstructed" and "icon" in entry["why"]
