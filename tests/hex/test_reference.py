"""Tests of the naive reference (``tests/hex/reference.py``) itself, on hand-reasoned positions.

Every expected value is worked out by hand beside the test, from docs/rules/hex.md, so that the
reference can be trusted when it disagrees with the engine. Cells are axial ``(q, r)``; the six
neighbours of ``(q, r)`` are ``(q+-1, r)``, ``(q, r+-1)``, ``(q+1, r-1)``, ``(q-1, r+1)``. A
"line" is the row ``(0,0), (1,0), (2,0)...``: every tile of a line has a free edge, removing an
end tile never cuts it, and removing an inner tile cuts it in two.

Seats: 0 red, 1 blue, 2 yellow (2008: 0 white, 1 red, 2 black) unless ``seat_colours`` says
otherwise. Pawn letters in comments: R red, B blue, Y yellow (2008: W white, R red, K black).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.hex.reference import RefState, perft

Cell = tuple[int, int]


def pos(
    tiles: dict[Cell, int | None],
    *,
    to_move: int = 0,
    step: str = "move",
    turn: int = 5,
    quiet: int = 0,
    players: int = 2,
    edition: str = "nestorgames",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "game": "hex",
        "edition": edition,
        "size": extra.pop("size", 8),
        "players": players,
        "tiles": [
            {"q": q, "r": r, "colour": None if edition == "2008" else "black", "pawn": p}
            for (q, r), p in tiles.items()
        ],
        "to_move": to_move,
        "step": step,
        "turn": turn,
        "quiet_turns": quiet,
        **extra,
    }


def line(*pawns: int | None) -> dict[Cell, int | None]:
    """A row of tiles (0,0), (1,0)... with these pawns (None: empty)."""
    return {(q, 0): p for q, p in enumerate(pawns)}


def load(tiles: dict[Cell, int | None], **kw: Any) -> RefState:
    return RefState.from_position(pos(tiles, **kw))


def mv(a: int, b: int) -> tuple:
    """A move along the line."""
    return ("move", (a, 0), (b, 0))


def rm(a: int) -> tuple:
    return ("remove", (a, 0))


_ = None  # an empty tile, in line(...)


# --- The one-row position of the brief (the engine's reach-through-pawns bug) -----------------
def test_one_row_position_has_four_moves() -> None:
    # a1 . | b1 R | c1 . | d1 R | e1 . | f1 B | g1 .   red to move, turn 5 (no equaliser)
    #
    # Reach: the empty tiles form the regions {a1}, {c1}, {e1}, {g1} (each is boxed in by
    # pawns or the end of the row). A pawn reaches the regions it touches and nothing else:
    #   b1 touches {a1} and {c1}          -> b1-a1, b1-c1
    #   d1 touches {c1} and {e1}          -> d1-c1, d1-e1
    # d1-a1 would need a path d1, c1, b1, a1 -- through red's own pawn on b1: pawns block
    # pawns, own ones too. So 4 candidate moves.
    # Must, if possible: each of the 4 allows a removal (g1 stays an empty end tile: removing
    # it never cuts the row, and blue keeps e1 or, after d1-e1, loses its freedom and is
    # captured, which is still a legal removal). So all 4 are legal: perft(1) = 4.
    state = load(line(_, 0, _, 0, _, 1, _))
    assert state.legal_actions() == {mv(1, 0), mv(1, 2), mv(3, 2), mv(3, 4)}
    assert ("move", (3, 0), (0, 0)) not in state.legal_actions()
    assert perft(state, 1) == 4
    # perft(2): after each move, the removals (every tile of a row has a free edge; an inner
    # tile is illegal when both sides keep pawns; a pawnless side goes with it):
    #   b1-a1: R . . R . B . -> only x g1 (x b1, x c1, x e1 each leave pawns on both sides) = 1
    #   b1-c1: . . R R . B . -> x a1, x b1 (a1 goes with it), x g1; not x e1           = 3
    #   d1-c1: . R R . . B . -> x a1, x g1; not x d1, x e1                              = 2
    #   d1-e1: . R . . R B . -> x a1; x g1 (blue loses its last freedom: captured, red
    #          wins); not x c1, x d1                                                    = 2
    assert perft(state, 2) == 8


# --- Move: reach ----------------------------------------------------------------------------
def test_enemy_pawns_block_too() -> None:
    # (-1,0) . | (0,0) R | (1,0) B | (2,0) . | (3,0) .
    # Red touches only the region {(-1,0)}; (2,0) and (3,0) lie behind blue.
    state = load({(-1, 0): None, **line(0, 1, _, _)})
    assert state.legal_actions() == {("move", (0, 0), (-1, 0))}


def test_a_pawn_reaches_every_region_it_touches() -> None:
    # . . R . . B .  on (-2,0)..(4,0): red touches {(-2,0),(-1,0)} and {(1,0),(2,0)}.
    # Every one of the 4 moves keeps an empty end tile ((4,0) or (-2,0)) to remove: all legal.
    state = load({(-2, 0): None, (-1, 0): None, **line(0, _, _, 1, _)})
    assert state.legal_actions() == {
        ("move", (0, 0), (-2, 0)),
        ("move", (0, 0), (-1, 0)),
        mv(0, 1),
        mv(0, 2),
    }


# --- Move: capture ----------------------------------------------------------------------------
def test_a_move_captures_the_enemy_group_without_freedom() -> None:
    # B . . R . . B ; red (3,0)-(1,0): blue (0,0) touches only (1,0), now red: captured.
    # Blue (6,0) keeps (5,0). The game goes on: red's removal step.
    state = load(line(1, _, _, 0, _, _, 1)).apply(mv(3, 1))
    assert state.pawns() == {(1, 0): 0, (6, 0): 1}
    assert (state.step, state.to_move, state.result) == ("remove", 0, None)


def test_three_players_both_enemies_are_captured_at_the_same_moment() -> None:
    # X = (0,0) empty; red S = (1,0); yellow (0,-1) and blue (-1,0), adjacent to each other,
    # both with X as their only freedom (the other cells around them hold no tile). Further
    # right: (2,0) empty, yellow (3,0), blue (4,0), (5,0) empty, so both keep pawns elsewhere.
    # Red S-X takes the last freedom of both groups at once: both are captured. Had yellow been
    # taken first, blue (-1,0) would have touched the emptied (0,-1) and survived.
    tiles = {
        (0, 0): None,
        (1, 0): 0,
        (0, -1): 2,
        (-1, 0): 1,
        (2, 0): None,
        (3, 0): 2,
        (4, 0): 1,
        (5, 0): None,
    }
    state = load(tiles, players=3)
    # S reaches {X} and {(2,0)}; S-(2,0) captures yellow (3,0) (its neighbours: red, blue);
    # both moves leave removals (e.g. x (5,0)).
    assert state.legal_actions() == {("move", (1, 0), (0, 0)), ("move", (1, 0), (2, 0))}
    after = state.apply(("move", (1, 0), (0, 0)))
    assert after.pawns() == {(0, 0): 0, (3, 0): 2, (4, 0): 1}
    assert after.last_captured == {(0, -1), (-1, 0)}


def test_a_move_never_captures_own_groups() -> None:
    # R B . . R .  (loaded: red (0,0) has no freedom, its only neighbour is blue).
    # Red (4,0)-(3,0): blue (1,0) keeps (2,0), nobody is captured, and red's own freedomless
    # (0,0) stays: a move captures enemies only.
    state = load(line(0, 1, _, _, 0, _)).apply(mv(4, 3))
    assert state.pawns() == {(0, 0): 0, (1, 0): 1, (3, 0): 0}
    # The removal: x (5,0) and x (4,0) ((5,0) goes with it) are legal and self-capture red
    # (0,0) (blue keeps (2,0), red (0,0) still has none); x (2,0) would cut R B | R. So:
    assert state.legal_actions() == {rm(4), rm(5)}
    after = state.apply(rm(5))
    assert after.pawns() == {(1, 0): 1, (3, 0): 0}
    assert (after.to_move, after.step, after.turn, after.quiet_turns) == (1, "move", 6, 0)


# --- Remove ------------------------------------------------------------------------------------
def test_only_empty_tiles_with_a_free_edge_and_holes_count() -> None:
    # A flower: (0,0) and its 6 neighbours. Red on (1,0), blue on (-1,0), the rest empty.
    ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    tiles: dict[Cell, int | None] = {(0, 0): None, **dict.fromkeys(ring)}
    tiles[(1, 0)], tiles[(-1, 0)] = 0, 1
    state = load(tiles, step="remove")
    # The centre has 6 tiles around it: no free edge. Each empty ring tile has a free edge and
    # its removal keeps the flower connected through the centre; nobody loses the centre.
    assert state.legal_actions() == {("remove", c) for c in [(1, -1), (0, -1), (-1, 1), (0, 1)]}
    # Now (0,1) is a hole: the cells around it, (1,1), (0,2), (-1,2), hold tiles, so it is
    # enclosed. The hole gives the centre a free edge; removing the centre keeps the ring
    # (open at (0,1)) connected, and the pawns keep freedoms (ring tiles).
    del tiles[(0, 1)]
    tiles.update({(1, 1): None, (0, 2): None, (-1, 2): None})
    state = load(tiles, step="remove")
    assert ("remove", (0, 0)) in state.legal_actions()


def test_the_split_rule_and_pawnless_parts_going_with_the_tile() -> None:
    # . . R . B   red removes.
    #   x (0,0): an end tile                                    -> legal
    #   x (1,0): (0,0) is cut off with no pawn: it goes too       -> legal
    #   x (3,0): R | B, two parts holding pawns                   -> illegal
    state = load(line(_, _, 0, _, 1), step="remove")
    assert state.legal_actions() == {rm(0), rm(1)}
    after = state.apply(rm(1))
    assert after.tiles() == {(2, 0), (3, 0), (4, 0)}
    assert (after.to_move, after.step) == (1, "move")


def test_enemies_are_captured_before_own_groups() -> None:
    # A triangle: red (0,0), blue (1,0), empty (0,1) -- each touches the other two. Red
    # removes (0,1), the only empty tile: red and blue both lose their last freedom. Blue
    # (enemy) goes first; its tile is then empty, so red has a freedom again and stays. Blue
    # has no pawns left: red wins (simultaneous captures would have emptied the table).
    state = load({(0, 0): 0, (1, 0): 1, (0, 1): None}, step="remove")
    assert state.legal_actions() == {("remove", (0, 1))}
    after = state.apply(("remove", (0, 1)))
    assert after.pawns() == {(0, 0): 0}
    assert after.result == [1.0, -1.0]


def test_self_capture_by_removal_is_legal() -> None:
    # Red (0,0) touches only T=(1,0) (empty) and blue (0,1); blue (0,1)-(1,1) touch (2,0).
    # (2,0) . , red (3,0), (4,0) .
    #   x T: the surface stays connected (via (0,1), (1,1)); blue keeps (2,0); red (0,0) has
    #        no freedom left: captured (self-capture). Red keeps (3,0): the game goes on.
    #   x (4,0): legal, nothing captured.   x (2,0): cuts {(3,0),(4,0)} (red) off: illegal.
    tiles = {(0, 0): 0, (1, 0): None, (0, 1): 1, (1, 1): 1, (2, 0): None, (3, 0): 0, (4, 0): None}
    state = load(tiles, step="remove")
    assert state.legal_actions() == {rm(1), rm(4)}
    after = state.apply(rm(1))
    assert after.pawns() == {(0, 1): 1, (1, 1): 1, (3, 0): 0}
    assert (after.to_move, after.result) == (1, None)


# --- Must, if possible ---------------------------------------------------------------------------
def test_a_move_must_allow_a_removal_and_a_game_ending_move_always_does() -> None:
    # . R . . B B   red to move.
    #   R-(0,0): R . . . B B: every empty tile is between red and blue -> no removal.
    #   R-(2,0): . . R . B B: x (0,0) is legal -> allows.
    #   R-(3,0): the blue group (4,0)-(5,0) loses its last freedom: captured, red alone has
    #            pawns: the game ends -> always legal, and it counts as allowing.
    # Some moves allow a removal, so R-(0,0) is illegal.
    state = load(line(_, 0, _, _, 1, 1))
    assert state.legal_actions() == {mv(1, 2), mv(1, 3)}
    won = state.apply(mv(1, 3))
    assert won.result == [1.0, -1.0] and won.step == "over" and won.legal_actions() == set()


def test_when_no_move_allows_a_removal_any_move_is_legal_and_the_removal_is_skipped() -> None:
    # Red (0,-1), (0,-2), (1,-2); blue (-1,-1) (loaded without freedom: it touches only red
    # (0,-1) and (0,-2)); (0,0) empty, touching only red (0,-1).
    # Red's only move: (0,-1)-(0,0). Blue then touches the emptied (0,-1), so no capture.
    # The only empty tile, (0,-1), would cut (0,0) off from the rest: both parts hold pawns.
    # No move allows a removal, so the move is legal and the removal is skipped: blue's turn,
    # a turn without removal (quiet_turns 0 -> 1).
    tiles = {(0, 0): None, (0, -1): 0, (0, -2): 0, (1, -2): 0, (-1, -1): 1}
    state = load(tiles)
    assert state.legal_actions() == {("move", (0, -1), (0, 0))}
    after = state.apply(("move", (0, -1), (0, 0)))
    assert (after.to_move, after.step, after.turn, after.quiet_turns) == (1, "move", 6, 1)


def test_the_move_step_is_skipped_when_no_pawn_can_move() -> None:
    # R B . .  (loaded: red (0,0) is boxed in by blue). Red cannot move: straight to the
    # removal, same turn.
    #   x (3,0): legal; blue keeps (2,0); red (0,0) has no freedom: self-captured -> blue wins.
    #   x (2,0): (3,0) goes with it; blue (1,0) now touches only red: captured (enemies
    #            first); then red (0,0) touches the emptied (1,0): stays -> red wins.
    state = load(line(0, 1, _, _))
    assert (state.step, state.to_move, state.turn) == ("remove", 0, 5)
    assert state.legal_actions() == {rm(2), rm(3)}
    assert state.apply(rm(3)).result == [-1.0, 1.0]
    assert state.apply(rm(2)).result == [1.0, -1.0]


# --- First move equaliser --------------------------------------------------------------------------
def test_equaliser_two_players_no_capturing_move_and_removal_possible_means_non_capturing() -> None:
    # . R . R B .   red: (1,0) reaches (0,0), (2,0); (3,0) reaches (2,0). Blue (4,0) keeps (5,0).
    #   (1,0)-(0,0): R . . R B . : x (1,0), x (2,0) cut red from red+blue; x (5,0) captures
    #                blue. So only a capturing removal.
    #   (1,0)-(2,0): x (0,0) (captures nothing).     (3,0)-(2,0): x (0,0) too.
    tiles = line(_, 0, _, 0, 1, _)
    late = load(tiles, turn=5)
    assert late.legal_actions() == {mv(1, 0), mv(1, 2), mv(3, 2)}
    # Turn 1 (2 players: turns <= 1 are bound): "a removal is possible" means a non-capturing
    # one, so (1,0)-(0,0) no longer allows one.
    first = load(tiles, turn=1)
    assert first.legal_actions() == {mv(1, 2), mv(3, 2)}
    # Turn 2 is not bound with 2 players.
    assert load(tiles, turn=2, to_move=0).legal_actions() == late.legal_actions()


def test_equaliser_forbids_a_capturing_removal_and_skips_the_step() -> None:
    # R . R B .  red's removal: x (1,0) cuts R | R B: illegal; x (4,0) takes blue's last
    # freedom (capturing). Turn 5: x (4,0) is legal and wins. Turn 1: no legal removal, the
    # step is skipped, the turn ends without a removal.
    tiles = line(0, _, 0, 1, _)
    assert load(tiles, step="remove", turn=5).legal_actions() == {rm(4)}
    first = load(tiles, step="remove", turn=1)
    assert (first.to_move, first.step, first.turn, first.quiet_turns) == (1, "move", 2, 1)


def test_equaliser_three_players_binds_turns_1_and_2() -> None:
    # The position of the simultaneous-capture test: both of red's moves capture.
    tiles = {
        (0, 0): None,
        (1, 0): 0,
        (0, -1): 2,
        (-1, 0): 1,
        (2, 0): None,
        (3, 0): 2,
        (4, 0): 1,
        (5, 0): None,
    }
    # Turn 3: not bound (3 players: turns 1 and 2 are), both moves legal.
    assert len(load(tiles, players=3, turn=3).legal_actions()) == 2
    # Turn 2: both moves capture: no legal move, the move step is skipped. The removals:
    # x (5,0) captures blue (4,0); x (2,0) cuts {(3,0),(4,0),(5,0)} off; x (0,0) cuts the
    # yellow+blue pair off; x (1,0) is not empty. No legal removal either: the whole turn
    # passes without a decision -> blue, turn 3, quiet_turns 1.
    bound = load(tiles, players=3, turn=2)
    assert (bound.to_move, bound.step, bound.turn, bound.quiet_turns) == (1, "move", 3, 1)


# --- Seats, turns, the end ---------------------------------------------------------------------------
def test_a_seat_without_pawns_is_passed_over_without_counting_a_turn() -> None:
    # 3 players, blue (seat 1) has no pawns and is to move at turn 7: play passes to yellow,
    # still turn 7, quiet_turns unchanged.
    state = load(line(0, _, _, 2, _), players=3, to_move=1, turn=7, quiet=1)
    assert (state.to_move, state.turn, state.quiet_turns) == (2, 7, 1)
    # And after yellow's turn, red (seat 0) follows, and after red's turn blue is skipped.
    assert state.next_seat(2) == 0


def test_three_players_the_last_player_with_pawns_wins() -> None:
    # Blue is out; red (0,0), yellow (3,0), the empties (1,0), (2,0) between them.
    #   (0,0)-(1,0): . R . Y, x (0,0) is legal -> allows a removal.
    #   (0,0)-(2,0): yellow loses its last freedom: captured; red alone has pawns: red wins at
    #   once, no removal, and the player who was out loses too.
    state = load(line(0, _, _, 2), players=3)
    assert state.legal_actions() == {mv(0, 1), mv(0, 2)}
    assert state.apply(mv(0, 2)).result == [1.0, -1.0, -1.0]


def test_stalemate_draw_when_quiet_turns_reach_the_players_with_pawns() -> None:
    # The equaliser position above: red's turn 1 has no decision at all (quiet + 1).
    tiles = line(0, _, 0, 1, _)
    # quiet 1 -> 2 = the 2 players holding pawns: a draw.
    assert load(tiles, step="remove", turn=1, quiet=1).result == [0.0, 0.0]
    # 3 players with yellow out: the limit is 2 as well.
    assert load(tiles, step="remove", turn=1, quiet=1, players=3).result == [0.0, 0.0, -1.0]


def test_seat_colours_decide_the_order_of_play() -> None:
    # seat_colours ["blue", "red"]: seat 1 plays red and moves first; turn order follows the
    # colours, so after red (seat 1) comes blue (seat 0).
    state = load(line(_, 1, _, _, 0, _), to_move=1, seat_colours=["blue", "red"])
    assert state.play_order() == [1, 0]
    after = state.apply(("move", (1, 0), (2, 0)))
    after = after.apply(sorted(after.legal_actions())[0])
    assert (after.to_move, after.turn) == (0, 6)
    three = load(
        line(0, _, 1, _, 2, _), players=3, seat_colours=["yellow", "red", "blue"], to_move=1
    )
    assert three.play_order() == [1, 2, 0]


def test_the_table_emptied_rule() -> None:
    # No legal removal can empty the table (rules page, "End"), so the rule is reached here
    # through the reference's own end-of-game helper.
    s = load(line(0, _, 1, _, 2), players=3)
    s._table_emptied(0, {0, 1, 2})  # all three were in the game at the start of the turn
    assert s.result == [0.0, 0.0, 0.0]
    s = load(line(0, _, 1, _), players=3)  # yellow was already out
    s._table_emptied(0, {0, 1})
    assert s.result == [-1.0, 1.0, -1.0]
    s = load(line(0, _, 1, _))
    s._table_emptied(1, {0, 1})
    assert s.result == [1.0, -1.0]


# --- Edition 2008 --------------------------------------------------------------------------------------
def test_2008_opening_placements() -> None:
    # The first tile goes on (0,0) (1); the second on one of its 6 neighbours (6); the ball on
    # either (12). Then red's first tile must touch both tiles: 2 cells (24).
    start = RefState.from_position(pos({}, edition="2008", step="tile", turn=1))
    assert start.legal_actions() == {("tile", (0, 0))}
    assert [perft(start, d) for d in (1, 2, 3, 4)] == [1, 6, 12, 24]
    s = start.apply(("tile", (0, 0))).apply(("tile", (1, 0)))
    assert s.legal_actions() == {("ball", (0, 0)), ("ball", (1, 0))}
    s = s.apply(("ball", (0, 0)))
    assert (s.to_move, s.step) == (1, "tile")
    assert s.legal_actions() == {("tile", (1, -1)), ("tile", (0, 1))}


def test_2008_ball_constraints() -> None:
    # White (0,0) and an empty (1,0) on the table; red has placed (1,-1) and (2,-1) this turn.
    # (1,-1) touches (0,0), (1,0) and (2,-1).
    #   ball on (1,-1): white (0,0) touches (1,0) (empty), (0,1)... no tile -- it keeps (1,0);
    #                   the new red ball touches (1,0), (2,-1): fine.
    #   ball on (2,-1): touches (1,-1), (1,0)... (2,-1)'s neighbours: (3,-1), (1,-1), (2,0),
    #                   (2,-2), (3,-2), (1,0): empty (1,-1), (1,0): fine.
    tiles = {(0, 0): 0, (1, 0): None, (1, -1): None, (2, -1): None}
    s = RefState.from_position(
        pos(tiles, edition="2008", step="ball", to_move=1, placed=[[1, -1], [2, -1]])
    )
    assert s.legal_actions() == {("ball", (1, -1)), ("ball", (2, -1))}
    # Now let white (0,0) have (1,-1) as its only freedom ((1,0) holds a red ball): a ball on
    # (1,-1) would take it -> illegal; and a red ball on (2,-1) touches red (1,0) -> illegal.
    tiles = {(0, 0): 0, (1, 0): 1, (1, -1): None, (2, -1): None}
    s = RefState.from_position(
        pos(tiles, edition="2008", step="ball", to_move=1, placed=[[1, -1], [2, -1]])
    )
    # No legal ball: the step is not a decision and is skipped; white places next.
    assert (s.to_move, s.step) == (0, "tile")
    assert s.pawns() == {(0, 0): 0, (1, 0): 1}


def test_2008_no_ball_completion_places_two_tiles_and_no_ball() -> None:
    # Size 2 (8 tiles), red already has its 2 balls: no completion with a ball exists, so red's
    # turn is two tiles and no ball. White (0,0), red (1,0) and (-1,1), empty (0,1), (1,-1).
    tiles = {(0, 0): 0, (1, 0): 1, (-1, 1): 1, (0, 1): None, (1, -1): None}
    s = RefState.from_position(pos(tiles, edition="2008", step="tile", to_move=1, size=2))
    # Cells touching at least 2 tiles: (-1,0) [(0,0), (-1,1)], (0,-1) [(0,0), (1,-1)],
    # (1,1) [(1,0), (0,1)], (2,-1) [(1,0), (1,-1)], (-1,2) [(0,1), (-1,1)]; every other cell
    # next to the surface touches only one tile. A second tile can follow each of them.
    assert s.legal_actions() == {("tile", c) for c in [(-1, 0), (0, -1), (1, 1), (2, -1), (-1, 2)]}
    s = s.apply(("tile", (1, 1)))
    s = s.apply(sorted(s.legal_actions())[0])
    assert (s.to_move, s.step) == (0, "tile")  # no ball step: white's turn (1 tile left)


def test_2008_ball_anywhere_when_tiles_run_out_then_the_seat_after_the_last_placer_moves() -> None:
    # 3 players, size 2: all 8 tiles are down; white has its 2 balls, red and black 1 each.
    #   row 0: W (0,0), . (1,0), R (2,0), . (3,0), K (4,0)
    #   row 1: . (0,1), . (1,1), W (2,1)        ((q,1) touches (q,0) and (q+1,0))
    tiles = {
        (0, 0): 0,
        (1, 0): None,
        (2, 0): 1,
        (3, 0): None,
        (4, 0): 2,
        (0, 1): None,
        (1, 1): None,
        (2, 1): 0,
    }
    s = RefState.from_position(
        pos(tiles, edition="2008", players=3, size=2, step="ball-any", to_move=1, last_placer=0)
    )
    # Red's last ball: (1,0), (3,0) and (1,1) touch red (2,0): no. (0,1): touches no red ball;
    # it keeps (1,0), (1,1) as freedoms, white (0,0) keeps (1,0), everyone else keeps theirs.
    assert s.legal_actions() == {("ball", (0, 1))}
    s = s.apply(("ball", (0, 1)))
    # Black's last ball: (3,0) touches black (4,0): no. (1,0) would take white (0,0)'s last
    # freedom (its other neighbour (0,1) is red now): no. (1,1): it keeps (1,0); white (2,1)
    # keeps (3,0); red (0,1) keeps (1,0): yes.
    assert (s.to_move, s.step) == (2, "ball-any")
    assert s.legal_actions() == {("ball", (1, 1))}
    s = s.apply(("ball", (1, 1)))
    # Every ball is placed: the movement phase starts with the seat after the last placer
    # (black), i.e. white, turn 1. White's moves: (0,0)-(1,0) leaves black (1,1) without
    # freedom, (2,1)-(3,0) does the same to black (4,0): both capture, and turn 1 is under
    # the 3-player equaliser. White cannot move then remove: eliminated at the start of its
    # turn, which counts as its turn: red moves, turn 2, quiet_turns 1.
    assert s.last_placer == 2
    assert s.pawns() == {(2, 0): 1, (4, 0): 2, (0, 1): 1, (1, 1): 2}
    assert (s.to_move, s.step, s.turn, s.quiet_turns) == (1, "move", 2, 1)


def test_2008_a_player_who_cannot_move_then_remove_is_eliminated() -> None:
    # The fall-back position of the nestorgames test above, in 2008: white's only move allows
    # no removal; both steps are compulsory, so white is eliminated at the start of the turn
    # (balls off the table) and red, the last player left, wins.
    tiles = {(0, 0): None, (0, -1): 0, (0, -2): 0, (1, -2): 0, (-1, -1): 1}
    s = RefState.from_position(pos(tiles, edition="2008"))
    assert s.result == [-1.0, 1.0]
    assert s.pawns() == {(-1, -1): 1}
    # 3 players: hang an empty E = (-2,-1) and black K = (-3,-1) off red (-1,-1) (E touches
    # only red and K; K touches only E). White's group still touches only (0,0); after
    # (0,-1)-(0,0) the empties are (0,-1) (cuts white (0,0) off) and E (cuts K off): no
    # removal. White is eliminated; red and black go on: red moves, turn 6, quiet_turns 1.
    tiles3 = {**tiles, (-2, -1): None, (-3, -1): 2}
    s3 = RefState.from_position(pos(tiles3, edition="2008", players=3))
    assert s3.pawns() == {(-1, -1): 1, (-3, -1): 2}
    assert (s3.to_move, s3.step, s3.turn, s3.quiet_turns) == (1, "move", 6, 1)


def test_2008_figure_6_the_player_to_move_wins() -> None:
    # R (0,0), W (1,0), empty (0,1) -- all three touch. White must move to (0,1) (red keeps the
    # vacated (1,0)), then remove (1,0): red loses its last freedom and is captured.
    s = RefState.from_position(pos({(0, 0): 1, (1, 0): 0, (0, 1): None}, edition="2008", turn=9))
    assert s.legal_actions() == {("move", (1, 0), (0, 1))}
    s = s.apply(("move", (1, 0), (0, 1)))
    assert s.legal_actions() == {("remove", (1, 0))}
    assert s.apply(("remove", (1, 0))).result == [1.0, -1.0]


@pytest.mark.parametrize("edition", ["nestorgames", "2008"])
def test_apply_refuses_illegal_actions(edition: str) -> None:
    s = load(line(_, 0, _, 0, _, 1, _), edition=edition)
    with pytest.raises(ValueError):
        s.apply(("move", (3, 0), (0, 0)))
    with pytest.raises(ValueError):
        s.apply(rm(0))
