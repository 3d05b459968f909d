"""No English left: the three games' browser pages and terminal screens in German, French
and Spanish hold no English sentence or game value from the English catalogue.

The forbidden list is built from the English catalogue (``locale/messages.pot``, read with
Babel), not from what the screens show: every game value the catalogue holds (colours,
nation names, card names, resources and decks, phase and stage names, the variant
parameters' choices and their labels, ``True``/``False``) and every run of three words or
more of a message (its text between placeholders: a whole sentence, or a sentence's fixed
part). Each screen is drawn for a seeded position in the middle of a game and at its end,
and in each of the three languages none of the forbidden texts may appear as whole words,
except those in :data:`SAME_IN_ENGLISH`, whose translation is the English text on purpose
(checked against the catalogues, so the list cannot go stale). The games' notation, what
players type (``offer military circle``, ``deck society``), stays English by design and is
taken out first (the legal actions, and the notation hints in parentheses).
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.console import Console

from limitgames.core import GameRecord, State, get_game
from limitgames.translation import LOCALE_DIR, gettext, using
from tests.web.conftest import new_game
from tests.web.page_text import page_pieces

LANGUAGES = ("de", "fr", "es")
NAMES = ["Ann", "Bob", "Eve"]
"""The people at the table (Ann and Eve start with a vowel: French elides *d'Ann*)."""

SAME_IN_ENGLISH: dict[str, frozenset[str]] = {
    # Spanish "planta industrial": the same adjective.
    "es": frozenset({"industrial"}),
    # French shares these words with English: "le score", la "production", "triangle",
    # the card "Conscription", "population", "crises" (plural of "crise").
    "fr": frozenset(
        {"score", "production", "triangle", "Conscription", "$ x population", "crises"}
    ),
    # German calls the card "Recycling" too.
    "de": frozenset({"Recycling"}),
}
"""Forbidden texts whose translation is the English text on purpose, per language."""

PLACEHOLDER = re.compile(r"%\(\w+\)[sdrf]|%%|\{\w+\}")
NOTATION_HINT = re.compile(r"\([^()]*(?:\||\s/\s)[^()]*\)")
"""A notation hint in parentheses, ``(deck society|military|production)``, ``(play CARD /
pass)``: what players type, left in English in every language."""


@cache
def english_catalogue() -> frozenset[str]:
    """Every msgid of ``messages.pot`` (singular and plural)."""
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / "messages.pot").open("rb") as handle:
        catalogue = read_po(handle)
    ids: set[str] = set()
    for message in catalogue:
        if not message.id:
            continue
        ids |= {message.id} if isinstance(message.id, str) else set(message.id)
    return frozenset(ids)


def game_values() -> set[str]:
    """The games' values that reach players as words: read from the engines' own tables."""
    from limitgames.cards.material import COLOURS
    from limitgames.web.cards_html import PHASE_WORDS
    from limitgames.world.data import DEFAULT_DATA
    from limitgames.world.words import GAME_WORDS, NATION_WORDS, STAGE_WORDS

    values = set(COLOURS) | set(NATION_WORDS.values()) | set(GAME_WORDS)
    values |= {words for stage in STAGE_WORDS.values() for words in stage}
    values |= set(PHASE_WORDS.values())
    values |= {card.name for card in DEFAULT_DATA.cards.values()}
    for game in ("hex", "cards", "world"):
        for p in get_game(game).info.parameters:
            values |= {str(c) for c in p.choices or ()} | set(p.choice_labels)
    return values | {"True", "False"}


@cache
def forbidden() -> frozenset[str]:
    """The game values of the catalogue and the runs of three words or more of its messages."""
    found: set[str] = set()
    values = game_values()
    for message in english_catalogue():
        if message in values:
            found.add(message)
            continue
        for run in PLACEHOLDER.split(message):
            run = run.strip(" .,:;()·")
            if len(run.split()) >= 3 and len(run) >= 12:
                found.add(run)
    return frozenset(found)


def left_in_english(text: str, language: str, notation: list[str]) -> list[str]:
    """The forbidden texts found in ``text`` as whole words (notation taken out first)."""
    flat = " ".join(text.split())
    for action in sorted(notation, key=len, reverse=True):
        flat = flat.replace(action, " ")
    flat = NOTATION_HINT.sub(" ", flat)
    allowed = SAME_IN_ENGLISH.get(language, frozenset())
    return sorted(
        m
        for m in forbidden() - allowed
        if m in flat and re.search(r"(?<![\w-])" + re.escape(m) + r"(?![\w-])", flat)
    )


