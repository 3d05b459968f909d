"""A learned policy and value for hex: a graph network over the tiles, evaluated in NumPy.

The network reads a movement-phase position as the observation planes of the seat to move
(:mod:`limitgames.hex.encoding`, :data:`~limitgames.hex.encoding.PLANES`): each tile on the
table is a node with the :data:`TILE_FEATURES` numbers of its column (on the table, own /
next / third pawn, free edge, colour, which neighbours are present, the step, the
equaliser, whose decision it is), and each tile is linked to its neighbour in each of the
six hex directions (``rules/hex.md``, Surface: two tiles are adjacent when their cells are
neighbours). Every weight is shared by all tiles, so one set of weights plays every size
(``4 * size`` tiles, up to 64) and every layout.

With ``W = width`` (``float32`` throughout, ``B`` positions, ``T`` tile columns):

- **embedding**: ``h = relu(x E + e) * on`` (``x``: ``[B, T, TILE_FEATURES]``, ``on``: the
  tile is on the table);
- **message passing**, ``rounds`` times: ``h = (h + relu([h, n_0, .., n_5] L_k + l_k)) * on``,
  where ``n_d`` is the embedding of the neighbour in ``DIRECTIONS[d]`` (0 where there is
  none): a hexagonal convolution on whatever layout the game drew;
- **pooling**: ``g = [mean of h over the tiles on the table, max of h]`` (``[B, 2 W]``);
- **value head**: ``tanh(relu(g V1 + v1) V2 + v2)``: the expected result of the seat to
  move, -1 (lost) .. 1 (won), a draw 0 (:func:`limitgames.hex.kernel.returns_of`);
- **policy head**: a move of the pawn on tile ``f`` to tile ``t`` scores
  ``relu(h_f S + h_t D + g G + m) . a + a0``; a removal of tile ``t`` scores
  ``relu(h_t R + g Q + q) . b + b0``. Only the legal actions are scored; their softmax is the
  policy (a decision is all moves or all removals, ``rules/hex.md``: a turn is a move then a
  removal, each a separate decision).

The weights are trained in ``scripts/train_hex_network.py`` (PyTorch, Expert Iteration on
the compiled search); this module needs NumPy only. Shipped weights are named in
:data:`NETWORKS` and loaded by name (:func:`load_network`), never by a path.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from limitgames.hex.codec import REMOVAL_BASE
from limitgames.hex.encoding import COORD_BITS, NUM_PLANES, P_Q, P_R, P_TILES, unpack_planes
from limitgames.hex.surface import DIRECTIONS, MAX_TILES

__all__ = [
    "DEFAULT_NETWORK",
    "NETWORKS",
    "TILE_FEATURES",
    "HexNetwork",
    "NetworkBatch",
    "load_network",
    "neighbour_table",
    "network_card",
]

Array = npt.NDArray[np.float32]
Indices = npt.NDArray[np.int64]

TILE_FEATURES = P_Q
"""Planes ``0 .. P_Q - 1`` describe each tile (20 numbers); the coordinate planes after them
only say where it lies, which the links between tiles already tell."""

NETWORKS: dict[str, str] = {
    "exit1": "hex_exit1",
    "exit2": "hex_exit2",
    "exit3": "hex_exit3",
    "exit5": "hex_exit5",
}
"""The shipped networks: name -> file stem in ``limitgames/agents/networks/`` (``.npz`` weights
and a ``.json`` card naming the commit and the command that made them)."""
DEFAULT_NETWORK = "exit3"
"""The network ``puct`` plays by default (``docs/agents.md`` gives each network's figures)."""

_DIRECTION_CODES = np.array([dq * 256 + dr for dq, dr in DIRECTIONS], dtype=np.int64)


def _names(rounds: int) -> list[str]:
    return [
        "embed_w",
        "embed_b",
        *(f"round{k}_{p}" for k in range(rounds) for p in ("w", "b")),
        "value1_w",
        "value1_b",
        "value2_w",
        "value2_b",
        "move_source",
        "move_target",
        "move_global",
        "move_b",
        "move_out",
        "move_out_b",
        "remove_tile",
        "remove_global",
        "remove_b",
        "remove_out",
        "remove_out_b",
    ]


def _shapes(width: int, rounds: int, hidden: int, policy: int) -> dict[str, tuple[int, ...]]:
    shapes: dict[str, tuple[int, ...]] = {
        "embed_w": (TILE_FEATURES, width),
        "embed_b": (width,),
        "value1_w": (2 * width, hidden),
        "value1_b": (hidden,),
        "value2_w": (hidden,),
        "value2_b": (1,),
        "move_source": (width, policy),
        "move_target": (width, policy),
        "move_global": (2 * width, policy),
        "move_b": (policy,),
        "move_out": (policy,),
        "move_out_b": (1,),
        "remove_tile": (width, policy),
        "remove_global": (2 * width, policy),
        "remove_b": (policy,),
        "remove_out": (policy,),
        "remove_out_b": (1,),
    }
    for k in range(rounds):
        shapes[f"round{k}_w"] = (7 * width, width)
        shapes[f"round{k}_b"] = (width,)
    return shapes


@dataclass(frozen=True)
class NetworkBatch:
    """Positions ready for the network.

    Attributes:
        features: ``float32[B, T, TILE_FEATURES]``, tile ``t``'s planes (0 off the table).
        neighbours: ``int64[B, T, 6]``, the tile in ``DIRECTIONS[d]`` of tile ``t`` or -1
            (a neighbour off the table is masked by ``features``, so a surface's fixed table
            :attr:`limitgames.hex.surface.Surface.ring` serves as well as the decoded one).
    """

    features: Array
    neighbours: Indices

    @staticmethod
    def from_words(words: npt.NDArray[np.uint64], rings: Indices | None = None) -> NetworkBatch:
        """A batch from observation words (``uint64[B, NUM_PLANES]``, the planes of the seat to
        move: :func:`limitgames.hex.encoding.write_planes`) and, if known, each position's
        neighbour table (``int64[B, 64, 6]``, a surface's ``ring``; else decoded from the
        coordinate planes by :func:`neighbour_table`).

        Raises:
            ValueError: ``words`` is not ``[B, NUM_PLANES]``.
        """
        words = np.asarray(words, dtype=np.uint64)
        if words.ndim != 2 or words.shape[1] != NUM_PLANES:
            raise ValueError(f"observation words must be [B, {NUM_PLANES}], not {words.shape}")
        planes = unpack_planes(words)
        tiles = int(np.bitwise_or.reduce(words[:, P_TILES])) if len(words) else 0
        t = max(1, tiles.bit_length())
        features = np.ascontiguousarray(planes[:, :TILE_FEATURES, :t].transpose(0, 2, 1))
        table = neighbour_table(planes) if rings is None else np.asarray(rings, dtype=np.int64)
        return NetworkBatch(features, np.ascontiguousarray(table[:, :t]))


def neighbour_table(planes: Array) -> Indices:
    """The neighbour tiles of every tile on the table, decoded from the observation's
    coordinate planes (``q_bit_k``, ``r_bit_k``): ``planes`` ``float32[B, NUM_PLANES, 64]``
    -> ``int64[B, 64, 6]``, entry ``[b, t, d]`` the tile on the table whose cell is tile
    ``t``'s cell plus ``DIRECTIONS[d]`` (``rules/hex.md``, Surface), or -1."""
    bits = (1 << np.arange(COORD_BITS, dtype=np.int64))[None, :, None]
    on = planes[:, P_TILES] > 0.5
    q = (planes[:, P_Q : P_Q + COORD_BITS].astype(np.int64) * bits).sum(axis=1)
    r = (planes[:, P_R : P_R + COORD_BITS].astype(np.int64) * bits).sum(axis=1)
    code = np.where(on, q * 256 + r, -(1 << 40))  # [B, 64]; off the table: matches nothing
    out = np.full((planes.shape[0], MAX_TILES, 6), -1, dtype=np.int64)
    for d, shift in enumerate(_DIRECTION_CODES):
        same = (code[:, :, None] + shift) == code[:, None, :]  # [B, t, j]
        same &= on[:, :, None]
        found = same.any(axis=2)
        out[:, :, d] = np.where(found, same.argmax(axis=2), -1)
    return out


class HexNetwork:
    """The tile network's weights and its forward pass in NumPy (see the module docstring).

    Args:
        arrays: the named weights (``float32``), as written by the training script:
            ``embed_w [TILE_FEATURES, W]``, ``round{k}_w [7 W, W]``, ... (:meth:`shapes`).

    Raises:
        ValueError: a weight is missing or has the wrong shape.
    """

    def __init__(self, arrays: Mapping[str, npt.ArrayLike]) -> None:
        try:
            embed = np.asarray(arrays["embed_w"])
            hidden = np.asarray(arrays["value1_w"]).shape[1]
            policy = np.asarray(arrays["move_b"]).shape[0]
        except (KeyError, IndexError) as error:
            raise ValueError(f"not a hex network: {error}") from None
        self.width = int(embed.shape[1])
        self.rounds = sum(1 for name in arrays if name.startswith("round") and name.endswith("_w"))
        self.hidden, self.policy = int(hidden), int(policy)
        expected = self.shapes(self.width, self.rounds, self.hidden, self.policy)
        self.arrays: dict[str, Array] = {}
        for name, shape in expected.items():
            if name not in arrays:
                raise ValueError(f"the network lacks the weight {name!r}")
            value = np.asarray(arrays[name], dtype=np.float32)
            if value.shape != shape:
                raise ValueError(f"weight {name!r} has shape {value.shape}, not {shape}")
            self.arrays[name] = value

    @staticmethod
    def shapes(width: int, rounds: int, hidden: int, policy: int) -> dict[str, tuple[int, ...]]:
        """The weight names and shapes of a network of these dimensions, in order."""
        shapes = _shapes(width, rounds, hidden, policy)
        return {name: shapes[name] for name in _names(rounds)}

    @staticmethod
    def random(
        seed: int, width: int = 32, rounds: int = 4, hidden: int = 64, policy: int = 32
    ) -> HexNetwork:
        """A network with seeded random weights (for tests and as a training start)."""
        rng = np.random.default_rng(seed)
        arrays = {}
        for name, shape in HexNetwork.shapes(width, rounds, hidden, policy).items():
            fan_in = shape[0] if len(shape) == 2 else max(1, shape[0])
            arrays[name] = (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)
        return HexNetwork(arrays)

    def tiles(self, batch: NetworkBatch) -> tuple[Array, Array]:
        """The tile embeddings ``float32[B, T, W]`` (0 off the table) and the pooled position
        ``float32[B, 2 W]`` (mean over the tiles on the table, then max)."""
        a = self.arrays
        x = batch.features
        count, t = x.shape[0], x.shape[1]
        on = x[:, :, P_TILES : P_TILES + 1]
        h = np.maximum(x @ a["embed_w"] + a["embed_b"], 0.0) * on
        links = np.where((batch.neighbours < 0) | (batch.neighbours >= t), t, batch.neighbours)
        # row of each neighbour in the tiles of all positions, one zero row past each position's
        links = (links + (t + 1) * np.arange(count)[:, None, None]).reshape(-1)
        pad = np.zeros((count, 1, self.width), dtype=np.float32)
        for k in range(self.rounds):
            padded = np.concatenate([h, pad], axis=1).reshape(count * (t + 1), self.width)
            messages = padded[links].reshape(count, t, 6 * self.width)
            z = np.concatenate([h, messages], axis=2) @ a[f"round{k}_w"] + a[f"round{k}_b"]
            h = (h + np.maximum(z, 0.0)) * on
        tiles_on = np.maximum(on.sum(axis=1), 1.0)
        pooled = np.concatenate([h.sum(axis=1) / tiles_on, h.max(axis=1)], axis=1)
        return h.astype(np.float32), pooled.astype(np.float32)

    def value_of(self, pooled: Array) -> Array:
        """The value head: ``float32[B]`` in -1..1 from the pooled position ``[B, 2 W]``."""
        a = self.arrays
        z = np.maximum(pooled @ a["value1_w"] + a["value1_b"], 0.0)
        values: Array = np.tanh(z @ a["value2_w"] + a["value2_b"][0]).astype(np.float32)
        return values

    def action_logits(self, h: Array, pooled: Array, position: Indices, actions: Indices) -> Array:
        """The policy head's logits ``float32[N]`` of kernel actions ``actions[i]``
        (:mod:`limitgames.hex.codec`: ``from * 64 + to`` or ``REMOVAL_BASE + tile``) in
        positions ``position[i]`` of the batch."""
        a = self.arrays
        position = np.asarray(position, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        out = np.empty(len(actions), dtype=np.float32)
        move = actions < REMOVAL_BASE
        if move.any():
            b, act = position[move], actions[move]
            fr, to = act // MAX_TILES, act % MAX_TILES
            glob = pooled @ a["move_global"] + a["move_b"]
            source, target = h @ a["move_source"], h @ a["move_target"]  # per tile, [B, T, P]
            z = source[b, fr] + target[b, to] + glob[b]
            out[move] = np.maximum(z, 0.0) @ a["move_out"] + a["move_out_b"][0]
        if not move.all():
            remove = ~move
            b, tile = position[remove], actions[remove] - REMOVAL_BASE
            glob = pooled @ a["remove_global"] + a["remove_b"]
            z = (h @ a["remove_tile"])[b, tile] + glob[b]
            out[remove] = np.maximum(z, 0.0) @ a["remove_out"] + a["remove_out_b"][0]
        return out

    def evaluate(
        self, batch: NetworkBatch, actions: Sequence[npt.ArrayLike]
    ) -> tuple[Array, list[Array]]:
        """Values ``float32[B]`` (the seat to move's expected result, -1..1) and, for each
        position ``b``, the policy over ``actions[b]`` (its legal kernel actions):
        ``float32[len(actions[b])]``, summing to 1 (empty if it has none).

        Raises:
            ValueError: ``actions`` does not have one entry per position.
        """
        if len(actions) != batch.features.shape[0]:
            raise ValueError("give one list of actions per position")
        h, pooled = self.tiles(batch)
        values = self.value_of(pooled)
        lists = [np.asarray(x, dtype=np.int64).reshape(-1) for x in actions]
        sizes = [len(x) for x in lists]
        if not sum(sizes):
            return values, [np.zeros(0, dtype=np.float32) for _ in lists]
        flat = np.concatenate(lists)
        position = np.repeat(np.arange(len(lists)), sizes)
        logits = self.action_logits(h, pooled, position, flat)
        policies = []
        start = 0
        for n in sizes:
            part = logits[start : start + n]
            start += n
            if n:
                e = np.exp(part - part.max())
                part = (e / e.sum()).astype(np.float32)
            policies.append(part)
        return values, policies

    def save(self, path: Any) -> None:
        """Write the weights as an ``.npz`` file (``path``: a file name or an open file)."""
        arrays: dict[str, Any] = dict(self.arrays)
        np.savez_compressed(path, **arrays)


@cache
def load_network(name: str) -> HexNetwork:
    """The shipped network ``name`` (a key of :data:`NETWORKS`), loaded once per process.

    Raises:
        ValueError: ``name`` is not a shipped network (the message lists them).
    """
    stem = NETWORKS.get(name)
    if stem is None:
        known = ", ".join(sorted(NETWORKS))
        raise ValueError(f"unknown network {name!r} (networks: {known})")
    source = resources.files("limitgames.agents") / "networks" / f"{stem}.npz"
    with source.open("rb") as handle, np.load(handle, allow_pickle=False) as data:
        arrays = {key: data[key] for key in data.files}
    return HexNetwork(arrays)


def network_card(name: str) -> dict[str, Any]:
    """The card of the shipped network ``name``: the commit, command, date and figures of the
    run that made it (the ``.json`` beside its weights).

    Raises:
        ValueError: ``name`` is not a shipped network.
    """
    stem = NETWORKS.get(name)
    if stem is None:
        raise ValueError(f"unknown network {name!r} (networks: {', '.join(sorted(NETWORKS))})")
    source = resources.files("limitgames.agents") / "networks" / f"{stem}.json"
    card: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return card
