"""LIMIT's events and outcomes (``world/events.py``), checked against the engine's own log
as each nation may read it (``WorldState.log_lines``) and against the rulebook's end
conditions, never against the events module itself.

What each check expects (``rules/world.md``, "A generation"):

- a nation reads, event by event, exactly the log lines ``log_lines(nation)`` holds: its
  own secret choices at once, the others' when the step closes, nobody else's private
  lines; a spectator reads exactly the public log, in order;
- a card kept or discarded is never told to another nation;
- the game ends after the 7th generation or once the 4th crisis tile is placed; the
  winners are the nations with the best score (solo: +1 for "a very good game").
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from limitgames.core.events import Event, Termination, visible
from limitgames.translation import using
from limitgames.world.events import Decided, Noted, opening
from limitgames.world.game import WorldGame
from limitgames.world.state import WorldState
from limitgames.world.words import tell

GAME = WorldGame()
GAMES_PER_COUNT = 200


def _new(seed: int, players: int, **variant: object) -> WorldState:
    state = GAME.new_initial_state(seed=seed, players=players, **variant)
    assert isinstance(state, WorldState)
    return state


def _check_outcome(state: WorldState) -> None:
    outcome = state.outcome()
    assert outcome is not None
    returns = state.returns()
    assert list(outcome.returns) == returns
    crises = sum(len(tiles) for tiles in state.crises)
    assert outcome.details["crises"] == crises
    assert outcome.details["generation"] == state.generation
    if crises >= 4:
        assert outcome.termination is Termination.FOURTH_CRISIS
    else:
        assert state.generation == 7 and outcome.termination is Termination.SEVENTH_GENERATION
    if state.solo:
        assert list(outcome.winners) == ([0] if returns[0] > 0 else [])
    else:
        best = max(returns)
        assert list(outcome.winners) == [s for s, r in enumerate(returns) if r == best]
        assert list(outcome.scores or ()) == [float(s) for s in state.scores]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_finished_game_has_an_outcome_and_tells_the_log(players: int) -> None:
    for seed in range(GAMES_PER_COUNT):
        state = _new(seed, players)
        rng = random.Random(seed)
        events: list[Event] = opening(state)
        while not state.is_terminal():
            events += state.apply_with_events(rng.choice(state.legal_actions()))
        _check_outcome(state)
        assert tell(events, None) == state.log_lines(None)
        for seat in range(players):
            assert Counter(tell(events, seat)) == Counter(state.log_lines(seat))


def test_a_solo_game_has_an_outcome() -> None:
    for seed in range(3):
        state = _new(seed, 2, solo=True)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_with_events(rng.choice(state.legal_actions()))
        _check_outcome(state)


@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_each_nation_reads_at_every_step_what_the_log_shows_it(players: int) -> None:
    for seed in range(2):
        state = _new(100 + seed, players)
        rng = random.Random(seed)
        events: list[Event] = opening(state)
        read = [Counter(tell(events, viewer)) for viewer in range(players)]
        while not state.is_terminal():
            assert state.outcome() is None
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            private = state.announcement(action, None) is None
            told = state.apply_with_events(action)
            decided = [e for e in told if isinstance(e, Decided)]
            assert [e.seat for e in decided] == [seat]
            if private or action[0] in ("keep", "discard"):
                assert decided[0].audience == frozenset({seat})
            events += told
            for viewer in range(players):
                read[viewer].update(tell(told, viewer))
                assert read[viewer] == Counter(state.log_lines(viewer))
                kept = [
                    e
                    for e in visible(told, viewer)
                    if isinstance(e, Noted) and "(you keep" in e.text
                ]
                assert all(e.seat == viewer for e in kept)
        assert tell(events, None) == state.log_lines(None)


def test_the_story_is_told_in_the_readers_language() -> None:
    state = _new(7, 3)
    rng = random.Random(7)
    events: list[Event] = opening(state)
    while not state.is_terminal():
        events += state.apply_with_events(rng.choice(state.legal_actions()))
    for language in ("de", "fr", "es"):
        with using(language):
            assert tell(events, 1) and Counter(tell(events, 1)) == Counter(state.log_lines(1))


def test_a_record_of_a_game_from_a_position_rebuilds_its_events() -> None:
    # a game laid out from a position file (limit play world --position F), played on,
    # recorded, read back and replayed with apply_with_events: the same story and ending
    from limitgames.core import GameRecord
    from limitgames.world.position import position_json

    start = _new(4, 3)
    rng = random.Random(4)
    for _ in range(60):
        start.apply(rng.choice(start.legal_actions()))
    state = GAME.state_from_position(position_json(start))
    assert isinstance(state, WorldState)
    events: list[Event] = opening(state)
    while not state.is_terminal():
        events += state.apply_with_events(rng.choice(state.legal_actions()))
    record = GameRecord.loads(GameRecord.of_state(state).dumps())
    assert record.start is not None
    again = next(position for position, _ in record.positions())
    assert isinstance(again, WorldState)
    rebuilt: list[Event] = opening(again)
    for text in record.actions:
        rebuilt += again.apply_with_events(again.parse_action(text))
    assert rebuilt == events
    assert again.outcome() == state.outcome()
