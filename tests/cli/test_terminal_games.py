"""Whole games of the three games played through a pseudo-terminal, as a person would.

Each test types at the prompt what a person would (``moves``, then one of
them), plays to the end against a computer, and checks what the terminal
said against the saved record, replayed here independently of the words:
the pawns that left the table after each decision, the end of the game, the
names, the cells named and marked.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from limitgames.cli.app import build_app
from limitgames.core import GameRecord
from limitgames.hex.state import HexState
from tests.cli.pty_terminal import Terminal

PROMPT = r"(?:Your move|\w+, your move): "
END = r"Record saved to"


def play_through(term: Terminal, choose: Callable[[list[str], int], str]) -> int:
    """Answer every prompt with ``choose(legal actions, decision number)``; return the count."""
    decisions = 0
    while True:
        which, _ = term.expect_any([PROMPT, END])
        if which == 1:
            return decisions
        term.send("moves")
        # "N legal: a  b", or for quantities "Quantities: ... (N 0-11)" then "Examples: a  b"
        listing = term.expect(
            r"\n(?:(\d+) legal: |Quantities: [^\n]*\nExamples: )?((?:\d+\) )?[^\n]*)\n"
        ).group(2)
        term.expect(PROMPT)  # asked again after the listing
        legal = [a.strip() for a in re.split(r"\s{2,}", listing) if a.strip()]
        legal = [re.sub(r"^\d+\) ", "", a) for a in legal]
        term.send(choose(legal, decisions))
        decisions += 1


def pawns(state: HexState) -> dict[tuple[int, int], int]:
    return {cell: owner for cell, _, owner in state.tiles() if owner is not None}


def expected_captures(record: GameRecord, names: list[str]) -> list[tuple[str, list[str]]]:
    """(whose pawns, their cells) for every decision that took pawns off the table: the pawns
    on the table before (the moving one at its destination) that are gone after."""
    from limitgames.hex.codec import Kind, kind_of, move_tiles

    out = []
    state = _start(record)
    for text in record.actions:
        action = state.parse_action(text)
        before = pawns(state)
        if kind_of(action) == Kind.MOVE:
            assert state.surface is not None
            fr, to = move_tiles(action)
            before[state.surface.cells[to]] = before.pop(state.surface.cells[fr])
        frame = state.frame
        state.apply(action)
        after = pawns(state)
        gone: dict[int, list[str]] = {}
        for cell, owner in before.items():
            if cell not in after:
                gone.setdefault(owner, []).append(frame.name(cell))
        for owner in sorted(gone):
            out.append((names[owner], sorted(gone[owner])))
    return out


def _start(record: GameRecord) -> HexState:
    """The record's first position (the record with no action replayed)."""
    state = dataclasses.replace(record, actions=[], result=None, outcome=None).replay()
    assert isinstance(state, HexState)
    return state


def announced_captures(text: str) -> list[tuple[str, list[str]]]:
    out = []
    for line in text.splitlines():
        m = re.match(
            r"(?:You|Red|Blue|Yellow) captured (?:\d+ of )?(your|\w+'s) pawns? on (.+)\.$", line
        )
        if m:
            whose = "You" if m.group(1) == "your" else m.group(1)[:-2]
            out.append((whose, sorted(re.split(r", | and ", m.group(2)))))
        m = re.match(r"(You|Red|Blue|Yellow) lost \d+ own pawns? on (.+?): self-capture", line)
        if m:
            whose = "You" if m.group(1) == "You" else m.group(1).lower()
            out.append((whose, sorted(re.split(r", | and ", m.group(2)))))
    return out


def test_a_whole_hex_game_tells_every_capture_and_the_end(tmp_path: Path) -> None:
    record_path = tmp_path / "hex.json"
    term = Terminal(
        [
            *["play", "hex", "--size", "3", "--seed", "3", "-s", "human", "-s", "random"],
            *["--record", str(record_path)],
        ],
        tmp_path,
    )
    try:
        decisions = play_through(term, lambda legal, k: legal[k % len(legal)])
        assert term.wait() == 0
    finally:
        term.close()
    out = term.text
    assert decisions >= 4
    record = GameRecord.read(record_path)
    final = record.replay()
    assert isinstance(final, HexState) and final.is_terminal()
    names = final.seat_names()
    names[0] = "You"
    expected = expected_captures(record, names)
    assert expected, "this seed's game has captures (else the test proves nothing)"
    assert announced_captures(out) == expected
    counts, returns = final.pawn_counts(), final.returns()
    if sum(1 for c in counts if c) == 1:
        winner = names[next(seat for seat, c in enumerate(counts) if c)]
        said = re.search(r"Game over: (\w+) (is|are) the only player with pawns left", out)
        assert said and said.group(1).lower() == winner.lower()
    else:
        assert re.search(r"Game over: \d+ turns in a row without a removal", out)
    verdict = {1.0: "You won.", -1.0: "You lost.", 0.0: "Draw: You shared"}[returns[0]]
    assert verdict in out
    assert "seat 0" not in out and "returns" not in out


