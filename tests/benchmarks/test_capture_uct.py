"""The capture-first UCT baseline of ``benchmarks/capture_uct.py``: its playout policy against a
naive reading of "a capture whenever one is legal" on the public ``HexState``, and the agent as
the arena builds it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from benchmarks.capture_uct import capture_first_action, seed_playouts

from limitgames.agents import AgentSpecError, make_agent
from limitgames.core import get_game
from limitgames.hex import kernel
from limitgames.hex.state import HexState


def capturing_actions(state: HexState) -> set[int]:
    """The naive reference: every legal action after which an enemy of the mover has fewer
    pawns on the board (each tried on a clone of the state)."""
    mover = state.current_player()
    before = state.pawn_counts()
    found = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        after = child.pawn_counts()
        if any(after[seat] < before[seat] for seat in range(state.num_players) if seat != mover):
            found.add(action)
    return found


@pytest.mark.parametrize("players", [2, 3])
def test_the_playout_captures_whenever_a_capture_is_legal(players: int) -> None:
    seed_playouts(1)
    rng = random.Random(players)
    actions = np.empty(kernel.MAX_MOVES, np.int64)
    seen_captures = 0
    for seed in range(12):
        state = get_game("hex").new_initial_state(seed=seed, players=players, size=5)
        assert isinstance(state, HexState)
        while not state.is_terminal():
            vector, surface = state.kernel_vector(), state.surface
            assert vector is not None and surface is not None
            captures = capturing_actions(state)
            chosen = capture_first_action(
                surface.neighbour_masks, surface.ring, vector, actions, vector.copy()
            )
            if captures:
                seen_captures += 1
                assert chosen in captures
            else:
                assert chosen in state.legal_actions()
            moves = state.legal_actions()
            state.apply(moves[rng.randrange(len(moves))])
    assert seen_captures > 0  # the positions did offer captures


def test_the_baseline_is_an_arena_agent_for_hex_only() -> None:
    agent = make_agent("captureuct:iterations=60", seed=3, game="hex")
    state = get_game("hex").new_initial_state(seed=3, size=4)
    action = agent.choose(state)
    assert state.is_legal(action) and agent.last_info["iterations"] in (0, 60)
    with pytest.raises(AgentSpecError, match="only hex"):
        make_agent("captureuct", game="cards")
    with pytest.raises(AgentSpecError, match="unknown option"):
        make_agent("captureuct:depth=3")
