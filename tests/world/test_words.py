"""The world game's log in German, French and Spanish (``limitgames.world.words``).

Whole seeded games (2 to 6 nations, alliances, solo) are played at random and their log is
read in every language: the English is the engine's own text, and a translated line that
still reads like its English line was never translated. The expected German lines below are
the catalogue's words written out by hand (Generation/Führungsplättchen, spielt + the card's
German name, Wertung).
"""

from __future__ import annotations

import pickle
import random
import re

import pytest

from limitgames.core import IllegalActionError, NotationError
from limitgames.translation import gettext, using
from limitgames.world.data import DEFAULT_DATA
from limitgames.world.state import NATION_NAMES, WorldState
from limitgames.world.words import Phrase, joined, nation_name, phrase, render
from tests.world.scenario import new_state

GAMES = [
    {"players": 2, "seed": 3},
    {"players": 4, "seed": 5, "alliances": "on"},
    {"players": 6, "seed": 2, "alliances": "on"},
    {"players": 3, "seed": 8, "alliances": "on"},
    {"players": 2, "seed": 6, "solo": True},
]
NAMES = r"\b(?:star|LIMIT|" + "|".join(NATION_NAMES) + "|"
NAMES += "|".join(sorted([*DEFAULT_DATA.cards, *DEFAULT_DATA.solo_events], key=len, reverse=True))
NAMES += r")\b"


def _played(players: int, seed: int, **variant: object) -> WorldState:
    state = new_state(players, seed=seed, **variant)
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


@pytest.fixture(scope="module")
def games() -> list[WorldState]:
    return [_played(**game) for game in GAMES]  # type: ignore[arg-type]


def _says_something(line: str) -> bool:
    """A word of three letters once names (nations, card and event ids) are left out."""
    return re.search(r"[^\W\d_]{3}", re.sub(NAMES, "", line)) is not None


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_every_log_line_is_translated(games: list[WorldState], language: str) -> None:
    left: set[str] = set()
    for state in games:
        for seat in [None, *range(state.n)]:
            english = state.log_lines(seat)
            with using(language):
                translated = state.log_lines(seat)
            assert len(translated) == len(english)
            left |= {e for e, t in zip(english, translated, strict=True) if e == t}
            # the phase marks the terminal looks for stay
            assert [e.startswith("== ") for e in english] == [
                t.startswith("== ") for t in translated
            ]
    left = {line for line in left if _says_something(line)}
    assert not left, f"still in English ({language}): {sorted(left)[:20]}"


def test_english_is_the_engines_own_text(games: list[WorldState]) -> None:
    for state in games:
        lines = [t if s is None else f"{NATION_NAMES[s]}: {t}" for s, t, _ in state.log]
        with using("en"):
            assert state.log_lines(0) == [
                line
                for line, (_, _, private) in zip(lines, state.log, strict=True)
                if not private or line.startswith(f"{NATION_NAMES[0]}: ")
            ]
        assert state.log_lines(None) == [
            line for line, (_, _, p) in zip(lines, state.log, strict=True) if not p
        ]


def test_german_lines_written_out_by_hand() -> None:
    state = _played(2, 3)
    english = state.log_lines(None)
    with using("de"):
        german = state.log_lines(None)
    leader = english[0].split("; ")[1].split()[0]
    german_nations = {"circle": "Kreis", "square": "Quadrat", "triangle": "Dreieck"}
    assert english[0] == f"Generation 1 begins; {leader} holds the leadership tile"
    assert german[0] == f"Generation 1 beginnt; {german_nations[leader]} hat das Führungsplättchen"
    assert german[1] == "== Politische Phase der Generation 1"
    plays = [(e, g) for e, g in zip(english, german, strict=True) if ": plays " in e]
    assert plays
    cards = {card.name: card for card in DEFAULT_DATA.cards.values()}
    german_names = {
        "Public Expenditure": "Öffentliche Ausgaben",
        "Education": "Bildung",
        "Industrialization": "Industrialisierung",
        "Craftsmanship": "Handwerk",
        "Investment Policy": "Investitionspolitik",
    }
    for e, g in plays:
        who, _, card = e.partition(": plays ")
        assert card in cards
        with using("de"):
            assert g == f"{german_nations[who]}: spielt {gettext(card)}"
        if card in german_names:
            assert g == f"{german_nations[who]}: spielt {german_names[card]}"
    assert "== Wertung" in german


def test_private_lines_stay_private_in_every_language(games: list[WorldState]) -> None:
    for state in games:
        for language in ("de", "fr", "es"):
            with using(language):
                public = state.log_lines(None)
                seats = [state.log_lines(seat) for seat in range(state.n)]
            kept = gettext("(you keep %(card)s)").split("%")[0]
            assert not any(kept in line for line in public)
            for seat, lines in enumerate(seats):
                mine = [line for line in lines if kept in line]
                with using(language):
                    name = nation_name(NATION_NAMES[seat])
                assert all(line.startswith(name) for line in mine)


def test_a_phrase_is_its_english_text_and_survives_copies() -> None:
    line = phrase("%(card)s: pays %(rest)d $", card="Education", rest=4) + "; done"
    assert line == "Education: pays 4 $; done" and isinstance(line, Phrase)
    again = pickle.loads(pickle.dumps(line))
    assert again == line and isinstance(again, Phrase) and again.values == line.values
    both = joined(", ", [phrase("plays %(card)s", card="Education"), "passes"])
    assert both == "plays Education, passes"
    with using("fr"):
        assert render(both) == "joue Éducation, passe"
    state = _played(2, 6, solo=True)
    with using("es"):
        before = state.log_lines(0)
        assert pickle.loads(pickle.dumps(state)).log_lines(0) == before
        assert state.clone().log_lines(0) == before


def test_the_information_state_does_not_depend_on_the_language() -> None:
    state = _played(2, 3)
    english = state.information_state_string(0)
    with using("de"):
        assert state.information_state_string(0) == english


def test_a_refusal_reads_in_the_players_language() -> None:
    state = new_state(2)  # generation 1 opens with the new-policy draw: a deck is chosen
    seat = NATION_NAMES[state.current_player()]
    with pytest.raises(IllegalActionError) as english:
        state.apply(("pass",))
    assert english.value.reason == f"not an option now ({seat} must decide: deck)"
    with using("de"), pytest.raises(IllegalActionError) as german:
        state.apply(("pass",))
    assert german.value.reason == f"jetzt keine Möglichkeit ({seat} muss entscheiden: deck)"
    with using("es"), pytest.raises(NotationError) as spanish:
        state.parse_action("deck moon")
    assert spanish.value.reason == ("'moon' no es válido como mazo (society, military, production)")
