"""Every politics card: its cost and its effect (rulebook pp 25-30, rules/world.md)."""

from __future__ import annotations

import pytest

from limitgames.core import IllegalActionError
from limitgames.world import social
from limitgames.world.card_effects import EFFECTS
from limitgames.world.cards import COSTS, TARGETED
from limitgames.world.state import WorldState
from tests.world.scenario import at_policy, new_state, play, set_board, totals


def _state(hand: list[str], players: int = 2, **board: object) -> tuple[WorldState, object]:
    state = new_state(players)
    nation = at_policy(state, 0, hand)
    set_board(nation, **board)
    return state, nation


def test_every_card_has_a_rule() -> None:
    state = new_state(2)
    assert len(state.data.cards) == 37
    for card in state.data.cards:
        assert card in COSTS
        assert card in EFFECTS or card in TARGETED


def test_public_expenditure() -> None:
    state, n = _state(["public-expenditure"], population=5, money=20, unrest=6)
    play(state, "play public-expenditure")
    assert n.money == 10 and n.unrest == 5


def test_education() -> None:
    state, n = _state(["education"], population=4, money=5, sol="11111")
    play(state, "play education")
    assert n.money == 0 and n.sol == [2, 1, 1, 1, 1]  # only A may rise first: taken automatically


def test_investment_policy() -> None:
    state, n = _state(["investment-policy"], population=4, money=10, unrest=7)
    play(state, "play investment-policy")
    assert n.money == 0 and n.unrest == 4


def test_graduate_studies() -> None:
    state, n = _state(["graduate-studies"], population=3, money=6, sol="22111")
    play(state, "play graduate-studies")
    assert n.money == 0
    assert state.legal_actions() == [("raise", "A"), ("raise", "C")]
    play(state, "raise C", "raise A", "raise B")
    assert n.sol == [3, 3, 2, 1, 1]
    assert n.shift_zone == 2 and n.shift_tiles[:2] == [False, False]


def test_indoctrination() -> None:
    state, n = _state(["indoctrination"], sol="33211", unrest=8)
    play(state, "play indoctrination")
    assert n.unrest == 6
    assert state.legal_actions() == [("lower", "B"), ("lower", "C")]
    play(state, "lower C")
    assert n.sol == [3, 3, 1, 1, 1]


def test_indoctrination_needs_a_class_that_can_fall() -> None:
    state, _ = _state(["indoctrination"], sol="11111")
    with pytest.raises(IllegalActionError):
        play(state, "play indoctrination")


def test_vegetarianism() -> None:
    state, n = _state(["vegetarianism"], unrest=5, population=6, stock_renewable=12)
    play(state, "play vegetarianism")
    assert n.unrest == 7 and "vegetarianism" in n.permanent
    social.supply(state, n, 0)
    assert n.stock[0] == 2  # population 20 eats as 10


def test_vegetarianism_cost_cannot_overflow() -> None:
    state, _ = _state(["vegetarianism"], unrest=10)
    assert ("play", "vegetarianism") not in state.legal_actions()


def test_overconsumption() -> None:
    state, n = _state(["overconsumption"], population=4, stock_industrial=6, unrest=8)
    play(state, "play overconsumption")
    assert n.stock[1] == 1 and n.unrest == 5


def test_sustainable_consumption() -> None:
    state, n = _state(
        ["sustainable-consumption"], unrest=5, population=5, stock_industrial=20, sol="22222"
    )
    play(state, "play sustainable-consumption")
    assert n.unrest == 7
    social.consumption(state, n, 1)
    assert n.stock[1] == 17  # class C at 2, population 10: level -2 -> 3


def test_surcharge() -> None:
    state, n = _state(["surcharge"], population=4, money=0, unrest=5)
    bank, box = state.world_bank, state.limit_box["money"]
    play(state, "play surcharge")
    assert n.unrest == 6 and n.money == 10
    assert state.world_bank == bank - 20 and state.limit_box["money"] == box + 10


def test_surcharge_needs_the_world_bank() -> None:
    state, _ = _state(["surcharge"])
    state.world_bank = 5
    assert ("play", "surcharge") not in state.legal_actions()


def test_political_reform() -> None:
    state, n = _state(["political-reform"], money=10)
    top5 = n.decks["production"][:5]
    play(state, "play political-reform", "deck production")
    assert n.money == 0
    assert {a[1] for a in state.legal_actions()} == set(top5)
    play(state, f"keep {top5[2]}")
    assert top5[2] in n.hand
    assert n.decks["production"][-4:] == [c for c in top5 if c != top5[2]]


