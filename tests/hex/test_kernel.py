"""The kernel's fast paths against the plain ones: batch entry points against one game at a
time through HexState, the one-action legality check against the legal list, codec round trips.

Every expected value here comes from the slower path of the same question (the rules
themselves are checked against the naive reference in test_differential.py).
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limitgames.core import get_game
from limitgames.hex import kernel, playouts
from limitgames.hex.batch import HexBatch, set_threads
from limitgames.hex.codec import (
    KERNEL_ACTIONS,
    Kind,
    ball_action,
    cell_code,
    code_cell,
    kind_of,
    move_action,
    move_tiles,
    placement_cell,
    removal_action,
    removal_tile,
    tile_action,
)
from limitgames.hex.encoding import mask_action, mask_place
from limitgames.hex.state import HexState


def _random_positions(count: int, seed: int, players: int = 2, size: int = 5) -> list[HexState]:
    """States reached by random play from seeded layouts (various steps, equaliser turns included)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = get_game("hex").new_initial_state(
            seed=seed * 1000 + i, players=players, size=size, layout=("uniform", "grown")[i % 2]
        )
        assert isinstance(state, HexState)
        for _ in range(rng.randrange(0, 40)):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        out.append(state)
    return out


def test_codec_round_trips() -> None:
    for fr in (0, 1, 31, 63):
        for to in (0, 5, 63):
            action = move_action(fr, to)
            assert kind_of(action) == Kind.MOVE and move_tiles(action) == (fr, to)
    for t in (0, 17, 63):
        assert kind_of(removal_action(t)) == Kind.REMOVE and removal_tile(removal_action(t)) == t
    for cell in ((0, 0), (-5, 7), (127, -128), (-128, 127)):
        assert code_cell(cell_code(cell)) == cell
        assert kind_of(tile_action(cell)) == Kind.TILE and placement_cell(tile_action(cell)) == cell
        assert kind_of(ball_action(cell)) == Kind.BALL and placement_cell(ball_action(cell)) == cell
    with pytest.raises(ValueError):
        cell_code((128, 0))
    for junk in (-1, True, "a1", 1.5, None, KERNEL_ACTIONS, 10**9):
        assert kind_of(junk) is None


