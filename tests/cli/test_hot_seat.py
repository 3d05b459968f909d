"""Two people at one screen (hot seat), played through a pseudo-terminal.

What the next person sees before pressing Enter is the part of the output
between the last clearing of the screen (``ESC [2J``) and the hand-over
prompt. The previous person's hand at that moment is taken from the saved
record, replayed here (the state after the decisions typed so far), and
must not be on that screen; the next person's own hand must be on the
screen drawn after Enter (so the check can see a hand when one is shown).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from limitgames.cli import cards_view
from limitgames.core import GameRecord, State
from tests.cli.pty_terminal import Terminal, plain

CLEAR = "\x1b[2J"
HAND_OVER = r"Pass the screen to (\w+)(?: \(\w+\))? and press Enter"


def _replayed(record: GameRecord, decisions: int) -> State:
    """The record's game after its first ``decisions`` actions (replayed, not the words)."""
    from dataclasses import replace

    return replace(record, actions=record.actions[:decisions], result=None).replay()


def _screen_before(raw: str, end: int) -> str:
    """What was on the screen at ``end`` of ``raw``: everything after the last clear."""
    start = raw.rfind(CLEAR, 0, end)
    assert start >= 0, "the screen was not cleared before the hand-over"
    return plain(raw[start:end])


def _cards_hand_text(counts: dict[str, int]) -> str:
    """A cards hand as the terminal draws it (the labels, without colours)."""
    return cards_view.cards_line(counts).plain.strip()


def _play_hot_seat(
    term: Terminal,
    prompt: str,
    choose: str,
    max_hand_overs: int | None = None,
) -> list[tuple[int, int, int]]:
    """Answer every prompt with ``choose`` (``"1"``: the first of the list; ``"last"``: the
    last legal action) and every hand-over with Enter, until the game ends (or quit after
    ``max_hand_overs``). Returns, per hand-over, (decisions typed before it, where its prompt
    ends in ``term.raw``, where the next person's first prompt ends in ``term.raw``)."""
    decisions = 0
    hand_overs: list[tuple[int, int, int]] = []
    pending: tuple[int, int] | None = None
    while True:
        which, _ = term.expect_any([HAND_OVER, prompt, r"Record saved to"], timeout=90)
        if which == 2:
            return hand_overs
        if which == 0:
            if max_hand_overs is not None and len(hand_overs) >= max_hand_overs:
                term.send("")
                term.expect(prompt)
                term.send("quit")
                term.expect(r"Record saved to")
                return hand_overs
            pending = (decisions, len(term.raw))
            term.send("")
            continue
        if pending is not None:
            hand_overs.append((pending[0], pending[1], len(term.raw)))
            pending = None
        if choose == "1":
            term.send("1")
        else:
            term.send("moves")
            listing = term.expect(r"\n(?:\d+ legal: |Quantities: [^\n]*\nExamples: )([^\n]*)\n")
            term.expect(prompt)
            legal = [a.strip() for a in re.split(r"\s{2,}", listing.group(1)) if a.strip()]
            term.send(legal[-1])
        decisions += 1