def test_conscription() -> None:
    state, n = _state(["conscription"], population=6, unrest=5)
    play(state, "play conscription")
    assert n.unrest == 6 and n.stock[2] == 5  # population 20 two levels lower


def test_artificial_intelligence() -> None:
    state, n = _state(
        ["public-expenditure", "artificial-intelligence"], population=2, money=12, unrest=6
    )
    play(state, "play public-expenditure", "play artificial-intelligence")
    assert n.money == 0 and "public-expenditure" in n.hand and n.unrest == 5


def test_industrialization() -> None:
    state, n = _state(
        ["industrialization"], money=5, renewable=2, industrial=1, military=5, territory=5
    )
    assert sorted(a[1] for a in state.legal_actions() if a[0] == "play") == ["industrialization"]
    play(state, "play industrialization")
    assert state.legal_actions() == [
        ("plant", "renewable"),
        ("plant", "industrial"),
    ]  # military costs 10
    play(state, "plant renewable")
    assert n.plants == [3, 1, 5] and n.money == 3


def test_industrialization_respects_territory() -> None:
    state, _ = _state(["industrialization"], money=50, renewable=3, territory=3)
    play(state, "play industrialization")
    assert ("plant", "renewable") not in state.legal_actions()


def test_robotization() -> None:
    state, n = _state(["robotization"], money=3, renewable=5, industrial=3, territory=5)
    play(state, "play robotization")  # only industrial is affordable and can rise
    assert n.plants[1] == 5 and n.money == 0


def test_policy_planning_and_its_withdrawal() -> None:
    state, n = _state(["policy-planning", "craftsmanship"], unrest=4, sol="11111")
    play(state, "play policy-planning")
    assert n.unrest == 6 and "policy-planning" in n.permanent
    old = list(n.plants)
    social.economic_growth(state, n, 0)
    assert n.plants == old
    play(state, "withdraw policy-planning")
    assert n.unrest == 8 and n.decks["production"][-1] == "policy-planning"


def test_extraction() -> None:
    state, n = _state(["extraction"], money=5, fossil=0)
    play(state, "play extraction")
    assert n.money == 0 and n.fossil == 2 and n.pollution == 1


def test_urbanization() -> None:
    state, n = _state(["urbanization"], population=3, stock_industrial=3, sol="11111")
    play(state, "play urbanization")
    assert n.stock[1] == 0
    play(state, "raise B")
    assert n.sol == [2, 2, 1, 1, 1]


def test_overproduction() -> None:
    state, n = _state(["overproduction"], unrest=5, industrial=5, military=2, fossil=2)
    play(state, "play overproduction", "produce industrial")
    assert n.unrest == 6 and n.stock[1] == 1 + 10 and n.fossil == 0 and n.pollution == 1


def test_craftsmanship() -> None:
    state, n = _state(["craftsmanship"], money=1)
    play(state, "play craftsmanship", "gain military")
    assert n.money == 0 and n.stock[2] == 2


def test_recycling() -> None:
    state, n = _state(
        ["recycling"], industrial=3, population=5, sol="33322", stock_industrial=10, fossil=0
    )
    play(state, "play recycling")
    assert n.plants[1] == 2 and "recycling" in n.permanent
    social.consumption(state, n, 2)
    assert n.stock[1] == 0 and n.fossil == 1


def test_green_production() -> None:
    state, _ = _state(["green-production"], industrial=1)
    assert ("play", "green-production") not in state.legal_actions()  # cannot lower below 1


def test_intensive_farming_and_its_withdrawal() -> None:
    state, n = _state(["intensive-farming"], money=5, renewable=4, fossil=1, territory=5)
    play(state, "play intensive-farming")
    assert n.money == 0 and "intensive-farming" in n.permanent
    stock = n.stock[0]
    social.production(state, n, 0)
    assert n.stock[0] == stock + 10 and n.fossil == 0 and n.pollution == 1
    social.production(state, n, 0)  # no fossil: taken back by force, renewable -1 level
    assert "intensive-farming" not in n.permanent and n.plants[0] == 3


