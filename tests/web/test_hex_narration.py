"""The hex page's words: what each decision did and why the game ended (``web.hex_narration``).

Every position is small enough to reason about by hand; the reasoning is
written beside it and the expected sentences were written from it, by the
rules of ``docs/rules/hex.md``. Cells are named by their frame: row 1 is the
top row, column ``a`` the leftmost tile.
"""

from __future__ import annotations

from typing import Any

from limitgames.core import get_game
from limitgames.hex.state import HexState
from limitgames.web.hex_narration import end_reason, last_marks, narrate
from tests.hex.positions import load


def play(state: HexState, text: str) -> HexState:
    after = state.clone()
    after.apply(state.parse_action(text))
    return after


def test_a_move_that_captures_the_last_enemy_group_ends_the_game() -> None:
    # a1 . | b1 R | c1 . | d1 B | e1 B: red b1-c1 leaves blue's group d1-e1 with no empty
    # neighbour (c1 red, f1 none): both blue pawns are captured, blue has none left, red wins
    before = load({(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): 1, (4, 0): 1})
    after = play(before, "b1-c1")
    assert narrate(before, after) == [
        "Red moved from b1 to c1.",
        "Red captured 2 of blue's pawns on d1 and e1.",
        "Blue has no pawns left and is out.",
    ]
    assert end_reason(after) == "Red is the only player with pawns left and wins."
    marks = last_marks(after)
    assert (marks["from"], marks["to"], marks["captured"]) == ("b1", "c1", ["d1", "e1"])
    assert marks["removed"] is None and marks["gone"] == []


def test_a_removal_that_cuts_off_an_empty_tile() -> None:
    # row 1: a1 B | b1 . | c1 R | d1 . | e1 . | f1 . and a2 B below a1; red removes e1:
    # f1 is then a part with no pawn, so it leaves the table too; nobody loses a freedom
    before = load(
        {(0, 0): 1, (1, 0): None, (2, 0): 0, (3, 0): None, (4, 0): None, (5, 0): None, (0, 1): 1},
        step="remove",
    )
    after = play(before, "x e1")
    assert narrate(before, after) == [
        "Red removed the tile e1.",
        "Removing e1 cut off 1 empty tile, which left the table with it: f1.",
    ]
    assert end_reason(after) == ""
    marks = last_marks(after)
    assert marks["removed"] == "e1"
    assert marks["gone"] == [[4, 0, "e1"], [5, 0, "f1"]]


def test_a_removal_that_cuts_off_a_tile_then_captures_the_last_enemy() -> None:
    # a1 R | b1 . | c1 . with blue a2 under a1 and b1: red removes b1, so c1 touches no tile
    # left and goes too; blue a2 then has only red a1 next to it: captured, blue is out
    before = load({(0, 0): 0, (1, 0): None, (2, 0): None, (0, 1): 1}, step="remove")
    after = play(before, "x b1")
    assert narrate(before, after) == [
        "Red removed the tile b1.",
        "Removing b1 cut off 1 empty tile, which left the table with it: c1.",
        "Red captured blue's pawn on a2.",
        "Blue has no pawns left and is out.",
    ]
    assert end_reason(after) == "Red is the only player with pawns left and wins."
    assert last_marks(after)["gone"] == [[1, 0, "b1"], [2, 0, "c1"]]


def test_a_removal_that_captures_and_one_that_self_captures() -> None:
    # a1 B | b1 . over a2 R | b2 . | c2 . | d2 B: b1 is blue a1's only empty neighbour
    # (a2 is red); removing it captures a1 while blue d2 keeps c2, so the game goes on
    before = load(
        {(0, 0): 1, (1, 0): None, (0, 1): 0, (1, 1): None, (2, 1): None, (3, 1): 1},
        step="remove",
    )
    after = play(before, "x b1")
    assert narrate(before, after) == [
        "Red removed the tile b1.",
        "Red captured blue's pawn on a1.",
    ]
    # the same shape with the colours swapped round a1: red's own a1 loses its only
    # freedom b1 (blue a2 keeps b2): self-capture, legal, and red still has c2
    before = load({(0, 0): 0, (1, 0): None, (0, 1): 1, (1, 1): None, (2, 1): 0}, step="remove")
    after = play(before, "x b1")
    assert narrate(before, after) == [
        "Red removed the tile b1.",
        "Red lost 1 own pawn on a1: self-capture, the group had no empty tile next to it.",
    ]


