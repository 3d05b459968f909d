"""Scenario tests: the rulebook's own examples and every rule of rules/cards.md."""

from __future__ import annotations

import random

import pytest

from limitgames.cards import CARDS, PASS, CardsState
from limitgames.cards.material import COLOURS
from limitgames.core import TERMINAL, IllegalActionError, RecordError
from limitgames.core.chance import Chance
from limitgames.testing import check_illegal_is_harmless
from tests.cards.scenario import deck_for, make_state, play

RULEBOOK_CARD = "X0335"  # red X, yellow 0, green 3, blue 3, purple 5
ANDREAS, BARBARA, CLARA, DANIEL = 0, 1, 2, 3


def test_rulebook_limit_card_with_four_hidden_cards() -> None:
    # "Die Limitkarte und die vier abgelegten Karten ... erlauben höchstens fünf violette,
    # unbeschränkt viele rote, fünf blaue, eine gelbe und vier grüne Karten."
    state = make_state(4, ["brrpp", "brrpp", "yrrpp", "grrpp"], [RULEBOOK_CARD, "00000"])
    assert state.observation(None)["limit_card"] == {
        "red": "X",
        "yellow": 0,
        "green": 3,
        "blue": 3,
        "purple": 5,
    }
    play(state, "hide blue", "hide blue", "hide yellow", "hide green")
    limits = dict(zip(COLOURS, state.effective_limits(), strict=True))
    assert limits == {"purple": 5, "red": None, "blue": 5, "yellow": 1, "green": 4}
    # "Auch eine abgelegte rote Karte hätte daran nichts geändert."
    other = make_state(4, ["brrpp", "brrpp", "yrrpp", "grrpp"], [RULEBOOK_CARD, "00000"])
    play(other, "hide red", "hide red", "hide red", "hide red")
    assert other.effective_limits() == [None, 0, 3, 3, 5]


def _daniel_round(clara_hides: str) -> CardsState:
    """Andreas plays green, Barbara yellow, Clara yellow; Daniel suspects Barbara."""
    state = make_state(4, ["grrpp", "yrrpp", "yyrpp", "brrpp"], [RULEBOOK_CARD, "11111"])
    play(state, "hide red", "hide red", f"hide {clara_hides}", "hide red")
    play(state, "play green", "play yellow", "play yellow")
    assert state.current_player() == DANIEL
    return state


def test_suspicion_counts_up_to_the_suspected_card_exceeded() -> None:
    # The rulebook's example: Daniel counts the yellow cards up to Barbara's,
    # not Clara's later one. Yellow limit 0: one yellow counted, exceeded.
    state = _daniel_round(clara_hides="red")
    assert state.suspicion_check(BARBARA)["counted"] == 1
    state.apply_string("suspect 1")
    check = state.rounds[-1]["suspicion"]
    assert check == {
        "colour": "yellow",
        "counted": 1,
        "card_limit": 0,
        "hidden": 0,
        "limit": 0,
        "exceeded": True,
        "by": DANIEL,
        "suspect": BARBARA,
        "taker": BARBARA,
        "scorer": DANIEL,
    }
    # Barbara takes the limit card (-2), Daniel scores +1; Barbara starts the next round.
    assert state.scores() == [0, -2, 0, 1]
    assert state.observation(None)["limit_cards_taken"][BARBARA] == [RULEBOOK_CARD]
    assert state.current_player() == BARBARA and state.start == BARBARA
    assert state.observation(None)["phase"] == "hide"


def test_suspicion_not_exceeded_when_only_a_later_card_would_exceed() -> None:
    # Clara's hidden yellow raises the limit to 1: one yellow up to Barbara's card
    # reaches the limit exactly (Clara's later yellow would have made it 2).
    state = _daniel_round(clara_hides="yellow")
    state.apply_string("suspect 1")
    check = state.rounds[-1]["suspicion"]
    assert (check["counted"], check["limit"], check["exceeded"]) == (1, 1, False)
    # The wrong suspicion: Daniel takes the limit card, Barbara scores +1.
    assert state.scores() == [0, 1, 0, -2]
    assert state.current_player() == DANIEL and state.start == DANIEL
    # Everybody took the hidden card back; the revealed cards are public.
    assert state.rounds[-1]["revealed"] == [["red"], ["red"], ["yellow"], ["red"]]
    assert state.observation(None)["hand_sizes"] == [5, 5, 5, 5]
    assert state.observation(DANIEL)["known_cards"][CLARA]["yellow"] == 1


def test_no_limit_is_never_exceeded() -> None:
    state = make_state(3, ["rrrrr", "rrrrr", "ggggg"], [RULEBOOK_CARD, "11111"])
    play(state, "hide red", "hide red", "hide green", "play red", "play red", "suspect 1")
    check = state.rounds[-1]["suspicion"]
    assert check["card_limit"] == "X" and check["limit"] is None and not check["exceeded"]
    assert state.scores() == [0, 1, -2]