def test_cleaning_the_planet_with_help() -> None:
    state, n = _state(["cleaning-the-planet"], money=30, pollution=3)
    other = set_board(state.nations[1], money=40, pollution=1)
    before = totals(state)
    play(state, "play cleaning-the-planet", "contribute 20")
    assert n.money == 0 and other.money == 20
    assert n.pollution == 1 and other.pollution == 0
    assert totals(state) == before


def test_cleaning_the_planet_without_enough_money() -> None:
    state, n = _state(["cleaning-the-planet"], money=30, pollution=3)
    set_board(state.nations[1], money=40)
    play(state, "play cleaning-the-planet", "contribute 0")
    assert n.money == 30 and n.pollution == 3


def test_offshore_production() -> None:
    state, n = _state(["offshore-production"], money=10, fossil=3)
    t = set_board(state.nations[1], industrial=5, money=0)
    play(state, "play offshore-production")  # the only target: taken automatically
    assert n.money == 0 and t.money == 10 and n.stock[1] == 1 + 10 and n.fossil == 1
    assert t.pollution == 1 and n.pollution == 0


def test_soft_power() -> None:
    state, n = _state(["soft-power"], money=20, pollution=3)
    t = state.nations[1]
    play(state, "play soft-power", "give 2")
    assert n.money == 0 and n.pollution == 1 and t.pollution == 2


def test_market_access_buy() -> None:
    state, n = _state(["market-access"], money=10, fossil=0)
    play(state, "play market-access", "buy 3 fossil")
    assert (
        n.money == 1 and n.fossil == 3 and state.market_price[3] == 5 and state.market_stock[3] == 0
    )


def test_market_access_refuses_too_much() -> None:
    state, _ = _state(["market-access"], money=10)
    play(state, "play market-access")
    with pytest.raises(IllegalActionError, match="at most 3"):
        play(state, "buy 4 fossil")


def test_speculation() -> None:
    state, n = _state(["speculation"], money=5, stock_military=2)
    bank = state.world_bank
    play(state, "play speculation", "price military up", "sell 2 military")
    assert state.world_bank == bank - 5 - 10 and n.money == 10
    assert state.market_price[2] == 4


def test_stock_exchange() -> None:
    state, n = _state(["stock-exchange", "market-access"], money=20, stock_military=3)
    play(state, "play stock-exchange")
    assert n.money == 10 and "stock-exchange" in n.permanent
    play(state, "play market-access", "sell 3 military")
    assert ("sell", 1, "military") not in state.legal_actions()
    play(state, "buy 2 renewable")
    assert n.stock[0] == 2 + 2


def test_humanitarian_aid() -> None:
    state, n = _state(["humanitarian-aid"], money=50, disruption=3)
    t = set_board(state.nations[1], money=0, disruption=1)
    reserve = state.disruption_reserve
    play(state, "play humanitarian-aid")
    assert n.money == 0 and n.disruption == 1 and t.disruption == 0
    assert state.disruption_reserve == reserve + 3


def test_political_interference() -> None:
    state, n = _state(["political-interference"], money=0)
    t = set_board(state.nations[1], money=10, population=4, sol="11111")
    play(state, "play political-interference")
    assert n.money == 4 and t.money == 6 and t.sol == [2, 1, 1, 1, 1]


def test_development_of_tourism() -> None:
    state, n = _state(["development-of-tourism"], money=0)
    t = set_board(state.nations[1], money=30, sol="33311", unrest=6)
    play(state, "play development-of-tourism")
    assert n.money == 20 and t.money == 10 and t.unrest == 4


def test_mass_destruction_not_resisted() -> None:
    state, n = _state(["mass-destruction"], stock_military=12)
    t = set_board(
        state.nations[1], territory=5, renewable=5, industrial=3, military=2, stock_military=0
    )
    play(state, "play mass-destruction", "spend 10")  # the target cannot resist
    assert n.stock[2] == 2 and n.disruption == 2
    assert t.territory == 4 and t.plants[0] == 4 and t.pollution == 3
    assert state.current_player() == 0
    play(state, "plant military")
    assert t.plants == [4, 3, 1]


def test_annexation_resisted() -> None:
    """Card descriptions, "Annexation of Territory" and "War" (p29): the target resists."""
    state, n = _state(["annexation-of-territory"], stock_military=15)
    t = set_board(state.nations[1], stock_military=12, territory=5)
    play(state, "play annexation-of-territory", "spend 11")
    assert state.current_player() == 1
    play(state, "resist")
    assert t.stock[2] == 1 and t.territory == 5 and n.stock[2] == 4 and n.disruption == 2


