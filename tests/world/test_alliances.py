"""Seed 004, "3 Alliance (optional)" (pp 21-22), sentence by sentence.

Each test names the sentence it checks (quoted in its docstring). Expected values are worked
out by hand beside each fixture: new nations hold 5 $, 8 fossil, military 0; seats are circle 0,
square 1, triangle 2, diamond 3 and the turn order runs from the leader to the left.
"""

from __future__ import annotations

import pytest

from limitgames.core import IllegalActionError
from limitgames.world.data import data_with_overrides
from limitgames.world.state import STAGES, WorldState
from tests.world.scenario import at_policy, new_state, play, public_lines, set_board


def at_alliance(state: WorldState, leader: int = 0) -> WorldState:
    """``state`` at the start of the alliance step with ``leader`` holding the leadership tile."""
    state.stage = "alliance"
    state.stage_index = STAGES.index("alliance")
    state.cursor = 0
    state.pending = []
    state.deferred = []
    state.leader = leader
    state._legal = None
    state.advance()
    return state


def at_stage(state: WorldState, stage: str, leader: int = 0) -> WorldState:
    """``state`` at the start of a social or international ``stage`` (columns of class C at 1)."""
    state.stage = stage
    state.stage_index = STAGES.index(stage)
    state.cursor = 0
    state.pending = []
    state.deferred = []
    state.leader = leader
    state.columns = [0] * state.n
    state._legal = None
    state.advance()
    return state


def allied(state: WorldState, kind: str, *seats: int) -> None:
    """Put ``seats`` in one alliance of ``kind`` (tokens negotiation side up, as at a step's start)."""
    state.alliances[kind].append(sorted(seats))


# --- "This step is optional. We do not advise you to play it in games with only 2 or 3 nations,
# or in your first game."
@pytest.mark.parametrize(
    ("players", "choice", "on"),
    [
        (2, "auto", False),
        (3, "auto", False),
        (4, "auto", True),
        (6, "auto", True),
        (3, "on", True),
        (4, "off", False),
    ],
)
def test_the_step_is_optional_and_off_by_default_for_2_or_3_nations(
    players: int, choice: str, on: bool
) -> None:
    """auto: 2-3 nations off, 4-6 on (the rulebook's advice); ``on``/``off`` force it."""
    state = new_state(players, alliances=choice)
    assert state.alliances_on is on


def test_without_the_step_the_international_phase_skips_it() -> None:
    state = at_alliance(new_state(3))
    assert state.stage == "new_policy" and state.generation == 2  # straight to the next generation


# --- "There are 2 types of alliance token ... military and economic."
def test_each_nation_may_offer_either_type_to_each_other_nation() -> None:
    """Circle (5 $) may offer square, triangle and diamond (5 $ each) either type: 2 x 3 offers,
    plus pass; no leave or exclude (it is in no alliance)."""
    state = at_alliance(new_state(4))
    assert state.current_player() == 0
    offers = [a for a in state.legal_actions() if a[0] == "offer"]
    assert len(offers) == 6
    assert set(state.legal_actions()) == {("pass",), *offers}


# --- "These alliances are independent of one another. A nation may form 2 different alliances
# with separate nations."
def test_two_independent_alliances_with_separate_nations() -> None:
    state = at_alliance(new_state(4))
    play(state, "offer military square", "accept", "pay 2")  # circle's turn
    # square's turn (its military token is agreement side up): it passes
    play(state, "pass")
    # triangle offers circle an economic alliance; circle's economic token is still negotiation up
    play(state, "offer economic circle", "accept", "pay 1")
    assert state.alliances == {"military": [[0, 1]], "economic": [[0, 2]]}


# --- "Each nation plays once only, in turn order."
def test_each_nation_plays_once_in_turn_order_from_the_leader() -> None:
    """Leader triangle (2): triangle, diamond, circle, square, then the step ends."""
    state = at_alliance(new_state(4), leader=2)
    seen = []
    while state.stage == "alliance":
        seen.append(state.current_player())
        state.apply(("pass",))
    assert seen == [2, 3, 0, 1]


