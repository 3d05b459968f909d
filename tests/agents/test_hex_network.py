"""The hex tile network (limitgames.agents.hex_network): NumPy inference against PyTorch's, the
neighbour decoding against the surface, the sharing of weights across tiles, the registry.

The PyTorch twin is the training script's ``TileNet`` (scripts/train_hex_network.py), loaded
from the file: the agents layer never imports torch.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from limitgames.agents.hex_network import (
    NETWORKS,
    HexNetwork,
    NetworkBatch,
    load_network,
    neighbour_table,
    network_card,
)
from limitgames.core import get_game
from limitgames.hex import kernel
from limitgames.hex.encoding import NUM_PLANES, surface_static, unpack_planes, write_planes
from limitgames.hex.state import HexState
from tests.hex.plain_solver import plain_vector_values
from tests.script_modules import load_script


def _positions(count: int, seed: int) -> tuple[np.ndarray[Any, Any], list[Any], list[Any]]:
    """Seeded positions of sizes 2-8 (2 and 3 players) reached by uniformly random decisions:
    their words, their surfaces' neighbour tables and their legal actions."""
    rng = random.Random(seed)
    words, rings, actions = [], [], []
    buffer = np.empty(kernel.MAX_MOVES, np.int64)
    while len(words) < count:
        size, players = rng.choice([(2, 2), (3, 2), (4, 2), (4, 3), (6, 2), (8, 2), (8, 3)])
        state: Any = get_game("hex").new_initial_state(
            seed=rng.randrange(10**6), size=size, players=players
        )
        s, surface = state.kernel_vector(), state.surface
        nb, ring = surface.neighbour_masks, surface.ring
        for _ in range(rng.randrange(0, 12)):
            if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
                break
            n = kernel.legal_actions(nb, s, buffer)
            kernel.play(nb, ring, s, buffer[rng.randrange(n)])
        if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
            continue
        w = np.zeros(NUM_PLANES, np.uint64)
        write_planes(s, surface_static(surface, "nestorgames", size), int(s[kernel.S_TO_MOVE]), w)
        words.append(w)
        rings.append(ring)
        actions.append(buffer[: kernel.legal_actions(nb, s, buffer)].copy())
    return np.array(words), rings, actions


def _torch_twin() -> Any:
    pytest.importorskip("torch", reason="needs limitgames[rl] (torch)")
    return load_script("scripts/train_hex_network.py")


@pytest.mark.slow  # importing torch takes a second or two
def test_numpy_inference_equals_torch_on_seeded_random_positions() -> None:
    import torch

    script = _torch_twin()
    network = HexNetwork.random(5, width=16, rounds=3, hidden=24, policy=12)
    twin = script.TileNet(width=16, rounds=3, hidden=24, policy=12).double()
    twin.load_arrays(network.arrays)
    # the conversion both ways loses nothing
    for name, value in twin.arrays().items():
        np.testing.assert_array_equal(value, network.arrays[name])
    words, rings, actions = _positions(40, seed=11)
    batch = NetworkBatch.from_words(words)
    values, policies = network.evaluate(batch, actions)
    position = np.repeat(np.arange(len(actions)), [len(a) for a in actions])
    with torch.no_grad():
        t_values, t_logits = twin(
            torch.from_numpy(batch.features).double(),
            torch.from_numpy(batch.neighbours),
            torch.from_numpy(position),
            torch.from_numpy(np.concatenate(actions)),
        )
    np.testing.assert_allclose(values, t_values.numpy(), atol=1e-5)
    start = 0
    for b, policy in enumerate(policies):
        logits = t_logits.numpy()[start : start + len(actions[b])]
        start += len(actions[b])
        expected = np.exp(logits - logits.max())
        np.testing.assert_allclose(policy, expected / expected.sum(), atol=1e-5)
    # the surfaces' fixed neighbour tables give the same outputs as the decoded ones
    t = batch.features.shape[1]
    fixed = NetworkBatch(batch.features, np.array(rings)[:, :t])
    again, _ = network.evaluate(fixed, actions)
    np.testing.assert_allclose(again, values, atol=1e-6)


