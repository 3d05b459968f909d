"""Scenario tests: every situation the rulebooks describe or draw, and every rule of rules/hex.md.

Cells are axial ``(q, r)``; ``(q, 0)`` for consecutive ``q`` is a straight line of tiles.
Seat 0 is red (white in 2008), seat 1 blue (red in 2008), seat 2 yellow (black in 2008).
"""

from __future__ import annotations

import pytest

from limitgames.core import IllegalActionError
from limitgames.hex import kernel
from limitgames.testing import check_illegal_is_harmless
from tests.hex.positions import load, move, pawn_cells, remove, tile_cells

LINE7 = [(q, 0) for q in range(7)]


# --- Move: capture by a move (nestorgames rules figure; 2008 Figure 3) -----------------------
def test_capture_by_a_move_removes_the_enemy_group_without_freedom() -> None:
    # blue (0,0) | . | . | red (3,0) | . | . | blue (6,0)
    state = load(
        {(0, 0): 1, (1, 0): None, (2, 0): None, (3, 0): 0, (4, 0): None, (5, 0): None, (6, 0): 1}
    )
    state.apply_string(move(state, (3, 0), (1, 0)))
    assert pawn_cells(state, 1) == {(6, 0)}, "the blue pawn on (0,0) lost its last freedom"
    assert state.step == "remove" and state.current_player() == 0


def test_pawns_block_pawns_and_paths_go_through_empty_tiles() -> None:
    state = load({(0, 0): 0, (1, 0): 1, (2, 0): None, (3, 0): None, (-1, 0): None})
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert move(state, (0, 0), (2, 0)) not in legal, "blue on (1,0) blocks the way"
    with pytest.raises(IllegalActionError, match="cannot be reached"):
        state.apply_string(move(state, (0, 0), (2, 0)))
    with pytest.raises(IllegalActionError, match="not empty"):
        state.apply_string(move(state, (0, 0), (1, 0)))
    with pytest.raises(IllegalActionError, match="no red pawn"):
        state.apply_string(move(state, (1, 0), (2, 0)))


# --- Remove: isolating a tile and capturing (rules figure; 2008 Figure 4) ----------------------
def test_removal_that_isolates_a_tile_and_captures() -> None:
    # . | . | blue | red | . | . | blue ; red removes (1,0): (0,0) goes with it, blue (2,0) is captured
    state = load(
        {(0, 0): None, (1, 0): None, (2, 0): 1, (3, 0): 0, (4, 0): None, (5, 0): None, (6, 0): 1},
        step="remove",
    )
    state.apply_string(remove(state, (1, 0)))
    assert (0, 0) not in tile_cells(state) and (1, 0) not in tile_cells(state)
    assert pawn_cells(state, 1) == {(6, 0)}
    assert state.current_player() == 1 and state.step == "move" and state.quiet_turns == 0


def test_removal_that_would_isolate_pawns_is_refused() -> None:
    state = load({(-1, 0): None, (0, 0): 0, (1, 0): None, (2, 0): 1, (3, 0): None}, step="remove")
    with pytest.raises(IllegalActionError, match="split the surface"):
        state.apply_string(remove(state, (1, 0)))
    check_illegal_is_harmless(state, state.parse_action(remove(state, (1, 0))))
    assert {state.action_to_string(a) for a in state.legal_actions()} == {
        remove(state, (-1, 0)),
        remove(state, (3, 0)),
    }


def test_only_empty_tiles_with_a_free_edge_can_be_removed() -> None:
    # a hexagon of 6 tiles around (0,0): the centre has no free edge
    ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    tiles: dict[tuple[int, int], int | None] = {c: None for c in ring}
    tiles[(0, 0)] = None
    tiles[(1, 0)] = 0
    tiles[(-1, 0)] = 1
    state = load(tiles, step="remove")
    with pytest.raises(IllegalActionError, match="no free edge"):
        state.apply_string(remove(state, (0, 0)))
    with pytest.raises(IllegalActionError, match="not empty"):
        state.apply_string(remove(state, (1, 0)))
    assert remove(state, (0, 0)) not in {state.action_to_string(a) for a in state.legal_actions()}


def test_a_hole_inside_the_surface_gives_a_free_edge() -> None:
    ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    tiles: dict[tuple[int, int], int | None] = dict.fromkeys(ring)
    tiles[(0, 0)] = None
    tiles[(1, 0)] = 0
    tiles[(-1, 0)] = 1
    state = load(tiles, step="remove")
    state.apply_string(remove(state, (0, 1)))  # red removes a ring tile
    state.apply_string(move(state, (-1, 0), (-1, 1)))  # blue moves
    assert remove(state, (0, 0)) in {state.action_to_string(a) for a in state.legal_actions()}


