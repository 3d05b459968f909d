"""How fast the search agents think: iterations per second at a position.

MCTS and ISMCTS speed is bounded by the engine (cloning, legal actions,
applying, playouts), so this measures agent and engine together, at the
start position of a game. Used by ``limit agents --bench`` and
``benchmarks/bench_agents.py``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from limitgames.agents.base import make_agent
from limitgames.core import State, get_game


@dataclass(frozen=True)
class Throughput:
    """One measurement: ``count`` units of ``what`` in ``seconds``."""

    what: str
    count: int
    seconds: float

    @property
    def rate(self) -> float:
        """Units per second."""
        return self.count / self.seconds if self.seconds > 0 else 0.0


def start_state(game_id: str, variant: dict[str, Any] | None = None, seed: int = 1) -> State:
    """The start position of ``game_id`` (seeded). Raises VariantError / UnknownGameError."""
    return get_game(game_id).new_initial_state(seed=seed, **dict(variant or {}))


def measure_playouts(state: State, seconds: float, seed: int = 1) -> Throughput:
    """Random playouts (``State.playout``) from ``state`` during about ``seconds``."""
    rng = random.Random(seed)
    count = 0
    started = time.perf_counter()
    while True:
        state.clone().playout(rng)
        count += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return Throughput("random playouts", count, elapsed)


def measure_agent(state: State, spec: str, seed: int = 1) -> Throughput:
    """One decision of the agent ``spec`` (give it a ``seconds=`` budget) at ``state``.

    Returns the iterations it ran (``last_info["iterations"]``, or alpha-beta's
    nodes) and the wall time.
    """
    agent = make_agent(spec, seed)
    started = time.perf_counter()
    agent.choose(state)
    elapsed = time.perf_counter() - started
    info = agent.last_info
    count = int(info.get("iterations", info.get("nodes", 1)))
    unit = "iterations" if "iterations" in info else "nodes"
    return Throughput(f"{spec} {unit}", count, elapsed)


def bench_agents(
    game_id: str, variant: dict[str, Any] | None = None, seconds: float = 2.0, seed: int = 1
) -> list[Throughput]:
    """Playouts/s, MCTS and ISMCTS iterations/s (random and heuristic playouts; on hex also
    the compiled ``hexmcts`` with random, heuristic and tactical playouts) and alpha-beta
    nodes/s at the start position of ``game_id``."""
    state = start_state(game_id, variant, seed)
    specs = [
        f"mcts:seconds={seconds:g},playouts=random",
        f"mcts:seconds={seconds:g},playouts=heuristic",
        *(
            [
                f"hexmcts:seconds={seconds:g},playouts={kind}"
                for kind in ("random", "heuristic", "tactical")
            ]
            if game_id == "hex"
            else []
        ),
        f"ismcts:seconds={seconds:g},playouts=random",
        f"ismcts:seconds={seconds:g},playouts=heuristic",
        f"alphabeta:seconds={seconds:g}",
    ]
    # a short untimed round first: compiled code is loaded (or compiled) outside the clock
    measure_playouts(state, 0.05, seed)
    for spec in specs:
        measure_agent(state, spec.replace(f"seconds={seconds:g}", "seconds=0.05"), seed)
    results = [measure_playouts(state, seconds, seed)]
    for spec in specs:
        results.append(measure_agent(state, spec, seed))
    return results
