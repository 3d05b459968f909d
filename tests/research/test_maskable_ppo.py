"""The MaskablePPO example (examples/maskable_ppo_hex.py) trains, shortened and seeded, and never
plays an illegal action."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.script_modules import load_script

pytest.importorskip("gymnasium", reason="needs limitgames[gymnasium]")
pytest.importorskip("sb3_contrib", reason="needs limitgames[rl] (sb3-contrib, torch)")


def _load() -> Any:
    return load_script("examples/maskable_ppo_hex.py")


def test_a_short_seeded_run_honours_the_masks_and_plays_the_games_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    example = _load()
    saved = tmp_path / "ppo.zip"
    temporary = tmp_path / "tmp"  # where SB3's default logger would make an empty folder
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    run = example.train(
        minutes=None,
        timesteps=2048,
        size=4,
        seed=3,
        envs=4,
        n_steps=256,
        batch_size=256,
        n_epochs=2,
        policy="tiles",  # the default, kept small here: the test checks legality, not strength
        width=8,
        rounds=1,
        threads=1,
        eval_every_minutes=1000.0,  # no evaluation in between, however busy the machine
        eval_games=12,
        save=str(saved),
        progress=False,
    )
    # 4 envs x 256 steps a rollout: 2 rollouts reach 2048 steps
    assert run.timesteps == 2048
    # a size-4 game against random lasts about ten of your decisions: 2048 steps end many games
    assert run.episodes > 50
    # the env itself (the rules engine's legality check) reports an illegal action with
    # info["illegal"]; with 272 actions and a few dozen legal at most, an untrained policy
    # that ignored the mask would choose illegal ones at almost every step
    assert run.illegal == 0
    # evaluated before training and after it, each time the number of games asked
    assert len(run.curve) == 2
    for point in run.curve:
        assert point.games == 12
        assert point.illegal == 0
        assert 0 <= point.wins <= point.games
    assert saved.is_file()
    # the run's logger writes nothing (torch may keep its own caches there)
    assert [p.name for p in temporary.iterdir() if p.name.startswith("SB3-")] == []


def test_an_untrained_policy_without_masks_plays_illegal_actions() -> None:
    """The control for the test above: the env's count of illegal actions can be non-zero."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    example = _load()
    env = gymnasium.make(example.ENV_ID, size=4)
    model = MaskablePPO("MultiInputPolicy", env, seed=0, device="cpu")
    obs, _ = env.reset(seed=0)
    illegal = 0
    for _ in range(20):
        action, _ = model.predict(obs, deterministic=False)  # no action_masks given
        obs, _, terminated, truncated, info = env.step(int(action))
        illegal += int(bool(info.get("illegal", False)))
        if terminated or truncated:
            obs, _ = env.reset()
    assert illegal > 0


def _observations(example: Any, games: int = 3) -> Any:
    """Observations of real size-4 positions (after a few random steps), as a batch."""
    import gymnasium
    import numpy as np

    env = gymnasium.make(example.ENV_ID, size=4)
    batch = []
    for game in range(games):
        obs, _ = env.reset(seed=game)
        for _ in range(game):  # a few steps in: some tiles removed, some pawns moved
            legal = np.flatnonzero(env.unwrapped.action_masks())
            obs, _, terminated, truncated, _ = env.step(int(legal[0]))
            if terminated or truncated:
                obs, _ = env.reset(seed=game)
        batch.append(obs["observation"])
    env.close()
    return np.stack(batch)


def test_adjacency_read_from_the_coordinates_agrees_with_the_engines_neighbour_planes() -> None:
    """The extractor decodes each tile's (q, r) from the coordinate bit planes; the engine's own
    planes neighbour_d say, per tile, whether the cell in DIRECTIONS[d] holds a tile. Two
    independent sources: tile i has a neighbour in direction d iff some j has A[d, i, j] = 1."""
    import torch

    from limitgames.hex.encoding import P_NEIGHBOUR

    example = _load()
    planes = torch.as_tensor(_observations(example, games=4))[:, :, :16]
    links = example.adjacency(planes)
    assert links.shape == (4, 6, 16, 16)
    assert torch.equal(links.amax(dim=3), planes[:, P_NEIGHBOUR : P_NEIGHBOUR + 6])
    assert links.sum(dim=3).max() <= 1  # one cell per direction
    # adjacency is symmetric: j is i's neighbour in d iff i is j's in the opposite d + 3
    assert torch.equal(links, links.roll(3, dims=1).transpose(2, 3))


