"""The steps of each phase beyond the rulebook's worked examples."""

from __future__ import annotations

import random

from limitgames.world import international, political, social
from limitgames.world.state import STAGES
from tests.world.scenario import new_state, play, public_lines, set_board


def test_setup_for_four_nations() -> None:
    """Setup (pp 6-10) for 4 nations: "Marketplace Board and shared elements" (109 $ a nation
    in the World Bank; the "Pollution reserve", "Disruption reserve" and "Colonization reserve"
    for N nations; the "Price of resources" cubes and the "Resources stock on the marketplace
    and nations boards"), each "Nation board" (plants, population, stocks, the "Personal fossil
    resources stock" of 8, 5 $, 5 territories) and the "Politics cards" (the 4 starting cards,
    30 cards in three decks)."""
    state = new_state(4)
    assert state.world_bank == 4 * 109
    assert state.pollution_reserve == 6 + 12 and state.disruption_reserve == 6 + 8
    assert state.colonization == [5, 10]
    assert state.market_price == [3, 4, 4, 4] and state.market_stock == [3, 3, 3, 3]
    for n in state.nations:
        assert n.plants == [2, 1, 1] and n.population == 2
        assert (n.fossil, n.money, n.territory, n.unrest) == (8, 5, 5, 6)
        assert n.stock == [2, 1, 0] and n.sol == [1] * 5
        assert sum(len(d) for d in n.decks.values()) == 30
    assert sorted(state.nations[0].hand) == sorted(
        ["education", "public-expenditure", "industrialization", "craftsmanship"]
    )


def test_technology_by_class_a() -> None:
    """Political phase, "1 Technological Advancement" (p12): class A at 2, 3, 4 brings Market
    Access, Robotization, Mass Destruction into the hand, once only."""
    state = new_state(2)
    n = set_board(state.nations[0], sol="43211")
    n.hand = []
    political.technology(state)
    assert sorted(n.hand) == ["market-access", "mass-destruction", "robotization"]
    political.technology(state)
    assert len(n.hand) == 3  # once only


def test_new_policy_draws_ten_and_keeps_two_with_class_a_at_4() -> None:
    state = new_state(2, seed=3)
    seat = state.current_player()
    n = state.nations[seat]
    set_board(n, sol="44444")
    state.columns[seat] = 3
    state.apply(("deck", "military"))
    assert len(state.legal_actions()) == 10
    state.apply(state.legal_actions()[0])
    assert len(state.legal_actions()) == 9
    state.apply(state.legal_actions()[0])
    assert len(n.hand) == 6 and len(n.decks["military"]) == 8


def test_hand_limit_discards_to_the_bottom() -> None:
    """Political phase, "3 Political Action Capacity" (p13): with class A at 1 the hand holds 5;
    the extra cards go to the bottom of their own decks."""
    state = new_state(2)
    state.stage = "hand_limit"
    state.stage_index = STAGES.index("hand_limit")
    state.cursor = 0
    state.pending = []
    state.columns = [0, 0]
    n = state.nations[0]
    n.hand = [
        "education",
        "public-expenditure",
        "industrialization",
        "craftsmanship",
        "surcharge",
        "terrorism",
        "extraction",
    ]
    state.nations[1].hand = ["education"]
    state.advance()
    assert state.current_player() == 0 or state.pending[-1].seat == 0
    play(state, "discard terrorism", "discard surcharge")
    assert len(n.hand) == 5
    assert n.decks["military"][-1] == "terrorism" and n.decks["society"][-1] == "surcharge"


def test_population_growth_mortality_and_birth_rate() -> None:
    """Social phase, "4 Population growth", "5 Lower mortality rate" and "6 Lower birth rate"
    (p16): +1 level with class C at 2; +1 more with 2 or more demographic shift tiles in the
    zone; then 2 tiles leave the zone for the LIMIT box; no growth with class C at 3."""
    state = new_state(2)
    n = set_board(state.nations[0], population=3, shift_zone=3)
    social.population_growth(state, n, 1)
    social.lower_mortality(state, n, 1)
    assert n.population == 5
    social.lower_birth_rate(state, n, 1)
    assert n.shift_zone == 1 and state.limit_box["shift"] == 2
    social.population_growth(state, n, 2)
    assert n.population == 5


def test_economic_growth_columns() -> None:
    state = new_state(2)
    n = set_board(state.nations[0], renewable=2, industrial=1, military=1, territory=3)
    social.economic_growth(state, n, 1)
    assert n.plants == [3, 2, 1]
    social.economic_growth(state, n, 0)
    assert n.plants[0] == 3  # at the last territory
    social.economic_growth(state, n, 2)
    state.flush_deferred()
    state.advance()
    play(state, "plant military")
    assert n.plants == [3, 2, 2]


