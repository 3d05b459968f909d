"""hex events and outcomes (``HexState.apply_with_events``, ``HexState.outcome``) against a
naive reading of the table before and after each decision.

The naive reading compares what stands on the table (``HexState.tiles()``: which tile holds
whose pawn) before and after a decision, and the turn counter, and knows nothing of the
kernel: the pawns that vanished are exactly the ones the events say were captured or left
with an elimination; the tiles that left are the removed one and the ones it cut off; the
turns that ended are the ones the events say ended. Every finished game has an outcome
whose winners are the seats with the best return, and whose termination matches the
table (``docs/rules/hex.md``, End).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from limitgames.core import get_game
from limitgames.core.events import Event, Termination
from limitgames.hex.codec import Kind, kind_of
from limitgames.hex.events import (
    BallPlaced,
    Captured,
    Eliminated,
    Moved,
    MovementBegins,
    NoBall,
    PlacementPassed,
    QuietTurns,
    Removed,
    StepSkipped,
    TilePlaced,
    TurnPassed,
)
from limitgames.hex.state import HexState
from limitgames.hex.words import end_reason, event_sentences, result_for
from limitgames.translation import LANGUAGES, current_language
from tests.hex.positions import load

GAMES = 200
"""Seeded random games per edition and player count."""


def _pawns(state: HexState) -> dict[str, int]:
    """Tile name -> the seat whose pawn (ball) stands on it: the naive reading of the table."""
    return {state.cell_name(c): owner for c, _, owner in state.tiles() if owner is not None}


def _tile_names(state: HexState) -> set[str]:
    return {state.cell_name(c) for c, _, _ in state.tiles()}


def check_decision(before: HexState, action: int, events: list[Event], after: HexState) -> None:
    """The events of ``action`` (played in ``before``, giving ``after``) agree with the naive
    reading of the two tables."""
    seat = before.current_player()
    text = before.action_to_string(action)
    kind = kind_of(action)
    assert all(e.audience is None for e in events), "hex has no secrets"
    first = events[0]
    if kind == Kind.MOVE:
        assert first == Moved(seat, *text.split("-"))
    elif kind == Kind.REMOVE:
        assert isinstance(first, Removed) and (first.seat, first.tile) == (seat, text[2:])
        gone = _tile_names(before) - _tile_names(after)
        assert gone == {first.tile, *first.cut_off}
    elif kind == Kind.TILE:
        assert first == TilePlaced(seat, text[1:])
    else:
        assert first == BallPlaced(seat, text[1:])
    # pawns: the moved one goes with its move; every other vanished pawn was captured or
    # left with its owner's elimination, and nothing else vanished
    was = _pawns(before)
    if isinstance(first, Moved):
        was[first.end] = was.pop(first.start)
    now = _pawns(after)
    vanished = {tile: owner for tile, owner in was.items() if tile not in now}
    told: dict[str, int] = {}
    for event in events:
        if isinstance(event, Captured):
            assert event.seat == seat and event.tiles
            for tile in event.tiles:
                assert was[tile] == event.owner, "Captured names the owner of each pawn"
                told[tile] = event.owner
        elif isinstance(event, Eliminated) and event.cause == "blocked":
            assert before.edition == "2008"
            # its balls still on the table after this decision's captures (told before)
            theirs = {t: o for t, o in was.items() if o == event.seat and t not in told}
            assert event.pieces == len(theirs) > 0
            told |= theirs
    assert told == vanished
    assert sum(len(e.tiles) for e in events if isinstance(e, Captured)) == len(vanished) - sum(
        e.pieces for e in events if isinstance(e, Eliminated)
    )
    # players left without pieces by this decision's captures
    counts_after = after.pawn_counts()
    out = {e.seat for e in events if isinstance(e, Eliminated) and e.cause == "no_pieces"}
    captured = {tile for e in events if isinstance(e, Captured) for tile in e.tiles}
    emptied = {o for o in set(was.values()) if all(t in captured for t, w in was.items() if w == o)}
    assert out == emptied, "every seat whose last pawns were captured is told out, and no other"
    # turns: each turn that ended is told (a removal, a skipped removal, a passed turn, a 2008
    # elimination at the start of a turn)
    if not after.is_terminal():
        ended = sum(
            1
            for e in events
            if isinstance(e, (Removed, TurnPassed))
            or (isinstance(e, StepSkipped) and e.step == "remove")
            or (isinstance(e, Eliminated) and e.cause == "blocked")
        )
        assert after.turn - before.turn == ended
        move_skipped = after.step == "remove" and not (
            kind == Kind.MOVE and after.current_player() == seat and after.turn == before.turn
        )
        assert (StepSkipped(after.current_player(), "move") in events) == move_skipped
        if after.placement is None and before.edition == "nestorgames":
            quiet = [e for e in events if isinstance(e, QuietTurns)]
            assert len(quiet) == (1 if after.quiet_turns > 0 and ended else 0)
            if quiet:
                holding = sum(1 for c in counts_after if c)
                assert quiet[0] == QuietTurns(after.quiet_turns, holding)
    if isinstance(first, (TilePlaced, BallPlaced)):
        began = [e for e in events if isinstance(e, MovementBegins)]
        assert bool(began) == (after.placement is None)
    else:
        assert not any(
            isinstance(e, (TilePlaced, BallPlaced, NoBall, PlacementPassed, MovementBegins))
            for e in events[1:]
        )


def check_outcome(state: HexState) -> Termination:
    """The finished ``state``'s outcome agrees with its returns and its table."""
    outcome = state.outcome()
    assert outcome is not None
    returns = state.returns()
    assert outcome.returns == tuple(returns)
    best = max(returns)
    assert set(outcome.winners) == {s for s, r in enumerate(returns) if r == best}
    counts = state.pawn_counts()
    holding = [s for s, c in enumerate(counts) if c]
    termination = outcome.termination
    if termination is Termination.LAST_WITH_PAWNS:
        assert holding == list(outcome.winners) and returns[holding[0]] == 1.0
    elif termination in (Termination.TABLE_EMPTIED, Termination.ELIMINATED_TOGETHER):
        assert not holding
        assert (termination is Termination.ELIMINATED_TOGETHER) == (state.edition == "2008")
    else:
        assert termination is Termination.STALEMATE and state.edition == "nestorgames"
        assert 1.0 not in returns and list(outcome.winners) == holding
        assert outcome.details["quiet_turns"] == state.quiet_turns == len(holding)
    return termination


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["nestorgames", "2008"])
@pytest.mark.parametrize("players", [2, 3])
def test_random_games_tell_every_decision_and_end_with_an_outcome(
    edition: str, players: int
) -> None:
    game = get_game("hex")
    endings: Counter[Termination] = Counter()
    kinds: Counter[str] = Counter()
    for seed in range(GAMES):
        rng = random.Random(seed)
        size = rng.choice([2, 3, 4, 6, 8]) if edition == "2008" else rng.choice([3, 4, 6, 8])
        state = game.new_initial_state(seed=seed, edition=edition, players=players, size=size)
        assert isinstance(state, HexState)
        while not state.is_terminal():
            assert state.outcome() is None
            before = state.clone()
            action = rng.choice(state.legal_actions())
            events = state.apply_with_events(action)
            plain = before.clone()
            plain.apply(action)
            assert state.key() == plain.key() and state.history() == plain.history()
            assert state.current_player() == plain.current_player()
            check_decision(before, action, events, state)
            kinds.update(e.kind for e in events)
        endings[check_outcome(state)] += 1
    # the games reach the endings and the events these editions make (else the test is weak)
    assert endings[Termination.LAST_WITH_PAWNS] > 0
    assert kinds["Captured"] > 0 and kinds["Eliminated"] > 0
    if edition == "2008":
        assert kinds["MovementBegins"] == GAMES