def test_who_may_be_suspected() -> None:
    state = make_state(4, ["grrpp", "yrrpp", "yyrpp", "brrpp"], [RULEBOOK_CARD])
    play(state, "hide red", "hide red", "hide red", "hide red")
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "play red",
        "play green",
        "play purple",
    ]
    play(state, "play green")
    assert "suspect 0" in [state.action_to_string(a) for a in state.legal_actions()]
    check_illegal_is_harmless(state, state.parse_action("suspect 2"))
    play(state, "play yellow")
    for bad, reason in [
        ("suspect 3", "seat 3 has put no card on the pile"),
        ("suspect 5", "there is no seat 5"),
        ("suspect 2", "cannot suspect itself"),
        ("hide red", "the hide step is over"),
        ("play blue", "holds no blue card"),
        ("exchange red", "needs four red cards"),
        ("pass", "may pass only when"),
    ]:
        with pytest.raises(IllegalActionError, match=reason):
            state.apply_string(bad)
    state2 = make_state(4, ["grrpp", "yrrpp", "yyrpp", "brrpp"], [RULEBOOK_CARD])
    with pytest.raises(IllegalActionError, match="must first hide"):
        state2.apply_string("play red")
    with pytest.raises(IllegalActionError, match="holds no blue card to hide"):
        state2.apply_string("hide blue")
    play(state2, "hide red", "hide red", "hide red", "hide red", "play red")
    with pytest.raises(IllegalActionError, match="seat 2 has put no card"):
        play(state2, "suspect 2")


def test_exchange() -> None:
    # Seat 0 holds four blue after hiding red: shows them, scores +1, draws four,
    # puts two on the pile and two face down on top of the draw pile (public).
    state = make_state(4, ["bbbbr", "grrpp", "yrrpp", "yrrpp"], [RULEBOOK_CARD], draw="ggpyp")
    play(state, "hide red", "hide red", "hide red", "hide red")
    assert "exchange blue" in [state.action_to_string(a) for a in state.legal_actions()]
    state.apply_string("exchange blue")
    obs = state.observation(1)
    assert obs["points"] == [1, 0, 0, 0]
    assert obs["pile"] == [[0, "blue"], [0, "blue"]]
    assert obs["last_played"][0] == "blue"
    assert obs["draw_pile_known"][:3] == ["blue", "blue", None]
    assert state.observation(0)["hand"] == {
        "red": 0,
        "yellow": 1,
        "green": 2,
        "blue": 0,
        "purple": 1,
    }
    assert state.rounds == [] and obs["round_actions"][-1] == [0, "exchange blue"]
    # The next seat plays and draws a known blue card: everybody knows it holds one.
    play(state, "play green")
    assert state.observation(2)["known_cards"][1]["blue"] == 1
    assert state.observation(2)["draw_pile_known"][:2] == ["blue", None]
    # The two cards on the pile count like played cards: blue 2 of limit 3.
    play(state, "play yellow", "suspect 0")
    check = state.rounds[-1]["suspicion"]
    assert (check["colour"], check["counted"], check["limit"], check["exceeded"]) == (
        "blue",
        2,
        3,
        False,
    )
    assert state.scores() == [2, 0, 0, -2]


def test_exchange_needs_four_of_a_colour() -> None:
    state = make_state(3, ["bbbrr", "grrpp", "yrrpp"], [RULEBOOK_CARD])
    play(state, "hide red", "hide red", "hide red")
    check_illegal_is_harmless(state, state.parse_action("exchange blue"))
    with pytest.raises(IllegalActionError, match="needs four blue cards in hand; seat 0 holds 3"):
        state.apply_string("exchange blue")


def test_two_players_hold_six_and_hide_two() -> None:
    state = make_state(2, ["rrggbb", "yyppbb"], [RULEBOOK_CARD, "11111"], start=1)
    obs = state.observation(0)
    assert obs["hand_sizes"] == [6, 6] and obs["to_move"] == 1
    # Each seat hides two cards, one decision each, the start player first.
    assert [state.current_player() for _ in range(1)] == [1]
    play(state, "hide yellow")
    assert state.current_player() == 1
    play(state, "hide purple")
    assert state.current_player() == 0
    play(state, "hide red", "hide green")
    assert state.observation(None)["hidden_counts"] == [2, 2]
    assert state.observation(None)["hand_sizes"] == [4, 4]
    assert state.observation(0)["hidden"] == {
        "red": 1,
        "yellow": 0,
        "green": 1,
        "blue": 0,
        "purple": 0,
    }
    assert state.effective_limits() == [None, 1, 4, 3, 6]
    assert state.current_player() == 1 and state.observation(None)["phase"] == "play"
    play(state, "play blue", "suspect 1")
    # Both hidden cards go back: six cards again for the next round.
    assert state.observation(None)["hand_sizes"] == [6, 6]
    assert state.rounds[-1]["revealed"] == [["red", "green"], ["yellow", "purple"]]
    # 14 limit cards are put aside with two players.
    fresh = CARDS.new_initial_state(seed=5, players=2)
    assert fresh.observation(None)["limit_cards_put_aside"] == 14
    assert fresh.observation(None)["limit_pile"] == 24 - 14 - 1


