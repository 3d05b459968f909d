"""REINFORCE on batched hex self-play, with NumPy only: a linear policy that learns to beat random.

Run: ``.venv/bin/python examples/reinforce_hex.py [--seconds 180] [--plot docs/research_curve.png]``

The environment is :class:`limitgames.hex.vector.HexVectorEnv` (arrays in and
out, auto-reset). The policy reads the observation planes of the player to
move (``float32[B, 34, 64]``, :mod:`limitgames.hex.encoding`) and scores each
tile with a few features taken from them (its pawns, its empty neighbours,
neighbouring pawns with one empty neighbour left...). A move ``f -> t``
scores ``theta_from . x[f] + theta_to . x[t]``, a removal ``theta_remove .
x[t]``; illegal actions are masked; the policy samples from the softmax.
Both players share it (self-play); every decision is reinforced by its
player's final result (+1 / 0 / -1). Every ``eval_every`` seconds the
greedy policy plays uniformly random opponents on both seats.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from limitgames.hex.vector import HexVectorEnv

FEATURES = 10
GRID = 48
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
POWERS = (2 ** np.arange(7)).astype(np.float32)


def tile_features(obs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``float32[B, 64, FEATURES]`` from the planes ``float32[B, 34, 64]`` (the mover's view)."""
    batch = obs.shape[0]
    tiles, own, edge = obs[:, 0], obs[:, 1], obs[:, 4]
    enemy = obs[:, 2] + obs[:, 3]
    empty = tiles * (1 - own) * (1 - enemy)
    # axial coordinates from the coordinate planes; tiles no longer on the table go to cell (0, 0),
    # which neighbours no real cell (real cells are shifted to start at 1)
    q = np.where(tiles > 0, np.einsum("bkt,k->bt", obs[:, 20:27], POWERS) + 2, 0).astype(np.int64)
    r = np.where(tiles > 0, np.einsum("bkt,k->bt", obs[:, 27:34], POWERS) + 2, 0).astype(np.int64)
    rows = np.repeat(np.arange(batch), 64).reshape(batch, 64)

    def around(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        grid = np.zeros((batch, GRID, GRID), dtype=np.float32)
        grid[rows, r, q] = values
        total = np.zeros((batch, 64), dtype=np.float32)
        for dq, dr in DIRECTIONS:
            total += grid[rows, r + dr, q + dq]
        return total * tiles

    own_near, enemy_near, empty_near = around(own), around(enemy), around(empty)
    enemy_short = around(
        enemy * (empty_near <= 1)
    )  # enemy pawns next door with one freedom at most
    own_short = around(own * (empty_near <= 1))
    return np.stack(
        [
            tiles,
            own,
            enemy,
            own_near,
            enemy_near,
            empty_near,
            enemy_short,
            own_short,
            edge,
            empty_near * own,
        ],
        axis=-1,
    ).astype(np.float32)


@dataclass
class Policy:
    """A linear policy: ``theta[0]`` scores move origins, ``theta[1]`` destinations, ``theta[2]`` removals."""

    theta: np.ndarray[Any, Any] = field(
        default_factory=lambda: np.zeros((3, FEATURES), dtype=np.float64)
    )

    def probabilities(
        self, feats: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]
    ) -> np.ndarray[Any, Any]:
        """``float64[B, T * T + T]``: the masked softmax over the per-size actions (``feats``:
        ``float32[B, T, FEATURES]`` for the ``T`` tiles of the size)."""
        tiles = feats.shape[1]
        scores = feats @ self.theta.T  # [B, T, 3]
        logits = np.concatenate(
            [
                (scores[:, :, 0, None] + scores[:, None, :, 1]).reshape(len(feats), tiles * tiles),
                scores[:, :, 2],
            ],
            axis=1,
        )
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return np.asarray(p / p.sum(axis=1, keepdims=True))

    def score_function(
        self, feats: np.ndarray[Any, Any], p: np.ndarray[Any, Any], actions: np.ndarray[Any, Any]
    ) -> np.ndarray[Any, Any]:
        """``float64[B, 3, FEATURES]``: the gradient of ``log pi(action)`` with respect to ``theta``."""
        batch, tiles = feats.shape[:2]
        moves = p[:, : tiles * tiles].reshape(batch, tiles, tiles)
        expected = np.stack(
            [
                np.einsum("bf,bfk->bk", moves.sum(axis=2), feats),
                np.einsum("bt,btk->bk", moves.sum(axis=1), feats),
                np.einsum("bt,btk->bk", p[:, tiles * tiles :], feats),
            ],
            axis=1,
        )
        chosen = np.zeros_like(expected)
        rows = np.arange(batch)
        is_move = actions < tiles * tiles
        chosen[rows[is_move], 0] = feats[rows[is_move], actions[is_move] // tiles]
        chosen[rows[is_move], 1] = feats[rows[is_move], actions[is_move] % tiles]
        chosen[rows[~is_move], 2] = feats[rows[~is_move], actions[~is_move] - tiles * tiles]
        return np.asarray(chosen - expected)


def sample(p: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """One action per row of ``p``."""
    u = rng.random((len(p), 1))
    return np.asarray(np.minimum((np.cumsum(p, axis=1) < u).sum(axis=1), p.shape[1] - 1))


def evaluate(policy: Policy, games: int, seed: int, size: int) -> float:
    """The share of ``games`` the greedy policy wins against uniformly random play (both seats)."""
    env = HexVectorEnv(min(games, 256), size=size, layouts=512, seed=seed + 7)
    learner = np.arange(env.num_envs) % 2  # half the games the policy moves first
    wins = played = 0
    while played < games:
        feats = tile_features(env.observations())[:, : env.tiles]
        mask = env.legal_mask()
        greedy = np.argmax(np.where(mask, policy.probabilities(feats, mask), -1.0), axis=1)
        actions = np.where(env.to_move == learner, greedy, env.sample_actions())
        result = env.step(actions)
        for b in np.flatnonzero(result.done):
            wins += int(result.rewards[b, learner[b]] > 0)
            played += 1
            learner[b] = (learner[b] + 1) % 2
    return wins / played


def train(
    seconds: float = 180.0,
    num_envs: int = 256,
    size: int = 8,
    lr: float = 0.05,
    seed: int = 0,
    eval_every: float = 15.0,
    eval_games: int = 400,
    threads: int | None = None,
    steps: int | None = None,
) -> list[tuple[float, int, float]]:
    """Train for ``seconds`` (or exactly ``steps`` batch steps, for a reproducible run); return
    the curve ``[(training seconds, games trained, win rate vs random)]`` (the evaluations,
    ``eval_games`` games each, are not counted as training time)."""
    rng = np.random.default_rng(seed)
    env = HexVectorEnv(num_envs, size=size, layouts=1024, seed=seed, threads=threads)
    policy = Policy()
    pending = np.zeros((num_envs, 3, 3, FEATURES))  # per game and player: summed score functions
    games = 0
    curve = [(0.0, 0, evaluate(policy, eval_games, seed, size))]
    start = time.perf_counter()  # training time: evaluations are not counted
    paused = 0.0
    next_eval = min(2.0, eval_every)  # every 2 s for the first 10 s, then every eval_every
    gradient = np.zeros_like(policy.theta)
    finished = 0
    step = 0
    while (time.perf_counter() - start - paused < seconds) if steps is None else step < steps:
        step += 1
        feats = tile_features(env.observations())[:, : env.tiles]
        mask = env.legal_mask()
        p = policy.probabilities(feats, mask)
        actions = sample(p, rng)
        mover = env.to_move
        pending[np.arange(num_envs), mover] += policy.score_function(feats, p, actions)
        result = env.step(actions)
        done = np.flatnonzero(result.done)
        if len(done):
            gradient += np.einsum("bp,bpij->ij", result.rewards[done], pending[done])
            pending[done] = 0.0
            finished += len(done)
            games += len(done)
        if finished >= num_envs // 4:  # one update per quarter batch of finished games
            policy.theta += lr * gradient / finished
            gradient[:] = 0.0
            finished = 0
        elapsed = time.perf_counter() - start - paused
        if steps is None and elapsed >= next_eval:
            began = time.perf_counter()
            curve.append((elapsed, games, evaluate(policy, eval_games, seed + len(curve), size)))
            paused += time.perf_counter() - began
            next_eval += 2.0 if next_eval < 10.0 else eval_every
    elapsed = time.perf_counter() - start - paused
    curve.append((elapsed, games, evaluate(policy, eval_games, seed + 999, size)))
    return curve


def plot(curve: list[tuple[float, int, float]], path: str) -> None:
    """Draw the curve (matplotlib, ``limitgames[charts]``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 3.5), constrained_layout=True)
    axis.plot([c[0] for c in curve], [100 * c[2] for c in curve], marker="o")
    axis.axhline(90, color="grey", linestyle="--", linewidth=1)
    axis.set_xlabel("training time (s)")
    axis.set_ylabel("wins against random (%)")
    axis.set_ylim(0, 100)
    axis.set_title("REINFORCE, linear policy, batched hex self-play")
    figure.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=8, help="tiles per colour (2-16)")
    parser.add_argument("--eval-every", type=float, default=15.0)
    parser.add_argument("--plot", default=None, help="write the curve to this PNG")
    args = parser.parse_args()
    curve = train(
        args.seconds, args.envs, size=args.size, seed=args.seed, eval_every=args.eval_every
    )
    for seconds, games, rate in curve:
        print(f"{seconds:7.1f} s  {games:8d} games  {100 * rate:5.1f}% wins against random")
    if args.plot:
        plot(curve, args.plot)


if __name__ == "__main__":
    main()