# --- "Offer to form an alliance with another nation: your alliance token and the other nation's
# token must both be negotiation side up."  "Important: Nations whose tokens are placed with the
# agreement side up are not allowed to offer or accept an alliance of this type."
def test_offers_need_both_tokens_negotiation_side_up() -> None:
    state = at_alliance(new_state(4))
    play(state, "offer military square", "accept", "pay 2")
    # square's turn: its military token lies agreement side up -> no military offer at all
    assert not [a for a in state.legal_actions() if a[:2] == ("offer", "military")]
    play(state, "pass")
    # triangle's turn: circle and square are agreement side up -> only diamond for military
    mil = [a[2] for a in state.legal_actions() if a[:2] == ("offer", "military")]
    assert mil == ["diamond"]
    with pytest.raises(IllegalActionError):
        state.apply_string("offer military circle")


# --- "If the other nation refuses, your turn is over."
def test_a_refused_offer_ends_the_turn_with_no_effect() -> None:
    state = at_alliance(new_state(4))
    play(state, "offer economic triangle", "refuse")
    assert state.current_player() == 1  # square's turn now
    assert state.alliances == {"military": [], "economic": []}
    assert state.nations[0].money == 5 and state.nations[2].money == 5  # no fee paid


# --- "If the other nation accepts, place both of your alliance tokens of the same type in a group
# in the center of the table next to the alliance card, with the agreement sides up."
def test_an_accepted_offer_groups_both_tokens_agreement_side_up() -> None:
    state = at_alliance(new_state(4))
    play(state, "offer economic diamond", "accept", "pay 2")
    assert state.alliances["economic"] == [[0, 3]]
    assert state.agreement["economic"] == [0, 3] and state.agreement["military"] == []


# --- "To confirm the alliance, 2 $ must be paid to the World Bank (either by one nation or
# shared)."
def test_the_two_dollar_fee_is_paid_by_one_nation_or_shared() -> None:
    """Circle 5 $, square 1 $: circle pays 1 or 2 (square can give at most 1); choosing 1, both
    end with 4 $ and 0 $; the World Bank gains 2."""
    state = new_state(4)
    state.nations[1].money = 1
    bank = state.world_bank
    at_alliance(state)
    play(state, "offer military square", "accept")
    assert state.legal_actions() == [("pay", 1), ("pay", 2)]
    play(state, "pay 1")
    assert (state.nations[0].money, state.nations[1].money) == (4, 0)
    assert state.world_bank == bank + 2


def test_no_offer_when_the_two_nations_cannot_pay_the_fee() -> None:
    """Circle 1 $, square 0 $: 1 < 2, no offer to square; triangle (5 $) may be offered."""
    state = new_state(4)
    state.nations[0].money, state.nations[1].money = 1, 0
    at_alliance(state)
    names = {a[2] for a in state.legal_actions() if a[0] == "offer"}
    assert names == {"triangle", "diamond"}


# --- "If you, or the nation you are offering to form an alliance with, are already part of
# another alliance of this type, all members of any existing alliance(s) must agree before
# merging or accepting a new ally."  "If they all agree, group all the alliance tokens of that
# type ... together, with the agreement side up."  "If not, your offer is refused and there is
# no effect."
def test_merging_needs_every_member_to_agree() -> None:
    """Square and triangle are military allies; circle offers square: square answers, then
    triangle (the other member); all agree -> one group of three, all agreement side up."""
    state = new_state(4)
    allied(state, "military", 1, 2)
    at_alliance(state)
    play(state, "offer military square", "accept")
    assert state.current_player() == 2 and state.pending[-1].kind == "answer"
    play(state, "accept", "pay 2")
    assert state.alliances["military"] == [[0, 1, 2]]
    assert state.agreement["military"] == [0, 1, 2]


def test_a_member_who_disagrees_refuses_the_merge() -> None:
    state = new_state(4)
    allied(state, "military", 1, 2)
    at_alliance(state)
    play(state, "offer military square", "accept", "refuse")  # triangle refuses
    assert state.alliances["military"] == [[1, 2]]
    assert state.agreement["military"] == [] and state.nations[0].money == 5
    assert "refuses the offer: no effect" in public_lines(state)


# --- "Important: A new alliance, or an alliance that has been modified, may not be altered within
# the same generation."
def test_a_new_alliance_takes_no_new_member_this_generation() -> None:
    """Circle and square ally; triangle cannot offer either of them military (agreement sides)."""
    state = at_alliance(new_state(4))
    play(state, "offer military square", "accept", "pay 2", "pass")
    targets = {a[2] for a in state.legal_actions() if a[:2] == ("offer", "military")}
    assert targets == {"diamond"}


