"""MaskablePPO (sb3-contrib) on hex against random: the Gymnasium env as it is, masks from the env.

Run: ``.venv/bin/python examples/maskable_ppo_hex.py [--minutes 10] [--timesteps N] [--save PATH]``
(``pip install 'limitgames[rl]'``: sb3-contrib and a CPU build of PyTorch).

The environment is ``gymnasium.make("limitgames/HexVsRandom-v0", size=4)`` (:mod:`limitgames.gym`):
Browne's Limit with 4 tiles per colour, you against a uniformly random opponent, a per-size
action index (``A = T * T + T = 272`` for ``T = 16`` tiles), the observation
``{"observation": float32[34, 64], "action_mask": int8[272]}`` and the reward your return when
the game ends (+1 win, 0 shared, -1 loss). ``MaskablePPO`` reads the legal actions from the
env's own ``action_masks()`` (sb3-contrib's convention, no ``ActionMasker`` wrapper). Your seat
is drawn each episode (``seat=None``), so the policy learns both seats.

The policy (``--policy tiles``, the default) knows the board: :class:`TileGraph` decodes each
tile's axial coordinates from the observation's ``q_bit_k`` / ``r_bit_k`` planes, so it knows
which tiles are neighbours on the layout this game drew, and passes messages between them
(weights shared by all tiles); :class:`TileActions` scores each move and removal from the
embeddings of the tiles it names. ``--policy mlp`` is sb3's ``MultiInputPolicy``, which
flattens the Dict observation into one MLP and cannot tell which tiles are neighbours.

Every ``--eval-every`` minutes (and at the start and the end) the policy plays
``--eval-games`` seeded games against random, half of them in each seat, taking the most
probable legal action (masked, deterministic; ``--sample``: sampled from the masked policy);
the win rate counts shared results as not won.
The time budget ``--minutes`` is wall-clock time including those evaluations.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any

import gymnasium

import limitgames.gym  # noqa: F401 - registers the limitgames/... environments

try:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from stable_baselines3.common.vec_env import DummyVecEnv
    from torch import nn
except ImportError as _error:  # name the extra, not just the module
    raise ImportError(
        f"this example needs the rl extra: pip install 'limitgames[rl]' ({_error})"
    ) from _error
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from limitgames.hex.encoding import COORD_BITS, P_Q, P_R, P_TILES
from limitgames.hex.surface import DIRECTIONS

ENV_ID = "limitgames/HexVsRandom-v0"
TILE_PLANES = P_Q
"""Planes ``0 .. P_Q - 1`` describe each tile's state (on the table, pawns, free edge, colour,
which neighbours are present, the step); the coordinate planes after them only say where it lies."""


def adjacency(planes: torch.Tensor) -> torch.Tensor:
    """The tile adjacency of a batch of observations (``rules/hex.md``, Surface: two tiles are
    adjacent when their cells are neighbours), read from the planes themselves.

    ``planes``: ``float32[B, NUM_PLANES, T]`` (the observation's first ``T`` columns). The axial
    coordinates ``(q, r)`` of tile ``t`` are decoded from the bit planes ``q_bit_k`` and
    ``r_bit_k``; returns ``float32[B, 6, T, T]``, 1 at ``[b, d, i, j]`` when tiles ``i`` and
    ``j`` are both on the table and ``j``'s cell is ``i``'s cell plus ``DIRECTIONS[d]``."""
    weights = 2.0 ** torch.arange(COORD_BITS, dtype=planes.dtype, device=planes.device)
    q = torch.einsum("bkt,k->bt", planes[:, P_Q : P_Q + COORD_BITS], weights)
    r = torch.einsum("bkt,k->bt", planes[:, P_R : P_R + COORD_BITS], weights)
    dq = q[:, None, :] - q[:, :, None]  # [b, i, j] = q_j - q_i
    dr = r[:, None, :] - r[:, :, None]
    on = planes[:, P_TILES]
    both = on[:, :, None] * on[:, None, :]
    steps = [((dq == a) & (dr == b)).to(planes.dtype) for a, b in DIRECTIONS]
    return torch.stack(steps, dim=1) * both[:, None]


class TileGraph(BaseFeaturesExtractor):  # type: ignore[misc]
    """A features extractor that knows the board: message passing over the tile adjacency.

    Each tile on the table starts from its state planes (``TILE_PLANES`` numbers); each of
    ``rounds`` rounds adds to it ``relu(W [h_i, sum_j A_0[i, j] h_j, ..., sum_j A_5[i, j] h_j])``,
    one sum per direction of :func:`adjacency` (a hexagonal convolution on whatever layout the
    game drew), with weights shared by all tiles; tiles off the table stay 0. Output:
    ``float32[B, tiles * width + width]``, the ``tiles`` embeddings in tile order (tile ``t`` =
    action tile ``t``) then their mean over the tiles on the table. Only the observation part
    of the Dict is read: the legal actions reach the policy through the mask."""

    def __init__(
        self, observation_space: Any, tiles: int = 16, width: int = 32, rounds: int = 3
    ) -> None:
        super().__init__(observation_space, features_dim=tiles * width + width)
        self.tiles, self.width = tiles, width
        self.embed = nn.Linear(TILE_PLANES, width)
        self.rounds = nn.ModuleList(nn.Linear(7 * width, width) for _ in range(rounds))

    def tile_embeddings(self, planes: torch.Tensor) -> torch.Tensor:
        """``float32[B, NUM_PLANES, >= tiles]`` -> ``float32[B, tiles, width]``."""
        planes = planes[:, :, : self.tiles]
        links = adjacency(planes)
        on = planes[:, P_TILES, :, None]
        h = torch.relu(self.embed(planes[:, :TILE_PLANES].transpose(1, 2))) * on
        for layer in self.rounds:
            messages = torch.einsum("bdij,bjh->bidh", links, h).flatten(2)
            h = (h + torch.relu(layer(torch.cat([h, messages], dim=-1)))) * on
        return h

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        planes = observations["observation"]
        h = self.tile_embeddings(planes)
        count = planes[:, P_TILES, : self.tiles].sum(dim=1, keepdim=True).clamp(min=1.0)
        return torch.cat([h.flatten(1), h.sum(dim=1) / count], dim=1)


class TileActions(nn.Module):
    """The policy's action logits from the tile embeddings, with weights shared by all tiles:
    moving the pawn on tile ``f`` to tile ``t`` (action ``f * T + t``) scores
    ``v . relu(S h_f + D h_t + c)``, removing tile ``t`` (action ``T * T + t``) ``w . h_t``.
    Input ``float32[B, tiles * width + ...]`` (:class:`TileGraph`'s output), output
    ``float32[B, tiles * tiles + tiles]``."""

    def __init__(self, tiles: int, width: int, hidden: int = 32) -> None:
        super().__init__()
        self.tiles, self.width = tiles, width
        self.source = nn.Linear(width, hidden)
        self.target = nn.Linear(width, hidden, bias=False)
        self.move = nn.Linear(hidden, 1)
        self.remove = nn.Linear(width, 1)
        for last in (self.move, self.remove):  # near-uniform at the start, as SB3's own head
            nn.init.orthogonal_(last.weight, gain=0.01)
            nn.init.zeros_(last.bias)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        h = latent[:, : self.tiles * self.width].reshape(-1, self.tiles, self.width)
        pairs = torch.relu(self.source(h)[:, :, None, :] + self.target(h)[:, None, :, :])
        moves = self.move(pairs).squeeze(-1).flatten(1)
        removals = self.remove(h).squeeze(-1)
        return torch.cat([moves, removals], dim=1)


class TilePolicy(MaskableMultiInputActorCriticPolicy):  # type: ignore[misc]
    """``MaskableMultiInputActorCriticPolicy`` with :class:`TileGraph` features, the action
    logits from :class:`TileActions` and the value from an MLP over the features."""

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        kwargs = self.features_extractor_kwargs
        self.action_net = TileActions(kwargs.get("tiles", 16), kwargs.get("width", 32))
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )


@dataclass
class Evaluation:
    """One evaluation against random: ``games`` played, ``wins``, ``illegal`` actions chosen."""

    seconds: float
    timesteps: int
    games: int
    wins: int
    illegal: int

    @property
    def win_rate(self) -> float:
        """``wins / games`` (shared results count as not won)."""
        return self.wins / self.games


@dataclass
class Run:
    """What :func:`train` returns: the evaluation curve, the training steps taken, the illegal
    actions chosen while training (counted from the env's ``info["illegal"]``), the model."""

    curve: list[Evaluation] = field(default_factory=list)
    timesteps: int = 0
    illegal: int = 0
    episodes: int = 0
    model: Any = None


def evaluate(
    model: Any, games: int, seed: int, size: int = 4, deterministic: bool = True
) -> tuple[int, int, int]:
    """Play ``games`` seeded games against random, game ``i`` in seat ``i % 2`` with reset seed
    ``seed + i``; return ``(games played, wins, illegal actions chosen)``. The policy's action is
    the most probable legal one (``deterministic=True``) or sampled from the masked policy."""
    envs = [gymnasium.make(ENV_ID, size=size, seat=seat) for seat in (0, 1)]
    played = wins = illegal = 0
    for i in range(games):
        env = envs[i % 2]
        obs, _ = env.reset(seed=seed + i)
        done = False
        reward = 0.0
        while not done:
            mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
            action, _ = model.predict(obs, action_masks=mask, deterministic=deterministic)
            obs, reward_, terminated, truncated, info = env.step(int(action))
            reward = float(reward_)
            illegal += int(bool(info.get("illegal", False)))
            done = terminated or truncated
        played += 1
        wins += int(reward > 0)
    for env in envs:
        env.close()
    return played, wins, illegal


class Budget(BaseCallback):  # type: ignore[misc]
    """Stops training after ``seconds`` of wall-clock time (evaluations included), evaluates
    every ``eval_every`` seconds, counts illegal actions and finished episodes, shows a Rich
    progress bar (in seconds with a time budget, else in timesteps)."""

    def __init__(
        self,
        run: Run,
        seconds: float | None,
        timesteps: int | None,
        eval_every: float,
        eval_games: int,
        seed: int,
        size: int,
        progress: bool,
        deterministic: bool = True,
    ) -> None:
        super().__init__()
        self.run, self.seconds, self.timesteps = run, seconds, timesteps
        self.eval_every, self.eval_games, self.seed, self.size = eval_every, eval_games, seed, size
        self.deterministic = deterministic
        self.start = time.perf_counter()
        self.next_eval = eval_every
        self.bar = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TextColumn("{task.completed:>9.0f}/{task.total:.0f} {task.fields[unit]}"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            disable=not progress,
        )
        unit = "s" if seconds is not None else "steps"
        total = seconds if seconds is not None else float(timesteps or 0)
        self.task = self.bar.add_task("MaskablePPO", total=total, unit=unit, rate="")

    def elapsed(self) -> float:
        """Seconds since the start of training."""
        return time.perf_counter() - self.start

    def evaluation(self) -> Evaluation:
        """Evaluate now and record it on the curve."""
        played, wins, illegal = evaluate(
            self.model,
            self.eval_games,
            self.seed + 100_000 * (len(self.run.curve) + 1),
            self.size,
            self.deterministic,
        )
        result = Evaluation(self.elapsed(), self.num_timesteps, played, wins, illegal)
        self.run.curve.append(result)
        self.bar.update(self.task, rate=f"{100 * result.win_rate:5.1f}% wins vs random")
        return result

    def _on_training_start(self) -> None:
        self.bar.start()
        self.start = time.perf_counter()
        self.evaluation()

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            self.run.illegal += int(bool(info.get("illegal", False)))
            self.run.episodes += int(done)
        elapsed = self.elapsed()
        if elapsed >= self.next_eval:
            self.evaluation()
            self.next_eval += self.eval_every
        completed = elapsed if self.seconds is not None else self.num_timesteps
        self.bar.update(self.task, completed=completed)
        return self.seconds is None or self.elapsed() < self.seconds

    def _on_training_end(self) -> None:
        self.bar.stop()


def train(
    minutes: float | None = 10.0,
    timesteps: int | None = None,
    size: int = 4,
    seed: int = 0,
    envs: int = 8,
    n_steps: int = 256,
    batch_size: int = 256,
    n_epochs: int = 4,
    learning_rate: float = 3e-4,
    ent_coef: float = 0.01,
    net: tuple[int, ...] = (64, 64),
    policy: str = "tiles",
    width: int = 32,
    rounds: int = 3,
    threads: int = 1,
    eval_every_minutes: float = 1.0,
    eval_games: int = 200,
    save: str | None = None,
    progress: bool = True,
    deterministic: bool = True,
) -> Run:
    """Train ``MaskablePPO`` on ``HexVsRandom-v0`` at ``size`` until ``minutes`` of wall-clock
    time or ``timesteps`` steps (whichever comes first; at least one must be given), evaluating
    against random as the module docstring says. Seeded: ``seed`` seeds the model, PyTorch and
    the ``envs`` training environments (``seed + i``); evaluation ``k`` plays the reset seeds
    ``seed + 100000 * k + i``, taking the most probable legal action (``deterministic``) or
    sampling from the masked policy. With ``save``, the model is written there (``MaskablePPO.save``,
    a zip). ``policy="tiles"``: :class:`TilePolicy` (``width`` numbers per tile, ``rounds``
    rounds of message passing, ``net`` the value's hidden layers); ``policy="mlp"``: sb3's
    ``MultiInputPolicy`` with hidden layers ``net``. Raises ValueError if neither budget is
    given or the policy is unknown."""
    if minutes is None and timesteps is None:
        raise ValueError("give a time budget (minutes) or a number of timesteps")
    if policy not in ("tiles", "mlp"):
        raise ValueError(f"unknown policy {policy!r}: choose tiles or mlp")
    torch.set_num_threads(threads)
    vec = make_vec_env(
        ENV_ID,
        n_envs=envs,
        seed=seed,
        vec_env_cls=DummyVecEnv,
        env_kwargs={"size": size, "seat": None},
    )
    if policy == "tiles":
        policy_class: Any = TilePolicy
        policy_kwargs: dict[str, Any] = {
            "features_extractor_class": TileGraph,
            "features_extractor_kwargs": {"tiles": 4 * size, "width": width, "rounds": rounds},
            "net_arch": {"pi": [], "vf": list(net)},
        }
    else:
        policy_class, policy_kwargs = "MultiInputPolicy", {"net_arch": list(net)}
    model = MaskablePPO(
        policy_class,
        vec,
        n_steps=n_steps,
        batch_size=batch_size,
        n_epochs=n_epochs,
        learning_rate=learning_rate,
        ent_coef=ent_coef,
        gamma=1.0,  # the only reward is the result at the end of a short game
        policy_kwargs=policy_kwargs,
        seed=seed,
        device="cpu",
        verbose=0,
    )
    # no output but the progress bar: a logger without writers (SB3's default one makes an
    # empty SB3-<date> folder in the temporary directory on every run)
    model.set_logger(Logger(folder=None, output_formats=[]))
    run = Run(model=model)
    seconds = None if minutes is None else 60.0 * minutes
    budget = Budget(
        run,
        seconds,
        timesteps,
        60.0 * eval_every_minutes,
        eval_games,
        seed,
        size,
        progress,
        deterministic,
    )
    model.learn(total_timesteps=timesteps if timesteps is not None else 10**12, callback=budget)
    run.timesteps = model.num_timesteps
    budget.evaluation()
    vec.close()
    if save:
        model.save(save)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=None, help="wall-clock budget")
    parser.add_argument("--timesteps", type=int, default=None, help="training steps budget")
    parser.add_argument("--size", type=int, default=4, help="tiles per colour (2-16)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=8, help="training environments")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per env per update")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument(
        "--policy",
        choices=("tiles", "mlp"),
        default="tiles",
        help="tiles: message passing over the tile adjacency; mlp: MultiInputPolicy",
    )
    parser.add_argument("--width", type=int, default=32, help="tile embedding width (tiles)")
    parser.add_argument("--rounds", type=int, default=3, help="message passing rounds (tiles)")
    parser.add_argument(
        "--net", default="64,64", help="hidden layer sizes (tiles: of the value only)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch.set_num_threads (docs/research.md: why 1)",
    )
    parser.add_argument("--eval-every", type=float, default=1.0, help="minutes")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument(
        "--sample", action="store_true", help="evaluate sampling from the masked policy"
    )
    parser.add_argument("--save", default=None, help="write the trained model to this zip")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args()
    minutes = 10.0 if args.minutes is None and args.timesteps is None else args.minutes
    run = train(
        minutes=minutes,
        timesteps=args.timesteps,
        size=args.size,
        seed=args.seed,
        envs=args.envs,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        ent_coef=args.ent_coef,
        net=tuple(int(width) for width in args.net.split(",")),
        policy=args.policy,
        width=args.width,
        rounds=args.rounds,
        threads=args.threads,
        eval_every_minutes=args.eval_every,
        eval_games=args.eval_games,
        save=args.save,
        progress=not args.no_progress,
        deterministic=not args.sample,
    )
    for point in run.curve:
        print(
            f"{point.seconds / 60:6.2f} min  {point.timesteps:8d} steps  "
            f"{100 * point.win_rate:5.1f}% wins against random ({point.wins}/{point.games})"
        )
    print(f"{run.episodes} training games, {run.illegal} illegal actions chosen")


if __name__ == "__main__":
    main()