def test_self_capture_by_removal_is_legal() -> None:
    # red P(0,0) has one freedom X(1,0); blue Y(0,1) keeps Z(1,1); red W(2,1) keeps V(3,1)
    state = load(
        {(0, 0): 0, (1, 0): None, (0, 1): 1, (1, 1): None, (2, 1): 0, (3, 1): None}, step="remove"
    )
    state.apply_string(remove(state, (1, 0)))
    assert pawn_cells(state, 0) == {(2, 1)}, "red captured its own pawn"
    assert pawn_cells(state, 1) == {(0, 1)}
    assert not state.is_terminal()


def test_enemy_groups_are_captured_before_own_groups() -> None:
    # triangle X(0,0) empty, red P(1,0), blue Q(0,1): removing X takes both freedoms;
    # blue is captured first, which frees red.
    state = load({(0, 0): None, (1, 0): 0, (0, 1): 1}, step="remove")
    state.apply_string(remove(state, (0, 0)))
    assert pawn_cells(state, 0) == {(1, 0)}
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


# --- Must, if possible ---------------------------------------------------------------------------------
def test_a_move_must_allow_a_removal_when_another_move_does() -> None:
    # . X | red R | . Y | blue | blue ; R->X leaves no legal removal, R->Y captures the blue group
    state = load({(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): 1, (4, 0): 1})
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert legal == {move(state, (1, 0), (2, 0))}
    with pytest.raises(IllegalActionError, match="no tile could be removed"):
        state.apply_string(move(state, (1, 0), (0, 0)))


def test_a_game_ending_move_is_always_legal_and_no_removal_follows() -> None:
    state = load({(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): 1, (4, 0): 1})
    state.apply_string(move(state, (1, 0), (2, 0)))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.step == "over" and len(state.history()) == 1


# The rule-2 case: a move ends the game, and no other move allows a removal.
# . X | red R | . Y | blue | blue: R->Y captures both blue pawns (their only freedom is Y) and
# ends the game; R->X leaves the empty tiles (1,0) and (2,0) between red and blue, and removing
# either would split the surface into two parts that both hold pawns; the end tiles hold pawns.
RULE2 = {(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): 1, (4, 0): 1}


def test_rule2_literal_reading_the_game_ending_move_is_the_only_legal_one() -> None:
    state = load(RULE2)
    assert state.must_remove == "literal"
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert legal == {move(state, (1, 0), (2, 0))}
    reason = state.why_illegal(state.parse_action(move(state, (1, 0), (0, 0))))
    assert "another move" not in reason, "no other move allows a removal here"
    assert reason.startswith(
        "after this move no tile could be removed, and a move that ends the game (b1-c1)"
    )
    assert "must_remove=continuing" in reason


def test_rule2_continuing_reading_every_move_is_legal() -> None:
    state = load(RULE2, must_remove="continuing")
    assert state.must_remove == "continuing"
    assert state.position()["must_remove"] == "continuing"
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert legal == {move(state, (1, 0), (2, 0)), move(state, (1, 0), (0, 0))}
    state.apply_string(move(state, (1, 0), (0, 0)))
    # no removal is possible: the step is skipped and blue moves (a quiet turn)
    assert state.current_player() == 1 and state.step == "move" and state.quiet_turns == 1


def test_rule2_continuing_reading_still_asks_for_a_removal_when_a_going_on_move_allows_one() -> (
    None
):
    # a1 . | b1 red | c1 . | d1 . | e1 blue: b1-a1 leaves b1, c1, d1 empty between the pawns
    # (removing any splits them; a1 and e1 hold pawns), so no removal; b1-c1 allows x a1 and
    # the game goes on; b1-d1 takes blue's last freedom and ends the game
    tiles = {(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): None, (4, 0): 1}
    for reading in ("literal", "continuing"):
        state = load(tiles, must_remove=reading)
        legal = {state.action_to_string(a) for a in state.legal_actions()}
        assert legal == {move(state, (1, 0), (2, 0)), move(state, (1, 0), (3, 0))}, reading
        reason = state.why_illegal(state.parse_action(move(state, (1, 0), (0, 0))))
        assert reason == (
            "after this move no tile could be removed, and another move (b1-c1) allows a removal"
        )


