"""Limits' events and outcomes (``cards/events.py``), checked against a naive reading of the
seats' observations before and after each action, never against the events module itself.

What each check expects, from ``rules/cards.md``:

- a hidden card leaves the hider's hand and joins its hidden cards; the table is told only
  that a card was hidden;
- a drawn card is the card that appeared in the drawer's hand (hand after - hand before +
  the cards that left it: the played card, the four shown, and at the end of a round the
  hidden cards coming back); the table is told a colour only where the draw pile's top was
  public (``draw_pile_known``) or the pile went under it (the pile is public);
- a suspicion counts the suspect's last colour on the pile up to its last card and
  compares it with the limit card plus the revealed hidden cards of that colour;
- the score is points (+1 per exchange, +1 per suspicion won) minus 2 per limit card.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from limitgames.cards import CardsGame
from limitgames.cards.events import (
    Drew,
    Exchanged,
    Hid,
    LimitCardReturned,
    LimitCardTaken,
    Passed,
    Played,
    Revealed,
    RoundScored,
    RoundStarted,
    Suspected,
    opening,
)
from limitgames.cards.material import COLOURS
from limitgames.cards.notation import EXCHANGE, PASS, PLAY, SUSPECT
from limitgames.cards.rules import CardsState
from limitgames.core import GameRecord
from limitgames.core.events import Event, Termination, visible

GAME = CardsGame()
GAMES_PER_COUNT = 200


def _counts(cards: dict[str, int] | None) -> Counter[str]:
    return Counter({c: n for c, n in (cards or {}).items() if n})


def _play(players: int, seed: int) -> tuple[CardsState, list[Event]]:
    state = GAME.new_initial_state(seed=seed, players=players)
    assert isinstance(state, CardsState)
    rng = random.Random(seed)
    events = opening(state)
    while not state.is_terminal():
        events += state.apply_with_events(rng.choice(state.legal_actions()))
    return state, events


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_finished_game_has_an_outcome_that_agrees_with_returns(players: int) -> None:
    for seed in range(GAMES_PER_COUNT):
        state, events = _play(players, seed)
        outcome = state.outcome()
        assert outcome is not None and outcome.termination is Termination.LIMIT_CARDS_TAKEN
        returns = state.returns()
        assert list(outcome.returns) == returns
        best = max(returns)
        assert list(outcome.winners) == [s for s in range(players) if returns[s] == best]
        # the scores, re-added from the public events: +1 per exchange and per suspicion
        # won, -2 per limit card taken (rules/cards.md, "End")
        score = [0] * players
        for event in events:
            if isinstance(event, Exchanged):
                score[event.seat] += 1
            elif isinstance(event, RoundScored):
                score[event.scorer] += 1
            elif isinstance(event, LimitCardTaken):
                score[event.seat] -= 2
        assert outcome.scores == tuple(float(s) for s in score)
        assert len(outcome.details["rounds"]) == sum(
            isinstance(e, (RoundScored, LimitCardReturned)) for e in events
        )


def test_a_game_in_progress_has_no_outcome() -> None:
    state = GAME.new_initial_state(seed=1, players=3)
    assert state.outcome() is None


def _drawn_by_hand(
    before: dict[str, Any], after: dict[str, Any], action: int, actor: int, seat: int
) -> Counter[str]:
    """The cards ``seat`` drew during ``action``, from its own observations only."""
    gained = _counts(after["hand"])
    gained.subtract(_counts(before["hand"]))
    if seat == actor and PLAY <= action < EXCHANGE:
        gained[COLOURS[action - PLAY]] += 1
    if seat == actor and EXCHANGE <= action < SUSPECT:
        gained[COLOURS[action - EXCHANGE]] += 4
    if after["round"] != before["round"] or after["phase"] == "over":
        if after["phase"] != "over":  # the hidden cards came back before the refill
            gained.subtract(_counts(before["hidden"]))
        else:
            gained = Counter()  # no refill after the last round; hands are not compared
    return +gained


def _check_step(
    state: CardsState, action: int, events: list[Event], before: list[dict[str, Any]]
) -> None:
    actor = before[0]["to_move"]
    after = [state.observation(s) for s in range(state.n)]
    public_before = before[0]
    round_ended = after[0]["round"] != public_before["round"] or after[0]["phase"] == "over"
    for viewer in range(state.n):
        seen = visible(events, viewer)
        # nothing secret of another seat reaches this viewer
        for event in seen:
            if isinstance(event, Hid) and event.colour is not None:
                assert event.seat == viewer
            if isinstance(event, Drew) and event.audience is not None:
                assert event.seat == viewer
        # what this viewer drew is what appeared in its hand
        mine = Counter(
            c
            for e in seen
            if isinstance(e, Drew) and e.seat == viewer and e.audience is not None
            for c in e.cards
        )
        if after[viewer]["phase"] != "over":
            assert mine == _drawn_by_hand(before[viewer], after[viewer], action, actor, viewer)
        # the table's view of every draw: a colour only where this viewer could know it
        # (the draw pile's known top, then the pile, which goes under it at a round's end)
        public = [c for e in seen if isinstance(e, Drew) and e.audience is None for c in e.cards]
        known = list(before[viewer]["draw_pile_known"])
        if round_ended:
            known += [colour for _, colour in before[viewer]["pile"]]
        assert public == known[: len(public)]
    if action < PLAY:
        colour = COLOURS[action]
        private = [e for e in events if isinstance(e, Hid) and e.audience is not None]
        assert private == [Hid(actor, colour, audience=frozenset({actor}))]
        assert _counts(after[actor]["hidden"]) - _counts(before[actor]["hidden"]) == Counter(
            {colour: 1}
        )
        assert [e for e in visible(events, None)] == [Hid(actor, None)]
    elif action < EXCHANGE:
        assert events[0] == Played(actor, COLOURS[action - PLAY])
        assert after[0]["pile"][-1] == [actor, COLOURS[action - PLAY]]
    elif action < SUSPECT:
        assert events[0] == Exchanged(actor, COLOURS[action - EXCHANGE])
        assert after[0]["points"][actor] == public_before["points"][actor] + 1
    elif action < PASS:
        suspect = action - SUSPECT
        colour = public_before["last_played"][suspect]
        assert events[0] == Suspected(actor, suspect, colour)
        revealed = next(e for e in events if isinstance(e, Revealed))
        for s in range(state.n):
            assert Counter(revealed.hidden[s]) == _counts(before[s]["hidden"])
        scored = next(e for e in events if isinstance(e, RoundScored))
        pile = public_before["pile"]
        last = max(i for i, (s, _) in enumerate(pile) if s == suspect)
        counted = sum(1 for _, c in pile[: last + 1] if c == colour)
        value = public_before["limit_card"][colour]
        hidden = sum(_counts(before[s]["hidden"])[colour] for s in range(state.n))
        limit = None if value == "X" else value + hidden
        exceeded = limit is not None and counted > limit
        taker, scorer = (suspect, actor) if exceeded else (actor, suspect)
        assert (scored.counted, scored.limit, scored.exceeded) == (counted, limit, exceeded)
        assert (scored.taker, scored.scorer) == (taker, scorer)
        taken = [e for e in events if isinstance(e, LimitCardTaken)]
        assert [e.seat for e in taken] == [taker]
        assert taken[0].limit_card == public_before["limit_card_code"]
        assert after[0]["points"][scorer] == public_before["points"][scorer] + 1
        assert len(after[0]["limit_cards_taken"][taker]) == taken[0].count
    else:
        assert events[0] == Passed(actor)
    starts = [e for e in events if isinstance(e, RoundStarted)]
    if round_ended and after[0]["phase"] != "over":
        assert starts == [
            RoundStarted(after[0]["round"], after[0]["start_player"], after[0]["limit_card_code"])
        ]
    else:
        assert starts == []


def _long_rounds(rng: random.Random, actions: list[int]) -> int:
    """Mostly anything but a suspicion: rounds run until the draw pile is empty, so that
    the refill (several seats drawing, the pile under the draw pile) is played often."""
    calm = [a for a in actions if not SUSPECT <= a < PASS]
    return rng.choice(calm if calm and rng.random() < 0.97 else actions)


@pytest.mark.parametrize(
    "players", [2, 3, *(pytest.param(n, marks=pytest.mark.slow) for n in (4, 5, 6))]
)
def test_event_facts_agree_with_the_observations(players: int) -> None:
    for seed in range(12):
        state = GAME.new_initial_state(seed=1000 + seed, players=players)
        assert isinstance(state, CardsState)
        rng = random.Random(seed)
        while not state.is_terminal():
            before = [state.observation(s) for s in range(players)]
            legal = [a for a in state.legal_actions() if isinstance(a, int)]
            action = _long_rounds(rng, legal) if seed % 2 else rng.choice(legal)
            events = state.apply_with_events(action)
            assert isinstance(action, int)
            _check_step(state, action, events, before)


def test_apply_with_events_plays_the_same_game_as_apply() -> None:
    for seed in range(20):
        fast = GAME.new_initial_state(seed=seed, players=4)
        told = fast.clone()
        rng = random.Random(seed)
        while not fast.is_terminal():
            action = rng.choice(fast.legal_actions())
            fast.apply(action)
            told.apply_with_events(action)
            assert isinstance(fast, CardsState) and isinstance(told, CardsState)
            assert fast.key() == told.key()


def test_a_rule_breaking_action_tells_nothing_and_changes_nothing() -> None:
    state = GAME.new_initial_state(seed=3, players=3)
    assert isinstance(state, CardsState)
    key = state.key()
    from limitgames.core import IllegalActionError

    with pytest.raises(IllegalActionError):
        state.apply_with_events(PLAY)  # the hide step comes first
    with pytest.raises(IllegalActionError):
        state.apply_with_events("play red")  # type: ignore[arg-type]
    assert state.key() == key


def test_a_game_played_on_from_a_saved_record_is_recorded_and_replays(tmp_path: Path) -> None:
    # Limits has no position files: --position takes a game record saved earlier
    # (cli.session.load_start) and plays on from where it stopped.
    import typer

    from limitgames.cli import cards_play

    app = typer.Typer()
    app.command("cards")(cards_play.play_cards)
    app.command("other")(lambda: None)
    runner = CliRunner()
    seats = ["--seat", "random", "--seat", "random", "--seat", "random"]
    first = tmp_path / "first.json"
    result = runner.invoke(
        app, ["cards", "-n", "3", *seats, "--seed", "5", "--record", str(first), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(first.read_text())
    data["actions"] = data["actions"][:25]
    data["result"] = None
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(data))
    again = tmp_path / "again.json"
    result = runner.invoke(
        app, ["cards", "--position", str(partial), *seats, "--record", str(again), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    record = GameRecord.read(again)
    assert record.actions[:25] == data["actions"]
    final = record.replay()
    assert final.is_terminal() and record.result == final.returns()
    outcome = final.outcome()
    assert outcome is not None and list(outcome.returns) == record.result


def test_a_record_rebuilds_the_events_of_its_game() -> None:
    state, events = _play(4, 21)
    record = GameRecord.loads(GameRecord.of_state(state).dumps())
    again = next(position for position, _ in record.positions())
    assert isinstance(again, CardsState)
    rebuilt = opening(again)
    for text in record.actions:
        action = again.parse_action(text)
        assert isinstance(action, int)
        rebuilt += again.apply_with_events(action)
    assert rebuilt == events
    assert again.outcome() == state.outcome()
