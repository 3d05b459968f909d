"""Positions: saving the table at the start of a generation and refereeing from a typed-in table."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from limitgames.core import GameRecord, PositionError, get_game
from limitgames.world.position import position_json
from limitgames.world.state import WorldState
from tests.world.scenario import new_state


def _at_generation(players: int, seed: int, generation: int) -> WorldState:
    state = new_state(players, seed=seed)
    rng = random.Random(seed)
    while state.generation < generation and not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def _same_table(a: WorldState, b: WorldState) -> None:
    assert [n.key() for n in a.nations] == [n.key() for n in b.nations]
    assert a.pending == b.pending and a.current_player() == b.current_player()
    assert (a.world_bank, a.pollution_reserve, a.disruption_reserve) == (
        b.world_bank,
        b.pollution_reserve,
        b.disruption_reserve,
    )
    assert (a.market_price, a.market_stock, a.colonization, a.crises) == (
        b.market_price,
        b.market_stock,
        b.colonization,
        b.crises,
    )
    assert a.limit_box == b.limit_box


@pytest.mark.parametrize(("players", "generation"), [(2, 1), (3, 3), (5, 5)])
def test_position_round_trip(players: int, generation: int) -> None:
    state = _at_generation(players, seed=players, generation=generation)
    if state.is_terminal():
        pytest.skip("the game ended early")
    position = position_json(state)
    json.dumps(position)
    again = get_game("world").state_from_position(position)
    assert isinstance(again, WorldState)
    _same_table(state, again)
    assert position_json(again) == position


def test_a_game_from_a_position_records_and_replays() -> None:
    state = _at_generation(3, seed=7, generation=2)
    again = get_game("world").state_from_position(position_json(state))
    again.playout(random.Random(1))
    record = GameRecord.of_state(again)
    assert record.start is not None and record.chance == []
    final = GameRecord.loads(record.dumps()).replay()
    assert final.returns() == again.returns()


def _bad(change: Any) -> dict[str, Any]:
    position = copy.deepcopy(position_json(new_state(2, seed=1)))
    change(position)
    return position


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p["nations"][0].update(sol="12111"), "may not stand above"),
        (lambda p: p["nations"][0].update(unrest=12), r"unrest: 12 is above 11"),
        (lambda p: p["nations"][0]["hand"].pop(), "missing"),
        (lambda p: p["nations"][0]["hand"].append("terrorism"), "unexpected or repeated terrorism"),
        (lambda p: p["nations"][0]["decks"]["society"].append("terrorism"), "another deck"),
        (lambda p: p["nations"][1].update(name="circle"), "seat 1 is square"),
        (lambda p: p.update(leader="nobody"), "leader"),
        (lambda p: p.update(crises=[["flood"]]), "crises"),
        (lambda p: p["market"]["fossil"].update(position=8), "market.fossil.position"),
        (lambda p: p["nations"][0]["plants"].update(renewable=7), "beyond the territory"),
        (lambda p: p["nations"][0].update(sol="33111"), "tile has moved"),
        (lambda p: p.update(variant={"players": 3}), "3 but 2 nations"),
        (lambda p: p.pop("world_bank"), "missing 'world_bank'"),
    ],
)
def test_bad_positions_are_refused(change: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        get_game("world").state_from_position(_bad(change))
