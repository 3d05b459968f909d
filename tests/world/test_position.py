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


def _two_past_generations(p: dict[str, Any]) -> None:
    p["generation"] = 3
    p["crises"] = [
        ["financial", "environmental", "military"],
        ["financial", "environmental", "military"],
        [],
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # 6 crisis tiles before generation 3: the game ended in the generation of the 4th
        (_two_past_generations, "6 tiles placed before generation 3, but the game ends once 4"),
        # a nation box holds 5 demographic-shift tiles; all 5 are still on the board at setup
        (
            lambda p: p["nations"][0].update(shift_zone=7),
            r"nations\[0\]\.shift_zone: 7 tiles in the zone and 5 on the board, but a nation has 5",
        ),
        # 2 nations: 5 + 5 territories on the boards and 1 + 2 on the colonization reserve = 13
        (
            lambda p: p["nations"][0].update(territory=40),
            r"territory: 48 on the table .* but a game of 2 nations holds 13 in all",
        ),
        # 2 x 109 $ in the World Bank + 720 $ in the LIMIT box + 2 x 5 $ on the boards = 948 $
        (
            lambda p: p.update(world_bank=10**9),
            r"money: 1000000730 \$ on the table .* holds 948 \$ in all",
        ),
        (lambda p: p.update(pollution_reserve=30), r"pollution: .* holds 33 in all"),
        (lambda p: p["limit_box"].update(shift=1), r"demographic-shift tiles: 11 on the table"),
    ],
)
def test_positions_beyond_the_box_or_the_end_are_refused(change: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message) as info:
        get_game("world").state_from_position(_bad(change))
    assert "\n" not in str(info.value)


def test_every_token_stays_in_the_box_along_random_games() -> None:
    """Seed 004, "Components" (pp 4-5): the tokens of the box (money, fossil, pollution, disruption,
    territory) are all accounted for at every step of random games."""
    from limitgames.world.position import counted_tokens, token_totals

    for players, seed in ((2, 3), (5, 4)):
        state = new_state(players, seed=seed)
        totals = token_totals(state.data, players)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert {k: sum(v.values()) for k, v in counted_tokens(state).items()} == totals
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