def test_the_decoded_neighbours_are_the_surface_s_on_the_table() -> None:
    words, rings, _ = _positions(30, seed=3)
    table = neighbour_table(unpack_planes(words))
    for b in range(len(words)):
        on = {t for t in range(64) if (int(words[b, 0]) >> t) & 1}
        for t in range(64):
            for d in range(6):
                j = int(rings[b][t, d])
                expected = j if t in on and j in on else -1
                assert table[b, t, d] == expected, (b, t, d)


def test_weights_are_shared_by_all_tiles_so_renumbering_the_tiles_changes_nothing() -> None:
    """Renumber the tiles of a position by a permutation: the value is the same and each
    action's probability moves with its tiles (the network has no per-tile weight)."""
    network = HexNetwork.random(2)
    words, _, actions = _positions(6, seed=8)
    batch = NetworkBatch.from_words(words)
    values, policies = network.evaluate(batch, actions)
    rng = np.random.default_rng(4)
    t = batch.features.shape[1]
    for b in range(len(words)):
        new_of = rng.permutation(t)  # tile i becomes tile new_of[i]
        features = np.zeros_like(batch.features[b : b + 1])
        features[0, new_of] = batch.features[b]
        neighbours = np.full_like(batch.neighbours[b : b + 1], -1)
        old = batch.neighbours[b]
        neighbours[0, new_of] = np.where(old >= 0, new_of[np.maximum(old, 0)], -1)
        renamed = []
        for a in actions[b]:
            if a < 4096:
                renamed.append(new_of[a // 64] * 64 + new_of[a % 64])
            else:
                renamed.append(4096 + new_of[a - 4096])
        value, policy = network.evaluate(NetworkBatch(features, neighbours), [renamed])
        np.testing.assert_allclose(value[0], values[b], atol=1e-5)
        np.testing.assert_allclose(policy[0], policies[b], atol=1e-5)


def test_a_network_of_zeros_but_its_value_bias_values_every_position_alike() -> None:
    """All weights 0 but ``value2_b = atanh(0.5)``: every value is tanh(atanh(0.5)) = 0.5 and
    every legal action equally likely (all logits 0)."""
    shapes = HexNetwork.shapes(width=8, rounds=2, hidden=4, policy=4)
    arrays = {name: np.zeros(shape, np.float32) for name, shape in shapes.items()}
    arrays["value2_b"][0] = np.arctanh(0.5)
    words, _, actions = _positions(5, seed=1)
    values, policies = HexNetwork(arrays).evaluate(NetworkBatch.from_words(words), actions)
    np.testing.assert_allclose(values, 0.5, atol=1e-6)
    for policy in policies:
        np.testing.assert_allclose(policy, 1.0 / len(policy), atol=1e-6)


def test_shipped_networks_load_by_name_are_small_and_carry_their_card() -> None:
    for name in NETWORKS:
        network = load_network(name)
        assert sum(a.nbytes for a in network.arrays.values()) < 1_000_000
        card = network_card(name)
        assert card["name"] == name
        assert card["command"].startswith("python scripts/train_hex_network.py")
        assert card["commit"] and card["commit"] != "unknown"


def test_unknown_networks_and_malformed_weights_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown network 'nope'"):
        load_network("nope")
    with pytest.raises(ValueError, match="unknown network"):
        network_card("../../etc/passwd")
    arrays = dict(HexNetwork.random(0, width=8, rounds=1).arrays)
    arrays["embed_w"] = np.zeros((3, 8), np.float32)
    with pytest.raises(ValueError, match="embed_w"):
        HexNetwork(arrays)
    arrays["embed_w"] = np.zeros((20, 8), np.float32)
    del arrays["move_out"]
    with pytest.raises(ValueError, match="move_out"):
        HexNetwork(arrays)


@pytest.mark.slow  # importing torch takes a second or two
def test_the_training_symmetries_map_directions_as_turning_and_mirroring_the_grid_do() -> None:
    """``symmetry(k)`` of the training script against the grid itself: the axial turn
    ``(q, r) -> (q + r, -q)`` (a sixth of a turn; it maps the six neighbour offsets onto each
    other in their cyclic order) ``k % 6`` times, after the mirror ``(q, r) -> (r, q)`` for
    ``k >= 6``, takes direction ``d`` to direction ``symmetry(k)[d]``."""
    from limitgames.hex.surface import DIRECTIONS

    script = _torch_twin()
    for k in range(12):
        order = script.symmetry(k)
        assert sorted(order) == list(range(6))
        for d, (q, r) in enumerate(DIRECTIONS):
            if k >= 6:
                q, r = r, q
            for _ in range(k % 6):
                q, r = q + r, -q
            assert DIRECTIONS[order[d]] == (q, r), (k, d)


@pytest.mark.slow  # importing torch takes a second or two
def test_small_games_draw_their_random_openings_without_moving_the_sizes() -> None:
    """``--small-random R`` draws each game's random first decisions from 0..R; the sizes stay
    those drawn without it (so the games a run saved stay the games of their seeds), and
    without it no decision is random."""
    script = _torch_twin()
    plain = script.game_jobs(100, 200, [2, 3, 4], [1.0, 1.0, 1.0], 3000, 4)
    mixed = script.game_jobs(100, 200, [2, 3, 4], [1.0, 1.0, 1.0], 3000, 4, randomised=6)
    assert [j[:4] for j in plain] == [j[:4] for j in mixed]
    assert {j.random for j in plain} == {0}
    assert {j.random for j in mixed} == set(range(7))  # 200 draws of 7 values: each one met


@pytest.mark.slow  # importing torch takes a second or two
def test_value_targets_are_the_result_the_search_or_their_mean_and_old_games_are_refused(
    tmp_path: Path,
) -> None:
    """``--value-target``: by hand, results (1, -1) and root values (0.5, -0.25) give the mix
    (0.75, -0.625); games saved before root values were kept load with NaN in their place and
    serve ``result`` but refuse ``search`` and ``mix`` by name."""
    script = _torch_twin()
    words = np.zeros((2, NUM_PLANES), np.uint64)
    actions = [np.array([1, 2], np.int16), np.array([3], np.int16)]
    shares = [np.array([0.25, 0.75], np.float32), np.array([1.0], np.float32)]
    games = script.Samples(
        words, np.array([1.0, -1.0], np.float32), np.array([2, 2], np.int8), actions, shares,
        np.array([0.5, -0.25], np.float32),
    )  # fmt: skip
    np.testing.assert_array_equal(games.targets("result"), [1.0, -1.0])
    np.testing.assert_array_equal(games.targets("search"), [0.5, -0.25])
    np.testing.assert_array_equal(games.targets("mix"), [0.75, -0.625])
    games.save(tmp_path / "new.npz")
    again = script.Samples.load(tmp_path / "new.npz")
    np.testing.assert_array_equal(again.searched, [0.5, -0.25])
    assert [list(a) for a in again.actions] == [[1, 2], [3]]
    with np.load(tmp_path / "new.npz") as data:  # a file as written before root values
        np.savez(tmp_path / "old.npz", **{k: data[k] for k in data.files if k != "searched"})
    old = script.Samples.load(tmp_path / "old.npz")
    np.testing.assert_array_equal(old.targets("result"), [1.0, -1.0])
    for kind in ("search", "mix"):
        with pytest.raises(ValueError, match=f"--value-target {kind} needs"):
            old.targets(kind)
    with pytest.raises(ValueError, match="--exact-tiles needs"):
        games.targets("result", exact=True)  # played without exact values
    # rescored: the first position unsettled (NaN keeps the target), the second settled a draw
    games.exact = np.array([np.nan, 0.0], np.float32)
    np.testing.assert_array_equal(games.targets("mix", exact=True), [0.75, 0.0])
    np.testing.assert_array_equal(games.targets("mix"), [0.75, -0.625])  # not asked for
    games.save(tmp_path / "exact.npz")
    np.testing.assert_array_equal(script.Samples.load(tmp_path / "exact.npz").exact, games.exact)


@pytest.mark.slow  # importing torch takes a second or two
def test_saved_games_keep_the_jobs_that_played_them_and_other_runs_games_are_named(
    tmp_path: Path,
) -> None:
    """``--games-from`` reads a saved file only if its games are the run's own: the same seeds,
    sizes, expert and options. The differences below are planted by hand; the exact solver's
    options matter only to a run that rescores with it."""
    script = _torch_twin()
    jobs = script.game_jobs(500, 2, [2, 3], [1.0, 1.0], 3000, 4, exact_tiles=8)
    words = np.zeros((1, NUM_PLANES), np.uint64)
    games = script.Samples(
        words, np.array([1.0], np.float32), np.array([2], np.int8), [np.array([1], np.int16)],
        [np.array([1.0], np.float32)], np.array([0.5], np.float32), None, jobs,
    )  # fmt: skip
    games.save(tmp_path / "games.npz")
    again = script.Samples.load(tmp_path / "games.npz")
    assert again.jobs == jobs and again.unlike(jobs) is None
    fewer = script.game_jobs(500, 2, [2, 3], [1.0, 1.0], 1000, 4, exact_tiles=8)
    assert again.unlike(fewer) == (
        "game seed 500 was played with iterations=3000, this run asks for iterations=1000"
    )
    assert again.unlike(jobs[:1]) == "it holds 2 games, this run asks for 1"
    later = script.game_jobs(501, 2, [2, 3], [1.0, 1.0], 3000, 4, exact_tiles=8)
    assert (
        again.unlike(later) == "game seed 501 was played with seed=500, this run asks for seed=501"
    )
    unscored = script.game_jobs(500, 2, [2, 3], [1.0, 1.0], 3000, 4)  # exact_tiles=0
    assert again.unlike(unscored) is None  # its exact values are not read
    deeper = script.game_jobs(500, 2, [2, 3], [1.0, 1.0], 3000, 4, exact_tiles=12)
    assert again.unlike(deeper) == (
        "game seed 500 was played with exact_tiles=8, this run asks for exact_tiles=12"
    )
    games.jobs = None  # as saved before the jobs were kept: nothing to compare
    games.save(tmp_path / "old.npz")
    assert script.Samples.load(tmp_path / "old.npz").unlike(fewer) is None


@pytest.mark.slow  # importing torch, and a few searches
def test_with_mcts_solver_a_proven_root_value_is_the_result_the_expert_then_reaches() -> None:
    """Self-play with ``solve`` (MCTS-Solver in the expert), no random or sampled decisions:
    once the search proves a position won or lost for the seat to move, the expert plays the
    proof (a won position's proven move, and a lost one cannot escape a perfect winner), so
    the game's result for that seat is the proven value. Root values are results' means or
    proofs, so they lie in [-1, 1]. Sizes 2 and 3 (4 and 9 tiles) are small enough for 2,000
    iterations to prove most positions (at least one proof is asked of each game)."""
    script = _torch_twin()
    for seed, size in ((5, 2), (6, 3), (7, 3)):
        games = script.play_game(script.Job(seed, size, 2000, 0, 0, True))
        assert np.all(np.abs(games.searched) <= 1.0)
        proven = np.abs(games.searched) == 1.0
        assert proven.any(), (seed, size)
        np.testing.assert_array_equal(games.results[proven], games.searched[proven])


def _replayed(games: Any, job: Any) -> list[tuple[Any, Any, Any, int]]:
    """Replay a game of ``job`` (no random or sampled decisions) from its seed by the recorded
    visit shares (their first largest entry; a decision with one legal action is not recorded
    and is played as it is), checking on the way that every recorded position and legal action
    set is met in order, that the shares are a distribution, and that the game ends with the
    recorded result -> ``(neighbour masks, ring, state vector, mover)`` of each recorded
    decision."""
    state = get_game("hex").new_initial_state(seed=job.seed, size=job.size, players=2)
    assert isinstance(state, HexState)
    s, surface = state.kernel_vector(), state.surface
    assert s is not None and surface is not None
    nb, ring = surface.neighbour_masks, surface.ring
    static = surface_static(surface, "nestorgames", job.size)
    buffer = np.empty(kernel.MAX_MOVES, np.int64)
    positions = []
    while int(s[kernel.S_STEP]) != kernel.OVER_STEP:
        n = kernel.legal_actions(nb, s, buffer)
        if n == 1:
            kernel.play(nb, ring, s, buffer[0])
            continue
        recorded = len(positions)
        words = np.zeros(NUM_PLANES, np.uint64)
        mover = int(s[kernel.S_TO_MOVE])
        write_planes(s, static, mover, words)
        np.testing.assert_array_equal(games.words[recorded], words)
        np.testing.assert_array_equal(np.sort(games.actions[recorded]), np.sort(buffer[:n]))
        shares = games.shares[recorded]
        assert shares.min() >= 0.0 and abs(float(shares.sum()) - 1.0) < 1e-5
        positions.append((nb, ring, s.copy(), mover))
        kernel.play(nb, ring, s, int(games.actions[recorded][int(np.argmax(shares))]))
    assert len(positions) == len(games) > 0
    result = np.zeros(3)
    kernel.returns_of(s, result)
    np.testing.assert_array_equal(games.results, [result[m] for *_, m in positions])
    return positions


@pytest.mark.slow  # importing torch, and a few searches
@pytest.mark.parametrize("size", [2, 3, 5])
def test_with_puct_as_the_expert_the_samples_are_the_game_it_played(size: int) -> None:
    """``--expert NAME``: puct with a shipped network plays both seats. Without random or
    sampled decisions it plays each decision's most visited action, so replaying the game from
    its seed by the recorded visit shares must meet every recorded position, in order, and end
    with the recorded result (:func:`_replayed`); the root values lie in [-1, 1], and the same
    job gives the same samples."""
    script = _torch_twin()
    job = script.Job(11 + size, size, 96, 0, 0, False, "exit3")
    games = script.play_game(job)
    again = script.play_game(job)
    np.testing.assert_array_equal(games.words, again.words)
    np.testing.assert_array_equal(games.searched, again.searched)
    _replayed(games, job)
    assert np.all(np.abs(games.searched) <= 1.0)
    assert games.exact is None  # not asked for


@pytest.mark.slow  # importing torch, a few searches, the plain solver
@pytest.mark.parametrize(("size", "tiles"), [(3, 12), (5, 14)])
def test_exact_values_are_the_plain_solver_s_on_the_positions_small_enough(
    size: int, tiles: int
) -> None:
    """``--exact-tiles T``: every recorded position of at most ``T`` tiles carries the exact
    value for its mover, which must be the plain reference solver's (``tests/hex/
    plain_solver.py``: no pruning or ordering of the fast one); a larger position carries NaN.
    Size 3 starts with 12 tiles (all solved); size 5 with 20, so its first positions are not
    solved and its last ones are (the game ends on fewer than 14 tiles)."""
    script = _torch_twin()
    job = script.Job(21 + size, size, 96, 0, 0, False, "exit3", exact_tiles=tiles)
    games = script.play_game(job)
    small = []
    for (nb, ring, s, mover), exact in zip(_replayed(games, job), games.exact, strict=True):
        if bin(int(s[kernel.S_TILES])).count("1") > tiles:
            assert np.isnan(exact)
            continue
        small.append(exact)
        assert exact == plain_vector_values(nb, ring, s)[mover]
    assert small and (size == 3) == (len(small) == len(games))


def test_a_batch_of_positions_evaluates_as_each_position_alone() -> None:
    # The batched forward pass (PUCT's fast path: up to `batch` leaves per call, positions of
    # different sizes padded to the largest) against the naive one-position-per-call use.
    network = HexNetwork.random(7, width=16, rounds=3, hidden=24, policy=12)
    words, _rings, actions = _positions(12, seed=23)
    values, policies = network.evaluate(NetworkBatch.from_words(words), actions)
    for b in range(len(actions)):
        alone, [policy] = network.evaluate(NetworkBatch.from_words(words[b : b + 1]), [actions[b]])
        np.testing.assert_allclose(alone[0], values[b], atol=1e-6)
        np.testing.assert_allclose(policy, policies[b], atol=1e-6)