def test_the_packed_mask_places_are_the_bit_string_positions() -> None:
    """``write_mask_words`` packs the legal actions as one 4160-bit string, bit ``i`` for action
    ``i`` (its docstring): word ``i // 64``, bit ``i % 64``. ``mask_place`` and ``mask_action``
    (written through the codec) agree with that for every move and removal, and invert each
    other."""
    for action in range(KERNEL_ACTIONS):
        word, bit = mask_place(action)
        assert (word, bit) == (action // 64, action % 64), action
        assert mask_action(word, bit) == action


HEX_SOURCES = Path(__file__).resolve().parents[2] / "src" / "limitgames"
INLINE = {ast.RShift: 6, ast.BitAnd: 63, ast.Mult: 64, ast.FloorDiv: 64, ast.Mod: 64, ast.Add: 4096}
"""The action arithmetic of the codec (``from * 64 + to``, ``4096 + tile``, and their inverses
``>> 6``, ``& 63``, ``// 64``, ``% 64``), as binary operations with that constant."""


def test_no_action_arithmetic_outside_the_codec() -> None:
    """The hex engine and its compiled search take actions apart and make them only through
    ``hex/codec.py`` (its compiled twins are inlined): no shift, mask, product or sum of the
    codec's constants elsewhere. A product of two constants (a buffer's length, ``8 * 64``) is
    no action."""
    found = []
    for path in sorted(
        [*HEX_SOURCES.glob("hex/*.py"), *HEX_SOURCES.glob("agents/hex_search/*.py")]
    ):
        if path.name == "codec.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.BinOp) or type(node.op) not in INLINE:
                continue
            sides = (node.left, node.right)
            constant = [isinstance(side, ast.Constant) for side in sides]
            if all(constant):
                continue
            if any(
                isinstance(side, ast.Constant) and side.value == INLINE[type(node.op)]
                for side in sides
            ):
                found.append(f"{path.relative_to(HEX_SOURCES)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "action arithmetic outside hex/codec.py:\n" + "\n".join(found)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3]), probe=st.integers(0, 2**31))
def test_one_action_check_agrees_with_the_legal_list(seed: int, players: int, probe: int) -> None:
    """``is_legal`` without a cached list (kernel.is_legal) says exactly what the list says."""
    rng = random.Random(probe)
    for state in _random_positions(3, seed, players):
        legal = set(state.legal_actions())
        candidates = list(legal) + [rng.randrange(KERNEL_ACTIONS) for _ in range(60)]
        for action in candidates:
            fresh = state.clone()
            fresh._legal = None
            assert fresh.is_legal(action) == (action in legal), state.action_to_string(action)


@pytest.mark.slow  # batched playouts against one-game playouts, on several thread counts (82 s under load)
def test_batch_playouts_equal_single_game_playouts_and_do_not_depend_on_threads() -> None:
    starts = _random_positions(24, seed=7) + _random_positions(12, seed=8, players=3)
    starts = [s for s in starts if not s.is_terminal()]
    results = []
    for threads in (1, 2):
        set_threads(min(threads, kernel_threads()))
        batch = HexBatch(starts, seed=5)
        streams = batch.rngs.copy()
        returns, lengths = batch.playout()
        results.append((returns.copy(), lengths.copy(), batch.states.copy()))
        # the same games one at a time through the kernel's single-game playout
        for b, state in enumerate(starts):
            vector = state.kernel_vector()
            assert vector is not None and state.surface is not None
            stream = streams[b : b + 1].copy()
            history = np.empty(512, dtype=np.int64)
            n = playouts.playout(
                state.surface.neighbour_masks, state.surface.ring, vector, stream, 0, -1, history
            )
            assert n == lengths[b]
            assert np.array_equal(vector, batch.states[b])
    set_threads(None)
    assert all(np.array_equal(a, b) for a, b in zip(results[0], results[1], strict=True))


def kernel_threads() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def test_batch_steps_and_masks_equal_the_state_api() -> None:
    rng = random.Random(3)
    states = [s for s in _random_positions(16, seed=11) if not s.is_terminal()]
    batch = HexBatch(states)
    twins = [s.clone() for s in states]
    for _ in range(30):
        masks = batch.legal_mask()
        actions = np.zeros(len(batch), dtype=np.int64)
        for b, twin in enumerate(twins):
            legal = twin.legal_actions()
            assert sorted(np.flatnonzero(masks[b]).tolist()) == sorted(legal)
            actions[b] = legal[rng.randrange(len(legal))] if legal else 0
        accepted = batch.step(actions)
        for b, twin in enumerate(twins):
            assert accepted[b] == (not twin.is_terminal())
            if not twin.is_terminal():
                twin.apply(int(actions[b]))
            assert np.array_equal(twin.kernel_vector(), batch.states[b])
    # an illegal action (removing tile 63: size-5 games have 20 tiles) leaves every game unchanged
    before = batch.states.copy()
    assert not batch.step(np.full(len(batch), KERNEL_ACTIONS - 1, dtype=np.int64)).any()
    assert np.array_equal(before, batch.states)
    assert batch.done().tolist() == [t.is_terminal() for t in twins]


def test_cut_off_playouts_stop_after_the_given_number_of_decisions() -> None:
    state = get_game("hex").new_initial_state(seed=2)
    twin = state.clone()
    twin.playout(random.Random(1), max_decisions=5)
    assert len(twin.history()) == 5 and not twin.is_terminal()
    replay = state.clone()
    for action in twin.history():
        replay.apply(action)
    assert replay.key() == twin.key()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3]))
def test_kernel_perft_equals_the_protocol_count(seed: int, players: int) -> None:
    from limitgames.core.perft import perft, plain_perft

    for state in _random_positions(2, seed, players, size=4):
        for depth in (0, 1, 2, 3):
            assert perft(state, depth) == plain_perft(state, depth)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3]))