def test_the_2008_edition_names_cells_from_the_top_left_and_marks_the_tile_sites(
    tmp_path: Path,
) -> None:
    record_path = tmp_path / "hex2008.json"
    term = Terminal(
        [
            *["play", "hex", "--edition", "2008", "--size", "3", "--seed", "2", "-s", "human"],
            *["--record", str(record_path)],
        ],
        tmp_path,
    )
    sites_checked = 0

    def choose(legal: list[str], k: int) -> str:
        nonlocal sites_checked
        if legal[0].startswith("+"):
            # the drawing just before the prompt marks exactly the cells the listing allows
            board = term.text[: term.position]
            status = board.rfind("You are to place")
            start = max(board.rfind("move: ", 0, status), board.rfind("x d4.", 0, status))
            drawing = board[board.find("\n", start) : status]
            marked = set(re.findall(r"\+([a-z]\d+)", drawing))
            assert marked == {a[1:] for a in legal}
            sites_checked += 1
        return legal[k % len(legal)]

    try:
        play_through(term, choose)
        assert term.wait() == 0
    finally:
        term.close()
    assert sites_checked >= 4
    out = term.text
    table = out.split("Seats:", 1)[1].split("Record saved to", 1)[0]  # (not the file's path)
    assert not re.search(r"\b[a-z]{2}\d+\b", table), "names like ag33"
    assert "The placement is over: " in out
    assert "Cells are now named from the top-left of the laid surface." in out
    assert re.search(r"Game over: .*(last player left|eliminated together)", out)
    assert re.search(r"You (won|lost)\.|Draw: You shared", out)
    assert GameRecord.read(record_path).replay().is_terminal()


def test_a_whole_cards_game_uses_the_name_given_and_undoes_only_what_hides_nothing(
    tmp_path: Path,
) -> None:
    record_path = tmp_path / "cards.json"
    term = Terminal(
        [
            "play",
            "cards",
            "-n",
            "2",
            "--seed",
            "4",
            "-s",
            "human:Ann",
            "--pause",
            "0",
            "--record",
            str(record_path),
        ],
        tmp_path,
    )
    undo = {"allowed": False, "refused": False}

    def choose(legal: list[str], k: int) -> str:
        if legal[0].startswith("hide") and not undo["allowed"]:
            term.send(legal[0])
            term.expect(r"Ann hides a \w+ card")
            term.expect(PROMPT)  # the second hide of a 2-player game, or the next decision
            term.send("undo")
            term.expect(r"Took back your last decision")
            undo["allowed"] = True
            term.expect(PROMPT)  # the same decision again: ``legal`` still holds
        if legal[0].startswith("play") and not undo["refused"] and undo["allowed"]:
            term.send(legal[0])
            term.expect(r"Ann plays an? \w+ card; Ann draws an? \w+ card")
            term.expect(PROMPT)
            term.send("undo")
            term.expect(r"Cannot undo: you have seen the card you drew")
            undo["refused"] = True
            term.expect(PROMPT)
            return "1"  # the first action of the list shown
        return legal[0]

    try:
        play_through(term, choose)
        assert term.wait() == 0
    finally:
        term.close()
    out = term.text
    assert undo == {"allowed": True, "refused": True}
    assert "seat 0" not in out and "You starts" not in out and "Andreas" not in out
    assert re.search(r"Round 1: limit card .* (Ann|Barbara) starts\.", out)
    assert re.search(r"\w+ suspects \w+\s+Hidden cards: .*\s+Counted up to the last card of", out)
    assert re.search(r"Ann, you (won|lost|shared the win)\.", out)
    record = GameRecord.read(record_path)
    assert record.seats[0] == "human:Ann" and record.meta["names"][0] == "Ann"
    assert record.replay().is_terminal()
    replay = CliRunner().invoke(build_app(), ["replay", str(record_path)], env={"COLUMNS": "200"})
    assert replay.exit_code == 0 and "Ann" in replay.output and "Andreas" not in replay.output
    assert not re.search(r"\(\w?[0-9X]{5}\)", replay.output), "limit cards as codes"


def test_a_whole_world_game_in_a_terminal(tmp_path: Path) -> None:
    record_path = tmp_path / "world.json"
    term = Terminal(
        ["play", "world", "-n", "2", "--seed", "3", "--no-confirm", "--record", str(record_path)],
        tmp_path,
        columns=120,
    )
    try:
        decisions = play_through(term, lambda legal, k: legal[-1])
        assert term.wait(60) == 0
    finally:
        term.close()
    out = term.text
    assert decisions > 5
    assert "Scores" in out and re.search(r"Game over: You (won|lost|drew|shared the win)\.", out)
    assert GameRecord.read(record_path).replay().is_terminal()
