"""Limits in words (``cards/words.py``): the sentences, their translations with agreement,
and one narrator for the terminal and the browser."""

from __future__ import annotations

import html
import random

import pytest

from limitgames.cards import CardsGame
from limitgames.cards.events import Drew, RoundScored
from limitgames.cards.rules import CardsState
from limitgames.cards.words import a_card, card_count, in_turn, limit_card_words, outcome_sentence
from limitgames.cli.cards_play import CardsTerminal
from limitgames.translation import using
from limitgames.web import cards_html

GAME = CardsGame()
NAMES = ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize(
    ("language", "one", "four", "card"),
    [
        # written by hand: the colour agrees with the noun in gender and number
        ("en", "a blue card", "4 blue cards", "red no limit, yellow 0, green 3, blue 3, purple 5"),
        (
            "fr",
            "une carte bleue",
            "4 cartes bleues",
            "rouge pas de limite, jaune 0, vert 3, bleu 3, violet 5",
        ),
        (
            "de",
            "eine blaue Karte",
            "4 blaue Karten",
            "Rot kein Limit, Gelb 0, Grün 3, Blau 3, Violett 5",
        ),
        (
            "es",
            "una carta azul",
            "4 cartas azules",
            "rojo sin límite, amarillo 0, verde 3, azul 3, morado 5",
        ),
    ],
)
def test_cards_and_limit_cards_in_each_language(
    language: str, one: str, four: str, card: str
) -> None:
    with using(language):
        assert a_card("blue") == one
        assert card_count("blue", 4) == four
        assert limit_card_words("X0335") == card


def test_french_colours_agree_with_cards() -> None:
    with using("fr"):
        assert [a_card(c) for c in ("red", "green", "purple")] == [
            "une carte rouge",
            "une carte verte",
            "une carte violette",
        ]
        assert card_count("green", 1) == "1 carte verte"
        assert card_count("purple", 2) == "2 cartes violettes"
        # French puts a space before the semicolon
        assert in_turn(["Ann joue", "Ann pioche"]) == "Ann joue ; Ann pioche"


def test_the_terminal_and_the_browser_tell_the_same_sentences() -> None:
    terminal = CardsTerminal()
    terminal.names = list(NAMES)
    for seed in range(6):
        state = GAME.new_initial_state(seed=seed, players=3)
        assert isinstance(state, CardsState)
        rng = random.Random(seed)
        while not state.is_terminal():
            before = state.clone()
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            events = state.clone().apply_with_events(action)
            state.apply(action)
            line = str(terminal.decision_line(before, action, seat, None, ""))
            told = [str(x.text) for x in terminal.narrate(before, action, state, seat, None)]
            board, side = cards_html.draw(state.observation(None), list(NAMES), None)
            decision = line.split("; ")[0]
            if not any(isinstance(e, RoundScored) for e in events):
                # this round's decisions, listed by the browser with the terminal's words
                # (the draws are not listed in the browser)
                assert any(isinstance(e, Drew) for e in events) == ("; " in line)
                assert html.escape(decision) in board, (decision, board)
            else:
                check = next(t for t in told if t.startswith("Counted up to"))
                assert html.escape(check) in side
                assert html.escape(decision) in side
        outcome = state.outcome()
        assert outcome is not None
        with using("fr"):
            text = outcome_sentence(outcome, NAMES)
        assert text.startswith("La dernière carte Limite a été prise.")