def test_the_fast_playout_then_events_to_the_end() -> None:
    # a game played by the kernel's playout most of the way, then told decision by decision
    game = get_game("hex")
    for seed in range(20):
        state = game.new_initial_state(seed=seed, size=8, players=3)
        assert isinstance(state, HexState)
        rng = random.Random(seed)
        state.playout(rng, max_decisions=30)
        while not state.is_terminal():
            before = state.clone()
            action = rng.choice(state.legal_actions())
            check_decision(before, action, state.apply_with_events(action), state)
        check_outcome(state)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    from limitgames.core import IllegalActionError

    state = load({(0, 0): 0, (1, 0): None, (2, 0): 1, (3, 0): None})
    key = state.key()
    with pytest.raises(IllegalActionError):
        state.apply_with_events(state.parse_action("c1-d1"))  # blue's pawn, red to move
    assert state.key() == key and state.history() == []


def test_a_capture_and_the_outcome_by_hand() -> None:
    # a1 . | b1 R | c1 . | d1 B | e1 B: red b1-c1 leaves blue's group d1-e1 with no empty
    # neighbour (c1 red, f1 none): both captured, blue is out, red alone holds pawns and wins
    state = load({(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): 1, (4, 0): 1})
    events = state.apply_with_events(state.parse_action("b1-c1"))
    assert events == [
        Moved(0, "b1", "c1"),
        Captured(0, 1, ("d1", "e1")),
        Eliminated(1, "no_pieces"),
    ]
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winners, outcome.returns) == (
        Termination.LAST_WITH_PAWNS,
        (0,),
        (1.0, -1.0),
    )
    assert event_sentences(events, ["Red", "Blue"]) == [
        "Red moved from b1 to c1.",
        "Red captured 2 of Blue's pawns on d1 and e1.",
        "Blue has no pawns left and is out.",
    ]
    # the same told to the person playing blue, and to the one playing red
    assert event_sentences(events, ["red", "You"], you=1)[1:] == [
        "Red captured 2 of your pawns on d1 and e1.",
        "You have no pawns left and are out.",
    ]
    assert event_sentences(events, ["You", "blue"], you=0)[:2] == [
        "You moved from b1 to c1.",
        "You captured 2 of blue's pawns on d1 and e1.",
    ]
    assert end_reason(outcome, ["Red", "Blue"]) == (
        "Red is the only player with pawns left and wins."
    )
    assert end_reason(outcome, ["You", "blue"], you=0) == (
        "You are the only player with pawns left and win."
    )
    assert result_for(outcome, ["Red", "Blue"]) == "Red wins."
    assert result_for(outcome, ["Red", "You"], 1, you=1) == "You lost."