def test_when_no_move_allows_a_removal_any_move_is_legal_and_the_removal_is_skipped() -> None:
    # found by search: red's only move leaves only a tile whose removal would isolate a pawn
    tiles = {(0, 0): None, (0, -1): 0, (0, -2): 0, (1, -2): 0, (-1, -1): 1}
    state = load(tiles)
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        move(state, (0, -1), (0, 0))
    ]
    state.apply_string(move(state, (0, -1), (0, 0)))
    assert state.current_player() == 1 and state.step == "move", "the remove step was skipped"
    assert state.quiet_turns == 1 and state.turn == 6


def test_the_move_step_is_skipped_when_no_pawn_can_move() -> None:
    # red (0,0) is walled in by blue (a loaded group with no freedom stays until the next capture check)
    state = load({(0, 0): 0, (1, 0): 1, (2, 0): None, (3, 0): None})
    assert state.step == "remove" and state.current_player() == 0
    state.apply_string(
        remove(state, (2, 0))
    )  # (3,0) goes with it; blue is captured first, red freed
    assert tile_cells(state) == {(0, 0), (1, 0)}
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


# --- First move equaliser ------------------------------------------------------------------------------
def _capture_line(
    mover: int, other: int, third: int | None = None
) -> dict[tuple[int, int], int | None]:
    tiles: dict[tuple[int, int], int | None] = {c: None for c in LINE7}
    tiles[(0, 0)] = other
    tiles[(3, 0)] = mover
    tiles[(6, 0)] = other if third is None else third
    return tiles


def test_equaliser_two_players_red_may_not_capture_on_turn_1() -> None:
    state = load(_capture_line(0, 1), turn=1)
    assert state.equaliser()
    with pytest.raises(IllegalActionError, match="equaliser"):
        state.apply_string(move(state, (3, 0), (1, 0)))
    state = load(_capture_line(1, 0), to_move=1, turn=2)
    assert not state.equaliser()
    state.apply_string(move(state, (3, 0), (1, 0)))
    assert pawn_cells(state, 0) == {(6, 0)}


def test_equaliser_forbids_a_capturing_removal_too() -> None:
    tiles = {
        (0, 0): None,
        (1, 0): None,
        (2, 0): 1,
        (3, 0): 0,
        (4, 0): None,
        (5, 0): None,
        (6, 0): 1,
    }
    state = load(tiles, step="remove", turn=1)
    with pytest.raises(IllegalActionError, match="equaliser"):
        state.apply_string(remove(state, (1, 0)))
    # (4,0) and (5,0) would cut blue (6,0) off; (1,0) captures; only (0,0) is left
    assert [state.action_to_string(a) for a in state.legal_actions()] == [remove(state, (0, 0))]


def test_equaliser_three_players_red_and_blue_may_not_capture_yellow_may() -> None:
    blue = load(_capture_line(1, 0, 2), to_move=1, turn=2, players=3)
    with pytest.raises(IllegalActionError, match="equaliser"):
        blue.apply_string(move(blue, (3, 0), (1, 0)))
    yellow = load(_capture_line(2, 0, 1), to_move=2, turn=3, players=3)
    yellow.apply_string(move(yellow, (3, 0), (1, 0)))
    assert pawn_cells(yellow, 0) == set()
    assert not yellow.is_terminal(), "blue and yellow still have pawns"


# --- End ---------------------------------------------------------------------------------------------
def test_the_last_player_with_pawns_wins_three_players() -> None:
    tiles: dict[tuple[int, int], int | None] = {c: None for c in LINE7}
    tiles[(0, 0)] = 1
    tiles[(3, 0)] = 2
    state = load(tiles, to_move=2, turn=9, players=3)  # red is already out
    state.apply_string(move(state, (3, 0), (1, 0)))
    assert state.returns() == [-1.0, -1.0, 1.0]


def test_a_seat_without_pawns_is_passed_over_without_counting_a_turn() -> None:
    tiles: dict[tuple[int, int], int | None] = {c: None for c in LINE7}
    tiles[(0, 0)] = 1
    tiles[(6, 0)] = 2
    state = load(tiles, to_move=0, turn=9, players=3)
    assert state.current_player() == 1 and state.turn == 9


