"""Hypothesis properties of the hex engine (both editions, 2 and 3 players, sizes 2..8)."""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limitgames.core import GameRecord, get_game
from limitgames.hex import kernel
from limitgames.hex.layout import generate_layout, grow_layout, layout_problems
from limitgames.hex.position import position_json, state_from_position
from limitgames.hex.state import HexState
from limitgames.hex.surface import tiles_of
from limitgames.testing import play_random_game

editions = st.sampled_from(["nestorgames", "2008"])
player_counts = st.sampled_from([2, 3])
sizes = st.integers(min_value=2, max_value=8)
seeds = st.integers(min_value=0, max_value=2**31)
LAWS = ("uniform", "grown")  # the layout law: by the seed's parity
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def decision_bound(edition: str, players: int, n: int) -> int:
    """The most decisions a game can take, from the rules.

    nestorgames: every turn removes a tile or adds a quiet turn, and the game is
    drawn once the quiet turns reach the players with pawns, so there are at
    most ``4n`` turns with a removal and ``players - 1`` quiet turns around
    each, two decisions a turn: ``2 (4n + 1) players``.
    2008: placement takes at most ``4n`` tile decisions and ``players * n``
    balls; every movement turn removes at least one tile: ``2 * 4n`` more.
    """
    if edition == "nestorgames":
        return 2 * (4 * n + 1) * players
    return 4 * n + players * n + 2 * 4 * n


@SETTINGS
@given(edition=editions, players=player_counts, n=sizes, seed=seeds)
def test_random_games_end_within_the_bound_and_keep_the_protocol(
    edition: str, players: int, n: int, seed: int
) -> None:
    variant = {"edition": edition, "players": players, "size": n}
    state = play_random_game(
        get_game("hex"), variant, seed, max_decisions=decision_bound(edition, players, n)
    )
    assert state.is_terminal() and state.legal_actions() == []
    assert all(r in (-1.0, 0.0, 1.0) for r in state.returns())


@SETTINGS
@given(edition=editions, players=player_counts, n=sizes, seed=seeds)
def test_positions_and_records_round_trip(edition: str, players: int, n: int, seed: int) -> None:
    game = get_game("hex")
    rng = random.Random(seed)
    state = game.new_initial_state(
        seed=seed, edition=edition, players=players, size=n, layout=LAWS[seed % 2]
    )
    while not state.is_terminal():
        assert isinstance(state, HexState)
        if rng.random() < 0.3:
            data = json.loads(json.dumps(position_json(state)))
            again = state_from_position(data)
            assert position_json(again) == position_json(state)
            assert [again.action_to_string(a) for a in again.legal_actions()] == [
                state.action_to_string(a) for a in state.legal_actions()
            ]
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    record = GameRecord.of_state(state, seed=seed)
    replayed = GameRecord.loads(record.dumps()).replay()
    assert replayed.returns() == state.returns()
    assert replayed.observation(None) == state.observation(None)


@SETTINGS
@given(players=player_counts, n=sizes, seed=seeds)
def test_every_generated_layout_satisfies_the_constraints(players: int, n: int, seed: int) -> None:
    layout = generate_layout(n, players, random.Random(seed))
    assert layout_problems(layout, n, players) == []
    grown = grow_layout(n, players, random.Random(seed))
    assert layout_problems(grown, n, players) == []
    assert min(q for q, _ in grown) == 0 and min(r for _, r in grown) == 0


@SETTINGS
@given(players=player_counts, n=st.integers(min_value=3, max_value=8), seed=seeds)
def test_fast_move_plan_agrees_with_the_full_rule_check(players: int, n: int, seed: int) -> None:
    """When the engine skips the per-move check (a safe removal survives any move), every
    candidate must pass the full check; and playout() draws only legal actions."""
    rng = random.Random(seed)
    state = get_game("hex").new_initial_state(
        seed=seed, players=players, size=n, layout=LAWS[seed % 2]
    )
    assert isinstance(state, HexState)
    while not state.is_terminal():
        if state.step == "move" and kernel.every_candidate_legal(state._s):
            nb = state.surface.neighbour_masks
            froms = np.empty(16, np.int64)
            dests = np.empty(16, np.uint64)
            n = kernel.move_candidates(nb, state._s, froms, dests, np.empty(64, np.uint64))
            for i in range(n):
                for to in tiles_of(int(dests[i])):
                    assert kernel.move_verdict(nb, state._s, int(froms[i]), to) == (True, True)
        twin = state.clone()
        before = len(twin.history())
        twin.playout(random.Random(seed))
        replay = state.clone()
        for action in twin.history()[before:]:
            assert replay.is_legal(action)
            replay.apply(action)
        assert replay.returns() == twin.returns()
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_clone_is_independent(seed: int) -> None:
    state = get_game("hex").new_initial_state(seed=seed, size=4, layout=LAWS[seed % 2])
    snapshot = json.dumps(state.observation(None), sort_keys=True)
    twin = state.clone()
    twin.playout(random.Random(seed))
    assert json.dumps(state.observation(None), sort_keys=True) == snapshot
    assert not state.is_terminal() and twin.is_terminal()


def _first_actions(state: HexState, runs: int, seed: int) -> dict[int, int]:
    rng = random.Random(seed)
    counts: dict[int, int] = {}
    start = len(state.history())
    for _ in range(runs):
        twin = state.clone()
        twin._legal = None  # no cached legal list: the playout must sample on its own
        twin.playout(rng)
        first = twin.history()[start]
        counts[first] = counts.get(first, 0) + 1
    return counts


def _find(predicate: object, size: int = 5) -> HexState:
    for seed in range(500):
        rng = random.Random(seed)
        state = get_game("hex").new_initial_state(seed=seed, size=size, layout=LAWS[seed % 2])
        assert isinstance(state, HexState)
        while not state.is_terminal():
            if predicate(state):  # type: ignore[operator]
                return state
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    raise AssertionError("no such position found")


def _assert_uniform(state: HexState, runs: int = 4000) -> None:
    legal = state.legal_actions()
    counts = _first_actions(state, runs, seed=1)
    assert set(counts) <= set(legal), "playout chose an illegal first action"
    expected = runs / len(legal)
    chi2 = sum((counts.get(a, 0) - expected) ** 2 / expected for a in legal)
    # chi-square with len(legal)-1 degrees of freedom; a generous bound (p far below 0.001)
    dof = len(legal) - 1
    assert chi2 < dof + 6 * (2 * dof) ** 0.5 + 10, (
        f"first actions are not uniform: chi2={chi2:.1f}, dof={dof}"
    )


def test_playout_moves_are_uniform_where_moves_are_checked_one_by_one() -> None:
    def slow_move_step(s: HexState) -> bool:
        if s.step != "move" or s.equaliser():
            return False
        return not kernel.every_candidate_legal(s._s) and 4 <= len(s.legal_actions()) <= 60

    _assert_uniform(_find(slow_move_step))


def test_playout_removals_are_uniform_when_some_removals_split_the_surface() -> None:
    geo_split = lambda s: (  # noqa: E731 - a short predicate
        s.step == "remove"
        and not s.equaliser()
        and s._s is not None
        and len(s.legal_actions()) >= 2
        and bool(s._s[kernel.S_TILES] & s._s[kernel.S_EDGE] & ~s._s[kernel.S_SAFE])
    )
    _assert_uniform(_find(geo_split))