@pytest.mark.parametrize(("players", "aside"), [(2, 14), (3, 6), (4, 6), (5, 10), (6, 10)])
def test_setup_by_player_count(players: int, aside: int) -> None:
    state = CARDS.new_initial_state(seed=players, players=players)
    obs = state.observation(None)
    assert obs["limit_cards_put_aside"] == aside and obs["limit_pile"] == 24 - aside - 1
    size = 6 if players == 2 else 5
    assert obs["hand_sizes"] == [size] * players
    assert obs["draw_pile"] == 60 - size * players
    assert obs["to_move"] == obs["start_player"]


def test_first_start_player_is_drawn_and_deals_first() -> None:
    starts = {CARDS.new_initial_state(seed=s, players=4).start for s in range(40)}
    assert starts == {0, 1, 2, 3}
    # One card at a time, clockwise from the start player: the deck's first card goes to it.
    state = make_state(4, ["rrrrr", "yyyyy", "ggggg", "bbbbb"], [RULEBOOK_CARD], start=2)
    assert state.hands == [[5, 0, 0, 0, 0], [0, 5, 0, 0, 0], [0, 0, 5, 0, 0], [0, 0, 0, 5, 0]]
    assert deck_for(4, 2, ["rrrrr", "yyyyy", "ggggg", "bbbbb"]).startswith("gbry")


def test_round_start_player_pile_under_the_draw_pile_and_refill_order() -> None:
    # Six players, a long round: the draw pile runs out, hands shrink; at the end
    # the pile goes under the draw pile in the order played and the seats refill
    # clockwise from the seat that took the limit card.
    hands = ["rrrrr", "rrrrr", "yyyyy", "yyyyy", "ggggg", "bbbbb"]
    state = make_state(6, hands, [RULEBOOK_CARD, "11111"], start=0)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    plays = 0
    while state.draw or plays < 40:
        actions = [a for a in state.legal_actions() if state.action_to_string(a).startswith("play")]
        if not actions:
            break
        state.apply(actions[0])
        plays += 1
    assert not state.draw and any(sum(h) < 4 for h in state.hands)
    pile = list(state.pile)
    sizes = [sum(h) + sum(x) for h, x in zip(state.hands, state.hidden, strict=True)]
    suspecter = state.current_player()
    target = (suspecter + 1) % 6
    exceeded = state.suspicion_check(target)["exceeded"]
    state.apply_string(f"suspect {target}")
    taker = target if exceeded else suspecter
    assert state.start == taker and state.current_player() == taker
    # Refill: the taker first, clockwise, each taking all it misses from the top,
    # which is the first card played this round.
    expected = [list(state.rounds[-1]["pile"])]  # for the message only
    top = 0
    for k in range(6):
        s = (taker + k) % 6
        missing = 5 - sizes[s]
        got = pile[top : top + missing]
        top += missing
        assert sum(state.hands[s]) == 5, expected
        # The seat's known cards are exactly what it drew from the known pile.
        for c in range(5):
            assert state.known[s][c] >= got.count(c)
    assert state.draw == pile[top:][::-1]
    assert all(state.draw_known)


def test_end_of_game_and_scores() -> None:
    # Three players, two limit cards: the game ends when the second is taken.
    state = make_state(3, ["rrggb", "yyppb", "rgypb"], [RULEBOOK_CARD, "00000"], start=0)
    play(state, "hide blue", "hide blue", "hide blue", "play red", "suspect 0")  # red X: wrong
    assert state.scores() == [1, -2, 0] and state.current_player() == 1
    assert not state.is_terminal()
    draw_before = len(state.draw)
    play(state, "hide purple", "hide red", "hide red", "play yellow", "suspect 1")
    # yellow 0 + 0 hidden yellow: 1 counted, exceeded; seat 1 takes the last card.
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.scores() == [1, -4, 1]
    # Seats 0 and 2 share the win: 0 each (a shared win), seat 1 loses.
    assert state.winners() == [0, 2] and state.returns() == [0, -1, 0]
    obs = state.observation(None)
    assert obs["limit_card"] is None and obs["limit_pile"] == 0 and obs["phase"] == "over"
    assert obs["limit_cards_taken"] == [[], [RULEBOOK_CARD, "00000"], []]
    # No refill after the last round: the pile went under the draw pile, nobody drew.
    assert len(state.draw) == draw_before + 1 - 1
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_string("pass")