def test_reading_all_forbids_leaving_a_new_alliance() -> None:
    """Reading alliance_lock = "all": square, agreement side up, may not leave or exclude."""
    data = data_with_overrides({"readings": {"alliance_lock": "all"}})
    state = new_state(4)
    state.data = data
    at_alliance(state)
    play(state, "offer military square", "accept", "pay 2")
    assert not [a for a in state.legal_actions() if a[0] in ("leave", "exclude")]


# --- "Leave an existing alliance with one or more nations: take back your alliance token and put
# it next to your nation board, negotiation side up."
def test_leaving_takes_the_token_back() -> None:
    state = new_state(4)
    allied(state, "economic", 0, 1, 2)
    at_alliance(state)
    play(state, "leave economic")
    assert state.alliances["economic"] == [[1, 2]]


# --- "Exclude an allied nation from your alliance: this decision must be agreed by all members of
# the alliance. Return the alliance token to that nation, negotiation side up."
def test_excluding_needs_the_other_members_to_agree() -> None:
    """Circle, square, triangle, diamond in one economic alliance; circle proposes to exclude
    diamond: square then triangle answer; both accept -> diamond out."""
    state = new_state(4)
    allied(state, "economic", 0, 1, 2, 3)
    at_alliance(state)
    play(state, "exclude economic diamond")
    assert state.current_player() == 1
    play(state, "accept")
    assert state.current_player() == 2
    play(state, "accept")
    assert state.alliances["economic"] == [[0, 1, 2]]


def test_an_exclusion_refused_by_one_member_has_no_effect() -> None:
    state = new_state(4)
    allied(state, "economic", 0, 1, 2, 3)
    at_alliance(state)
    play(state, "exclude economic diamond", "accept", "refuse")
    assert state.alliances["economic"] == [[0, 1, 2, 3]]


# --- "After a leave or exclude action, if there is only 1 alliance token in the center of the
# table, the nation that owns it take it back ..., negotiation side is up."
def test_the_last_token_left_goes_back_to_its_owner() -> None:
    state = new_state(4)
    allied(state, "military", 0, 3)
    at_alliance(state)
    play(state, "exclude military diamond")  # no other member to agree: immediate
    assert state.alliances["military"] == []
    assert "takes back its military alliance token" in public_lines(state)


# --- "Do nothing."
def test_doing_nothing_changes_nothing() -> None:
    state = at_alliance(new_state(4))
    money = [n.money for n in state.nations]
    play(state, "pass")
    assert [n.money for n in state.nations] == money
    assert state.alliances == {"military": [], "economic": []} and state.current_player() == 1


# --- "A nation is part of an alliance from the moment their Alliance token is placed in the
# center of the table."  "When all nations have played, turn all the alliance tokens over to the
# negotiation side."
def test_tokens_turn_to_negotiation_when_all_have_played() -> None:
    state = at_alliance(new_state(4))
    play(state, "offer economic square", "accept", "pay 2")
    assert state.agreement["economic"] == [0, 1]  # allies at once, agreement side up
    while state.stage == "alliance":  # square, triangle, diamond pass
        play(state, "pass")
    assert state.agreement == {"military": [], "economic": []}
    assert state.alliances["economic"] == [[0, 1]]  # the alliance stays


