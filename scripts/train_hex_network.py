"""Train the hex tile network (:mod:`limitgames.agents.hex_network`) by self-play with an expert.

Usage (the shipped weights; ``--help`` for every option)::

    nice -n 19 .venv/bin/python scripts/train_hex_network.py --out runs/hexnet --ship exit1

Expert Iteration (Anthony, Tian and Barber 2017):

- **expert** (``--expert``): ``mcts`` (the default), the compiled MCTS of hex
  (:class:`limitgames.agents.hex_search.HexSearch`: tactical playouts, tactical order with
  progressive widening, c = 1, contempt 0.3, the search of the ``hard`` level), or the name of
  a shipped network: ``puct`` guided by that network (:class:`limitgames.agents.puct.PuctSearch`,
  its defaults, the tree kept from one decision to the next), the apprentice of an earlier run
  become the expert, from generation ``--expert-from`` on (the compiled MCTS plays the games
  before it, and the held-out games if it is past 1), with ``--expert-iterations`` a decision
  (default ``--iterations``, the compiled MCTS's); the expert plays both seats. The exact solver is off
  (it is the independent check, ``benchmarks/hex_network_exact.py``), and so is MCTS-Solver
  unless ``--solve yes`` (compiled MCTS only: proofs inside the search's own tree, a proven
  position is played perfectly from there on and its root value is exact);
- **games**: 2 players, nestorgames edition, the game's default layouts, each game's size
  drawn from ``--sizes`` (2-8: the small sizes the solver covers are in the distribution);
  the first ``--explore`` decisions of a game are sampled from the expert's visit shares, the
  rest take its most visited action;
- **small games** (``--small N``): N more games a generation of ``--small-sizes`` (2-4 by
  default, the sizes the exact check covers; cheap to play), each starting with 0 to
  ``--small-random`` uniformly random decisions (drawn from its seed) before the sampled and
  the best ones: positions off the expert's own path, like the check's positions from random
  games, valued by the expert's play from there on (never by the solver);
- **targets**: at every decision with more than one legal action, the policy target is the
  root's visit shares (every legal action tried at least once counts; the rest 0) and the
  value target (``--value-target``) the game's result for the seat to move (+1 won, -1 lost,
  0 drawn: ``result``), the search's root value for it (``search``: the proven value if the
  search proved one, else the children's mean results weighted by their visits), or the mean
  of the two (``mix``);
- **apprentice**: the tile network (``--start NAME``: from a shipped network's weights, else
  from random ones), trained in PyTorch on every sample so far (the expert does not change
  within a run, so older games stay valid targets) by Adam on ``value MSE + policy cross
  entropy``, ``--steps`` minibatches per generation.

Each generation adds ``--games`` games, trains, and writes ``curve.csv`` (losses, the value's
sign accuracy on the held-out games' decided positions, the policy's agreement with the
expert's top move) and a checkpoint (``generation-NN.npz``, the NumPy weights). Held-out games
are played once, with seeds no training game uses. With ``--ship NAME`` the last weights are
copied to ``src/limitgames/agents/networks/hex_NAME.npz`` (a new name is then added to
``NETWORKS``) with a card (``.json``) naming the commit, the
command, the date, the machine and the held-out figures. Seeded: the same arguments give the
same games (the workers return them in order) and, with ``--threads 1``, the same weights.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import multiprocessing
import os
import platform
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

try:
    import torch
    from torch import nn
except ImportError as _error:  # name the extra, not just the module
    raise ImportError(f"training needs torch: pip install 'limitgames[rl]' ({_error})") from None
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from limitgames.agents.hex_network import (
    NETWORKS,
    TILE_FEATURES,
    HexNetwork,
    NetworkBatch,
    load_network,
)
from limitgames.hex.codec import REMOVAL_BASE
from limitgames.hex.encoding import NUM_PLANES, P_NEIGHBOUR, P_TILES
from limitgames.hex.surface import MAX_TILES

ROOT = Path(__file__).resolve().parents[1]
NETWORK_DIR = ROOT / "src" / "limitgames" / "agents" / "networks"
HELD_OUT_SEED = 1_000_003
"""Held-out games draw their seeds from this offset on (training games from 0 on)."""
SMALL_SEED = 2_000_003
"""Small games (``--small``) draw their seeds from this offset on."""


# --- the network in PyTorch (the NumPy one in limitgames.agents.hex_network is its twin) ----------
class TileNet(nn.Module):
    """The tile network of :mod:`limitgames.agents.hex_network` in PyTorch (same weights, same
    forward pass; :meth:`arrays` and :meth:`load_arrays` convert)."""

    def __init__(self, width: int = 32, rounds: int = 4, hidden: int = 64, policy: int = 32):
        super().__init__()
        self.width, self.hidden, self.policy = width, hidden, policy
        self.embed = nn.Linear(TILE_FEATURES, width)
        self.rounds = nn.ModuleList(nn.Linear(7 * width, width) for _ in range(rounds))
        self.value1 = nn.Linear(2 * width, hidden)
        self.value2 = nn.Linear(hidden, 1)
        self.move_source = nn.Linear(width, policy, bias=False)
        self.move_target = nn.Linear(width, policy, bias=False)
        self.move_global = nn.Linear(2 * width, policy)
        self.move_out = nn.Linear(policy, 1)
        self.remove_tile = nn.Linear(width, policy, bias=False)
        self.remove_global = nn.Linear(2 * width, policy)
        self.remove_out = nn.Linear(policy, 1)

    def tiles(
        self, features: torch.Tensor, neighbours: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``features [B, T, F]``, ``neighbours [B, T, 6]`` (-1: none) -> tile embeddings
        ``[B, T, W]`` and the pooled position ``[B, 2 W]``."""
        count, t = features.shape[0], features.shape[1]
        on = features[:, :, P_TILES : P_TILES + 1]
        h = torch.relu(self.embed(features)) * on
        links = torch.where((neighbours < 0) | (neighbours >= t), t, neighbours)
        links = links.reshape(count, t * 6, 1).expand(-1, -1, self.width)
        pad = features.new_zeros((count, 1, self.width))
        for layer in self.rounds:
            padded = torch.cat([h, pad], dim=1)
            messages = torch.gather(padded, 1, links).reshape(count, t, 6 * self.width)
            h = (h + torch.relu(layer(torch.cat([h, messages], dim=2)))) * on
        tiles_on = on.sum(dim=1).clamp(min=1.0)
        pooled = torch.cat([h.sum(dim=1) / tiles_on, h.max(dim=1).values], dim=1)
        return h, pooled

    def forward(
        self,
        features: torch.Tensor,
        neighbours: torch.Tensor,
        position: torch.Tensor,
        actions: torch.Tensor,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Values ``[B]`` and the logits ``[N]`` of kernel actions ``actions[i]`` in positions
        ``position[i]``."""
        h, pooled = self.tiles(features, neighbours)
        values = torch.tanh(self.value2(torch.relu(self.value1(pooled)))).squeeze(1)
        logits = features.new_zeros(actions.shape[0])
        move = actions < REMOVAL_BASE
        b, act = position[move], actions[move]
        z = (
            self.move_source(h[b, act // MAX_TILES])
            + self.move_target(h[b, act % MAX_TILES])
            + self.move_global(pooled)[b]
        )
        logits[move] = self.move_out(torch.relu(z)).squeeze(1)
        remove = ~move
        b, tile = position[remove], actions[remove] - REMOVAL_BASE
        z = self.remove_tile(h[b, tile]) + self.remove_global(pooled)[b]
        logits[remove] = self.remove_out(torch.relu(z)).squeeze(1)
        return values, logits

    def named_parameters_for_inference(self) -> list[tuple[str, torch.Tensor, str]]:
        """Each weight under :class:`~limitgames.agents.hex_network.HexNetwork`'s name, with
        how NumPy holds it: ``"T"`` transposed (a linear layer's matrix, inputs first),
        ``"row"`` a one-output layer's weights as a vector, ``""`` as it is (a bias). The one
        table that both :meth:`arrays` and :meth:`load_arrays` read."""
        table: list[tuple[str, torch.Tensor, str]] = [
            ("embed_w", self.embed.weight, "T"),
            ("embed_b", self.embed.bias, ""),
        ]
        for k, layer in enumerate(self.rounds):
            assert isinstance(layer, nn.Linear)
            table += [(f"round{k}_w", layer.weight, "T"), (f"round{k}_b", layer.bias, "")]
        return [
            *table,
            ("value1_w", self.value1.weight, "T"),
            ("value1_b", self.value1.bias, ""),
            ("value2_w", self.value2.weight, "row"),
            ("value2_b", self.value2.bias, ""),
            ("move_source", self.move_source.weight, "T"),
            ("move_target", self.move_target.weight, "T"),
            ("move_global", self.move_global.weight, "T"),
            ("move_b", self.move_global.bias, ""),
            ("move_out", self.move_out.weight, "row"),
            ("move_out_b", self.move_out.bias, ""),
            ("remove_tile", self.remove_tile.weight, "T"),
            ("remove_global", self.remove_global.weight, "T"),
            ("remove_b", self.remove_global.bias, ""),
            ("remove_out", self.remove_out.weight, "row"),
            ("remove_out_b", self.remove_out.bias, ""),
        ]

    def arrays(self) -> dict[str, np.ndarray[Any, Any]]:
        """The weights under :class:`~limitgames.agents.hex_network.HexNetwork`'s names."""
        out: dict[str, np.ndarray[Any, Any]] = {}
        for name, param, form in self.named_parameters_for_inference():
            value = param.detach().cpu()
            value = value.T if form == "T" else value[0] if form == "row" else value
            out[name] = np.asarray(value.numpy(), dtype=np.float32)
        return out

    def load_arrays(self, arrays: dict[str, Any]) -> None:
        """Set the weights from :meth:`arrays`' names (the inverse of :meth:`arrays`)."""
        with torch.no_grad():
            for name, param, form in self.named_parameters_for_inference():
                value = np.asarray(arrays[name])
                value = value.T if form == "T" else value[None, :] if form == "row" else value
                param.copy_(torch.as_tensor(value, dtype=param.dtype))


# --- self-play -----------------------------------------------------------------------------------
@dataclass
class Samples:
    """Decisions of some games: observation words ``uint64[N, NUM_PLANES]`` (the seat to move's
    planes), results ``float32[N]`` (for the seat to move), the size of each game, and per
    decision its legal kernel actions and the expert's visit shares over them; ``searched``
    ``float32[N]`` is the expert's root value for the seat to move (NaN in games saved before
    it was kept); ``exact`` ``float32[N]`` the exact solver's value for the seat to move of
    the positions it settled (NaN elsewhere), or ``None`` for games played without
    ``--exact-tiles``; ``jobs`` the :class:`Job` of each game that made them (``None`` in
    games saved before they were kept), which ``--games-from`` checks against the run's own."""

    words: np.ndarray[Any, Any]
    results: np.ndarray[Any, Any]
    sizes: np.ndarray[Any, Any]
    actions: list[np.ndarray[Any, Any]]
    shares: list[np.ndarray[Any, Any]]
    searched: np.ndarray[Any, Any]
    exact: np.ndarray[Any, Any] | None = None
    jobs: list[Job] | None = None

    @staticmethod
    def join(parts: list[Samples]) -> Samples:
        exact = [p.exact for p in parts if p.exact is not None]
        return Samples(
            np.concatenate([p.words for p in parts]).reshape(-1, NUM_PLANES),
            np.concatenate([p.results for p in parts]),
            np.concatenate([p.sizes for p in parts]),
            [a for p in parts for a in p.actions],
            [s for p in parts for s in p.shares],
            np.concatenate([p.searched for p in parts]),
            np.concatenate(exact) if len(exact) == len(parts) else None,
        )

    def __len__(self) -> int:
        return len(self.results)

    def save(self, path: Path) -> None:
        """Write the samples as ``.npz`` (the legal actions and shares flattened)."""
        arrays: dict[str, Any] = {
            "words": self.words,
            "results": self.results,
            "sizes": self.sizes,
            "counts": np.array([len(a) for a in self.actions], np.int64),
            "actions": np.concatenate(self.actions) if self.actions else np.zeros(0, np.int16),
            "shares": np.concatenate(self.shares) if self.shares else np.zeros(0, np.float32),
            "searched": self.searched,
        }
        if self.exact is not None:
            arrays["exact"] = self.exact
        if self.jobs is not None:
            arrays["jobs"] = np.array(json.dumps(self.jobs))
        np.savez_compressed(path, **arrays)

    @staticmethod
    def load(path: Path) -> Samples:
        """The samples :meth:`save` wrote."""
        with np.load(path) as data:
            cuts = np.cumsum(data["counts"])[:-1]
            return Samples(
                data["words"],
                data["results"],
                data["sizes"],
                list(np.split(data["actions"], cuts)),
                list(np.split(data["shares"], cuts)),
                data["searched"]
                if "searched" in data.files
                else np.full(len(data["results"]), np.nan, np.float32),
                data["exact"] if "exact" in data.files else None,
                [Job(*job) for job in json.loads(str(data["jobs"]))]
                if "jobs" in data.files
                else None,
            )

    def unlike(self, jobs: list[Job]) -> str | None:
        """How the games saved here differ from ``jobs`` (the first difference, in words), or
        ``None`` where they are the same games (the exact solver's options aside when this run
        does not rescore: they change no move, and its values are then not read)."""
        if self.jobs is None:
            return None
        if len(self.jobs) != len(jobs):
            return f"it holds {len(self.jobs)} games, this run asks for {len(jobs)}"
        for saved, wanted in zip(self.jobs, jobs, strict=True):
            for field in Job._fields:
                have, want = getattr(saved, field), getattr(wanted, field)
                if field in ("exact_tiles", "exact_nodes") and wanted.exact_tiles == 0:
                    continue
                if have != want:
                    return (f"game seed {wanted.seed} was played with {field}={have}, "
                            f"this run asks for {field}={want}")  # fmt: skip
        return None

    def targets(self, kind: str, exact: bool = False) -> np.ndarray[Any, Any]:
        """The value targets ``float32[N]`` of ``--value-target kind`` (result, search or mix);
        with ``exact`` (``--exact-tiles``) the exact solver's value replaces the target of
        every position it settled, as Leela Chess Zero's rescorer puts endgame tablebase
        values into its training games.

        Raises:
            ValueError: the games hold no root values and ``kind`` needs them, or no exact
                values and ``exact`` asks for them.
        """
        base = self._targets(kind)
        if not exact:
            return base
        if self.exact is None:
            raise ValueError("--exact-tiles needs the exact solver's values: "
                             "these games were played without them")  # fmt: skip
        rescored: np.ndarray[Any, Any] = np.where(np.isnan(self.exact), base, self.exact)
        return rescored.astype(np.float32)

    def _targets(self, kind: str) -> np.ndarray[Any, Any]:
        if kind == "result":
            return self.results
        if np.isnan(self.searched).any():
            raise ValueError(f"--value-target {kind} needs the search's root values: "
                             "these games were saved without them")  # fmt: skip
        if kind == "search":
            return self.searched
        mixed: np.ndarray[Any, Any] = ((self.results + self.searched) / 2).astype(np.float32)
        return mixed


class Job(NamedTuple):
    """A game to play."""

    seed: int
    size: int
    iterations: int
    """The expert's iterations a decision."""
    explore: int
    """Decisions sampled from the expert's visit shares (after the random ones)."""
    random: int
    """Uniformly random first decisions."""
    solve: bool
    """MCTS-Solver in the compiled MCTS expert."""
    expert: str = "mcts"
    """``mcts`` (the compiled MCTS of hex) or the name of a shipped network (``puct`` with it)."""
    exact_tiles: int = 0
    """Positions with at most so many tiles are solved by the exact solver (0: none)."""
    exact_nodes: int = 200_000
    """The exact solver's work a position (positions searched); past it the value stays NaN."""


def play_game(job: Job) -> Samples:
    """One self-play game of the expert (:class:`Job`) -> its samples. The first ``random``
    decisions are uniformly random (the expert still searches them for their policy target),
    the next ``explore`` sampled from the expert's visit shares; ``solve`` turns MCTS-Solver on
    in the compiled MCTS; with a network as the expert, ``puct`` searches (its tree kept from
    one decision to the next). With ``exact_tiles`` every recorded position of at most so many
    tiles is also given to the exact solver (``hex/solver.py``, ``exact_nodes`` positions at
    most): its value for the seat to move is kept in ``exact``."""
    from limitgames.agents.hex_network import load_network
    from limitgames.agents.hex_search import HexSearch
    from limitgames.agents.puct import PuctSearch
    from limitgames.core import get_game
    from limitgames.hex import kernel
    from limitgames.hex.bitboard import popcount
    from limitgames.hex.encoding import surface_static, write_planes
    from limitgames.hex.solver import solve_vector

    rng = np.random.default_rng(job.seed)
    state: Any = get_game("hex").new_initial_state(seed=job.seed, size=job.size, players=2)
    s, surface = state.kernel_vector(), state.surface
    assert s is not None and surface is not None
    nb, ring = surface.neighbour_masks, surface.ring
    static = surface_static(surface, "nestorgames", job.size)
    if job.expert == "mcts":
        search = HexSearch(
            c=1.0, greed=1.0, order=1.0, widen=2.0, contempt=0.3, solver=job.solve, seed=job.seed
        )
    else:
        guided = PuctSearch(load_network(job.expert), seed=job.seed)
    buffer = np.empty(kernel.MAX_MOVES, np.int64)
    words, movers, actions, shares, searched, exact = [], [], [], [], [], []
    decision = 0
    while int(s[kernel.S_STEP]) != kernel.OVER_STEP:
        n = kernel.legal_actions(nb, s, buffer)
        if n == 1:
            kernel.play(nb, ring, s, buffer[0])
            continue
        legal = buffer[:n].copy()
        if job.expert == "mcts":
            report = search.search(nb, ring, s, iterations=job.iterations)
            visits = {c.action: c.visits for c in report.children}
            counts = np.array([visits.get(int(a), 0) for a in legal], dtype=np.float64)
            if report.proven is not None:
                root_value = float(report.proven)
            else:
                tried = [c for c in report.children if c.visits]
                root_value = sum(c.visits * c.mean for c in tried) / sum(c.visits for c in tried)
            best = report.action
        else:
            root = guided.root_statistics(s.copy(), surface, static, job.iterations)
            by_action = dict(zip(root.actions.tolist(), root.visits.tolist(), strict=True))
            counts = np.array([by_action.get(int(a), 0.0) for a in legal], dtype=np.float64)
            seen = root.visits > 0
            root_value = float((root.visits[seen] * root.means[seen]).sum() / root.visits.sum())
            best = int(legal[int(np.argmax(counts))])
        mover = int(s[kernel.S_TO_MOVE])
        w = np.zeros(NUM_PLANES, np.uint64)
        write_planes(s, static, mover, w)
        words.append(w)
        movers.append(mover)
        actions.append(legal.astype(np.int16))
        shares.append((counts / counts.sum()).astype(np.float32))
        searched.append(root_value)
        if popcount(s[kernel.S_TILES]) <= job.exact_tiles:
            values, _, _ = solve_vector(nb, ring, s, seconds=600.0, table_bits=16,
                                        nodes=job.exact_nodes)  # fmt: skip
            exact.append(np.nan if values is None else values[mover])
        else:
            exact.append(np.nan)
        if decision < job.random:
            action = int(legal[rng.integers(n)])
        elif decision < job.random + job.explore:
            action = int(rng.choice(legal, p=counts / counts.sum()))
        else:
            action = best
        kernel.play(nb, ring, s, action)
        decision += 1
    result = np.zeros(3)
    kernel.returns_of(s, result)
    return Samples(
        np.array(words, dtype=np.uint64).reshape(-1, NUM_PLANES),
        np.array([result[m] for m in movers], dtype=np.float32),
        np.full(len(movers), job.size, dtype=np.int8),
        actions,
        shares,
        np.array(searched, dtype=np.float32),
        np.array(exact, dtype=np.float32) if job.exact_tiles else None,
    )


def play_games(jobs: list[Job], workers: int, progress: Progress, label: str) -> Samples:
    """Play ``jobs`` on ``workers`` processes (results in job order)."""
    task = progress.add_task(label, total=len(jobs))
    parts: list[Samples] = []
    if workers <= 1:
        for job in jobs:
            parts.append(play_game(job))
            progress.advance(task)
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for part in pool.imap(play_game, jobs, chunksize=2):
                parts.append(part)
                progress.advance(task)
    progress.remove_task(task)
    return Samples.join(parts)


def game_jobs(
    first: int,
    count: int,
    sizes: list[int],
    weights: list[float],
    iterations: int,
    explore: int,
    randomised: int = 0,
    solve: bool = False,
    expert: str = "mcts",
    exact_tiles: int = 0,
    exact_nodes: int = 200_000,
) -> list[Job]:
    """Jobs for games ``first .. first + count - 1``: each game's size drawn from its seed, and
    with ``randomised > 0`` its number of uniformly random first decisions (0..``randomised``);
    ``exact_tiles`` and ``exact_nodes`` as in :class:`Job`."""
    p = np.array(weights, dtype=np.float64) / sum(weights)
    jobs = []
    for seed in range(first, first + count):
        size = int(np.random.default_rng([seed, 7]).choice(sizes, p=p))
        drawn = int(np.random.default_rng([seed, 11]).integers(randomised + 1)) if randomised else 0
        jobs.append(
            Job(seed, size, iterations, explore, drawn, solve, expert, exact_tiles, exact_nodes)
        )
    return jobs


# --- training ------------------------------------------------------------------------------------
@dataclass
class Prepared:
    """Samples in the network's input form (neighbour tables decoded once) with their value
    targets ``float32[N]`` (:meth:`Samples.targets`)."""

    features: np.ndarray[Any, Any]
    neighbours: np.ndarray[Any, Any]
    samples: Samples
    targets: np.ndarray[Any, Any]

    @staticmethod
    def of(samples: Samples, kind: str = "result", exact: bool = False) -> Prepared:
        features = np.zeros((len(samples), MAX_TILES, TILE_FEATURES), np.float32)
        neighbours = np.full((len(samples), MAX_TILES, 6), -1, np.int8)
        for start in range(0, len(samples), 1024):  # the decoding compares every tile pair
            stop = min(len(samples), start + 1024)
            batch = NetworkBatch.from_words(samples.words[start:stop])
            t = batch.features.shape[1]
            features[start:stop, :t] = batch.features
            neighbours[start:stop, :t] = batch.neighbours
        return Prepared(features, neighbours, samples, samples.targets(kind, exact))

    @staticmethod
    def join(parts: list[Prepared]) -> Prepared:
        return Prepared(
            np.concatenate([p.features for p in parts]),
            np.concatenate([p.neighbours for p in parts]),
            Samples.join([p.samples for p in parts]),
            np.concatenate([p.targets for p in parts]),
        )

    def tensors(
        self, index: np.ndarray[Any, Any], rng: np.random.Generator | None = None
    ) -> tuple[torch.Tensor, ...]:
        """Inputs and targets of the samples ``index``: features, neighbours, the position and
        kernel action of every legal action, the visit shares, the value targets. With ``rng`` each
        position is turned by one of the 12 symmetries of the hex grid (:func:`symmetry`)."""
        s = self.samples
        t = 4 * int(s.sizes[index].max())
        acts = [s.actions[i].astype(np.int64) for i in index]
        position = np.repeat(np.arange(len(index)), [len(a) for a in acts])
        features = self.features[index, :t]
        neighbours = self.neighbours[index, :t].astype(np.int64)
        if rng is not None:
            features, neighbours = features.copy(), neighbours.copy()
            for row, k in enumerate(rng.integers(0, 12, size=len(index))):
                order = symmetry(int(k))
                neighbours[row][:, order] = self.neighbours[index[row], :t]
                planes = features[row, :, P_NEIGHBOUR : P_NEIGHBOUR + 6].copy()
                features[row][:, P_NEIGHBOUR + order] = planes
        return (
            torch.from_numpy(features),
            torch.from_numpy(neighbours),
            torch.from_numpy(position),
            torch.from_numpy(np.concatenate(acts)),
            torch.from_numpy(np.concatenate([s.shares[i] for i in index])),
            torch.from_numpy(self.targets[index]),
        )


def symmetry(k: int) -> np.ndarray[Any, Any]:
    """Symmetry ``k`` (0..11) of the hex grid as a map of directions: direction ``d`` of
    ``DIRECTIONS`` (in cyclic order) becomes ``order[d]``: a turn by ``k % 6`` sixths, after a
    reflection (``d -> 5 - d``, swapping ``q`` and ``r``) when ``k >= 6``. Tiles keep their
    numbers, so the actions and their targets do not change."""
    d = np.arange(6)
    if k >= 6:
        d = 5 - d
    return (d + k) % 6


def losses(
    model: TileNet, inputs: tuple[torch.Tensor, ...]
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Value MSE, policy cross entropy (mean per position), the values and the logits."""
    features, neighbours, position, actions, shares, targets = inputs
    values, logits = model(features, neighbours, position, actions)
    count = features.shape[0]
    top = torch.full((count,), -1e30, dtype=logits.dtype).scatter_reduce(
        0, position, logits, "amax"
    )
    shifted = logits - top[position].detach()
    total = torch.zeros(count, dtype=logits.dtype).index_add(0, position, torch.exp(shifted))
    log_policy = shifted - torch.log(total)[position]
    policy_loss = -(shares * log_policy).sum() / count
    value_loss = torch.mean((values - targets) ** 2)
    return value_loss, policy_loss, values, logits


def held_out_figures(model: TileNet, data: Prepared) -> dict[str, float]:
    """On the held-out samples: the losses, the value's sign accuracy on decided games' positions
    (draws left out), and the share where the policy's top action is the expert's most visited."""
    model.eval()
    s = data.samples
    sums = {"value_loss": 0.0, "policy_loss": 0.0}
    right = decided = agree = 0
    with torch.no_grad():
        for start in range(0, len(s), 512):
            index = np.arange(start, min(len(s), start + 512))
            inputs = data.tensors(index)
            v_loss, p_loss, values, logits = losses(model, inputs)
            sums["value_loss"] += float(v_loss) * len(index)
            sums["policy_loss"] += float(p_loss) * len(index)
            results = s.results[index]
            sign = np.sign(values.numpy())
            mask = results != 0
            right += int((sign[mask] == np.sign(results[mask])).sum())
            decided += int(mask.sum())
            flat = logits.numpy()
            start_of = 0
            for i in index:
                n = len(s.actions[i])
                agree += int(np.argmax(flat[start_of : start_of + n]) == np.argmax(s.shares[i]))
                start_of += n
    model.train()
    return {
        "value_loss": sums["value_loss"] / len(s),
        "policy_loss": sums["policy_loss"] / len(s),
        "sign_accuracy": right / max(1, decided),
        "top_agreement": agree / len(s),
    }


def commit_of() -> str:
    """The current commit (with ``+dirty`` if the tree has changes), or ``unknown``."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src", "scripts"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (head or "unknown") + ("+dirty" if dirty else "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("runs/hexnet"), help="run folder")
    parser.add_argument("--generations", type=int, default=10, help="rounds of play and training")
    parser.add_argument("--games", type=int, default=200, help="new games a generation")
    parser.add_argument("--held-out", type=int, default=100, help="held-out games (once)")
    parser.add_argument("--iterations", type=int, default=3000, help="expert MCTS iterations")
    parser.add_argument("--explore", type=int, default=4, help="decisions sampled per game")
    parser.add_argument("--sizes", default="2,3,4,5,6,7,8", help="board sizes of the games")
    parser.add_argument(
        "--size-weights", default="1,1,2,1,1,1,3", help="how often each of --sizes is drawn"
    )
    parser.add_argument("--steps", type=int, default=400, help="minibatches a generation")
    parser.add_argument("--batch", type=int, default=256, help="samples a minibatch")
    parser.add_argument("--lr", type=float, default=2e-3, help="Adam's learning rate")
    parser.add_argument("--width", type=int, default=32, help="a tile's embedding size")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of message passing")
    parser.add_argument("--workers", type=int, default=2, help="self-play processes")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=1, help="of the games and the training")
    parser.add_argument(
        "--minutes", type=float, default=None, help="stop after a generation past this"
    )
    parser.add_argument("--final-steps", type=int, default=0, help="more after the last")
    parser.add_argument("--value-weight", type=float, default=1.0, help="of the value loss")
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument(
        "--symmetries", choices=("yes", "no"), default="yes", help="turn and mirror samples"
    )
    parser.add_argument(
        "--small", type=int, default=0, help="more games a generation, of --small-sizes"
    )
    parser.add_argument("--small-sizes", default="2,3,4", help="board sizes of --small games")
    parser.add_argument(
        "--small-random", type=int, default=0, help="up to so many random first decisions"
    )
    parser.add_argument(
        "--solve", choices=("yes", "no"), default="no", help="MCTS-Solver in the expert"
    )
    parser.add_argument(
        "--value-target", choices=("result", "search", "mix"), default="result",
        help="the game's result, the search's root value, or their mean",
    )  # fmt: skip
    parser.add_argument(
        "--exact-tiles", type=int, default=0, metavar="T",
        help="the exact solver's value is the value target of positions of at most T tiles",
    )  # fmt: skip
    parser.add_argument(
        "--exact-nodes", type=int, default=200_000, metavar="N",
        help="the exact solver's work a position (positions searched; unsettled: no change)",
    )  # fmt: skip
    parser.add_argument(
        "--expert", default="mcts", choices=("mcts", *sorted(NETWORKS)),
        help="the compiled MCTS, or puct with this shipped network",
    )  # fmt: skip
    parser.add_argument(
        "--expert-from", type=int, default=1, metavar="G",
        help="generation from which --expert plays (the compiled MCTS before it)",
    )  # fmt: skip
    parser.add_argument(
        "--expert-iterations", type=int, metavar="N",
        help="the network expert's iterations a decision (default: --iterations)",
    )  # fmt: skip
    parser.add_argument(
        "--start", metavar="NAME", choices=sorted(NETWORKS),
        help="start from this shipped network's weights (its width and rounds)",
    )  # fmt: skip
    parser.add_argument(
        "--games-from", type=Path,
        help="a run folder whose saved games to use (those it holds; the rest are played)",
    )  # fmt: skip
    parser.add_argument(
        "--ship", metavar="NAME", help="copy the last weights to the shipped networks as NAME"
    )
    args = parser.parse_args(argv)
    args.symmetries = args.symmetries == "yes"
    args.solve = args.solve == "yes"
    if args.exact_tiles < 0 or args.exact_nodes < 1:
        parser.error("--exact-tiles is at least 0 and --exact-nodes at least 1")
    if args.ship is not None and not args.ship.isidentifier():
        parser.error(f"--ship {args.ship!r}: a network's name is a word (letters, digits, _)")
    command = "python scripts/train_hex_network.py " + shlex.join(
        sys.argv[1:] if argv is None else argv
    )
    started = time.monotonic()
    commit = commit_of()  # at the start: the code that made the weights
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    sizes = [int(x) for x in args.sizes.split(",")]
    weights = [float(x) for x in args.size_weights.split(",")]
    if len(sizes) != len(weights) or not all(2 <= n <= 16 for n in sizes):
        parser.error("--sizes and --size-weights need as many entries, sizes 2..16")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.start is not None:
        start = load_network(args.start)
        args.width, args.rounds = start.width, start.rounds
        model = TileNet(start.width, start.rounds, start.hidden, start.policy)
        model.load_arrays(start.arrays)
    else:
        model = TileNet(width=args.width, rounds=args.rounds)
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    rng = np.random.default_rng(args.seed)
    curve_path = args.out / "curve.csv"
    fields = ["generation", "games", "samples", "minutes", "train_value_loss",
              "train_policy_loss", "value_loss", "policy_loss", "sign_accuracy", "top_agreement"]  # fmt: skip
    with curve_path.open("w", newline="") as handle:
        csv.writer(handle).writerow(fields)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())  # fmt: skip
    base = args.seed * 10_000_000
    figures: dict[str, float] = {}
    with Progress(*columns) as progress:

        def games_of(name: str, jobs: list[Job], label: str) -> Samples:
            """The games of ``jobs``: read from ``--games-from`` if that run saved them (the
            same seeds and options give the same games), else played; saved in ``--out``."""
            path = None if args.games_from is None else args.games_from / name
            if path is not None and path.exists():
                games = Samples.load(path)
                if games.jobs is None:
                    progress.console.print(f"{path}: saved without the options that played it "
                                           "(an older run): used as it is")  # fmt: skip
                elif (difference := games.unlike(jobs)) is not None:
                    parser.error(f"--games-from: {path} holds another run's games: {difference}")
            else:
                games = play_games(jobs, args.workers, progress, label)
                games.jobs = jobs
            games.save(args.out / name)
            return games

        def expert_of(generation: int) -> tuple[str, int]:
            """The expert of a generation's games and its iterations (held-out games:
            generation 0, the expert of generation 1)."""
            if max(1, generation) < args.expert_from:
                return "mcts", args.iterations
            return args.expert, args.expert_iterations or args.iterations

        def prepared(games: Samples) -> Prepared:
            try:
                return Prepared.of(games, args.value_target, args.exact_tiles > 0)
            except ValueError as error:
                parser.error(f"{error} (--games-from {args.games_from})")

        expert, iterations = expert_of(0)
        # held-out figures compare with results, so their games need no exact values
        held_jobs = game_jobs(base + HELD_OUT_SEED, args.held_out, sizes, weights, iterations, args.explore, solve=args.solve, expert=expert)  # fmt: skip
        held = games_of("held-out.npz", held_jobs, "held-out games")
        held_data = Prepared.of(held)
        parts: list[Prepared] = []
        generations = progress.add_task("generations", total=args.generations)
        for generation in range(1, args.generations + 1):
            first = base + (generation - 1) * args.games
            expert, iterations = expert_of(generation)
            jobs = game_jobs(first, args.games, sizes, weights, iterations, args.explore,
                             solve=args.solve, expert=expert, exact_tiles=args.exact_tiles,
                             exact_nodes=args.exact_nodes)  # fmt: skip
            games = games_of(f"games-{generation:02d}.npz", jobs, f"games, generation {generation}")
            parts.append(prepared(games))
            if args.small:
                first = base + SMALL_SEED + (generation - 1) * args.small
                small_sizes = [int(x) for x in args.small_sizes.split(",")]
                jobs = game_jobs(first, args.small, small_sizes, [1.0] * len(small_sizes),
                                 iterations, args.explore, args.small_random, args.solve,
                                 expert, args.exact_tiles, args.exact_nodes)  # fmt: skip
                small = games_of(f"small-{generation:02d}.npz", jobs, f"small games, {generation}")
                parts.append(prepared(small))
            data = Prepared.join(parts)
            last = generation == args.generations or (
                args.minutes is not None and (time.monotonic() - started) / 60 >= args.minutes
            )
            count = args.steps + (args.final_steps if last else 0)
            steps = progress.add_task("training", total=count)
            train_v = train_p = 0.0
            for _ in range(count):
                index = rng.choice(
                    len(data.samples), size=min(args.batch, len(data.samples)), replace=False
                )
                inputs = data.tensors(np.sort(index), rng if args.symmetries else None)
                value_loss, policy_loss, _, _ = losses(model, inputs)
                optimiser.zero_grad()
                (args.value_weight * value_loss + policy_loss).backward()
                optimiser.step()
                train_v += float(value_loss.detach()) / count
                train_p += float(policy_loss.detach()) / count
                progress.advance(steps)
            progress.remove_task(steps)
            figures = held_out_figures(model, held_data)
            minutes = (time.monotonic() - started) / 60
            row = [generation, generation * (args.games + args.small), len(data.samples), round(minutes, 2),
                   round(train_v, 5), round(train_p, 5)] + [round(figures[k], 5) for k in fields[6:]]  # fmt: skip
            with curve_path.open("a", newline="") as handle:
                csv.writer(handle).writerow(row)
            HexNetwork(model.arrays()).save(args.out / f"generation-{generation:02d}.npz")
            torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict()},
                       args.out / "last.pt")  # fmt: skip
            progress.console.print(dict(zip(fields, row, strict=True)))
            progress.advance(generations)
            if last:
                break
    if args.ship:
        stem = NETWORKS.get(args.ship, f"hex_{args.ship}")  # a new one is named in NETWORKS
        NETWORK_DIR.mkdir(parents=True, exist_ok=True)
        HexNetwork(model.arrays()).save(NETWORK_DIR / f"{stem}.npz")
        card = {
            "name": args.ship,
            "commit": commit,
            "command": command,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}",
            "minutes": round((time.monotonic() - started) / 60, 1),
            "samples": len(data.samples),
            "held_out_samples": len(held),
            "shape": {"width": args.width, "rounds": args.rounds, "hidden": 64, "policy": 32},
            "held_out": {k: round(v, 4) for k, v in figures.items()},
        }
        (NETWORK_DIR / f"{stem}.json").write_text(json.dumps(card, indent=2) + "\n")


if __name__ == "__main__":
    main()
