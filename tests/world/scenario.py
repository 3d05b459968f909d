"""Building LIMIT positions for scenario tests: a game at a chosen step with chosen boards."""

from __future__ import annotations

from typing import Any

from limitgames.core import get_game
from limitgames.world.data import CLASSES, PLANTS
from limitgames.world.nation import Nation
from limitgames.world.state import STAGES, Choice, WorldState


def new_state(players: int = 2, seed: int = 0, **variant: Any) -> WorldState:
    """A fresh game (at the new-policy step of generation 1)."""
    state = get_game("world").new_initial_state(seed=seed, players=players, **variant)
    assert isinstance(state, WorldState)
    return state


def set_board(nation: Nation, **fields: Any) -> Nation:
    """Set board fields: population=pos, renewable=pos (plant), stock_renewable=n, sol="33322", ..."""
    for key, value in fields.items():
        if key in PLANTS:
            nation.plants[PLANTS.index(key)] = value
        elif key.startswith("stock_"):
            nation.stock[PLANTS.index(key[6:])] = value
        elif key == "sol":
            nation.sol = [int(c) for c in str(value)]
            assert len(nation.sol) == len(CLASSES)
        else:
            assert hasattr(nation, key), key
            setattr(nation, key, value)
    return nation


def at_policy(state: WorldState, seat: int, hand: list[str]) -> Nation:
    """Put ``state`` at the decide-policy step with ``seat`` to play from ``hand``.

    The other nations hold only Market Access and have not passed, so play stops at the next
    nation's turn once ``seat``'s turn is over.
    """
    state.stage = "decide_policy"
    state.stage_index = STAGES.index("decide_policy")
    state.cursor = 1
    state.leader = seat
    state.policy_turn = 0
    state.policy_plays = 0
    for n in state.nations:
        n.passed = False
        if n.seat != seat:
            n.hand = ["market-access"]
    nation = state.nations[seat]
    nation.hand = list(hand)
    state.pending = [Choice("policy", seat, (0,))]
    state.deferred = []
    state._legal = None
    return nation


def play(state: WorldState, *actions: str) -> None:
    """Apply actions in notation."""
    for text in actions:
        state.apply_string(text)


def public_lines(state: WorldState) -> str:
    """The whole log as one text."""
    return "\n".join(state.log_lines(None))


def totals(state: WorldState) -> dict[str, int]:
    """The conserved quantities: money, fossil, pollution, disruption, territory."""
    ns = state.nations
    return {
        "money": sum(n.money for n in ns) + state.world_bank + state.limit_box["money"],
        "fossil": sum(n.fossil for n in ns)
        + state.market_stock[3]
        + state.colonization[1]
        + state.limit_box["fossil"],
        "pollution": sum(n.pollution for n in ns)
        + state.pollution_reserve
        + state.limit_box["pollution"],
        "disruption": sum(n.disruption for n in ns)
        + state.disruption_reserve
        + state.limit_box["disruption"],
        "territory": sum(n.territory for n in ns)
        + state.colonization[0]
        + state.limit_box["territory"],
    }