def test_taxation_and_the_empty_world_bank() -> None:
    """Social phase, "8 Taxation" and "World Bank empty" (p16): class C at 4 collects 5 $ per
    population (50 for 10); the World Bank pays its 30, the LIMIT box the 20 missing, and a
    financial crisis tile is placed (not a second one in a boom)."""
    state = new_state(2)
    n = set_board(state.nations[0], population=5, money=0)
    state.world_bank = 30
    box = state.limit_box["money"]
    social.taxation(state, n, 3)
    assert n.money == 50 and state.world_bank == 0 and state.limit_box["money"] == box - 20
    assert state.crises[-1] == ["financial"]
    social.public_order(
        state, set_board(n, unrest=1), 3
    )  # boom with the bank empty: no second tile
    assert state.crises[-1] == ["financial"] and n.money == 60


def test_growth_and_boom_raise_a_class() -> None:
    state = new_state(2)
    n = set_board(state.nations[0], unrest=5, sol="21111")
    social.public_order(state, n, 0)
    state.flush_deferred()
    state.advance()
    play(state, "raise B")
    assert n.sol == [2, 2, 1, 1, 1]
    n2 = set_board(state.nations[1], unrest=2, money=0, sol="11111")
    social.public_order(state, n2, 0)
    assert n2.money == 5


def test_uprising_with_class_c_at_3_costs_money() -> None:
    state = new_state(2)
    n = set_board(state.nations[0], unrest=11, population=4, money=7)
    box = state.limit_box["money"]
    social.public_order(state, n, 2)
    assert n.money == 0 and state.limit_box["money"] == box + 7  # 10 due, 7 paid
    assert "lose 7 $ of 10 $" in public_lines(state)


def test_cold_war() -> None:
    state = new_state(2)
    a = set_board(state.nations[0], stock_military=16)
    b = set_board(state.nations[1], stock_military=15)
    international.cold_war(state)
    assert a.disruption == 1 and b.disruption == 0


def test_financial_crisis() -> None:
    state = new_state(3)
    state.crises = [["financial"], ["financial"]]
    a = set_board(state.nations[0], population=4, money=30, sol="22222")
    b = set_board(state.nations[1], population=2, money=30, sol="11111")
    c = set_board(state.nations[2], population=2, money=3, sol="11111")
    bank = state.world_bank
    state.cursor = 0
    international.financial_crisis(state)
    assert (a.money, b.money, c.money) == (20, 26, 0)  # 2 tiles x 1 $ per population
    assert state.world_bank == bank + 10 + 4 + 3
    assert b.disruption == 2 and a.disruption == 0  # b is the richest
    state.advance()
    assert a.sol == [2, 2, 2, 2, 1]  # the only class that may fall is taken automatically


def test_military_crisis() -> None:
    state = new_state(2)
    state.disruption_reserve = 0
    a = set_board(
        state.nations[0], population=5, stock_military=8, sol="33322", disruption=2, military=3
    )
    b = set_board(
        state.nations[1], population=3, stock_military=1, sol="11111", disruption=0, military=2
    )
    state.cursor = 0
    international.military_crisis(state)
    assert state.crises[-1] == ["military"]
    assert a.sol == [3, 3, 3, 2, 1]  # the lowest class -1
    assert a.stock[2] == 3 and b.stock[2] == 0  # 5 (population 10 one level lower) and 2 -> 1 paid
    assert a.disruption == 1 and state.disruption_reserve == 1
    assert a.plants[2] == 2 and b.plants[2] == 2  # a had the most military


def test_no_two_tiles_of_a_kind_and_the_end_after_four_crises() -> None:
    state = new_state(2, seed=9)
    rng = random.Random(3)
    state.crises = [["financial", "environmental", "military"], []]
    state.generation = 2
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        if state.generation > 2:
            break
    assert state.generation == 2 or sum(len(g) for g in state.crises) < 4
    for tiles in state.crises:
        assert len(tiles) == len(set(tiles))


def test_stress_test_and_scoring_end_the_game() -> None:
    state = new_state(2, seed=1)
    state.generation = 7
    rng = random.Random(0)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    text = public_lines(state)
    assert "== Stress test" in text and "== Scoring" in text
    assert state.generation == 7
    assert len(state.scores) == 2


def test_without_stress_test() -> None:
    state = new_state(2, seed=1, stress_tests=0)
    state.generation = 7
    state.playout(random.Random(0))
    assert "Stress test" not in public_lines(state)
