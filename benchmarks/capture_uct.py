"""A capture-first UCT for hex, written apart from the project's agents: a baseline to measure
the levels against.

Plain UCT (Kocsis and Szepesvári 2006; UCB1 with c = 1.4 on results in -1..1, max-n backups,
no transposition table, no tree reuse, no solver, no evaluation) whose playouts go to the end
of the game and take a capture whenever one is legal: at each decision the legal actions are
tried in random order on a copy of the position, and the first one that removes an enemy pawn
is played; if none does, a uniformly random action is. This is the "capture-first playouts"
idea of the outside UCT of the project's strength measurements, written again here on the rules
engine's public kernel API only (``HexState.kernel_vector``, the surface's tables,
``kernel.legal_actions`` / ``play`` / ``returns_of``): nothing of ``limitgames.agents`` or of
the engine's own playout policies (``hex/tactics.py``, ``hex/playouts.py``) is used.
The 2008 placement phase is not searched (a random placement is played).

It is not one of the project's agents: the arena imports it as a plugin, from the root of a
local checkout only, always as ``benchmarks.capture_uct`` (Numba's cache of its compiled
functions names their module: imported under another name it fails to load them)::

    PYTHONPATH=src:. limit arena hex --plugin benchmarks.capture_uct \\
        --agent captureuct:seconds=1 --agent hard -n 20 -w 2 -o runs/captureuct-hard

Spec: ``captureuct:seconds=S`` (a wall-time budget a decision, default 1) and/or
``iterations=N`` (whichever runs out first), ``c=C``.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
from numba import njit

from limitgames.agents import Agent, AgentSpecError, register_agent
from limitgames.core import Action, State
from limitgames.hex import kernel
from limitgames.hex.state import HexState
from limitgames.hex.warmup import tiny_position

NAME = "captureuct"


@njit(cache=True)
def _enemy_pawns(s: Any, mover: int) -> int:
    """Pawns on the board of every kernel player but ``mover``."""
    total = 0
    for k in range(int(s[kernel.S_PLAYERS])):
        if k != mover:
            m = np.uint64(s[kernel.S_PAWNS + k])
            while m:
                m &= m - np.uint64(1)
                total += 1
    return total


@njit(cache=True)
def capture_first_action(nb: Any, ring: Any, s: Any, actions: Any, trial: Any) -> int:
    """The capture-first choice at the kernel state ``s`` (not finished): the first legal
    action, in a random order, that removes an enemy pawn, else a uniformly random one, or -1
    if there is none. ``actions`` (``int64[kernel.MAX_MOVES]``) and ``trial`` (a state vector)
    are scratch space. Uses Numba's own seeded generator."""
    n = kernel.legal_actions(nb, s, actions)
    if n == 0:
        return -1
    mover = int(s[kernel.S_TO_MOVE])
    before = _enemy_pawns(s, mover)
    for i in range(n):  # a random order: Fisher-Yates as we go
        j = i + np.random.randint(n - i)
        actions[i], actions[j] = actions[j], actions[i]
        trial[:] = s
        kernel.play(nb, ring, trial, actions[i])
        if _enemy_pawns(trial, mover) < before:
            return int(actions[i])
    return int(actions[np.random.randint(n)])


@njit(cache=True)
def capture_first_playout(nb: Any, ring: Any, s: Any, out: Any) -> None:
    """Play the kernel state ``s`` to its end in place, capture-first (see the module); write
    each kernel player's result (+1, 0, -1) into ``out``."""
    actions = np.empty(kernel.MAX_MOVES, np.int64)
    trial = s.copy()
    while s[kernel.S_STEP] != kernel.OVER_STEP:
        action = capture_first_action(nb, ring, s, actions, trial)
        if action < 0:  # cannot happen in a settled position; stop rather than loop
            break
        kernel.play(nb, ring, s, action)
    kernel.returns_of(s, out)


@njit(cache=True)
def seed_playouts(seed: int) -> None:
    """Seed Numba's generator, which the playouts draw from (one per process)."""
    np.random.seed(seed)


