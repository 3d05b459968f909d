"""``puct``: hex's tree search guided by the learned network (PUCT, batched leaf evaluation).

The search of AlphaZero (Silver et al. 2018) on the kernel's state vectors, with the tile
network of :mod:`limitgames.agents.hex_network` for both the prior and the leaf value (no
playouts):

- **selection**: at a node whose mover is ``p``, the edge maximising
  ``Q + c P sqrt(N) / (1 + n)`` (PUCT, Rosin 2011, as AlphaZero uses it): ``Q`` the mean
  result for ``p`` through the edge (an untried edge gets the node's own value for ``p``
  less 0.1, "first-play urgency"), ``P`` the network's policy, ``N`` the node's visits and
  ``n`` the edge's;
- **batched leaf evaluation** with **virtual loss**: up to ``batch`` descents are made one
  after another, each counting a loss (-1) for the mover on every edge it passes until its
  leaf is evaluated, so the next descent is steered elsewhere; then all their leaves are
  evaluated in one NumPy call (:meth:`HexNetwork.evaluate`), expanded and backed up. A
  descent that reaches a leaf already waiting (a collision) is undone and the batch is
  evaluated at once;
- **values**: a finished game is worth its results (1 sole winner, 0 shared, -1 loser,
  :func:`limitgames.hex.kernel.returns_of`); a leaf the network's value ``v`` for its mover,
  ``-v`` for the other seat with two players (with three, ``-v / 2`` for each other seat:
  the network was trained on two-player games, so three players get an approximation);
- **mixed leaf values** (``mix=λ``, AlphaGo's mixing, Silver et al. 2016): with ``λ > 0``
  each leaf is also played out to the end once by the tactical playout of the compiled MCTS
  (:func:`limitgames.hex.tactics.tactical_playout`, ``greed`` its share of policy moves), and
  its value is ``(1 - λ)`` times the network's plus ``λ`` times the playout's result; the
  playouts draw from one xorshift64 stream seeded by the agent's seed;
- **the move**: a root action that wins the game at once is played without search; else the
  most visited root action (ties: the better mean);
- **the opening** (``opening=T``, ``opening_work=F``): the decisions of the movement phase's
  first ``T`` turns get ``F`` times the budget (:mod:`limitgames.agents.opening`);
- **tree reuse** (``reuse=yes``, the default): the next search starts from the node of the
  new position if the last tree holds it (up to two turns below its old root), with its
  statistics.

Defined by work (``iterations``: leaf evaluations and finished games reached, the same seed
gives the same move under any load) with a wall-time cap (``seconds``: the search stops at
90% of it). The 2008 placement phase is searched by the Python UCT of ``mcts``
(``placement`` iterations), as ``hexmcts`` does.
"""

from __future__ import annotations

import math
import time
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from limitgames.agents.base import Agent, AgentSpecError, register_agent
from limitgames.agents.budget import TIME_MARGIN, Budget, OptionReader
from limitgames.agents.hex_network import (
    DEFAULT_NETWORK,
    NETWORKS,
    HexNetwork,
    NetworkBatch,
    load_network,
)
from limitgames.agents.mcts import MctsAgent
from limitgames.agents.opening import Opening, read_opening
from limitgames.core import Action, State
from limitgames.hex import kernel
from limitgames.hex.bitboard import Floats, Ints, Masks, seed_word
from limitgames.hex.encoding import NUM_PLANES, surface_static, write_planes
from limitgames.hex.state import HexState
from limitgames.hex.surface import MAX_TILES, Surface
from limitgames.hex.tactics import tactical_playout

__all__ = ["PuctAgent", "PuctSearch", "RootStatistics"]

FIRST_PLAY_URGENCY = 0.1
"""An untried edge is valued at its node's value for the mover less this."""
VIRTUAL_LOSS = 1.0
"""The result counted for a mover on each edge of a descent still waiting for its leaf."""


@njit(cache=True)
def puct_select(visits: Floats, totals: Floats, prior: Floats, value: float, c: float) -> int:
    """The edge PUCT descends: the first maximising ``Q + c P sqrt(max(N, 1)) / (1 + n)``
    (``visits``, ``totals``, ``prior``: ``float64[K]`` per edge; ``value``: the node's value
    for its mover, the ``Q`` of an untried edge less :data:`FIRST_PLAY_URGENCY`). Compiled;
    ``tests/agents/test_puct.py`` checks it against the NumPy formula."""
    total = 0.0
    for e in range(visits.shape[0]):
        total += visits[e]
    root = math.sqrt(max(total, 1.0))
    best, best_score = 0, -np.inf
    for e in range(visits.shape[0]):
        n = visits[e]
        q = totals[e] / n if n > 0 else value - FIRST_PLAY_URGENCY
        score = q + c * prior[e] * root / (1.0 + n)
        if score > best_score:
            best, best_score = e, score
    return best