@pytest.mark.slow
def test_cards_hot_seat_hands_over_without_the_last_hand_and_ends_with_the_seed(
    tmp_path: Path,
) -> None:
    record_path = tmp_path / "cards.json"
    seed = 11
    term = Terminal(
        [
            *(
                "play",
                "cards",
                "-n",
                "2",
                "--seed",
                str(seed),
                "-s",
                "human:Ann",
                "-s",
                "human:Bob",
            ),
            *("--record", str(record_path)),
        ],
        tmp_path,
    )
    try:
        hand_overs = _play_hot_seat(term, r"(?:Ann|Bob), your move: ", "1")
        assert term.wait() == 0
    finally:
        term.close()
    raw, out = term.raw, term.text
    record = GameRecord.read(record_path)
    assert record.replay().is_terminal()
    assert len(hand_overs) > 5
    for decisions, prompt_at, next_at in hand_overs:
        state = _replayed(record, decisions)
        previous = 1 - state.current_player()  # two people: the one before is the other
        screen = _screen_before(raw, prompt_at)
        obs = state.observation(previous)
        assert "Your hand" not in screen and "hidden card" not in screen, screen
        for cards in (obs["hand"], obs["hidden"]):
            drawn = _cards_hand_text(cards)
            if sum(cards.values()) > 1:  # one colour alone may be told of a public card
                assert drawn not in screen, (drawn, screen)
        # the next person's own view, drawn after Enter, shows their hand (the check can see one)
        mine = state.observation(state.current_player())
        after = _screen_before(raw, next_at)
        assert re.search(r"Your hand:\s+" + re.escape(_cards_hand_text(mine["hand"])), after), after
    opening = out[: out.index("Pass the screen")]
    assert str(seed) not in re.sub(r"SHA-256 [0-9a-f]{64}", "", opening)
    commitment = hashlib.sha256(str(seed).encode()).hexdigest()
    assert f"SHA-256 {commitment}" in opening
    end = out[out.rindex("Limits: game over") :]
    assert re.search(r"The last limit card has been taken\.|rounds? (are|is) over", end), end
    assert re.search(r"(Ann|Bob) wins with [+-]?\d+|share the win", end), end
    assert "Rounds" in end and "Scores" in end
    final = record.replay().observation(None)["scores"]
    for name, score in zip(("Ann", "Bob"), final, strict=True):
        assert re.search(rf"\n{name}\s+-?\d+\s+\d+\s+{score}\s*\n", end), (name, score, end)
    assert f"Seed: {seed} (SHA-256 {commitment}" in end


@pytest.mark.slow
def test_world_hot_seat_hands_over_without_the_last_hand(tmp_path: Path) -> None:
    record_path = tmp_path / "world.json"
    seed = 3
    term = Terminal(
        [
            *(
                "play",
                "world",
                "-n",
                "2",
                "--seed",
                str(seed),
                "-s",
                "human:Ann",
                "-s",
                "human:Bob",
            ),
            *("--no-confirm", "--record", str(record_path)),
        ],
        tmp_path,
        columns=120,
        rows=60,
    )
    try:
        hand_overs = _play_hot_seat(
            term, r"(?:Ann|Bob) \(\w+\), your move: ", "last", max_hand_overs=8
        )
        assert term.wait() == 0
    finally:
        term.close()
    raw, out = term.raw, term.text
    record = GameRecord.read(record_path)
    assert len(hand_overs) >= 4
    for decisions, prompt_at, next_at in hand_overs:
        state = _replayed(record, decisions)
        last_seat = _replayed(record, decisions - 1).current_player()
        screen = _screen_before(raw, prompt_at)
        hand = state.observation(last_seat)["hand"]
        assert "Your hand" not in screen, screen
        for card in hand:
            assert card not in screen, (card, screen)
        mine = state.observation(state.current_player())["hand"]
        after = _screen_before(raw, next_at)
        assert all(card in after for card in mine), (mine, after)
    opening = out[: out.index("Pass the screen")]
    assert str(seed) not in re.sub(r"SHA-256 [0-9a-f]{64}", "", opening)
    assert "nations." in opening and "1 nations" not in opening


def test_world_end_screen_names_the_winner_the_reason_the_scores_and_the_seed(
    tmp_path: Path,
) -> None:
    from typer.testing import CliRunner

    from limitgames.cli.app import build_app

    record_path = tmp_path / "world.json"
    result = CliRunner().invoke(
        build_app(),
        [
            *("play", "world", "-n", "2", "-s", "random", "-s", "random", "--seed", "5", "-q"),
            *("--record", str(record_path)),
        ],
        env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output
    out = result.output
    record = GameRecord.read(record_path)
    outcome = record.replay().outcome()
    assert outcome is not None
    from limitgames.world.words import outcome_sentence

    assert " ".join(outcome_sentence(outcome).split()) in " ".join(out.split())
    assert "Scores" in out
    assert "Seed: 5 (SHA-256 " in out
    assert f"limit debrief {record_path}" in " ".join(out.split())
    assert "1 nations" not in out and "seed 5" not in out.split("Seed: 5")[0]
