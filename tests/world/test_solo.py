"""Seed 004, "05 Solo mode" (p24), sentence by sentence, and its setup.

Expected values are worked out by hand beside each test. Level tracks: positions 1-9 are worth
1, 2, 3, 5, 10, 20, 30, 50, 100. The star nation's table by generation 1-7 (rules/world.md):
population 2, 3, 5, 10, 20, 30, 50; class C 1, 2, 2, 3, 3, 3, 4; military 3, 5, 5, 10, 10, 20, 20;
industrial 1, 2, 3, 5, 5, 10, 10.
"""

from __future__ import annotations

import random

import pytest

from limitgames.core import GameRecord, VariantError, get_game
from limitgames.world.data import DEFAULT_DATA, data_with_overrides, describe_event
from limitgames.world.solo import star_values
from limitgames.world.state import STAGES, WorldState
from tests.world.scenario import at_policy, new_state, play, public_lines, set_board


def solo(seed: int = 0) -> WorldState:
    return new_state(2, seed=seed, solo=True)


# At the decide-policy step you also hold Market Access, so that after the card under test the
# game waits for your next decision (a hand of one card would pass at once and play on).


def at_event(state: WorldState) -> WorldState:
    """``state`` at step 3 of the international phase (the event card in solo mode)."""
    state.stage = "alliance"
    state.stage_index = STAGES.index("alliance")
    state.cursor = 0
    state.pending = []
    state._legal = None
    state.advance()
    return state


# --- "You simulate a game between 2 nations. You play one, the other is played by the game
# (star nation)."
def test_one_seat_plays_against_the_star_nation() -> None:
    state = solo()
    assert state.num_players == 1 and state.seat_names() == ["circle"]
    assert state.variant["players"] == 2 and state.star is not None
    assert not state.alliances_on


def test_solo_sets_players_to_two_whatever_is_given() -> None:
    state = new_state(5, solo=True)
    assert state.variant["players"] == 2 and state.num_players == 1


# --- SETUP: "Place the following on the star nation card: 5 [territory] + 8 [fossil] + 40 [$]."
# "colonization reserve tile: 1 [territory] and 2 [fossil]", "pollution reserve card: 3",
# "disruption reserve card: 2", "Shuffle the 8 event cards".
def test_setup_of_the_star_box() -> None:
    """Your nation's share of the setup (1 nation) plus the star box:
    World Bank 109; pollution reserve 6 + 3 + 3 = 12; disruption 6 + 2 + 2 = 10;
    colonization 1 + 1 + 1 = 3 territory, 2 + 2 + 2 = 6 fossil; star 40 $, 8 fossil, 5 territory;
    8 event cards face down."""
    state = solo()
    assert state.world_bank == 109
    assert (state.pollution_reserve, state.disruption_reserve) == (12, 10)
    assert state.colonization == [3, 6]
    star = state.star
    assert star is not None
    assert (star.money, star.fossil, star.territory, star.pollution) == (40, 8, 5, 0)
    assert sorted(state.events) == sorted(DEFAULT_DATA.solo_events) and len(state.events) == 8


# --- The table of the star nation card, "referring to the first current generation tile".
@pytest.mark.parametrize(
    ("generation", "values"),
    [(1, (2, 1, 3, 1)), (3, (5, 2, 5, 3)), (4, (10, 3, 10, 5)), (7, (50, 4, 20, 10))],
)
def test_the_star_values_by_generation(generation: int, values: tuple[int, ...]) -> None:
    state = solo()
    state.generation = generation
    v = star_values(state)
    assert (v["population"], v["sol_c"], v["military"], v["industrial"]) == values


# --- "Instead of the alliance step, draw 1 event card, apply its effect, and discard it."
def test_an_event_card_is_drawn_applied_and_discarded() -> None:
    """Top card terrorism ("unrest:+3"): unrest 6 -> 9; the pile 7 cards, the discard 1."""
    state = solo()
    state.events.remove("terrorism")
    state.events.insert(0, "terrorism")
    at_event(state)
    assert state.nations[0].unrest == 9
    assert len(state.events) == 7 and state.event_discard == ["terrorism"]
    assert (
        "Event card terrorism (a reconstruction: the published cards are lost): social unrest +3"
        in public_lines(state)
    )