@njit(cache=True)
def playout_returns(
    nb: Masks, ring: Ints, states: Masks, rng: Masks, greed: float, returns: Floats
) -> None:
    """Play each of ``states`` (``uint64[B, STATE_SIZE]``, left unchanged) to the end with the
    tactical playout and write its results (``returns``: ``float64[B, 3]``, kernel player
    order, 1 sole winner, 0 shared, -1 loser) from the stream ``rng[0]``."""
    history = np.empty(8 * MAX_TILES, np.int64)
    movers = np.empty(8 * MAX_TILES, np.int64)
    for b in range(states.shape[0]):
        s = states[b].copy()
        tactical_playout(nb, ring, s, rng, 0, -1, history, movers, greed)
        for k in range(3):
            returns[b, k] = 0.0
        if s[kernel.S_STEP] == kernel.OVER_STEP:
            kernel.returns_of(s, returns[b])


class _Node:
    """A position of the tree: its state vector, mover, legal actions, the network's prior
    over them and per edge the visits, the total result for the mover and the child."""

    __slots__ = (
        "actions", "children", "mover", "prior", "results", "s", "totals", "value", "visits"
    )  # fmt: skip

    def __init__(self, s: Masks, mover: int) -> None:
        self.s = s
        self.mover = mover
        self.actions: np.ndarray[Any, np.dtype[np.int64]] | None = None  # None: not expanded
        self.prior = np.zeros(0)
        self.visits = np.zeros(0)
        self.totals = np.zeros(0)
        self.children: list[_Node | None] = []
        self.value = 0.0  # the network's (or the finished game's) value for the mover
        self.results: np.ndarray[Any, Any] | None = None  # a mixed leaf's value per player


class RootStatistics(NamedTuple):
    """What a search found at its root (:meth:`PuctSearch.root_statistics`).

    Attributes:
        actions: ``int64[K]``, the legal kernel actions.
        visits: ``float64[K]``, each edge's visits (those of a reused tree included).
        means: ``float64[K]``, each edge's mean result for the mover, -1..1 (NaN: not tried).
        prior: ``float64[K]``, the network's policy.
        value: the network's value of the root for its mover, -1..1.
        iterations: the descents of this search.
        reused: the visits the root had from the last search's tree.
    """

    actions: np.ndarray[Any, np.dtype[np.int64]]
    visits: np.ndarray[Any, np.dtype[np.float64]]
    means: np.ndarray[Any, np.dtype[np.float64]]
    prior: np.ndarray[Any, np.dtype[np.float64]]
    value: float
    iterations: int
    reused: int