def readable(html: str) -> str:
    return " | ".join(page_pieces(html))


POSITIONS: dict[str, tuple[str, dict[str, Any], int]] = {
    "hex": ("hex", {"players": 2}, 20),
    "cards": ("cards", {"players": 3}, 30),
    "world": ("world", {"players": 4}, 80),
    "world solo": ("world", {"solo": True}, 40),
}
"""Each case's game, variant and the decisions played before its mid-game position."""


def position(case: str, finished: bool) -> tuple[State, State | None]:
    """A seeded position of ``case`` (mid-game, or played to the end by random decisions) and
    the one a decision before it."""
    game, variant, steps = POSITIONS[case]
    state = get_game(game).new_initial_state(seed=4, **variant)
    rng = random.Random(4)
    before = None
    while not state.is_terminal() and (finished or steps > 0):
        before = state.clone()
        state.apply(rng.choice(state.legal_actions()))
        steps -= 1
    return state, before


def screens(game: str, state: State, before: State | None) -> dict[str, str]:
    """Every screen of ``state`` in the current language: the browser's view (board, side,
    status, announcements, end screen), the terminal's redraw (world: the full tables too),
    and at the end what ``limit replay`` prints."""
    from limitgames.cli import cards_view, hex_view, world_view
    from limitgames.cli.render import render_final
    from limitgames.web.views import render_view

    seat = None if state.is_terminal() else state.current_player()
    names = NAMES[: state.num_players] if game == "cards" else None
    view = render_view(state, seat, game == "hex", before, [0], names)
    ending = [str(v) for v in (view.get("end_screen") or {}).values()]
    out = {
        "browser": readable(view["board"] + view["side"])
        + " | ".join([view["status"], *view["announcements"], *ending])
    }

    def terminal(draw: Any, *args: Any, **options: Any) -> str:
        console = Console(record=True, width=100, file=open("/dev/null", "w"))  # noqa: SIM115
        draw(console, *args, **options)
        return console.export_text()

    if game == "cards":
        out["terminal"] = terminal(cards_view.render, state, seat, names=names)
    else:
        view_module = hex_view if game == "hex" else world_view
        out["terminal"] = terminal(view_module.render, state, seat)
    if game == "world":
        out["terminal, full tables"] = terminal(world_view.render_full, state, seat)
    if state.is_terminal():
        record = GameRecord.of_state(
            state, seats=["random"] * state.num_players, seed=4, meta={"names": names}
        )
        out["limit replay"] = terminal(render_final, state, record)
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("case", "finished"),
    [
        *[(case, moment) for case in ("hex", "cards", "world") for moment in (False, True)],
        # mid-game, a solo preview names the next decision's options in notation
        # ("then you must choose a deck: deck society ..."), which this check cannot tell
        # from words; the end holds the star nation's board and the solo verdict
        ("world solo", True),
    ],
)
def test_no_english_sentence_or_value_on_any_screen(case: str, finished: bool) -> None:
    game = POSITIONS[case][0]
    state, before = position(case, finished)
    assert state.is_terminal() == finished
    notation = [state.action_to_string(a) for a in state.legal_actions()]
    found = []
    for language in LANGUAGES:
        with using(language):
            for where, text in screens(game, state, before).items():
                found += [
                    f"{language} {where}: {m!r}" for m in left_in_english(text, language, notation)
                ]
    assert not found, "\n".join(found)


def test_the_check_can_fail() -> None:
    """The list holds sentences and values, and finds them: an English sentence of the
    catalogue, a colour and a nation's name left in a German screen are all reported."""
    assert {"red", "circle", "Public Expenditure", "win", "deck"} <= forbidden()
    text = "Runde 2: red, circle. The last limit card has been taken. Ann gewinnt"
    with using("de"):
        assert left_in_english(text, "de", []) == [
            "The last limit card has been taken",
            "circle",
            "red",
        ]
    assert left_in_english("Optionen: offer military circle", "de", ["offer military circle"]) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_words_kept_in_english_are_so_in_the_catalogue(language: str) -> None:
    """Each text of :data:`SAME_IN_ENGLISH` is a forbidden one, and its language's catalogue
    keeps it as it is (a word translated as itself, or inside its message's translation)."""
    with using(language):
        for text in SAME_IN_ENGLISH[language]:
            assert text in forbidden(), text
            carriers = [m for m in english_catalogue() if text in m]
            assert any(text in gettext(m) for m in carriers), text