def test_stalemate_draw_when_quiet_turns_reach_the_players_with_pawns() -> None:
    tiles = {(0, 0): None, (0, -1): 0, (0, -2): 0, (1, -2): 0, (-1, -1): 1}
    state = load(tiles, quiet=1)
    state.apply_string(move(state, (0, -1), (0, 0)))
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_a_turn_that_empties_the_table() -> None:
    # No legal turn can do this (rules/hex.md, End); the rule is applied by the engine's end check.
    for players, alive_at_start, expected in (
        (2, 0b11, [-1.0, 1.0]),
        (3, 0b111, [0.0, 0.0, 0.0]),
        (3, 0b101, [-1.0, -1.0, 1.0]),
    ):
        tiles: dict[tuple[int, int], int | None] = {(0, 0): 0, (1, 0): 1, (2, 0): None}
        state = load(tiles, players=players)
        for k in range(3):
            state._s[kernel.S_PAWNS + k] = 0
        state._s[kernel.S_ALIVE_AT_START] = alive_at_start
        assert kernel.check_end(state._s, 0)
        assert state.returns() == expected


# --- 2008 edition --------------------------------------------------------------------------------------
def test_figure_6_the_player_to_move_wins() -> None:
    # red ball R(0,0), white ball A(1,0), the only empty tile E(0,1): white must move A-E,
    # then remove the vacated A, which captures red.
    state = load({(0, 0): 1, (1, 0): 0, (0, 1): None}, edition="2008", turn=9)
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        move(state, (1, 0), (0, 1))
    ]
    state.apply_string(move(state, (1, 0), (0, 1)))
    assert [state.action_to_string(a) for a in state.legal_actions()] == [remove(state, (1, 0))]
    state.apply_string(remove(state, (1, 0)))
    assert state.returns() == [1.0, -1.0]


def test_2008_a_player_who_cannot_move_then_remove_is_eliminated() -> None:
    tiles = {(0, 0): None, (0, -1): 0, (0, -2): 0, (1, -2): 0, (-1, -1): 1}
    state = load(tiles, edition="2008")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


# --- Setup -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3])
def test_setup_pawns_on_their_colours_red_first_every_pawn_free(players: int) -> None:
    from limitgames.core import get_game

    state = get_game("hex").new_initial_state(seed=11, players=players, colours="fixed")
    obs = state.observation(None)
    seat_of = {"red": 0, "blue": 1, "yellow": 2 if players == 3 else None, "black": None}
    for tile in obs["tiles"]:
        assert tile["pawn"] == seat_of[tile["colour"]]
    assert state.current_player() == 0 and obs["step"] == "move" and obs["turn"] == 1
    assert state.seat_names() == ["red", "blue", "yellow"][:players]
    assert all(c == 8 for c in state.pawn_counts())


def test_an_explicit_layout_can_be_played() -> None:
    from limitgames.core import get_game
    from limitgames.hex.game import HexGame

    game = get_game("hex")
    assert isinstance(game, HexGame)
    layout = {
        (0, 0): "red",
        (1, 0): "yellow",
        (0, 1): "black",
        (1, 1): "blue",
        (2, 0): "black",
        (-1, 1): "yellow",
        (2, -1): "red",
        (-1, 2): "blue",
    }
    state = game.state_from_layout(layout, {"size": 2})
    assert state.pawn_counts() == [2, 2] and state.legal_actions()


def test_three_players_a_move_captures_both_enemies_at_once() -> None:
    # blue (0,0) and yellow (0,1) share their last freedom (1,0); red moves there from (3,0)
    tiles: dict[tuple[int, int], int | None] = {
        (0, 0): 1,
        (0, 1): 2,
        (1, 0): None,
        (2, 0): None,
        (3, 0): 0,
        (4, 0): None,
        (5, 0): 1,
        (6, 0): 2,
        (5, 1): None,
    }
    state = load(tiles, players=3, turn=7)
    state.apply_string(move(state, (3, 0), (1, 0)))
    assert pawn_cells(state, 1) == {(5, 0)} and pawn_cells(state, 2) == {(6, 0)}


def test_2008_a_player_with_no_balls_is_eliminated_and_the_last_player_wins() -> None:
    tiles = {(0, 0): 0, (1, 0): None, (2, 0): None}
    state = load(tiles, edition="2008", to_move=1, turn=4)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_2008_players_eliminated_together_draw() -> None:
    tiles = {(0, 0): 0, (1, 0): 1, (2, 0): None}
    state = load(tiles, edition="2008", turn=4)
    state._s[kernel.S_PAWNS] = state._s[kernel.S_PAWNS + 1] = 0
    state._s[kernel.S_ALIVE_AT_START] = 0b11
    assert kernel.check_end(state._s, 0) and state.returns() == [0.0, 0.0]