def test_annexation_not_resisted() -> None:
    """Card descriptions, "Annexation of Territory" (p29): the target yields a territory."""
    state, n = _state(["annexation-of-territory"], stock_military=15, territory=5)
    t = set_board(state.nations[1], stock_military=12, territory=5, industrial=2, military=1)
    play(state, "play annexation-of-territory", "spend 10", "yield")
    assert t.territory == 4 and n.territory == 6 and t.plants[1] == 1


def test_military_operation() -> None:
    state, n = _state(["military-operation"], stock_military=3, fossil=0)
    t = set_board(
        state.nations[1], fossil=5, stock_renewable=1, stock_industrial=0, stock_military=0
    )
    play(state, "play military-operation", "take fossil")
    assert n.fossil == 2 and t.fossil == 3 and n.disruption == 1


def test_colonization() -> None:
    state, n = _state(["colonization"], stock_military=5, territory=5, fossil=0)
    territory, fossil = state.colonization
    play(state, "play colonization")
    assert n.stock[2] == 0 and n.disruption == 2 and n.territory == 6 and n.fossil == 2
    assert state.colonization == [territory - 1, fossil - 2]


def test_terrorism() -> None:
    state, n = _state(["terrorism"], stock_military=1)
    t = set_board(state.nations[1], unrest=5)
    play(state, "play terrorism")
    assert n.stock[2] == 0 and n.disruption == 1 and t.unrest == 8


def test_police_repression() -> None:
    state, n = _state(["police-repression"], population=6, stock_military=5, unrest=9)
    play(state, "play police-repression")
    assert n.stock[2] == 0 and n.disruption == 1 and n.unrest == 7


def test_targeted_nation_that_passed_plays_again() -> None:
    state, _ = _state(["terrorism", "craftsmanship"], stock_military=1, money=3)
    t = state.nations[1]
    t.passed = True
    play(state, "play terrorism")
    assert not t.passed


def test_instant_cards_return_and_permanent_stay() -> None:
    """Political phase, "Instant effect cards" and "Permanent effect cards" (p13): once all
    nations have passed, instant cards go back to the hand and permanent ones stay in play."""
    state, n = _state(["public-expenditure", "vegetarianism"], money=10, unrest=5)
    state.nations[1].passed = True
    play(state, "play public-expenditure", "play vegetarianism")
    assert state.stage != "decide_policy"
    assert "public-expenditure" in n.hand and "vegetarianism" in n.permanent


def test_war_spend_range_and_resistance_need_military() -> None:
    state, n = _state(["military-operation"], stock_military=40)
    t = set_board(state.nations[1], stock_military=6, fossil=4)
    play(state, "play military-operation")
    listed = [a[1] for a in state.legal_actions()]
    assert listed[0] == 3 and listed[-1] == 40 and 7 in listed and len(listed) < 20
    with pytest.raises(IllegalActionError, match="between 3 and 40"):
        play(state, "spend 2")
    with pytest.raises(IllegalActionError, match="between 3 and 40"):
        play(state, "spend 41")
    play(state, "spend 33")  # not listed, but in range: legal
    assert n.stock[2] == 7
    assert t.stock[2] == 6  # cannot resist 33: yields automatically, the attacker chooses the loot
    assert state.current_player() == 0
    assert state.legal_actions() == [
        ("take", "fossil"),
        ("take", "renewable"),
        ("take", "industrial"),
    ]


def test_contribution_range() -> None:
    state, n = _state(["humanitarian-aid"], money=20)
    set_board(state.nations[1], money=100)
    play(state, "play humanitarian-aid")
    with pytest.raises(IllegalActionError, match=r"0\.\.50"):
        play(state, "contribute 60")
    play(state, "contribute 30")
    assert n.money == 0 and state.nations[1].money == 70


def test_a_refused_action_names_the_rule() -> None:
    """Political phase, "Card details" (p13): a card whose full cost cannot be paid is refused,
    with the rule named."""
    state, _ = _state(["education"], money=0, population=2)
    with pytest.raises(IllegalActionError, match=r"Education: its full cost cannot be paid"):
        play(state, "play education")
    with pytest.raises(IllegalActionError, match=r"Surcharge is not in your hand"):
        play(state, "play surcharge")
    with pytest.raises(IllegalActionError, match="not an option now"):
        play(state, "raise A")
