"""The rulebook's worked examples, reproduced step by step."""

from __future__ import annotations

from limitgames.world import international, social
from limitgames.world.scoring import score_nation
from tests.world.scenario import at_policy, new_state, play, public_lines, set_board


def test_shortage_of_renewable_resources() -> None:
    # p15: population 20 (6th level), 6 renewable: feed the 4th level (5), keep 1, 2 levels not fed.
    state = new_state(2)
    n = set_board(
        state.nations[0], population=6, stock_renewable=6, unrest=8, renewable=3, industrial=3
    )
    reserve = state.disruption_reserve
    social.supply(state, n, 0)
    state.flush_deferred()
    assert n.stock[0] == 1
    assert n.population == 4
    assert n.unrest == 11 and n.disruption == 3  # +6: to the maximum, 3 disruption
    assert state.disruption_reserve == reserve - 3
    assert "population 20 needs 20 renewable, you have 6: shortage of 2 levels" in public_lines(
        state
    )
    # two plant levels of the nation's choice
    state.advance()
    assert state.current_player() == 0
    assert state.legal_actions() == [("plant", "renewable"), ("plant", "industrial")]
    play(state, "plant industrial", "plant industrial")
    assert n.plants == [3, 1, 1]


def test_shortage_of_industrial_resources() -> None:
    # p15: class C at 3, population 10, 8 industrial: consume at the 4th level (5), 1 level short.
    state = new_state(2)
    n = set_board(state.nations[0], population=5, stock_industrial=8, sol="33322", unrest=5)
    social.consumption(state, n, 2)
    state.flush_deferred()
    assert n.stock[1] == 3
    assert n.unrest == 7
    assert state.pending[-1].kind == "lower" and state.pending[-1].args[0] == 1


def test_production_example() -> None:
    """Social phase, "9 Production" and "Shortage of fossil resources" (p17), the example."""
    # p17: renewable produces 5 (10 -> 15); industrial produces 10 (9 -> 19), 2 fossil, 1 pollution;
    # military should produce 10 without fossil: 3 only (18 -> 21), unrest +4, plant -2 levels.
    state = new_state(2)
    n = set_board(
        state.nations[0],
        renewable=4,
        industrial=5,
        military=5,
        stock_renewable=10,
        stock_industrial=9,
        stock_military=18,
        fossil=2,
        unrest=4,
        territory=5,
    )
    pollution_reserve = state.pollution_reserve
    social.production(state, n, 0)
    assert n.stock == [15, 19, 21]
    assert n.fossil == 0 and n.pollution == 1
    assert state.pollution_reserve == pollution_reserve - 1
    assert n.unrest == 8
    assert n.plants[2] == 3
    assert "fossil shortage of 2 levels" in public_lines(state)


def test_uprising_example() -> None:
    """Social phase, "10 Public order": "Uprising" and "Shortage of military resources" (p18), the
    example."""
    # p18: uprising, class C at 2, population 10: spend 1 military per population one level lower
    # (5); only 4: spend 3 (the 3rd level), keep 1, lose 1 standard of living.
    state = new_state(2)
    n = set_board(state.nations[0], unrest=10, sol="22222", population=5, stock_military=4)
    social.public_order(state, n, 1)
    state.flush_deferred()
    assert n.stock[2] == 1
    assert state.pending[-1].kind == "lower" and state.pending[-1].args[0] == 1


def test_class_struggle_example() -> None:
    # p19: A 4, E 1: +3 unrest, the cube moves 1 and the nation receives 2 disruption.
    state = new_state(2)
    n = set_board(state.nations[0], sol="44321", unrest=10)
    social.class_struggle(state, n, 0)
    assert n.unrest == 11 and n.disruption == 2


def test_environmental_crisis_example() -> None:
    # p21: second environmental crisis: renewable -2 levels, 1 territory lost; the most populous
    # (30) drops to 20, unrest +3, highest class -1; B at 10 unchanged; C at 5 rises to 10.
    state = new_state(3)
    state.crises = [["environmental"], []]
    state.pollution_reserve = 0
    a = set_board(state.nations[0], population=7, renewable=5, sol="44322", unrest=5, territory=5)
    b = set_board(state.nations[1], population=5, renewable=5, territory=5)
    c = set_board(state.nations[2], population=4, renewable=1, territory=3)
    international.environmental_crisis(state)
    assert state.crises[-1] == ["environmental"]
    assert a.population == 6 and a.unrest == 8 and a.sol == [4, 3, 3, 2, 2]
    assert b.population == 5
    assert c.population == 5
    assert a.plants[0] == 3 and b.plants[0] == 3 and c.plants[0] == 1
    assert (a.territory, b.territory, c.territory) == (4, 4, 2)


def test_transaction_example() -> None:
    """Card descriptions, "Transactions" (p25), and "Price of resources" (p6): the example."""
    # p25: Market Access, sell 3 military at 3 $ each: +9 $, price cube one position left.
    state = new_state(2)
    n = at_policy(state, 0, ["market-access"])
    set_board(n, stock_military=5, money=0)
    bank = state.world_bank
    play(state, "play market-access", "sell 3 military")
    assert n.money == 9 and n.stock[2] == 2
    assert state.world_bank == bank - 9
    assert state.market_stock[2] == 6
    assert state.market_price[2] == 3


def test_public_expenditure_and_green_production_example() -> None:
    """Political phase, "4 Decide Policy", "Card details" and "Permanent effect cards" (p13):
    the example of Public Expenditure and Green Production."""
    # p13: Public Expenditure with population 5 costs 5 $ and lowers unrest by 1; Green Production
    # lowers industrial production 1 level, stays in play, and production pollutes 1 less.
    state = new_state(2)
    n = at_policy(state, 0, ["public-expenditure", "green-production"])
    set_board(n, population=4, money=12, unrest=6, industrial=6, fossil=10)
    bank = state.world_bank
    play(state, "play public-expenditure", "play green-production")
    assert n.money == 7 and state.world_bank == bank + 5
    assert n.unrest == 5
    assert n.plants[1] == 5
    assert "green-production" in n.permanent and "public-expenditure" in n.played
    before = n.pollution
    social.produce(state, n, 1, "Production")
    assert n.pollution == before  # position 5 pollutes 1, minus 1
    assert n.stock[1] >= 10


def test_scoring_example() -> None:
    """Seed 004, "Calculating points" (p23), the example: "Gross domestic happiness", "Financial
    strength", "Territory", "Military power", "Historical impact"."""
    # p23: 8 x 4 + 15 + 20 + 1 - 18 = 50.
    state = new_state(2)
    n = set_board(
        state.nations[0],
        sol="33322",
        population=7,
        money=154,
        territory=4,
        stock_military=4,
        pollution=5,
        disruption=8,
    )
    parts = score_nation(state.data, n, crises=4)
    assert parts == {
        "happiness": 32,
        "financial": 15,
        "territory": 20,
        "military": 1,
        "impact": -18,
        "total": 50,
    }