def test_the_remove_step_skipped_on_the_equaliser_turn_and_the_stalemate() -> None:
    # a1 R | b1 . | c1 B | d1 ., turn 1 (red's first turn may not capture): red's only move
    # is a1-b1; then x a1 would self-capture red b1 and x d1 would capture blue c1, so no
    # removal is legal and the remove step is skipped
    before = load({(0, 0): 0, (1, 0): None, (2, 0): 1, (3, 0): None}, turn=1)
    after = play(before, "a1-b1")
    assert narrate(before, after) == [
        "Red moved from a1 to b1.",
        "Red can remove no tile: the remove step is skipped.",
        # red's turn removed nothing: 1 quiet turn, of the 2 (players with pawns) that draw
        "1 turn in a row without a removal: the game is drawn when this reaches 2, the "
        "number of players with pawns.",
    ]
    assert not after.is_terminal()
    # the same with one quiet turn already: red's turn makes 2 quiet turns, as many as the
    # players holding pawns: a draw
    before = load({(0, 0): 0, (1, 0): None, (2, 0): 1, (3, 0): None}, turn=1, quiet=1)
    after = play(before, "a1-b1")
    assert after.returns() == [0.0, 0.0]
    assert end_reason(after) == (
        "2 turns in a row without a removal, as many as players still holding pawns: "
        "a draw between red and blue."
    )


def test_a_whole_turn_skipped_on_an_equaliser_turn() -> None:
    # 3 players, a1 R | b1 . | c1 B | d1 . | e1 Y, turn 1: red's only move is a1-b1 (blue keeps
    # d1: no capture); then x a1 would self-capture red b1 and x d1 would split the surface, so
    # red's remove step is skipped. Turn 2 is blue's, still under the equaliser (turns up to
    # players - 1): blue's only move c1-d1 would capture yellow e1 (its only neighbour d1),
    # x a1 would capture red b1, x d1 would split: blue has no decision, yellow plays turn 3
    before = load({(0, 0): 0, (1, 0): None, (2, 0): 1, (3, 0): None, (4, 0): 2}, players=3, turn=1)
    after = play(before, "a1-b1")
    assert narrate(before, after) == [
        "Red moved from a1 to b1.",
        "Red can remove no tile: the remove step is skipped.",
        "Blue can neither move nor remove: blue's turn is skipped.",
        # red's and blue's turns removed nothing: 2 quiet turns of the 3 that draw
        "2 turns in a row without a removal: the game is drawn when this reaches 3, the "
        "number of players with pawns.",
    ]
    assert (after.current_player(), after.turn) == (2, 3)


def test_2008_a_capture_that_leaves_one_player() -> None:
    # the 2008 rulebook's figure 6: a1 red, b1 white, a2 empty; white must move b1-a2, then
    # remove the vacated b1, which takes red a1's last empty neighbour
    before = load({(0, 0): 1, (1, 0): 0, (0, 1): None}, edition="2008", turn=9)
    moved = play(before, "b1-a2")
    assert narrate(before, moved) == ["White moved from b1 to a2."]
    after = play(moved, "x b1")
    assert narrate(moved, after) == [
        "White removed the tile b1.",
        "White captured red's ball on a1.",
        "Red has no balls left and is eliminated.",
    ]
    assert end_reason(after) == (
        "White is the last player left: every other player was eliminated "
        "(no balls left, or no move followed by a removal)."
    )


def _tiles(spec: str) -> list[dict[str, Any]]:
    cells = {"h9": (-1, 0), "i9": (0, 0), "j9": (1, 0), "g10": (-2, 1)}
    cells |= {"h10": (-1, 1), "i10": (0, 1), "j10": (1, 1), "i11": (-1, 2)}
    pawns = dict(item.split("=") for item in spec.split())
    return [
        {"q": q, "r": r, "colour": None, "pawn": None if pawns[n] == "." else int(pawns[n])}
        for n, (q, r) in cells.items()
    ]


