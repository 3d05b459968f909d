"""The world terminal's redraw (at most 40 lines at 4 nations and 100 columns) and the summary
of what happened since a nation's last decision (``cli/world_screen.py``)."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from limitgames.cli import world_play, world_screen, world_view
from limitgames.core.events import Event
from limitgames.translation import using
from limitgames.world.events import Decided, Noted
from limitgames.world.words import line_sentence
from tests.world.scenario import new_state


def _lines(draw: object, *args: object, width: int = 100) -> list[str]:
    console = Console(record=True, width=width, file=open("/dev/null", "w"))  # noqa: SIM115
    draw(console, *args)  # type: ignore[operator]
    return console.export_text().splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_redraw_fits_in_40_lines_at_4_nations_and_100_columns(language: str) -> None:
    """Every decision of a seeded 4-nation random game, drawn for the nation to decide, fits
    in 40 lines at 100 columns and keeps what a player needs: their nation, the world's
    tracks, whose turn, the last lines of the log. The full tables it replaced took about
    100-130 lines (measured beside it, as the bound's reason)."""
    state = new_state(4, seed=7)
    rng = random.Random(3)
    longest = 0
    full = 0
    drawn = 0
    with using(language):
        while not state.is_terminal():
            seat = state.current_player()
            if rng.random() < 0.2:  # a fifth of the decisions, spread over the whole game
                lines = _lines(world_view.render, state, seat)
                text = "\n".join(lines)
                longest = max(longest, len(lines))
                drawn += 1
                assert len(lines) <= world_screen.SCREEN_LINES, text
                assert "★" in text and "»" in text  # the leader, the last lines of the log
                if language == "en":
                    for words in ("(you)", "World Bank", "market price", "to decide", "Your hand"):
                        assert words in text, (words, text)
                if drawn % 5 == 1:
                    full = max(full, len(_lines(world_view.render_full, state, seat)))
            state.apply(rng.choice(state.legal_actions()))
        end = _lines(world_view.render, state, None)
    assert drawn > 50 and full > world_screen.SCREEN_LINES + 40, (drawn, full, longest)
    assert len(end) <= world_screen.SCREEN_LINES + 8  # the scores table and the result under it


def _play_until_next_decision(
    state: object, viewer: int, rng: random.Random
) -> tuple[list[Event], int, list[tuple[int, object]]]:
    """Random play from ``viewer``'s decision to its next one (or the end): the events of it,
    where the viewer's log stood at its decision, and each decision as (seat, action)."""
    from limitgames.world.game_state import WorldGameState

    assert isinstance(state, WorldGameState)
    start = len(state.log_lines(viewer))
    events: list[Event] = []
    taken: list[tuple[int, object]] = []
    while True:
        seat = state.current_player()
        action = rng.choice(state.legal_actions())
        taken.append((seat, action))
        events += state.apply_with_events(action)
        if state.is_terminal() or state.current_player() == viewer:
            return events, start, taken


def test_the_summary_tells_the_phases_and_the_other_nations_public_decisions() -> None:
    """Against the log the nation reads (another source than the events the summary reads):
    every phase opened since its decision is told, every line told is one the nation may
    read, and each card another nation played in public is named."""
    state = new_state(4, seed=11)
    rng = random.Random(5)
    viewer = 0
    checked = 0
    while not state.is_terminal() and checked < 6:
        if state.current_player() != viewer:
            state.apply(rng.choice(state.legal_actions()))
            continue
        events, start, taken = _play_until_next_decision(state, viewer, rng)
        lines = world_screen.summary_lines(events, viewer)
        readable = state.log_lines(viewer)[start:]
        marks = [line for line in readable if line.startswith("== ")]
        if not marks:
            assert lines == []
            continue
        checked += 1
        if len(lines) == world_screen.SUMMARY_LINES:
            continue  # cut short: "... more lines: type log"
        assert [line for line in lines if line.startswith("== ")] == marks
        told = [line.strip() for line in lines if not line.startswith("== ")]
        for line in told:
            nation, _, said = line.partition(": ")
            assert nation in ("circle", "square", "triangle", "diamond") and nation != "circle"
            for part in said.split("; "):
                assert f"{nation}: {part}" in readable, (part, readable)
        played = [
            (state.seat_names()[seat], str(a[1]))
            for seat, a in taken
            if isinstance(a, tuple) and a[0] == "play" and seat != viewer
        ]
        for nation, card in played:
            name = state.data.cards[card].name
            assert any(line.startswith(f"{nation}: ") and name in line for line in told), (
                nation,
                name,
                lines,
            )
    assert checked >= 3


def test_the_summary_tells_no_secret_of_another_nation() -> None:
    """A card kept from a draw is a private line of its nation (``"(you keep ...)"``) and a
    secret choice is told to its nation alone until its step closes: none of these reaches
    another nation's summary, though they are among the events given to it."""
    state = new_state(4, seed=3)
    rng = random.Random(8)
    events: list[Event] = []
    while state.observation(None)["generation"] < 3:
        events += state.apply_with_events(rng.choice(state.legal_actions()))
    secrets = [
        e for e in events if isinstance(e, Noted) and e.audience is not None and 0 not in e.audience
    ]
    hidden_choices = [
        e for e in events if isinstance(e, Decided) and e.audience is not None and e.seat != 0
    ]
    assert secrets and hidden_choices  # the check below can fail
    lines = world_screen.summary_lines(events, 0, None)
    summary = "\n".join(lines)
    assert lines and "== " in summary
    for secret in secrets:
        line = line_sentence(secret.seat, secret.text)
        said = line.split(": ", 1)[1]
        public_twin = any(
            isinstance(e, Noted) and e.audience is None and e.text == secret.text for e in events
        )
        if not public_twin:
            assert said not in summary, said


def test_the_summary_is_shown_at_the_next_decision_after_phases_were_resolved() -> None:
    """A person against three computer nations: at their decision after a phase was
    resolved the screen shows "Since your last decision" with the phases, before the redraw."""
    from limitgames.agents import make_agent
    from limitgames.cli.seats import Seat

    state = new_state(4, seed=7)
    seats = [Seat("human")] + [Seat("random", make_agent("random", seed=i)) for i in range(3)]
    rng = random.Random(5)
    asked = 0

    def read(prompt: str) -> str:
        nonlocal asked
        asked += 1
        if asked > 25:
            raise EOFError
        now = session.state
        return now.action_to_string(rng.choice(now.legal_actions()))

    console = Console(record=True, width=100, file=open("/dev/null", "w"))  # noqa: SIM115
    session = world_play.make_session(console, state, seats, world_view.render, None, input_fn=read)
    session.input = world_play.WorldInput(console, lambda: session.state, session.input, False)
    session.run()
    text = console.export_text()
    assert "Since your last decision" in text
    panel = text[text.index("Since your last decision") :]
    assert "== " in panel.split("LIMIT —")[0]


def test_the_full_tables_are_behind_commands() -> None:
    state = new_state(4, seed=2)
    console = Console(record=True, width=160, file=open("/dev/null", "w"))  # noqa: SIM115
    answers = iter(["world", "nations", "hand", "help", "quit"])
    reader = world_play.WorldInput(console, lambda: state, lambda prompt: next(answers))
    assert reader("> ") == "help"
    text = console.export_text()
    for words in ("market stock", "colonization", "demographic shift zone", "if played now"):
        assert words in text, words
    assert "nations (every field of every nation board)" in text
