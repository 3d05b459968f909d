"""The 2008 edition's placement phase (rules/hex.md, Edition "2008"; seeds/001)."""

from __future__ import annotations

import pytest

from limitgames.core import IllegalActionError, get_game
from limitgames.hex.state import HexState
from tests.hex.positions import load


def new(players: int = 2, size: int = 8) -> HexState:
    state = get_game("hex").new_initial_state(seed=1, edition="2008", players=players, size=size)
    assert isinstance(state, HexState)
    return state


def texts(state: HexState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_the_first_two_tiles_are_adjacent_and_white_places_first() -> None:
    state = new()
    assert state.current_player() == 0 and state.step == "tile"
    origin = state.cell_name((0, 0))
    assert texts(state) == [f"+{origin}"]
    state.apply_string(f"+{origin}")
    assert state.step == "second-tile"
    neighbours = {state.cell_name(c) for c in [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]}
    assert {t[1:] for t in texts(state)} == neighbours
    state.apply_string(f"+{state.cell_name((1, 0))}")
    assert state.step == "ball"
    assert sorted(texts(state)) == sorted([f"@{origin}", f"@{state.cell_name((1, 0))}"])
    state.apply_string(f"@{origin}")
    assert state.current_player() == 1 and state.step == "tile"


def test_every_later_tile_touches_two_placed_tiles() -> None:
    state = new()
    state.apply_string(f"+{state.cell_name((0, 0))}")
    state.apply_string(f"+{state.cell_name((1, 0))}")
    state.apply_string(f"@{state.cell_name((0, 0))}")
    sites = {state.frame.cell(t[1:]) for t in texts(state)}
    assert sites == {(1, -1), (0, 1)}, "only the two cells touching both tiles"
    with pytest.raises(IllegalActionError, match="at least 2 tiles"):
        state.apply_string(f"+{state.cell_name((2, 0))}")
    with pytest.raises(IllegalActionError, match="already holds a tile"):
        state.apply_string(f"+{state.cell_name((1, 0))}")


def test_balls_of_one_colour_are_never_adjacent() -> None:
    # white ball on (0,0); white just placed (1,0) (next to it) and (2,-1) (not)
    tiles = {(0, 0): 0, (1, 0): None, (0, 1): None, (2, -1): None}
    state = load(tiles, edition="2008", step="ball", placed=[[1, 0], [2, -1]], last_placer=1)
    with pytest.raises(IllegalActionError, match="never be adjacent"):
        state.apply_string(f"@{state.cell_name((1, 0))}")
    assert texts(state) == [f"@{state.cell_name((2, -1))}"]


def test_no_placement_may_take_the_last_freedom_of_a_ball() -> None:
    # red balls on (0,0) and (-1,0); (1,0) is the last freedom of red (0,0)
    tiles = {(0, 0): 1, (-1, 0): 1, (-2, 0): None, (1, 0): None, (2, -1): None}
    state = load(tiles, edition="2008", step="ball", placed=[[1, 0], [2, -1]], last_placer=1)
    with pytest.raises(IllegalActionError, match="last freedom"):
        state.apply_string(f"@{state.cell_name((1, 0))}")
    assert texts(state) == [f"@{state.cell_name((2, -1))}"]


def test_a_ball_goes_on_one_of_the_two_tiles_just_placed() -> None:
    tiles = {(0, 0): 1, (-1, 0): None, (-2, 0): None, (1, 0): None, (2, -1): None}
    state = load(tiles, edition="2008", step="ball", placed=[[1, 0], [2, -1]], last_placer=1)
    with pytest.raises(IllegalActionError, match="one of the two tiles you just placed"):
        state.apply_string(f"@{state.cell_name((-2, 0))}")


def test_without_a_legal_ball_the_turn_places_two_tiles_and_no_ball() -> None:
    # size 2: white has both balls out already, so its turn is two tiles and no ball
    tiles = {(0, 0): 0, (1, 0): 1, (2, 0): 0, (1, 1): None}
    state = load(tiles, edition="2008", step="tile", size=2, last_placer=1)
    assert state.balls_left(0) == 0 and state.current_player() == 0
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.current_player() == 1 and state.step == "tile"
    assert state.balls_left(0) == 0 and state.tiles_left() == 2


def test_a_loaded_ball_step_with_no_legal_ball_ends_the_turn() -> None:
    tiles = {(0, 0): 0, (1, 0): None, (0, 1): None, (-1, 1): None}
    state = load(tiles, edition="2008", step="ball", placed=[[1, 0], [-1, 1]], last_placer=1)
    assert state.current_player() == 1 and state.step == "tile"


def test_three_players_tiles_run_out_then_balls_go_on_any_empty_tile() -> None:
    state = new(players=3, size=2)  # 8 tiles: 4 tile turns (white, red, black, white)
    movers = []
    while state.step in ("tile", "second-tile", "ball"):
        movers.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert state.tiles_left() == 0
    assert movers[::3][:4] == [0, 1, 2, 0], (
        "one placement turn (tile, tile, ball) per player in turn order"
    )
    assert state.step == "ball-any" and state.current_player() == 1
    for text in texts(state):
        cell = state.frame.cell(text[1:])
        assert (
            text.startswith("@")
            and cell in state.placement.cells
            and state.placement.cells[cell] < 0
        )
    before = state.pawn_counts()[1]
    state.apply(state.legal_actions()[0])
    assert state.pawn_counts()[1] == before + 1


def test_when_nobody_can_place_a_ball_the_movement_phase_starts() -> None:
    # every empty tile is next to a ball of the same colour or would have no freedom:
    # white, red and black all pass; the player after the last placer (black) is white, whose
    # turn 1 comes first; white's only move leaves no removal that the equaliser allows (both
    # would capture), so white is eliminated at the start of that turn and red plays turn 2
    tiles = {(0, 0): 0, (1, 0): None, (2, 0): 1, (3, 0): None, (2, 1): 2}
    state = load(tiles, edition="2008", step="ball-any", size=2, players=3, last_placer=2)
    assert state.step == "move" and state.turn == 2 and state.current_player() == 1
    assert state.pawn_counts() == [0, 1, 1] and state.history() == []


def test_a_player_who_cannot_place_a_ball_passes_and_the_next_places() -> None:
    # white's only candidate (1,0) touches its own ball; red can use (3,0)... (4,0) keeps it free
    tiles = {(0, 0): 0, (1, 0): None, (2, 0): None, (3, 0): None, (4, 0): None, (2, 1): 2}
    state = load(tiles, edition="2008", step="ball-any", size=2, players=3, last_placer=2)
    assert state.current_player() == 0
    white = {state.frame.cell(t[1:]) for t in texts(state)}
    assert (1, 0) not in white, "next to white's own ball"
    state.apply(state.legal_actions()[0])
    assert state.current_player() == 1


def test_movement_starts_with_the_player_after_the_last_placer() -> None:
    state = new(players=2, size=2)
    last = None
    while state.step in ("tile", "second-tile", "ball", "ball-any"):
        last = state.current_player()
        state.apply(state.legal_actions()[-1])
    assert last == 1 and state.turn == 1
    assert state.current_player() == 0 and state.step == "move"
