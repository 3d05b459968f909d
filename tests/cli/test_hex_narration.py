"""What the terminal says after a hex decision, on the rule scenarios of ``docs/rules/hex.md``.

Each position is drawn in a comment with what the rules make of it, worked
out by hand; the sentences must say exactly that. The seat named ``You`` is told in the
second person. The words are the game's one narrator (``limitgames.hex.words``), which the
browser tells too (``tests/web/test_hex_narration.py``, ``tests/hex/test_events.py``).
"""

from __future__ import annotations

from limitgames.cli.hex_view import end_reason, result_for, what_happened
from limitgames.hex.state import HexState
from tests.hex.positions import load, move, remove

NAMES = ["You", "blue"]


def after(state: HexState, text: str) -> tuple[HexState, int, HexState]:
    before = state.clone()
    action = state.parse_action(text)
    state.apply(action)
    return before, action, state


def test_self_capture_by_a_removal_is_told() -> None:
    # red P(0,0) has one freedom X(1,0); blue Y(0,1) keeps Z(1,1); red W(2,1) keeps V(3,1).
    # Removing X leaves P without freedom: red captures its own pawn on (0,0), blue keeps Y.
    state = load(
        {(0, 0): 0, (1, 0): None, (0, 1): 1, (1, 1): None, (2, 1): 0, (3, 1): None}, step="remove"
    )
    p = state.cell_name((0, 0))
    before, action, _now = after(state, remove(state, (1, 0)))
    said = what_happened(before, action, NAMES)
    assert said == [
        f"You lost 1 own pawn on {p}: self-capture, the group had no empty tile next to it."
    ]


def test_a_removal_that_cuts_off_a_tile_and_captures() -> None:
    # . | . | blue | red | . | . | blue ; red removes (1,0): (0,0) is cut off with it, and the
    # blue pawn on (2,0) loses its last freedom.
    state = load(
        {(0, 0): None, (1, 0): None, (2, 0): 1, (3, 0): 0, (4, 0): None, (5, 0): None, (6, 0): 1},
        step="remove",
    )
    names = [state.cell_name(c) for c in ((0, 0), (1, 0), (2, 0))]
    before, action, _now = after(state, remove(state, (1, 0)))
    said = what_happened(before, action, NAMES)
    assert said == [
        f"Removing {names[1]} cut off 1 empty tile, which left the table with it: {names[0]}.",
        f"You captured blue's pawn on {names[2]}.",
    ]


def test_a_skipped_removal_and_the_quiet_turn_count_are_told() -> None:
    # red's only move leaves only a tile whose removal would isolate a pawn: the remove step is
    # skipped, the turn counts as a turn without removal (1 of the 2 that draw the game).
    state = load({(0, 0): None, (0, -1): 0, (0, -2): 0, (1, -2): 0, (-1, -1): 1})
    before, action, _now = after(state, move(state, (0, -1), (0, 0)))
    said = what_happened(before, action, NAMES)
    assert said == [
        "You can remove no tile: your remove step is skipped.",
        "1 turn in a row without a removal: the game is drawn when this reaches 2, the number "
        "of players with pawns.",
    ]


def test_the_last_capture_ends_the_game_with_its_reason() -> None:
    # triangle X(0,0) empty, red P(1,0), blue Q(0,1): removing X captures blue first (red is freed).
    state = load({(0, 0): None, (1, 0): 0, (0, 1): 1}, step="remove")
    _, _, now = after(state, remove(state, (0, 0)))
    assert now.is_terminal()
    assert end_reason(now, NAMES) == "You are the only player with pawns left and win."
    assert result_for(now, 0, NAMES) == "You won."
    assert result_for(now, 1, ["red", "blue"]) == "Blue lost."
    assert result_for(now, None, ["red", "blue"]) == "Red wins."


def test_stalemate_has_its_sentence() -> None:
    # the position of the skipped removal, loaded one quiet turn from the draw: red's only move
    # allows no removal, the turn ends without one and quiet turns reach 2 (two players).
    state = load({(0, 0): None, (0, -1): 0, (0, -2): 0, (1, -2): 0, (-1, -1): 1}, quiet=1)
    _, _, now = after(state, move(state, (0, -1), (0, 0)))
    assert now.is_terminal() and now.returns() == [0.0, 0.0]
    assert end_reason(now, NAMES) == (
        "2 turns in a row without a removal, as many as players still holding pawns: "
        "a draw between You and blue."
    )
    assert result_for(now, 0, NAMES) == "Draw: You shared the result with blue."


def test_a_2008_elimination_at_the_start_of_a_turn_is_told() -> None:
    # Found by random play (seed 2, 3 players, size 3): white removes l12; then red (balls on
    # m12, k14, n15) has no move that a removal can follow, so red is eliminated at the start
    # of its turn: its 3 balls leave the table without being captured.
    from limitgames.core import get_game

    tiles = [
        ((0, -1), None), ((1, -1), 1), ((0, 0), None), ((1, 0), 2), ((-2, 1), 1), ((-1, 1), 2),
        ((0, 1), 0), ((-3, 2), None), ((-2, 2), 0), ((-1, 2), None), ((0, 2), 1), ((-1, 3), 2),
    ]  # fmt: skip
    position = {
        "game": "hex", "edition": "2008", "size": 3, "players": 3, "to_move": 0,
        "step": "remove", "turn": 1, "quiet_turns": 0, "frame": [-12, -6],
        "tiles": [{"q": q, "r": r, "colour": None, "pawn": p} for (q, r), p in tiles],
    }  # fmt: skip
    state = get_game("hex").state_from_position(position)
    assert isinstance(state, HexState)
    before, action, now = after(state, "x l12")
    assert before.pawn_counts()[1] == 3 and now.pawn_counts()[1] == 0
    assert not now.last_captured(), "nothing was captured: the balls left by elimination"
    said = what_happened(before, action, ["white", "red", "black"])
    assert said == [
        "Red cannot move and then remove a tile: red is eliminated and red's 3 balls leave "
        "the table."
    ]