@pytest.mark.parametrize(
    ("game", "variant", "name"),
    [
        ("cards", {"players": 2, "returns": "win"}, "returns"),
        ("world", {"players": 2, "draws": "deck", "solo": False}, "draws"),
    ],
)
def test_the_game_pages_name_the_variant_in_each_language(
    client: TestClient, game: str, variant: dict[str, Any], name: str
) -> None:
    """The game page's heading names the variant from the game's declaration in the page's
    language: a choice by its label (``win``: *Sieg*), a flag as yes or no (not ``False``)."""
    answer = new_game(client, game, [{"kind": "me"}, {"kind": "friend"}], variant, seed=None)
    for language in LANGUAGES:
        page = client.get(answer["url"], headers={"Accept-Language": language}).text
        heading = readable(page[page.index("<h1") : page.index("</h1>")])
        assert left_in_english(heading, language, []) == [], heading
        assert "False" not in heading and "True" not in heading, heading
        label = get_game(game).info.parameter(name).choice_label(variant[name])
        with using(language):
            assert gettext(label) in heading and gettext(label) != label, heading


def test_french_elision_before_a_vowel_or_a_mute_h() -> None:
    """French grammar (Grevisse, *Le Bon Usage*, § 44-45): *de* and *que* lose their *e*
    before a vowel (accented too) or a mute *h*: *d'Ann*, *d'Émile*, *d'hexagone*,
    *qu'Ève*; not before a consonant (*de Bob*), an aspirated *h* (*de Hollande*), or a *y*
    sounded as a consonant (*de Yann*; but *d'Yves*)."""
    from limitgames.translation import elide

    cases = {
        ("la dernière carte de Ann", "Ann"): "la dernière carte d'Ann",
        ("De Émile", "Émile"): "D'Émile",
        ("pollution de hexagone", "hexagone"): "pollution d'hexagone",
        ("alors que Ève passe", "Ève"): "alors qu'Ève passe",
        ("la carte de Bob", "Bob"): "la carte de Bob",
        ("de Hollande", "Hollande"): "de Hollande",
        ("de Yann", "Yann"): "de Yann",
        ("de Yves", "Yves"): "d'Yves",
        ("grande Annabelle", "Ann"): "grande Annabelle",  # a whole name only
    }
    with using("fr"):
        for (text, name), expected in cases.items():
            assert elide(text, [name]) == expected
    with using("de"):
        assert elide("de Ann", ["Ann"]) == "de Ann"


def test_french_sentences_of_the_words_modules_elide() -> None:
    """The cards narrator in French: a suspicion checked up to Ann's last card reads
    *jusqu'à la dernière carte d'Ann*, Bob's *de Bob*."""
    from limitgames.cards.words import round_sentence

    summary = {
        "round": 0,
        "limit_card": "33333",
        "suspicion": {
            "by": 1,
            "suspect": 0,
            "colour": "red",
            "counted": 4,
            "card_limit": 3,
            "hidden": 0,
            "limit": 3,
            "exceeded": True,
            "scorer": 1,
            "taker": 0,
        },
    }
    with using("fr"):
        told = round_sentence(summary, ["Ann", "Bob"])
        assert "d'Ann" in told and "de Ann" not in told, told
        summary["suspicion"]["suspect"] = 1  # type: ignore[index]
        assert "de Bob" in round_sentence(summary, ["Ann", "Bob"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_world_log_files_generation_1_under_generation_1(language: str) -> None:
    """The browser's world log groups its lines by generation from the English log's
    structure, so in every language the phase being played in generation 1 is filed under
    generation 1 (it once fell under "End of the game" when the phase line was translated),
    and each line's nation is named in the page's language."""
    from limitgames.web.views import render_view

    state = get_game("world").new_initial_state(seed=4, players=4)
    rng = random.Random(4)
    for _ in range(12):  # the new policies drawn and kept: lines of each nation
        state.apply(rng.choice(state.legal_actions()))
    assert state.observation(None)["generation"] == 1
    with using(language):
        board = render_view(state, state.current_player(), False, None, [0])["board"]
        assert 'data-log="end"' not in board and 'data-log="1"' in board
        assert gettext("circle") in readable(board[board.index('class="world-log"') :])
