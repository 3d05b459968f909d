"""The hex network (``limitgames.agents.hex_network``) against exact values: on positions of sizes
2-4 solved by ``hex/solver.py``, how often the value head's sign and the policy's top move are
right.

Usage::

    PYTHONPATH=src:. python benchmarks/hex_network_exact.py --positions 600 --seed 9
    PYTHONPATH=src:. python benchmarks/hex_network_exact.py --weights runs/hexnet/generation-10.npz

(``--net NAME``: a shipped network, the default ``puct``'s; ``--weights FILE``: the weights a
training run wrote, shipped or not.)

Positions (2 players, nestorgames, the game's default layouts; the games' seeds start at
``--seed`` times 10**9, far from the training script's, which are below 10**9 for its seeds
up to 99): half from games of uniformly random decisions, half from self-play of the
network's own policy (each decision sampled from it), each game cut at a random decision and
the position kept if it is not finished, has more than one legal action, is not already in the
sample (nor, with ``--exclude RUN``, among the positions of that training run's saved games,
compared as the network sees them), and the solver settles it and every child within
``--nodes`` positions each.

Counting, per position, with ``v`` the value head's output for the seat to move and ``x`` the
solver's value for that seat (+1 won, 0 drawn, -1 lost with perfect play):

- **value sign** over the **decided** positions (``x = ±1``): right when ``sign(v) = x``
  (``v = 0`` counts as wrong). Drawn positions are reported apart: right when
  ``|v| < --draw-band`` (default 0.3), and a third figure counts every position that way
  (decided by sign, drawn by the band);
- **policy top move**: right when the action the policy rates highest reaches ``x`` (its
  child's exact value for the mover equals the position's), over every position, and over
  the **non-trivial** ones, where some legal action does not reach ``x``.

Bars (issue text): sign right on 90% and top move right on 80%. The figures print with the
date, the commit, the network's name and the command; nothing here is a test (the counting is:
``tests/benchmarks/test_hex_network_exact.py``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from limitgames.agents.hex_network import (
    DEFAULT_NETWORK,
    NETWORKS,
    HexNetwork,
    NetworkBatch,
    load_network,
)
from limitgames.core import get_game
from limitgames.hex import kernel
from limitgames.hex.encoding import NUM_PLANES, surface_static, write_planes
from limitgames.hex.solver import solve_vector

ROOT = Path(__file__).resolve().parents[1]
PHASES = (("0-3", 0, 4), ("4-9", 4, 10), ("10+", 10, 10**9))
"""Groups by the decisions played before the position: opening, middle, ending."""
CONFIDENCE = (("< 0.3", 0.0, 0.3), ("0.3-0.7", 0.3, 0.7), (">= 0.7", 0.7, 2.0))
"""Groups by how sure the value head is (``|v|``)."""


@dataclass(frozen=True)
class Judged:
    """One solved position: the network's value ``value`` for the seat to move, the solver's
    ``exact`` value for it, and per legal action the policy's probability and the child's exact
    value for the same seat."""

    size: int
    source: str
    value: float
    exact: float
    policy: tuple[float, ...]
    child_exact: tuple[float, ...]
    key: bytes = b""  # the observation words (the position as the network sees it)
    decisions: int = 0  # decisions played before the position (its phase)


def sign_right(value: float, exact: float) -> bool:
    """Whether the value's sign is the exact value's (a decided position: ``exact`` is ±1)."""
    return (value > 0.0 and exact > 0.0) or (value < 0.0 and exact < 0.0)


def top_move_right(policy: tuple[float, ...], child_exact: tuple[float, ...], exact: float) -> bool:
    """Whether the action the policy rates highest (the first on ties) reaches ``exact``."""
    return child_exact[int(np.argmax(policy))] == exact


def tally(judged: list[Judged], draw_band: float = 0.3) -> dict[str, Any]:
    """The figures of the module docstring: counts and shares (``None`` where nothing counts)."""

    def share(right: int, count: int) -> float | None:
        return round(right / count, 4) if count else None

    decided = [j for j in judged if j.exact != 0.0]
    drawn = [j for j in judged if j.exact == 0.0]
    sign = sum(sign_right(j.value, j.exact) for j in decided)
    band = sum(abs(j.value) < draw_band for j in drawn)
    top = [top_move_right(j.policy, j.child_exact, j.exact) for j in judged]
    hard = [
        top_move_right(j.policy, j.child_exact, j.exact)
        for j in judged
        if any(c != j.exact for c in j.child_exact)
    ]
    return {
        "positions": len(judged),
        "decided": len(decided),
        "drawn": len(drawn),
        "sign_right": sign,
        "sign_share": share(sign, len(decided)),
        "draws_in_band": band,
        "draw_band_share": share(band, len(drawn)),
        "all_share": share(sign + band, len(judged)),
        "top_right": sum(top),
        "top_share": share(sum(top), len(top)),
        "non_trivial": len(hard),
        "non_trivial_top_share": share(sum(hard), len(hard)),
    }


def _words(s: Any, static: Any) -> np.ndarray[Any, Any]:
    w = np.zeros(NUM_PLANES, np.uint64)
    write_planes(s, static, int(s[kernel.S_TO_MOVE]), w)
    return w


def judge(
    network: HexNetwork,
    size: int,
    source: str,
    s: Any,
    surface: Any,
    static: Any,
    nodes: int,
    decisions: int = 0,
) -> Judged | None:
    """Solve ``s`` and each child; ``None`` if the solver gives up on one of them."""
    nb, ring = surface.neighbour_masks, surface.ring
    mover = int(s[kernel.S_TO_MOVE])
    values, _, _ = solve_vector(nb, ring, s, seconds=600.0, nodes=nodes)
    if values is None:
        return None
    buffer = np.empty(kernel.MAX_MOVES, np.int64)
    actions = buffer[: kernel.legal_actions(nb, s, buffer)].copy()
    child_exact = []
    for a in actions:
        child = s.copy()
        kernel.play(nb, ring, child, int(a))
        found, _, _ = solve_vector(nb, ring, child, seconds=600.0, nodes=nodes)
        if found is None:
            return None
        child_exact.append(found[mover])
    batch = NetworkBatch.from_words(_words(s, static)[None], ring[None])
    v, policies = network.evaluate(batch, [actions])
    return Judged(
        size,
        source,
        float(v[0]),
        values[mover],
        tuple(float(p) for p in policies[0]),
        tuple(child_exact),
        _words(s, static).tobytes(),
        decisions,
    )


def training_positions(run: Path) -> set[bytes]:
    """The observation words of every sample a training run saved (``games-*.npz``,
    ``held-out.npz`` of ``scripts/train_hex_network.py``)."""
    found: set[bytes] = set()
    for path in sorted(run.glob("*.npz")):
        with np.load(path) as data:
            if "words" in data.files:
                found.update(row.tobytes() for row in data["words"])
    return found


def sample_positions(
    network: HexNetwork,
    count: int,
    seed: int,
    sizes: list[int],
    nodes: int,
    exclude: set[bytes] | None = None,
) -> list[Judged]:
    """``count`` judged positions, half from random games and half from network self-play,
    none whose observation words are in ``exclude`` (a training run's positions)."""
    rng = random.Random(seed)
    game = get_game("hex")
    seen: set[bytes] = set(exclude or ())
    judged: list[Judged] = []
    buffer = np.empty(kernel.MAX_MOVES, np.int64)
    number = 0
    while len(judged) < count:
        number += 1
        source = "random" if len(judged) % 2 == 0 else "self-play"
        size = rng.choice(sizes)
        state: Any = game.new_initial_state(seed=seed * 10**9 + number, size=size, players=2)
        s, surface = state.kernel_vector(), state.surface
        nb, ring = surface.neighbour_masks, surface.ring
        static = surface_static(surface, "nestorgames", size)
        cut = rng.randrange(0, 6 * size)
        played = 0
        for _ in range(cut):
            if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
                break
            n = kernel.legal_actions(nb, s, buffer)
            if source == "random":
                a = int(buffer[rng.randrange(n)])
            else:
                acts = buffer[:n].copy()
                _, policy = network.evaluate(
                    NetworkBatch.from_words(_words(s, static)[None], ring[None]), [acts]
                )
                p = policy[0].astype(np.float64)
                a = int(acts[np.searchsorted(np.cumsum(p / p.sum()), rng.random())])
            kernel.play(nb, ring, s, a)
            played += 1
        if int(s[kernel.S_STEP]) == kernel.OVER_STEP or kernel.legal_actions(nb, s, buffer) < 2:
            continue
        key = _words(s, static).tobytes()  # the position as the network sees it
        if key in seen:
            continue
        seen.add(key)
        found = judge(network, size, source, s, surface, static, nodes, played)
        if found is not None:
            judged.append(found)
    return judged


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--sizes", default="2,3,4")
    parser.add_argument("--nodes", type=int, default=2_000_000, help="solver work a position")
    parser.add_argument("--draw-band", type=float, default=0.3)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--net", choices=sorted(NETWORKS), default=DEFAULT_NETWORK)
    which.add_argument(
        "--weights", type=Path, help="a weights file (.npz) a training run wrote, not shipped"
    )
    parser.add_argument(
        "--exclude", type=Path, help="a training run folder: skip the positions it trained on"
    )
    parser.add_argument("--dump", type=Path, help="write every judged position there (JSON)")
    args = parser.parse_args(argv)
    if args.weights is not None:
        try:
            with np.load(args.weights, allow_pickle=False) as data:
                network = HexNetwork({key: data[key] for key in data.files})
        except (OSError, ValueError) as error:
            parser.error(f"--weights {args.weights}: {error}")
        name = str(args.weights)
    else:
        network, name = load_network(args.net), args.net
    sizes = [int(x) for x in args.sizes.split(",")]
    exclude = training_positions(args.exclude) if args.exclude else None
    if exclude is not None:
        print(f"{len(exclude)} positions of the training run left out")
    judged = sample_positions(network, args.positions, args.seed, sizes, args.nodes, exclude)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    print(
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, commit {commit}, "
        f"network {name}: python benchmarks/hex_network_exact.py "
        + shlex.join(sys.argv[1:] if argv is None else argv)
    )
    print("all", tally(judged, args.draw_band))
    for size in sizes:
        print(f"size {size}", tally([j for j in judged if j.size == size], args.draw_band))
    for source in ("random", "self-play"):
        print(source, tally([j for j in judged if j.source == source], args.draw_band))
    for name, low, high in PHASES:
        group = [j for j in judged if low <= j.decisions < high]
        print(f"phase {name}", tally(group, args.draw_band))
    for name, low, high in CONFIDENCE:
        group = [j for j in judged if low <= abs(j.value) < high]
        print(f"|v| {name}", tally(group, args.draw_band))
    if args.dump is not None:
        rows = [
            {k: v for k, v in vars(j).items() if k != "key"} | {"key": j.key.hex()} for j in judged
        ]
        args.dump.write_text(json.dumps(rows) + "\n")


if __name__ == "__main__":
    main()