def test_the_stalemate_outcome_by_hand() -> None:
    # a1 R | b1 . | c1 B | d1 ., turn 1, one quiet turn already: red's only move a1-b1 allows
    # no removal (x a1 self-captures b1, x d1 captures blue c1: the equaliser forbids both),
    # so the turn ends without a removal: 2 quiet turns, as many as the players with pawns
    state = load({(0, 0): 0, (1, 0): None, (2, 0): 1, (3, 0): None}, turn=1, quiet=1)
    events = state.apply_with_events(state.parse_action("a1-b1"))
    assert events == [Moved(0, "a1", "b1"), StepSkipped(0, "remove")]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.STALEMATE and outcome.winners == (0, 1)
    assert outcome.is_draw and outcome.details["quiet_turns"] == 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_event_and_ending_has_words_in_every_language(language: str) -> None:
    # every kind of event and every ending, told in each language: whole sentences with
    # every placeholder filled
    events: list[Event] = [
        Moved(0, "a1", "b1"),
        Removed(1, "c2", ("d2",)),
        Captured(0, 1, ("e1",)),
        Captured(0, 1, ("e1", "e2")),
        Captured(0, 0, ("a1",)),
        Eliminated(1, "no_pieces"),
        Eliminated(2, "blocked", 3),
        StepSkipped(0, "remove"),
        StepSkipped(1, "move"),
        TurnPassed(2),
        QuietTurns(2, 3),
        TilePlaced(0, "d4"),
        BallPlaced(0, "d4"),
        NoBall(1),
        PlacementPassed(2),
        MovementBegins(0),
    ]
    from limitgames.core.events import Outcome

    endings = [
        Outcome(Termination.LAST_WITH_PAWNS, (1.0, -1.0, -1.0), (0,)),
        Outcome(Termination.TABLE_EMPTIED, (-1.0, -1.0), (), by=0),
        Outcome(Termination.TABLE_EMPTIED, (-1.0, 1.0, -1.0), (1,), by=0),
        Outcome(Termination.TABLE_EMPTIED, (0.0, 0.0, 0.0), (0, 1, 2), by=0),
        Outcome(Termination.STALEMATE, (0.0, 0.0, -1.0), (0, 1), details={"quiet_turns": 2}),
        Outcome(Termination.ELIMINATED_TOGETHER, (0.0, 0.0, -1.0), (0, 1)),
        Outcome.at_table(Termination.RESIGNATION, (-1.0, 1.0, 1.0), by=0),
        Outcome.at_table(Termination.AGREED_DRAW, (0.0, 0.0, 0.0)),
        Outcome.at_table(Termination.TIME_FORFEIT, (1.0, -1.0, 1.0), by=1),
        Outcome.at_table(Termination.ABANDONMENT, (1.0, 1.0, -1.0), by=2),
    ]
    token = current_language.set(language)
    try:
        for edition in ("nestorgames", "2008"):
            for you in (None, 0, 1, 2):
                said = event_sentences(events, ["red", "blue", "yellow"], edition=edition, you=you)
                assert len(said) == len(events) + 1  # the removal's cut-off tile
                reasons = [
                    end_reason(o, ["red", "blue", "yellow"], edition=edition, you=you)
                    for o in endings
                ]
                for sentence in said + reasons:
                    assert sentence and "%(" not in sentence and "%d" not in sentence
    finally:
        current_language.reset(token)