def test_pass_and_the_round_nobody_can_play() -> None:
    # Not reachable with the printed hand sizes; the engine still defines it.
    state = make_state(3, ["rrggb", "yyppb", "rgypb"], [RULEBOOK_CARD, "00000"], start=0)
    play(state, "hide blue", "hide blue", "hide blue")
    for s in range(3):  # put every hand card back under the draw pile (cards conserved)
        for c in range(5):
            state.draw[:0] = [c] * state.hands[s][c]
            state.draw_known[:0] = [False] * state.hands[s][c]
            state.hands[s][c] = 0
    assert state.colour_card_total() == 60
    assert state.legal_actions() == [PASS]
    play(state, "pass", "pass")
    assert state.current_player() == 2
    state.apply_string("pass")
    # A full circle of passes: no limit card taken, it goes under the limit pile.
    assert state.rounds[-1]["taker"] is None and state.scores() == [0, 0, 0]
    assert state.limit_card is not None and state.limit_card == (0, 0, 0, 0, 0)
    assert state.limit_pile == [(-1, 0, 3, 3, 5)] and state.limit_bottom_known == 1
    assert state.start == 0 and state.observation(None)["hand_sizes"] == [5, 5, 5]


def test_replay_rejects_bad_chance_outcomes() -> None:
    good = CARDS.new_initial_state(seed=1, players=3).chance_outcomes()
    bad_deck = [good[0], {"kind": "colour cards", "value": "r" * 60}, good[2]]
    with pytest.raises(RecordError, match="12 of each letter"):
        CARDS.new_initial_state(chance=Chance(replay=bad_deck), players=3)
    bad_start = [good[0], good[1], {"kind": "start player", "value": 7}]
    with pytest.raises(RecordError, match="not a seat of 3"):
        CARDS.new_initial_state(chance=Chance(replay=bad_start), players=3)
    bad_cards = [{"kind": "limit cards", "value": ["X0335", "zz"] * 5}, good[1], good[2]]
    with pytest.raises(RecordError, match="not a limit card code"):
        CARDS.new_initial_state(chance=Chance(replay=bad_cards), players=3)


def test_clone_is_independent_and_playout_ends() -> None:
    state = CARDS.new_initial_state(seed=11, players=5)
    twin = state.clone()
    twin.playout(random.Random(3))
    assert twin.is_terminal() and not state.is_terminal()
    assert state.history() == [] and state.colour_card_total() == 60
    assert twin.colour_card_total() == 60


def test_returns_variant_win() -> None:
    plain = CARDS.new_initial_state(seed=4, players=3, returns="score")
    plain.playout(random.Random(4))
    assert plain.returns() == [float(x) for x in plain.scores()]
    state = CARDS.new_initial_state(seed=4, players=3)
    assert state.returns() == [0.0, 0.0, 0.0]
    state.playout(random.Random(4))
    assert plain.scores() == state.scores()
    winners = state.winners()
    assert state.returns() == [
        (1.0 if len(winners) == 1 else 0.0) if s in winners else -1.0 for s in range(3)
    ]


def test_known_cards_after_a_reveal() -> None:
    # Seat 1 draws one of the two blue cards an exchange put on the draw pile, so
    # everybody knows a blue is in its hand; it had hidden a blue. At the reveal
    # everybody knows it holds two blue cards, not one.
    state = make_state(
        4, ["bbbbr", "bgrpp", "yrrpp", "yrrpp"], [RULEBOOK_CARD, "11111"], draw="ggpyp"
    )
    play(state, "hide red", "hide blue", "hide red", "hide red", "exchange blue", "play green")
    obs = state.observation(3)
    assert obs["known_cards"][1]["blue"] == 1 and obs["known_in_hand"][1]["blue"] == 1
    play(state, "suspect 0")
    obs = state.observation(3)
    assert obs["known_cards"][1]["blue"] == 2 and obs["known_in_hand"][1]["blue"] == 2
    assert obs["known_cards"][0] == {"red": 1, "yellow": 0, "green": 0, "blue": 0, "purple": 0}
    # Hiding forgets which known card is still in hand, not what the seat holds.
    assert state.start == 2  # seat 2 suspected wrongly, took the limit card, starts
    play(state, "hide purple", "hide red", "hide green", "hide blue")
    obs = state.observation(0)
    assert obs["known_cards"][3]["red"] == 1 and obs["known_in_hand"][3]["red"] == 0
    assert obs["known_cards"][1]["blue"] == 2 and obs["known_in_hand"][1]["blue"] == 0