class _Node:
    __slots__ = ("action", "children", "mover", "parent", "totals", "untried", "vector", "visits")

    def __init__(self, parent: _Node | None, action: int, vector: Any, nb: Any) -> None:
        self.parent = parent
        self.action = action
        self.vector = vector
        self.children: list[_Node] = []
        self.visits = 0
        self.totals = np.zeros(3)
        over = int(vector[kernel.S_STEP]) == kernel.OVER_STEP
        self.mover = -1 if over else int(vector[kernel.S_TO_MOVE])
        if over:
            self.untried: list[int] = []
        else:
            out = np.empty(kernel.MAX_MOVES, np.int64)
            self.untried = out[: kernel.legal_actions(nb, vector, out)].tolist()


class CaptureUct(Agent):
    """Plain UCT with capture-first playouts to the end (hex only)."""

    name = NAME

    def __init__(
        self, spec: str, seed: int | None, iterations: int | None, seconds: float | None, c: float
    ) -> None:
        super().__init__(spec, seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        seed_playouts(self.rng.getrandbits(31))
        # compile (or load from Numba's cache) the playout now, not inside the first timed move
        nb, ring, s = tiny_position()
        capture_first_playout(nb, ring, s, np.zeros(3))

    def check_game(self, game_id: str) -> None:
        if game_id != "hex":
            raise AgentSpecError(f"{NAME} plays only hex, not {game_id!r}")

    def choose(self, state: State) -> Action:
        self.fit_game(state.game_id)
        actions = self.legal_actions_of(state)
        assert isinstance(state, HexState)
        vector, surface = state.kernel_vector(), state.surface
        if len(actions) == 1 or vector is None or surface is None:
            self.last_info = {"iterations": 0}
            return actions[self.rng.randrange(len(actions))]
        nb, ring = surface.neighbour_masks, surface.ring
        started = time.perf_counter()
        deadline = math.inf if self.seconds is None else started + 0.95 * self.seconds
        root = _Node(None, -1, vector, nb)
        rng, c, result = self.rng, self.c, np.zeros(3)
        done = 0
        while self.iterations is None or done < self.iterations:
            if done and (done & 7) == 0 and time.perf_counter() >= deadline:
                break
            node = root
            while not node.untried and node.children:
                log_n = math.log(node.visits)
                seat = node.mover
                node = max(
                    node.children,
                    key=lambda ch: ch.totals[seat] / ch.visits + c * math.sqrt(log_n / ch.visits),
                )
            if node.untried:
                action = node.untried.pop(rng.randrange(len(node.untried)))
                child_vector = node.vector.copy()
                kernel.play(nb, ring, child_vector, action)
                child = _Node(node, action, child_vector, nb)
                node.children.append(child)
                node = child
            playout = node.vector.copy()
            capture_first_playout(nb, ring, playout, result)
            walker: _Node | None = node
            while walker is not None:
                walker.visits += 1
                walker.totals += result
                walker = walker.parent
            done += 1
        best = max(root.children, key=lambda ch: ch.visits)
        self.last_info = {
            "iterations": done,
            "seconds": round(time.perf_counter() - started, 3),
            "visits": best.visits,
        }
        return best.action


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    known = {"iterations", "seconds", "c"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise AgentSpecError(f"{NAME}: unknown option(s) {', '.join(unknown)}")
    try:
        iterations = int(options["iterations"]) if "iterations" in options else None
        seconds = float(options["seconds"]) if "seconds" in options else None
        c = float(options.get("c", "1.4"))
    except ValueError as exc:
        raise AgentSpecError(f"{NAME}: {exc}") from None
    if iterations is None and seconds is None:
        seconds = 1.0
    return CaptureUct(spec, seed, iterations, seconds, c)


register_agent(
    NAME,
    _make,
    "benchmark baseline (hex): plain UCT with capture-first playouts; seconds=S, iterations=N, c=C",
)