# --- Demilitarization: "If all nations form part of the same military alliance, demilitarization
# occurs. ... Demilitarization can only occur once per game."  "Each nation with production of
# military resources equal to or higher than +5 increases their level of production of industrial
# resources by 1 (unless it is already at the maximum ...)."  "Then each nation moves their
# military resources production plant cube down to the lowest level, reduces all their stock of
# military resources, increases 1 standard of living by 1, decreases their social unrest level by
# 1, and ... places up to 2 disruption tokens on the disruption reserve card."
def test_demilitarization_when_all_nations_are_military_allies() -> None:
    """4 nations; square, triangle, diamond allied; circle joins.
    circle: military plant 5 (value 10 >= 5) -> industrial 3 -> 4; military 12 -> 0; plant -> 1;
      unrest 6 -> 5; disruption 3 -> 1 (2 back); a class raised (all at 1: only A can rise, so
      the raise is not a decision and is taken at once).
    square: military plant 4 (value 5 >= 5) but industrial at 8 (the maximum): stays 8.
    triangle: military plant 3 (value 3 < 5): industrial stays 1; disruption 1 -> 0 (1 back).
    reserve: +2 +1 = +3."""
    state = new_state(4)
    c, s, t, _ = state.nations
    set_board(c, military=5, industrial=3, stock_military=12, disruption=3)
    set_board(s, military=4, industrial=8, stock_military=4)
    set_board(t, military=3, disruption=1)
    reserve = state.disruption_reserve
    allied(state, "military", 1, 2, 3)
    at_alliance(state)
    play(state, "offer military square", "accept", "accept", "accept", "pay 2")
    assert state.demilitarized
    assert c.plants == [2, 4, 1] and c.stock[2] == 0 and c.unrest == 5 and c.disruption == 1
    assert s.plants[1] == 8 and s.plants[2] == 1 and s.stock[2] == 0
    assert t.plants[1] == 1 and t.disruption == 0
    assert state.disruption_reserve == reserve + 3
    assert [n.sol for n in state.nations] == [[2, 1, 1, 1, 1]] * 4
    assert state.current_player() == 1  # square's alliance turn follows


def test_demilitarization_happens_once_per_game() -> None:
    """Note: "It is possible to leave the military alliance after demilitarization, and to
    re-start production." Circle leaves, next generation rejoins: no second demilitarization."""
    state = new_state(4)
    allied(state, "military", 0, 1, 2, 3)
    state.demilitarized = True
    at_alliance(state)
    play(state, "leave military")
    while state.stage == "alliance":
        play(state, "pass")
    assert state.alliances["military"] == [[1, 2, 3]]
    state.nations[0].stock[2] = 7
    at_alliance(state, leader=0)
    play(state, "offer military square", "accept", "accept", "accept", "pay 2")
    assert state.alliances["military"] == [[0, 1, 2, 3]]
    assert state.nations[0].stock[2] == 7  # no demilitarization this time


# --- The rulebook's example (p21), the shapes mapped to seats by their turns: the nation whose
# icon is lost (offers the military alliance) = circle, the next (offers the economic alliance) =
# square, diamond = triangle, and "●" = diamond. Military allies: circle, square, triangle;
# economic allies: square and diamond.
def test_the_rulebook_example() -> None:
    state = new_state(4)
    allied(state, "military", 0, 1, 2)
    allied(state, "economic", 1, 3)
    at_alliance(state)
    # circle offers "●" (diamond) a military alliance; diamond accepts; square and triangle,
    # members of the existing alliance, agree: all nations allied -> demilitarization
    play(state, "offer military diamond", "accept", "accept", "accept", "pay 2")
    assert state.demilitarized  # (the four raises of class A are not decisions: all at 1)
    # square offers "◆" (triangle) an economic alliance; diamond (square's ally) agrees too
    assert state.current_player() == 1
    play(state, "offer economic triangle", "accept", "accept", "pay 2")
    assert state.alliances["economic"] == [[1, 2, 3]]
    # "◆ cannot offer an alliance because both of their alliance tokens are agreement side up.
    # They could decide to leave one of the alliances or exclude an allied nation"
    assert state.current_player() == 2
    options = state.legal_actions()
    assert not [a for a in options if a[0] == "offer"]
    assert ("leave", "military") in options and ("leave", "economic") in options
    assert ("exclude", "economic", "square") in options
    play(state, "pass")  # "but decide to do nothing"
    # "● chooses to do nothing"
    assert state.current_player() == 3
    play(state, "pass")
    assert state.stage != "alliance"


# --- "Resources and money can only be exchanged in the particular circumstances of each alliance
# described below."
def test_no_help_without_an_alliance() -> None:
    """Circle (population 5 at position 4, renewable 2) would lack 3 renewable; no ally: the
    supply step runs with no question (population falls a level)."""
    state = new_state(4)
    set_board(state.nations[0], population=4, stock_renewable=2)
    at_stage(state, "supply")
    assert state.stage != "supply" or state.pending[-1].kind != "ask"
    assert state.nations[0].population == 3