# --- "If there are no cards in the draw pile, shuffle the discard pile to form a new draw pile."
def test_an_empty_pile_is_made_again_from_the_discards() -> None:
    state = solo()
    state.event_discard = list(state.events)
    state.events = []
    at_event(state)
    assert len(state.events) == 7 and len(state.event_discard) == 1
    assert "the discard pile is shuffled into a new draw pile" in public_lines(state)


# --- "If you play a card that targets another nation, use the values on the table on the star
# nation card". "[The] star nation has some resources as values ..., and some resources as tokens".
def test_political_interference_takes_by_the_star_population_position() -> None:
    """Generation 3: star population 5 is position 4; reading interference_takes =
    population-position: take 4 $: star 40 -> 36, you 20 -> 24."""
    state = solo()
    state.generation = 3
    you = at_policy(state, 0, ["political-interference", "market-access"])
    you.money = 20
    play(state, "play political-interference")  # the target (the star) is the only option
    assert state.star is not None and state.star.money == 36 and you.money == 24


def test_development_of_tourism_uses_the_star_class_c() -> None:
    """Generation 4: star class C at 3: take (3 - 1) x 10 = 20 $: star 40 -> 20."""
    state = solo()
    state.generation = 4
    you = at_policy(state, 0, ["development-of-tourism", "market-access"])
    play(state, "play development-of-tourism")
    assert state.star is not None and state.star.money == 20 and you.money == 25


def test_offshore_production_uses_the_star_industrial_value() -> None:
    """Generation 4: star industrial 5 = position 4 (fossil 1, pollution 1): you pay 5 $ to the
    star, spend 1 fossil, gain 5 industrial; the star takes 1 pollution from the reserve."""
    state = solo()
    state.generation = 4
    you = at_policy(state, 0, ["offshore-production", "market-access"])
    you.money = 10
    reserve = state.pollution_reserve
    play(state, "play offshore-production")
    star = state.star
    assert star is not None
    assert (you.money, you.fossil, you.stock[1]) == (5, 7, 6)
    assert (star.money, star.pollution, state.pollution_reserve) == (45, 1, reserve - 1)


def test_annexation_beats_the_star_military_value_and_takes_a_territory() -> None:
    """Generation 2: star military 5; you spend 10 > 5: it does not resist; territory 5 -> 4,
    yours 5 -> 6. "Resources as values do not vary": its military stays 5."""
    state = solo()
    state.generation = 2
    you = at_policy(state, 0, ["annexation-of-territory", "market-access"])
    set_board(you, stock_military=12)
    play(state, "play annexation-of-territory", "spend 10")
    assert state.star is not None and state.star.territory == 4 and you.territory == 6
    assert star_values(state)["military"] == 5


def test_the_star_resists_when_its_military_value_is_enough() -> None:
    """Generation 4: star military 10; you spend 10: it resists, no effect, its value stays."""
    state = solo()
    state.generation = 4
    you = at_policy(state, 0, ["annexation-of-territory", "market-access"])
    set_board(you, stock_military=12)
    play(state, "play annexation-of-territory", "spend 10")
    assert state.star is not None and state.star.territory == 5 and you.territory == 5
    assert you.stock[2] == 2 and "resists" in public_lines(state)


def test_military_operation_takes_the_star_fossil_tokens() -> None:
    """Generation 1: star military 3; you spend 4: take up to 2 fossil: star 8 -> 6, you 8 -> 10
    (renewable and industrial are values on the star card: nothing to take)."""
    state = solo()
    you = at_policy(state, 0, ["military-operation", "market-access"])
    set_board(you, stock_military=4)
    play(state, "play military-operation", "spend 4")
    assert state.star is not None and state.star.fossil == 6 and you.fossil == 10


# --- "Note: Other resources can be ignored as they have no effect in solo mode."
def test_terrorism_on_the_star_costs_you_and_does_nothing_else() -> None:
    state = solo()
    you = at_policy(state, 0, ["terrorism", "market-access"])
    set_board(you, stock_military=2)
    play(state, "play terrorism")
    assert you.stock[2] == 1 and you.disruption == 1
    assert "no effect" in public_lines(state)