def test_2008_a_player_who_cannot_move_then_remove_is_eliminated() -> None:
    # 3 players (white 0, red 1, black 2), white removes j10 on turn 1. Then the only empty
    # tile is h10; any red move fills it and empties the tile it left, and removing that one
    # leaves no empty tile at all, so every group loses its freedom: a capture, which the
    # first move equaliser forbids on turn 2. Red cannot move and then remove: eliminated.
    position = {
        "game": "hex",
        "edition": "2008",
        "size": 2,
        "players": 3,
        "tiles": _tiles("h9=1 i9=0 j9=0 g10=2 h10=. i10=1 j10=. i11=2"),
        "to_move": 0,
        "step": "remove",
        "turn": 1,
        "quiet_turns": 0,
        "frame": [-8, -4],
    }
    before = get_game("hex").state_from_position(position)
    assert isinstance(before, HexState)
    after = play(before, "x j10")
    assert narrate(before, after) == [
        "White removed the tile j10.",
        "Red cannot move and then remove a tile: red is eliminated and red's 2 balls "
        "leave the table.",
    ]


def test_nothing_to_tell_when_the_states_are_not_one_decision_apart() -> None:
    start = get_game("hex").new_initial_state(seed=1, size=3, colours="fixed")
    assert isinstance(start, HexState)
    assert narrate(start, start) == []
    assert last_marks(start)["action"] is None
    assert end_reason(start) == ""


def test_the_result_said_to_each_seat_and_to_a_spectator() -> None:
    from limitgames.web.views import outcome_for

    # the capture of the last blue group above: red won, blue lost; a spectator reads who won
    before = load({(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): 1, (4, 0): 1})
    after = play(before, "b1-c1")
    assert [outcome_for(after, [0]), outcome_for(after, [1])] == ["You won", "You lost"]
    assert outcome_for(after, []) == "Red wins"
    assert outcome_for(before, [0]) == ""
    # the stalemate above: a draw for both
    drawn = play(load({(0, 0): 0, (1, 0): None, (2, 0): 1, (3, 0): None}, turn=1, quiet=1), "a1-b1")
    assert outcome_for(drawn, [1]) == "Draw"


def test_the_terminal_and_the_browser_tell_the_same_sentences() -> None:
    # both narrate through limitgames.hex.words: given the same names and the game's own
    # frame, the terminal's decision line and what followed are the browser's announcements
    import random

    from limitgames.cli.hex_view import decision_words, what_happened
    from limitgames.cli.hex_view import end_reason as terminal_end_reason
    from limitgames.web.views import shown_name

    told = 0
    for edition, players, size in (("nestorgames", 2, 4), ("nestorgames", 3, 6), ("2008", 3, 3)):
        for seed in range(5):
            state = get_game("hex").new_initial_state(
                seed=seed, edition=edition, players=players, size=size
            )
            assert isinstance(state, HexState)
            names = [shown_name(name) for name in state.seat_names()]  # the page's names
            rng = random.Random(seed)
            while not state.is_terminal():
                before = state.clone()
                action = rng.choice(state.legal_actions())
                state.apply(action)
                terminal = [
                    decision_words(before, action, names, before.frame),
                    *what_happened(before, action, names, before.frame),
                ]
                terminal = [s for s in terminal if not s.startswith("Cells are now named")]
                assert terminal == narrate(before, state)
                told += len(terminal)
            assert terminal_end_reason(state, names) == end_reason(state)
    assert told > 100


def test_the_page_scripts_parse_no_hex_notation() -> None:
    # the server sends the board's targets (view.targets) and the last decision's kind and
    # cells (view.last): no script reads a cell name out of an action's notation
    from pathlib import Path

    import limitgames.web

    static = Path(limitgames.web.__file__).parent / "static"
    for name in ("game.js", "hex_play.js"):
        text = (static / name).read_text(encoding="utf-8")
        assert "[a-z]+\\d+" not in text and '.split("-")' not in text, name