def test_a_record_keeps_the_outcome_and_replay_checks_it() -> None:
    from limitgames.core import GameRecord, RecordError

    state = get_game("hex").new_initial_state(seed=5, size=3)
    state.playout(random.Random(5))
    record = GameRecord.of_state(state, seed=5)
    outcome = state.outcome()
    assert outcome is not None and record.outcome == outcome.to_json()
    again = GameRecord.from_json(record.to_json())
    assert again.outcome == record.outcome
    assert again.replay().key() == state.key()
    # a record that claims another ending is refused, naming the field
    wrong = dict(record.outcome)
    wrong["termination"] = (
        "stalemate" if outcome.termination.value != "stalemate" else "table_emptied"
    )
    tampered = GameRecord.from_json({**record.to_json(), "outcome": wrong})
    with pytest.raises(RecordError, match="outcome"):
        tampered.replay()
    with pytest.raises(RecordError, match="outcome"):
        GameRecord.from_json({**record.to_json(), "outcome": {"termination": "checkmate"}})
    # a record cut short (no result: an unfinished game, to play on from) replays to where
    # it stops, whatever outcome it still carries
    cut = GameRecord.from_json(
        {**tampered.to_json(), "actions": record.actions[:3], "result": None}
    )
    assert not cut.replay().is_terminal()


def _targets_read_from_notation(state: HexState) -> dict[str, dict[str, Any]]:
    """The naive reading: each legal action's notation split by hand (``c4-e5``, ``x d4``,
    ``+d4``, ``@d4``)."""
    moves: dict[str, dict[str, str]] = {}
    removals: dict[str, str] = {}
    placements: dict[str, str] = {}
    for action in state.legal_actions():
        text = state.action_to_string(action)
        if "-" in text:
            start, end = text.split("-")
            moves.setdefault(start, {})[end] = text
        elif text.startswith("x "):
            removals[text[2:]] = text
        else:
            placements[text[1:]] = text
    return {"moves": moves, "removals": removals, "placements": placements}


def test_the_action_targets_are_the_legal_actions() -> None:
    # every step of a few games of both editions: the targets an interface clicks are exactly
    # the legal actions, read from their notation by hand
    game = get_game("hex")
    steps: set[str] = set()
    for edition, players, size in (("nestorgames", 3, 4), ("2008", 2, 3), ("2008", 3, 2)):
        for seed in range(3):
            state = game.new_initial_state(seed=seed, edition=edition, players=players, size=size)
            assert isinstance(state, HexState)
            rng = random.Random(seed)
            while not state.is_terminal():
                assert state.action_targets() == _targets_read_from_notation(state)
                steps.add(state.step)
                state.apply(rng.choice(state.legal_actions()))
            assert state.action_targets() == {"moves": {}, "removals": {}, "placements": {}}
    assert {"move", "remove", "tile", "second-tile", "ball"} <= steps


def test_last_move_and_removal_against_the_notation() -> None:
    """Against a naive reading of the history in notation (``c2-d3`` a move, ``x b6`` a
    removal; ``rules/hex.md``, "Notation"): read back from the latest action, the first move
    and the first removal met before anything else, at every point of seeded games."""
    import random

    from limitgames.core import get_game
    from limitgames.hex.events import last_move_and_removal
    from limitgames.hex.state import HexState

    for seed in range(3):
        state = get_game("hex").new_initial_state(seed=seed)
        assert isinstance(state, HexState)
        rng = random.Random(seed)
        said: list[str] = []
        while not state.is_terminal():
            moved, removed = last_move_and_removal(state.history())
            surface = state.surface
            assert surface is not None
            name = state.cell_name
            got = (
                None if moved is None else "-".join(name(surface.cells[t]) for t in moved),
                None if removed is None else "x " + name(surface.cells[removed]),
            )
            want: list[str | None] = [None, None]
            for text in reversed(said):
                if text.startswith("x ") and want[1] is None:
                    want[1] = text
                elif "-" in text and want[0] is None:
                    want[0] = text
                if all(want):
                    break
            assert got == tuple(want), (said[-3:], got)
            action = rng.choice(state.legal_actions())
            said.append(state.action_to_string(action))
            state.apply(action)