# --- "Add up your score as described on page 23 ... If you have a score of more than 100 victory
# points, you played a very good game—well done!"
def test_the_score_line_at_the_end() -> None:
    state = solo(seed=3)
    rng = random.Random(3)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    total = state.scores[0]
    log = public_lines(state)
    assert f"Solo score: {total} victory points" in log
    assert "more than 100 victory points is a very good game" in log  # random play scores low
    assert state.returns() == [-1.0] and state.observation(0)["very_good_game"] is False


def test_more_than_100_is_a_very_good_game() -> None:
    """Scoring a board by hand: classes 44444 x demographic index 5 (population position 9) =
    (4+4+4) x 5 = 60; 60 $ with no crisis: 5 x 6 = 30; 5 territory: 25; total 115 > 100."""
    state = solo()
    set_board(state.nations[0], sol="44444", population=9, money=60, territory=5)
    state.stage = "scoring"
    state.pending = []
    state.advance()
    assert state.scores == [115]
    assert "you played a very good game, well done!" in public_lines(state)
    assert state.returns() == [1.0]


# --- The 8 event cards: reconstructed from existing mechanics, one line each, overridable.
def test_the_eight_events_are_labelled_reconstructed_with_a_reason() -> None:
    events = DEFAULT_DATA.raw["solo_events"]
    assert len(events) == 8
    for name, entry in events.items():
        assert entry["source"] == "reconstructed" and entry["why"], name
        assert "\n" not in describe_event(DEFAULT_DATA.solo_events[name])


def test_a_users_file_overrides_an_event() -> None:
    data = data_with_overrides({"solo_events": {"terrorism": "unrest:+1; money:-2"}})
    assert data.solo_events["terrorism"] == [("unrest", 1), ("money", -2)]
    with pytest.raises(VariantError, match=r"solo_events\.terrorism"):
        data_with_overrides({"solo_events": {"terrorism": "happiness:+1"}})


def test_an_overridden_event_is_played() -> None:
    """Override migration to "money:+7": you 5 -> 12 $, the World Bank 109 -> 102."""
    state = get_game("world").new_initial_state(
        seed=0, solo=True, overrides='{"solo_events": {"migration": "money:+7"}}'
    )
    assert isinstance(state, WorldState)
    state.events.remove("migration")
    state.events.insert(0, "migration")
    at_event(state)
    assert state.nations[0].money == 12 and state.world_bank == 102


# --- Secrecy: the event pile is face down.
def test_the_event_pile_order_is_never_shown() -> None:
    state = solo()
    obs = state.observation(0)
    assert obs["events"] == {"draw_pile": 8, "discard": []}
    assert "events" in obs and state.events[0] not in str(obs["events"])
    other = state.determinize(0, random.Random(1))
    assert sorted(other.events) == sorted(state.events)
    assert other.observation(0) == obs


def test_a_solo_record_replays_with_its_reshuffles() -> None:
    state = solo(seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    again = GameRecord.of_state(state).replay()
    assert again.returns() == state.returns()


def test_tokens_are_conserved_with_the_star_card() -> None:
    """Money, fossil, pollution, disruption and territory only move (you, the star card, the
    World Bank, reserves, marketplace, LIMIT box) at every step of seeded random solo games."""
    from tests.world.scenario import totals

    def with_star(state: WorldState) -> dict[str, int]:
        out = totals(state)
        star = state.star
        assert star is not None
        for key in ("money", "fossil", "pollution", "disruption", "territory"):
            out[key] += getattr(star, key)
        return out

    for seed in range(6):
        state = solo(seed)
        start = with_star(state)
        rng = random.Random(seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            assert with_star(state) == start, state.history()[-1]


def test_the_log_says_an_overridden_event_is_not_the_reconstruction() -> None:
    """Your own event (source: override) is logged without the reconstruction's mark."""
    state = get_game("world").new_initial_state(
        seed=0, solo=True, overrides='{"solo_events": {"migration": "money:+7"}}'
    )
    assert isinstance(state, WorldState)
    state.events.remove("migration")
    state.events.insert(0, "migration")
    at_event(state)
    assert "Event card migration: $ +7" in public_lines(state)