def test_adjacency_of_three_hand_placed_tiles() -> None:
    """Tiles 0, 1, 2 at (0, 0), (1, 0), (0, 1) and tile 3 off the table at (1, 1): tile 1 is
    tile 0 plus (1, 0) (direction 0), tile 2 is tile 0 plus (0, 1) (direction 5), tile 2 is
    tile 1 plus (-1, 1) (direction 4); tile 3 would neighbour tiles 1 and 2 but is gone."""
    import torch

    from limitgames.hex.encoding import NUM_PLANES, P_Q, P_R, P_TILES

    example = _load()
    planes = torch.zeros(1, NUM_PLANES, 4)
    planes[0, P_TILES, :3] = 1.0
    for tile, (q, r) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1)]):
        planes[0, P_Q, tile], planes[0, P_R, tile] = q, r  # bit 0 of each coordinate
    links = example.adjacency(planes)[0]
    expected = {(0, 0, 1), (5, 0, 2), (4, 1, 2), (3, 1, 0), (2, 2, 0), (1, 2, 1)}
    assert {tuple(int(x) for x in index) for index in links.nonzero()} == expected


def test_the_tile_policy_permutes_with_the_tiles_and_sees_only_neighbours_in_one_round() -> None:
    """Renumbering the tiles (the columns of every plane, coordinates included) renumbers the
    embeddings and the actions the same way and leaves the mean unchanged: the weights are shared
    by all tiles and the adjacency travels with them. With one round a tile's embedding changes
    when a neighbour's pawn changes, and not when a tile two steps away changes."""
    import gymnasium
    import torch

    from limitgames.hex.encoding import P_OWN

    example = _load()
    env = gymnasium.make(example.ENV_ID, size=4)
    torch.manual_seed(0)
    graph = example.TileGraph(env.observation_space, tiles=16, width=8, rounds=1)
    head = example.TileActions(16, 8)
    torch.nn.init.normal_(head.move.weight)  # the head starts near 0: make it count here
    torch.nn.init.normal_(head.remove.weight)
    env.close()
    planes = torch.as_tensor(_observations(example, games=1))[:, :, :16]
    features = graph({"observation": planes})
    assert features.shape == (1, 16 * 8 + 8)
    logits = head(features)
    assert logits.shape == (1, 16 * 16 + 16)

    order = torch.randperm(16, generator=torch.Generator().manual_seed(1))
    permuted = graph({"observation": planes[:, :, order]})
    tiles = features[:, : 16 * 8].reshape(1, 16, 8)
    assert torch.allclose(permuted[:, : 16 * 8].reshape(1, 16, 8), tiles[:, order], atol=1e-5)
    assert torch.allclose(permuted[:, 16 * 8 :], features[:, 16 * 8 :], atol=1e-5)
    moves = logits[:, :256].reshape(1, 16, 16)
    permuted_logits = head(permuted)
    assert torch.allclose(
        permuted_logits[:, :256].reshape(1, 16, 16), moves[:, order][:, :, order], atol=1e-5
    )
    assert torch.allclose(permuted_logits[:, 256:], logits[:, 256:][:, order], atol=1e-5)

    links = example.adjacency(planes)[0].amax(dim=0)  # [i, j]: adjacent in some direction
    two_steps = ((links @ links) > 0) & (links == 0)
    two_steps.fill_diagonal_(False)
    tile = 0
    far = int(two_steps[tile].nonzero()[0])  # a tile two steps from tile 0
    near = int(links[tile].nonzero()[0])
    before = graph.tile_embeddings(planes)[0, tile]
    for other, changes in ((near, True), (far, False)):
        edited = planes.clone()
        edited[0, P_OWN, other] = 1.0 - edited[0, P_OWN, other]
        after = graph.tile_embeddings(edited)[0, tile]
        assert (not torch.allclose(after, before)) is changes