class PuctSearch:
    """PUCT on one movement-phase surface with the network ``network``.

    Args:
        network: the tile network.
        c: the exploration constant of PUCT.
        batch: leaves evaluated per network call (1: no virtual loss).
        reuse: start from the last tree's node of the new position when it holds one.
        mix: the playout's share ``λ`` (0..1) of a leaf's value; 0: the network's alone.
        greed: the tactical playout's share (0..1) of policy moves (with ``mix > 0``).
        seed: the playouts' stream.
    """

    def __init__(
        self,
        network: HexNetwork,
        c: float = 1.5,
        batch: int = 8,
        reuse: bool = True,
        mix: float = 0.0,
        greed: float = 1.0,
        seed: int = 0,
    ) -> None:
        self.network = network
        self.c = c
        self.batch = batch
        self.reuse = reuse
        self.mix = mix
        self.greed = greed
        self._rng = np.array([seed_word(seed)], np.uint64)
        self.evaluations = 0
        self._root: _Node | None = None
        self._surface: object = None

    def clear(self) -> None:
        """Forget the tree (a new game)."""
        self._root = None

    def _reused_root(self, s: Masks, surface: object) -> _Node | None:
        """The node of position ``s`` in the last search's tree (up to four decisions below its
        root: two turns of move and removal), if the tree holds it expanded."""
        if not self.reuse or self._root is None or self._surface is not surface:
            return None
        key = s.tobytes()
        level = [self._root]
        for _ in range(5):
            for node in level:
                if node.actions is not None and node.s.tobytes() == key:
                    return node
            level = [c for node in level for c in node.children if c is not None]
        return None

    def search(
        self,
        state: HexState,
        iterations: int | None,
        seconds: float | None,
    ) -> tuple[int, dict[str, Any]]:
        """Search ``state`` (movement phase, not finished) for ``iterations`` (work) and/or
        ``seconds`` (a cap, 90% of it spent): the action to play and its ``last_info``.

        Raises:
            ValueError: the state is finished or in the 2008 placement phase, or no budget.
        """
        started = time.perf_counter()
        s, surface = state.kernel_vector(), state.surface
        if s is None or surface is None:
            raise ValueError("puct searches the movement phase of a game still going on")
        static = surface_static(surface, state.edition, int(state.variant["size"]))
        self._prepare(s, surface, static, iterations, seconds)
        winning = self._winning_action(s)
        if winning is not None:
            return winning, {"iterations": 0, "seconds": 0.0, "value": 1.0, "win": 1.0,
                             "proven": "win"}  # fmt: skip
        root = self._run(s, surface, iterations, seconds, started)
        action, info = self._report(state, root, time.perf_counter() - started)
        return action, info

    def root_statistics(
        self,
        s: Masks,
        surface: Surface,
        static: Masks,
        iterations: int | None,
        seconds: float | None = None,
    ) -> RootStatistics:
        """Search the kernel state ``s`` (``uint64[STATE_SIZE]``, movement phase, not finished)
        on ``surface`` (``static``: :func:`limitgames.hex.encoding.surface_static`) and return
        the root's statistics, without the shortcut of a winning action (the training script
        reads the visits as its policy target).

        Raises:
            ValueError: the state is finished, or no budget.
        """
        started = time.perf_counter()
        self._prepare(s, surface, static, iterations, seconds)
        return self._run(s, surface, iterations, seconds, started)

    def _run(
        self,
        s: Masks,
        surface: Surface,
        iterations: int | None,
        seconds: float | None,
        started: float,
    ) -> RootStatistics:
        """The search itself, after :meth:`_prepare`: from the reused or a new root."""
        deadline = None if seconds is None else started + seconds * TIME_MARGIN
        root = self._reused_root(s, surface)
        reused = 0 if root is None else int(root.visits.sum())
        if root is None:
            root = _Node(s, int(s[kernel.S_TO_MOVE]))
            self._evaluate([root])
        self._root, self._surface = root, surface
        done = 0
        limit = iterations if iterations is not None else 1 << 62
        while done < limit:
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            done += self._round(root, min(self.batch, limit - done))
        assert root.actions is not None
        means = np.where(root.visits > 0, root.totals / np.maximum(root.visits, 1), np.nan)
        return RootStatistics(
            root.actions, root.visits.copy(), means, root.prior, root.value, done, reused
        )

    def _prepare(
        self,
        s: Masks,
        surface: Surface,
        static: Masks,
        iterations: int | None,
        seconds: float | None,
    ) -> None:
        """Check the budget and the state; set up the surface.

        Raises:
            ValueError: the state is finished, or no budget.
        """
        if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
            raise ValueError("puct searches the movement phase of a game still going on")
        if iterations is None and seconds is None:
            raise ValueError("give iterations or seconds")
        self.nb, self.ring, self.static = surface.neighbour_masks, surface.ring, static
        self.players = int(s[kernel.S_PLAYERS])
        self._buffer = np.empty(kernel.MAX_MOVES, np.int64)

    # --- one batch of descents ------------------------------------------------------------------
    def _round(self, root: _Node, wanted: int) -> int:
        """Up to ``wanted`` descents, their leaves evaluated in one call; returns the
        descents completed (a finished game or an evaluated leaf each)."""
        pending: list[tuple[list[tuple[_Node, int]], _Node]] = []
        finished = 0
        for _ in range(wanted):
            path: list[tuple[_Node, int]] = []
            node = root
            collided = False
            while True:
                if node.actions is None:  # a leaf waiting in this batch
                    collided = True
                    break
                if len(node.actions) == 0:  # a finished game
                    break
                e = self._select(node)
                path.append((node, e))
                node.visits[e] += 1
                node.totals[e] -= VIRTUAL_LOSS
                child = node.children[e]
                if child is None:
                    s = node.s.copy()
                    kernel.play(self.nb, self.ring, s, int(node.actions[e]))
                    child = _Node(s, int(s[kernel.S_TO_MOVE]))
                    node.children[e] = child
                    if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
                        self._finish(child)
                    else:
                        pending.append((path, child))
                        break
                node = child
            if collided:
                for parent, e in path:
                    parent.visits[e] -= 1
                    parent.totals[e] += VIRTUAL_LOSS
                break
            if node.actions is not None and len(node.actions) == 0:
                self._backup(path, self._values_of(node))
                finished += 1
        if pending:
            self._evaluate([leaf for _, leaf in pending])
            for path, leaf in pending:
                self._backup(path, self._values_of(leaf))
        return finished + len(pending)

    def _select(self, node: _Node) -> int:
        return int(puct_select(node.visits, node.totals, node.prior, node.value, self.c))

    def _backup(self, path: list[tuple[_Node, int]], values: np.ndarray[Any, Any]) -> None:
        for node, e in path:
            node.totals[e] += VIRTUAL_LOSS + values[node.mover]

    def _values_of(self, node: _Node) -> np.ndarray[Any, Any]:
        """The result of every kernel player at ``node`` (its value for its mover spread)."""
        if node.actions is not None and len(node.actions) == 0:
            out = np.zeros(3)
            kernel.returns_of(node.s, out)
            return out
        if node.results is not None:
            return node.results
        other = -node.value if self.players == 2 else -node.value / 2.0
        out = np.full(3, other)
        out[node.mover] = node.value
        return out

    def _finish(self, node: _Node) -> None:
        node.actions = np.zeros(0, np.int64)
        out = np.zeros(3)
        kernel.returns_of(node.s, out)
        node.value = float(out[node.mover]) if node.mover < self.players else 0.0

    def _evaluate(self, leaves: list[_Node]) -> None:
        """Expand ``leaves`` (positions still going on) with one network call."""
        words = np.zeros((len(leaves), NUM_PLANES), np.uint64)
        actions = []
        for i, leaf in enumerate(leaves):
            write_planes(leaf.s, self.static, leaf.mover, words[i])
            n = kernel.legal_actions(self.nb, leaf.s, self._buffer)
            actions.append(self._buffer[:n].copy())
        rings = np.broadcast_to(self.ring, (len(leaves), *self.ring.shape))
        values, policies = self.network.evaluate(NetworkBatch.from_words(words, rings), actions)
        self.evaluations += len(leaves)
        for leaf, value, acts, policy in zip(leaves, values, actions, policies, strict=True):
            leaf.value = float(value)
            leaf.prior = policy.astype(np.float64)
            leaf.visits = np.zeros(len(acts))
            leaf.totals = np.zeros(len(acts))
            leaf.children = [None] * len(acts)
            leaf.actions = acts  # last: a node with actions is expanded
        if self.mix > 0.0:
            self._mix_playouts(leaves)

    def _mix_playouts(self, leaves: list[_Node]) -> None:
        """Give each of ``leaves`` its mixed value per player: ``(1 - mix)`` times the
        network's spread (:meth:`_values_of`) plus ``mix`` times one tactical playout's result."""
        states = np.stack([leaf.s for leaf in leaves])
        played = np.zeros((len(leaves), 3))
        playout_returns(self.nb, self.ring, states, self._rng, self.greed, played)
        for leaf, result in zip(leaves, played, strict=True):
            leaf.results = (1.0 - self.mix) * self._values_of(leaf) + self.mix * result

    def _winning_action(self, s: Masks) -> int | None:
        """A legal action after which the mover alone has won, if there is one."""
        mover = int(s[kernel.S_TO_MOVE])
        n = kernel.legal_actions(self.nb, s, self._buffer)
        out = np.zeros(3)
        for a in self._buffer[:n].copy():
            child = s.copy()
            kernel.play(self.nb, self.ring, child, int(a))
            if int(child[kernel.S_STEP]) == kernel.OVER_STEP:
                kernel.returns_of(child, out)
                if out[mover] >= 1.0 and sum(out[: self.players] >= 1.0) == 1:
                    return int(a)
        return None

    def _report(
        self, state: HexState, root: RootStatistics, seconds: float
    ) -> tuple[int, dict[str, Any]]:
        visits = root.visits
        means = np.where(visits > 0, np.nan_to_num(root.means), -2.0)
        order = sorted(range(len(visits)), key=lambda e: (-visits[e], -means[e]))
        best = order[0]
        total = max(1.0, float(visits.sum()))
        value = float(means[best]) if visits[best] > 0 else root.value
        info: dict[str, Any] = {
            "iterations": root.iterations,
            "seconds": round(seconds, 3),
            "visits": int(visits[best]),
            "share": round(float(visits[best]) / total, 3),
            "value": round(value, 3),
            "win": round(max(0.0, min(1.0, (value + 1) / 2)), 3),
            "top": [
                [state.action_to_string(int(root.actions[e])), round(float(visits[e]) / total, 3)]
                for e in order[:3]
            ],
            "prior": round(float(root.prior[best]), 3),
            "reused": root.reused,
        }
        return int(root.actions[best]), info