# --- Military alliance: "If an allied nation is targeted by a card that may be resisted, that
# nation may ask the other nations in its military alliance to give them [military] to resist."
def test_military_allies_help_to_resist_a_war_card() -> None:
    """Seed 004, "Effect of Alliances", "Military alliance" (p22): square attacks circle with
    Military Operation spending 6; circle has 2 military; its ally triangle (10 military) gives
    4; circle resists with 6: circle 0, triangle 6."""
    state = new_state(4)
    allied(state, "military", 0, 2)
    square = at_policy(state, 1, ["military-operation"])
    set_board(square, stock_military=6)
    set_board(state.nations[0], stock_military=2)
    set_board(state.nations[2], stock_military=10)
    play(state, "play military-operation", "target circle", "spend 6")
    assert state.current_player() == 0
    assert state.legal_actions() == [("ask",), ("yield",)]
    play(state, "ask")
    assert state.current_player() == 2
    assert state.action_forms()[0].maximum == 4  # at most what circle lacks
    play(state, "aid 4")
    assert state.legal_actions() == [("resist",), ("yield",)]
    play(state, "resist")
    assert state.nations[0].stock[2] == 0 and state.nations[2].stock[2] == 6


# --- "If an allied nation is about to suffer a shortage of [military], they may ask the other
# nations in its military alliance to give them [military] in order to prevent the shortage."
def test_military_allies_help_before_a_military_shortage() -> None:
    """Military crisis (reserve empty): circle at population position 4 spends military equal to
    population one level lower = 3; it holds 1; square (ally, 5) gives 2: circle spends 3 -> 0
    and has no shortage; square then spends its own 1 (population 2, one level lower = 1):
    5 - 2 - 1 = 2."""
    state = new_state(4)
    allied(state, "military", 0, 1)
    c = set_board(state.nations[0], population=4, stock_military=1, sol="22222")
    set_board(state.nations[1], stock_military=5)
    state.disruption_reserve = 0
    state.limit_box["disruption"] += 14
    at_stage(state, "military_crisis")
    assert state.pending[-1].kind == "ask" and state.current_player() == 0
    play(state, "ask", "aid 2")
    assert c.stock[2] == 0 and state.nations[1].stock[2] == 2
    assert "circle: Military crisis: spend 3 military (0 left)" in public_lines(state)


# --- Economic alliance: "An allied nation may pay for all or part of a card with a $ cost instead
# of another nation in the economic alliance, so that the first nation is able to play it."
def test_economic_allies_pay_part_of_a_card() -> None:
    """Circle, population 10 (position 5), 4 $: Education costs 10 $; it lacks 6. Ally square
    (20 $) gives 6: circle pays 4 + 6 = 10 to the World Bank; circle 0 $, square 14 $."""
    state = new_state(4)
    allied(state, "economic", 0, 1)
    c = at_policy(state, 0, ["education"])
    set_board(c, population=5, money=4)
    state.nations[1].money = 20
    bank = state.world_bank
    assert ("fund", "education") in state.legal_actions()
    assert ("play", "education") not in state.legal_actions()
    play(state, "fund education")
    assert state.current_player() == 1 and state.action_forms()[0].maximum == 6
    play(state, "aid 6")  # Education's raise: all classes at 1, only A -> taken at once
    assert c.money == 0 and state.nations[1].money == 14 and state.world_bank == bank + 10
    assert c.sol[0] == 2


def test_a_card_not_funded_in_full_is_not_played_and_nothing_is_paid() -> None:
    state = new_state(4)
    allied(state, "economic", 0, 1)
    c = at_policy(state, 0, ["education"])
    set_board(c, population=5, money=4)
    state.nations[1].money = 20
    play(state, "fund education", "refuse", "stay")
    assert c.money == 4 and state.nations[1].money == 20 and "education" in c.hand
    assert ("fund", "education") not in state.legal_actions()  # asked once this generation


# --- "If an allied nation is about to suffer a shortage of [renewable], [industrial] or [fossil],
# they may ask the other nations in its economic alliance to give them ... to prevent the
# shortage." (the icons are lost: reading economic_help)
def test_economic_allies_help_before_a_supply_shortage() -> None:
    """Circle at population position 4 (value 5) holds 2 renewable: lacks 3; ally square (6)
    gives 3; supply eats 5 with nothing left and no shortage; square 6 - 3 = 3, eats 2
    (population 2) -> 1 left."""
    state = new_state(4)
    allied(state, "economic", 0, 1)
    set_board(state.nations[0], population=4, stock_renewable=2)
    set_board(state.nations[1], stock_renewable=6)
    at_stage(state, "supply")
    play(state, "ask", "aid 3")
    log = public_lines(state)
    assert "circle: Supply: population 5 eats 5 renewable (0 left)" in log
    assert "square: Supply: population 2 eats 2 renewable (1 left)" in log