def test_features_equal_a_naive_count_over_the_reference_board(seed: int, players: int) -> None:
    from tests.hex.reference import RefState, components, has_free_edge, neighbours, pawn_moves

    for state in _random_positions(3, seed, players, size=5):
        if state.is_terminal():
            continue
        board = RefState.from_position(
            {
                k: v
                for k, v in state.observation(None).items()
                if k not in ("seats", "result", "equaliser")
            }
        ).board
        empty = {c for c, p in board.items() if p is None}
        matrix = state.feature_matrix()
        for seat in range(players):
            mine = [c for c, p in board.items() if p == seat]
            moves = pawn_moves(board, seat)
            expected = [
                len(mine),
                len({n for c in mine for n in neighbours(c) if n in empty}),
                len(moves),
                sum(1 for c in empty if has_free_edge(board, c)),
                len({to for _, to in moves}),
                len(board),
                sum(
                    len(g)
                    for g in components(mine)
                    if len({n for c in g for n in neighbours(c) if n in empty}) == 1
                ),
            ]
            assert matrix[seat].tolist() == expected


def test_the_incremental_surface_refresh_after_a_removal_equals_a_full_one() -> None:
    """play_removal updates free edges and split-free tiles only next to the removed tiles."""
    for state in _random_positions(30, seed=21, size=6):
        if state.is_terminal() or state.surface is None:
            continue
        vector = state.kernel_vector()
        assert vector is not None
        full = vector.copy()
        kernel.refresh_surface(state.surface.neighbour_masks, state.surface.ring, full)
        assert full[kernel.S_EDGE] == vector[kernel.S_EDGE]
        assert full[kernel.S_SAFE] == vector[kernel.S_SAFE]


# The rule-2 case of tests/hex/test_rules.py (RULE2): b1-c1 ends the game, b1-a1 allows no
# removal, and no other move exists.
_RULE2 = {(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): 1, (4, 0): 1}
_LINE5 = {(0, 0): None, (1, 0): 0, (2, 0): None, (3, 0): None, (4, 0): 1}


@pytest.mark.parametrize("reading", ["literal", "continuing"])
@pytest.mark.parametrize("tiles", [_RULE2, _LINE5], ids=["rule2", "line5"])
def test_the_playout_sampler_draws_every_legal_move_and_no_other(
    reading: str, tiles: dict[tuple[int, int], int | None]
) -> None:
    """The sampler's first decision over 400 seeded playouts covers exactly the legal list, in
    both readings of "must, if possible", each legal move at least 25% of the time when there
    are two (the expected share is 50%: a uniform draw)."""
    from limitgames.hex.bitboard import seed_word
    from tests.hex.positions import load

    state = load(tiles, must_remove=reading)
    legal = set(state.legal_actions())
    surface, vector = state.surface, state.kernel_vector()
    assert surface is not None and vector is not None
    rng = np.array([seed_word(7)], dtype=np.uint64)
    seen: dict[int, int] = {}
    for _ in range(400):
        s = vector.copy()
        history = np.zeros(1, dtype=np.int64)
        playouts.playout(surface.neighbour_masks, surface.ring, s, rng, 0, 1, history)
        seen[int(history[0])] = seen.get(int(history[0]), 0) + 1
    assert set(seen) == legal
    assert min(seen.values()) >= 100


@pytest.mark.parametrize("reading", ["literal", "continuing"])
def test_one_action_check_agrees_with_the_legal_list_in_both_readings(reading: str) -> None:
    from tests.hex.positions import load

    for tiles in (_RULE2, _LINE5):
        state = load(tiles, must_remove=reading)
        legal = set(state.legal_actions())
        for action in [move_action(1, t) for t in range(5)] + list(legal):
            fresh = state.clone()
            fresh._legal = None
            assert fresh.is_legal(action) == (action in legal), state.action_to_string(action)