class PuctAgent(MctsAgent):
    """PUCT with the hex network (movement phase), the Python UCT for 2008 placement."""

    name = "puct"

    def __init__(
        self,
        spec: str,
        seed: int | None = None,
        budget: Budget | None = None,
        c: float = 1.5,
        batch: int = 8,
        net: str = DEFAULT_NETWORK,
        reuse: bool = True,
        solve: bool = False,
        solve_share: float = 0.4,
        solve_nodes: int | None = None,
        placement: int | None = None,
        opening: Opening = Opening(),
        mix: float = 0.0,
        greed: float = 1.0,
    ) -> None:
        super().__init__(
            spec,
            seed,
            budget,
            c=1.4,
            playouts="random",
            reuse=False,
            solve=solve,
            solve_share=solve_share,
            solve_nodes=solve_nodes,
        )
        self.puct_c = c
        self.batch = batch
        self.net = net
        self.tree_reuse = reuse
        self.placement = placement
        self.opening = opening
        self.mix = mix
        self.greed = greed
        self._search: PuctSearch | None = None

    def check_game(self, game_id: str) -> None:
        if game_id != "hex":
            raise AgentSpecError(f"puct plays only hex, not {game_id!r} (its network is hex's)")
        super().check_game(game_id)

    def reset(self) -> None:
        super().reset()
        if self._search is not None:
            self._search.clear()

    def compiled_choice(self, state: State, budget: Budget) -> tuple[Action, dict[str, Any]] | None:
        if not isinstance(state, HexState) or state.surface is None or state.is_terminal():
            return None
        if self._search is None:
            network = load_network(self.net)
            self._search = PuctSearch(
                network,
                self.puct_c,
                self.batch,
                self.tree_reuse,
                mix=self.mix,
                greed=self.greed,
                seed=self.rng.getrandbits(62),
            )
        return self._search.search(state, budget.iterations, budget.seconds)

    def python_budget(self, budget: Budget) -> Budget:
        """The 2008 placement phase's budget: ``placement`` iterations of the Python UCT (if
        given), capped by the time."""
        if self.placement is None:
            return budget
        return Budget(iterations=self.placement, seconds=budget.seconds)


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    reader = OptionReader("puct", options)
    budget = reader.budget(Budget(seconds=1.0))
    c = reader.number("c", 1.5)
    batch = reader.integer("batch", 8)
    net = reader.choice("net", DEFAULT_NETWORK, tuple(sorted(NETWORKS)))
    reuse = reader.choice("reuse", "yes", ("yes", "no")) == "yes"
    solve = reader.choice("solve", "no", ("yes", "no")) == "yes"
    solve_share = reader.fraction("solve_share", 0.4)
    solve_nodes = reader.integer("solve_nodes", None)
    placement = reader.integer("placement", None)
    opening = read_opening(reader)
    mix = reader.fraction("mix", 0.0)
    greed = reader.fraction("greed", 1.0)
    reader.finish()
    assert c is not None and batch is not None
    return PuctAgent(
        spec,
        seed,
        budget,
        c=c,
        batch=batch,
        net=net,
        reuse=reuse,
        solve=solve,
        solve_share=solve_share,
        solve_nodes=solve_nodes,
        placement=placement,
        opening=opening,
        mix=mix,
        greed=greed,
    )


register_agent(
    "puct",
    _make,
    "hex only: PUCT guided by the learned tile network (policy prior and leaf value, leaves "
    "evaluated in batches with virtual loss); options iterations=N (work) and/or seconds=S "
    f"(time; with iterations a cap), c=1.5, batch=8, net={DEFAULT_NETWORK}, reuse=yes|no, "
    "placement=N, "
    "solve=yes|no, "
    "solve_share=0..1, solve_nodes=N, mix=0..1 (the tactical playout's share of a leaf's "
    "value), greed=0..1, opening=T (turns) and opening_work=3 (their work factor)",
)