def test_economic_allies_help_before_a_fossil_shortage() -> None:
    """Circle: industrial plant at 5 (fossil 2) and military at 4 (fossil 1) needs 3 fossil, holds
    1: lacks 2; ally square gives 2; production spends 3: circle 0 fossil, plants unchanged."""
    state = new_state(4)
    allied(state, "economic", 0, 1)
    c = set_board(state.nations[0], industrial=5, military=4, fossil=1)
    at_stage(state, "production")
    play(state, "ask", "aid 2")
    assert c.fossil == 0 and c.plants[1:] == [5, 4] and state.nations[1].fossil == 6


# --- Refusing to help an ally: "If a nation asks its allies for help and it is refused, they may
# break the alliance with immediate effect. In that case, all members of the alliance, including
# the nation that asked for help, each receive 1 [disruption] and must take back their alliance
# token of the type the refusal related to ..."
def test_a_refusal_lets_the_asker_break_the_alliance() -> None:
    """Seed 004, "Refusing to help an ally" (p22): after a refusal the asker may break the
    alliance."""
    state = new_state(4)
    allied(state, "economic", 0, 1, 2)
    allied(state, "military", 0, 1)
    set_board(state.nations[0], population=4, stock_renewable=2)
    set_board(state.nations[1], stock_renewable=6)
    set_board(state.nations[2], stock_renewable=6)
    at_stage(state, "supply")
    play(state, "ask", "refuse", "aid 3")  # square refuses, triangle gives 3
    assert state.current_player() == 0 and state.legal_actions() == [("break",), ("stay",)]
    play(state, "break")
    assert state.alliances == {"military": [[0, 1]], "economic": []}  # the economic one only
    assert [n.disruption for n in state.nations] == [1, 1, 1, 0]
    assert "circle: Supply: population 5 eats 5 renewable (0 left)" in public_lines(state)


def test_the_asker_may_keep_the_alliance_after_a_refusal() -> None:
    state = new_state(4)
    allied(state, "economic", 0, 1)
    set_board(state.nations[0], population=4, stock_renewable=2)
    set_board(state.nations[1], stock_renewable=6)
    at_stage(state, "supply")
    play(state, "ask", "refuse", "stay")
    assert state.alliances["economic"] == [[0, 1]]
    assert state.nations[0].population == 3  # the shortage happens: 1 level lost


