"""A world record keeps the final results, and replay checks them (not only the winner).

The record's ``outcome`` holds every nation's score and scorecard (rulebook p23, "About the
score"), the generation and the crisis tiles. An edited data override that changes the
scores but keeps the winner must not replay as verified: the error names the file line of
the first value that differs.
"""

from __future__ import annotations

import json

import pytest

from limitgames.agents import make_agent
from limitgames.core import GameRecord, RecordError, get_game

OVERRIDES = '{"scoring": {"territory": 1}}'


@pytest.fixture(scope="module")
def record_text() -> str:
    """A finished 2-nation game of the heuristic nations, territory worth 1 point a level."""
    state = get_game("world").new_initial_state(seed=3, players=2, overrides=OVERRIDES)
    agent = make_agent("heuristic", seed=1)
    while not state.is_terminal():
        state.apply(agent.choose(state))
    return GameRecord.of_state(state).dumps()


def _line_of(text: str, needle: str, after: str) -> int:
    """The 1-based line of the first ``needle`` after the first ``after`` (a plain search)."""
    start = text.index(after)
    return text.count("\n", 0, text.index(needle, start)) + 1


def test_the_record_keeps_every_scorecard(record_text: str) -> None:
    record = GameRecord.loads(record_text)
    state = record.replay()
    assert record.outcome is not None
    cards = record.outcome["details"]["scorecards"]
    assert [c["total"] for c in cards] == list(state.scores)  # type: ignore[attr-defined]
    assert record.outcome["scores"] == [float(s) for s in state.scores]  # type: ignore[attr-defined]
    for card in cards:  # the total is the sum of the scorecard's parts (rulebook p23)
        parts = ("happiness", "financial", "territory", "military", "impact")
        assert card["total"] == sum(card[p] for p in parts)


def test_an_edited_override_that_keeps_the_winner_fails_naming_the_line(
    record_text: str,
) -> None:
    edited = record_text.replace('\\"territory\\":1', '\\"territory\\":2')
    assert edited != record_text
    record = GameRecord.loads(edited)
    assert record.outcome is not None
    territory = [c["territory"] for c in record.outcome["details"]["scorecards"]]
    assert all(t > 0 for t in territory)  # so territory worth 2 changes every score
    replayed = record.replay(verify_result=False)
    outcome = replayed.outcome()
    assert outcome is not None and list(outcome.winners) == record.outcome["winners"]
    assert record.result == replayed.returns()  # the result alone does not tell the edit
    with pytest.raises(RecordError) as error:
        record.replay()
    line = _line_of(edited, "\n", '"scores": [')  # the first score sits on the next line
    assert error.value.where == f"field 'outcome', line {line + 1}"
    assert "scores[0]" in error.value.reason


def test_an_edited_scorecard_fails_naming_its_line(record_text: str) -> None:
    data = json.loads(record_text)
    data["outcome"]["details"]["scorecards"][1]["happiness"] += 1
    text = GameRecord.from_json(data).dumps()
    record = GameRecord.loads(text)
    with pytest.raises(RecordError, match=r"details\.scorecards\[1\]\.happiness") as error:
        record.replay()
    second = text.index("{", text.index("{", text.index('"scorecards"')) + 1)
    line = _line_of(text, '"happiness"', text[second : second + 40])
    assert error.value.where == f"field 'outcome', line {line}"


def test_a_record_that_states_fewer_results_still_replays(record_text: str) -> None:
    """A record written before the scorecards were kept states fewer facts: what it does
    state is checked, what it does not is not required."""
    data = json.loads(record_text)
    del data["outcome"]["details"]["scorecards"]
    del data["outcome"]["scores"]
    GameRecord.from_json(data).replay()
    data["outcome"]["details"]["generation"] = 6
    with pytest.raises(RecordError, match=r"details\.generation"):
        GameRecord.from_json(data).replay()


def test_the_unedited_record_replays(record_text: str) -> None:
    assert GameRecord.loads(record_text).replay().is_terminal()