def test_the_alliance_step_is_in_the_record_and_replays() -> None:
    """A whole 4-nation game with the step, by random choices, replays from its actions."""
    import random

    from limitgames.core import GameRecord

    state = new_state(4, seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    record = GameRecord.of_state(state)
    again = record.replay()
    assert again.returns() == state.returns()


def test_old_records_of_four_nations_are_refused_with_a_note() -> None:
    """A world-2 record knew no alliance step: at 4 nations today's default plays it, so the
    record's first generation-end differs and replay names the rules it was made under; a
    2-nation world-2 record (no step by default) still replays."""
    import random

    from limitgames.core import GameRecord, RecordError

    def old_record(players: int) -> GameRecord:
        state = new_state(players, seed=1, alliances="off")
        rng = random.Random(1)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        data = GameRecord.of_state(state).to_json()
        data["rules_version"] = "world-2"
        del data["variant"]["alliances"], data["variant"]["solo"]
        return GameRecord.from_json(data)

    with pytest.raises(RecordError, match="made under the rules 'world-2'"):
        old_record(4).replay()
    assert old_record(2).replay().is_terminal()


def test_a_position_holds_the_alliances() -> None:
    """A saved position lists the alliances by name; loading it gives them back; a position with
    alliances is refused where the step is off, and a nation may be in one alliance per type."""
    from limitgames.core import PositionError, get_game
    from limitgames.world.position import position_json

    state = new_state(4, seed=2)
    allied(state, "military", 0, 2)
    state.opening = (state.opening[0], {**state.opening[1], "alliances": state.alliances})
    position = position_json(state)
    assert position["alliances"] == {"military": [["circle", "triangle"]], "economic": []}
    again = get_game("world").state_from_position(position)
    assert isinstance(again, WorldState) and again.alliances["military"] == [[0, 2]]
    with pytest.raises(PositionError, match="alliance step is off"):
        get_game("world").state_from_position(
            {**position, "variant": {**position["variant"], "alliances": "off"}}
        )
    bad = {**position, "alliances": {"military": [["circle", "square"], ["circle", "diamond"]]}}
    with pytest.raises(PositionError, match="each in one alliance"):
        get_game("world").state_from_position(bad)


def test_a_position_with_every_nation_in_one_military_alliance_is_demilitarized() -> None:
    """p22 "If all nations form part of the same military alliance, demilitarization occurs":
    a position with the 4 nations in one military alliance but ``demilitarized`` false cannot
    happen at a table, and is refused in one line; with ``demilitarized`` true it loads."""
    from limitgames.core import PositionError, get_game
    from limitgames.world.position import position_json

    position = position_json(new_state(4, seed=2))
    everyone = {"military": [["circle", "square", "triangle", "diamond"]], "economic": []}
    with pytest.raises(PositionError, match="demilitarization has occurred") as info:
        get_game("world").state_from_position({**position, "alliances": everyone})
    assert "\n" not in str(info.value) and "p22" in str(info.value)
    state = get_game("world").state_from_position(
        {**position, "alliances": everyone, "demilitarized": True}
    )
    assert isinstance(state, WorldState) and state.demilitarized


def test_military_allies_help_before_an_uprising_shortage() -> None:
    """Public order, unrest 10 with class C at 1: an uprising spends military equal to the
    population 2 levels lower: position 5 -> position 3 = 3; circle holds 1, lacks 2; its military
    ally square (4) gives 2; circle spends 3 -> 0 left, no standard of living lost."""
    state = new_state(4)
    allied(state, "military", 0, 1)
    set_board(state.nations[0], population=5, stock_military=1, unrest=10)
    set_board(state.nations[1], stock_military=4)
    at_stage(state, "public_order")
    assert state.legal_actions() == [("ask",), ("pass",)]
    play(state, "ask", "aid 2")
    assert "circle: Uprising (social unrest 10): spend 3 military (0 left)" in public_lines(state)
    assert state.nations[1].stock[2] == 2


def test_an_ally_with_nothing_to_give_is_not_asked() -> None:
    """Reading alliance_helpers = "holders": square (0 military) is not asked; with no one to
    ask, there is no question: the uprising's shortage follows (2 levels unpaid: with classes
    43322, A, C or E may fall: a decision)."""
    state = new_state(4)
    allied(state, "military", 0, 1)
    set_board(state.nations[0], population=5, stock_military=1, unrest=10, sol="43322")
    at_stage(state, "public_order")
    assert state.pending[-1].kind == "lower"
    assert state.legal_actions() == [("lower", "A"), ("lower", "C"), ("lower", "E")]


def test_a_nation_asks_once_per_attack_and_may_yield_after() -> None:
    """Square spends 6 on Military Operation; circle (2 military) asks; ally triangle (1
    military) gives 1: circle has 3 < 6, cannot resist and may not ask again, so yielding is its
    only option (taken at once) and square chooses what to take."""
    state = new_state(4)
    allied(state, "military", 0, 2)
    square = at_policy(state, 1, ["military-operation"])
    set_board(square, stock_military=6)
    set_board(state.nations[0], stock_military=2)
    set_board(state.nations[2], stock_military=1)
    play(state, "play military-operation", "target circle", "spend 6", "ask", "aid 1")
    assert state.pending[-1].kind == "take" and state.current_player() == 1
    assert "circle: does not resist Military Operation" in public_lines(state)
    assert state.nations[0].stock[2] == 3 and state.nations[2].stock[2] == 0


def test_no_ally_no_question_when_attacked() -> None:
    state = new_state(4)
    square = at_policy(state, 1, ["military-operation"])
    set_board(square, stock_military=6)
    set_board(state.nations[2], stock_military=10)  # not an ally of circle
    play(state, "play military-operation", "target circle", "spend 6")
    assert state.pending[-1].kind == "take"  # circle could only yield: taken at once
