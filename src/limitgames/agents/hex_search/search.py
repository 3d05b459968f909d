"""The compiled MCTS of hex as an object kept between moves: :class:`HexSearch`.

The arrays of the tree (:mod:`limitgames.agents.hex_search.tree`) live here and
grow as the search needs them; :meth:`HexSearch.search` runs the compiled
iterations and reports the root (:class:`SearchReport`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from limitgames.agents.hex_search.evaluation import EVALUATION_SIZE
from limitgames.agents.hex_search.tree import (
    _CONTEMPT,
    _EDGES,
    _EMPTY,
    _EXACT,
    _EXPANDED,
    _FIRST,
    _FULL,
    _ME,
    _MOVER,
    _NODE_FLOATS,
    _NODE_INTS,
    _NODES,
    _PROVEN,
    _TOTAL,
    _VISITS,
    _find_or_add_root,
    _rebuild_table,
    search,
)
from limitgames.hex import kernel
from limitgames.hex.bitboard import Floats, Ints, Masks, seed_word
from limitgames.hex.solver import _KEY_WORDS

__all__ = ["REUSE_NODES", "ChildReport", "HexSearch", "SearchReport"]


@dataclass(frozen=True)
class ChildReport:
    """One action at the root: its visits, its mean result and, if proven, its exact value
    (for the seat to move at the root)."""

    action: int
    visits: int
    mean: float
    exact: float | None


@dataclass(frozen=True)
class SearchReport:
    """What one :meth:`HexSearch.search` found.

    Attributes:
        action: the action to play (a kernel action integer).
        iterations: iterations of this search.
        seconds: its wall time.
        reused: root visits kept from earlier searches.
        root_visits: root visits after the search.
        proven: the exact result for the seat to move (+1 sole win, 0 shared or drawn, -1 loss)
            if the search proved it, else ``None``.
        nodes: nodes in the tree.
        children: the root's tried actions, most visited first.
    """

    action: int
    iterations: int
    seconds: float
    reused: int
    root_visits: int
    proven: float | None
    nodes: int
    children: list[ChildReport] = field(default_factory=list)


REUSE_NODES = 1 << 17
"""Arrays of this many nodes or more are not doubled to keep a reused tree: a tree that fills
more than half of them is cleared at the start of a search. The nodes off the new root are dead
weight, and doubling arrays of 256k nodes and more took 0.3-1.4 s inside a timed search (a 1-s
search of ``hard`` took 2.5 s at 524k nodes)."""


class HexSearch:
    """A compiled MCTS for the movement phase of hex, kept between moves of one game.

    Args:
        c: the UCB1 exploration constant (results lie in -1..1).
        depth: random decisions before a playout is cut off and scored by the
            learned evaluation; ``None``: random playouts to the end.
        evaluation: ``float64[EVALUATION_SIZE]``, the learned model (needed for
            ``depth`` and ``prior``).
        prior: weight of the evaluation prior (0: off).
        contempt: what a draw (or shared win) costs the searching player, in results
            (0: a draw is worth 0; 0.3: worth -0.3, so it plays on for a win).
        greed: the share (0..1) of playout decisions taken by the tactical policy
            (:func:`limitgames.hex.tactics.tactical_playout`); 0: uniformly random playouts.
        order: weight of the tactical order (0: off; actions are tried in random order).
            Ignored when ``prior`` is on (the evaluation orders them then).
        widen: progressive widening, ``1 + widen sqrt(visits)`` actions in play (0: off).
        rave: the RAVE equivalence parameter ``k`` (0: off): all-moves-as-first
            statistics per edge, mixed into UCB with weight ``sqrt(k / (3 n + k))``, and
            the next action tried is the untried one with the best of them.
        table: merge transpositions.
        solver: MCTS-Solver.
        reuse: keep the tree between moves.
        seed: the random stream's seed.
        max_nodes: the tree stops growing at this many nodes (the search then
            returns early); at the start of a search a tree that fills more than half
            of arrays of :data:`REUSE_NODES` nodes or more is cleared.
    """

    def __init__(
        self,
        *,
        c: float = 1.4,
        depth: int | None = None,
        evaluation: Floats | None = None,
        prior: float = 0.0,
        contempt: float = 0.0,
        greed: float = 0.0,
        order: float = 0.0,
        widen: float = 0.0,
        rave: float = 0.0,
        table: bool = True,
        solver: bool = True,
        reuse: bool = True,
        seed: int = 0,
        max_nodes: int = 1 << 21,
    ) -> None:
        if (depth is not None or prior > 0.0) and evaluation is None:
            raise ValueError("cut-off playouts and the prior need an evaluation array")
        self.params = np.array(
            [
                c,
                prior,
                -1 if depth is None else depth,
                float(table),
                float(solver),
                contempt,
                0,
                greed,
                order,
                widen,
                rave,
            ],
            np.float64,
        )
        self.weights = (
            np.zeros(EVALUATION_SIZE, np.float64)
            if evaluation is None
            else np.asarray(evaluation, dtype=np.float64)
        )
        if self.weights.shape != (EVALUATION_SIZE,):
            raise ValueError(f"the evaluation array must have {EVALUATION_SIZE} numbers")
        self.reuse = reuse
        self.max_nodes = max_nodes
        self.rng = np.array([seed_word(seed)], dtype=np.uint64)
        self._surface: Masks | None = None  # held, so its id is never reused
        self._allocate(1 << 14)

    def _allocate(self, nodes: int) -> None:
        self.ints = np.zeros((nodes, _NODE_INTS), np.int64)
        self.floats = np.zeros((nodes, _NODE_FLOATS), np.float64)
        self.keys = np.zeros((nodes, _KEY_WORDS), np.uint64)
        self.table = np.full(2 * nodes, _EMPTY, np.int64)
        edges = 16 * nodes
        self.edge_action = np.zeros(edges, np.int64)
        self.edge_child = np.full(edges, _EMPTY, np.int64)
        self.edge_prior = np.zeros(edges, np.float64)
        self.edge_amaf = np.zeros((edges, 2), np.float64)
        self.counters = np.zeros(4, np.int64)

    def clear(self) -> None:
        """Forget the tree."""
        self.table.fill(_EMPTY)
        self.counters[:] = 0

    def _grow(self) -> bool:
        """Double the arrays (keeping the tree); ``False`` at ``max_nodes``."""
        nodes = self.ints.shape[0]
        if nodes * 2 > self.max_nodes:
            return False
        old = (self.ints, self.floats, self.keys, self.edge_action, self.edge_child)
        old_prior, old_amaf, counters = self.edge_prior, self.edge_amaf, self.counters.copy()
        used, edges = int(counters[_NODES]), int(counters[_EDGES])
        self._allocate(nodes * 2)
        self.ints[:used] = old[0][:used]
        self.floats[:used] = old[1][:used]
        self.keys[:used] = old[2][:used]
        self.edge_action[:edges] = old[3][:edges]
        self.edge_child[:edges] = old[4][:edges]
        self.edge_prior[:edges] = old_prior[:edges]
        self.edge_amaf[:edges] = old_amaf[:edges]
        self.counters[:] = counters
        self.counters[_FULL] = 0
        _rebuild_table(self.keys, used, self.table)
        return True

    def search(
        self,
        nb: Masks,
        ring: Ints,
        s: Masks,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> SearchReport:
        """Search the position ``s`` (a kernel state vector on the surface ``nb``, ``ring``;
        not finished) for ``iterations`` or ``seconds`` (at least one).

        Raises:
            ValueError: if the game is over or no budget is given.
        """
        if int(s[kernel.S_STEP]) == kernel.OVER_STEP:
            raise ValueError("the game is over: there is nothing to search")
        if iterations is None and seconds is None:
            raise ValueError("give iterations or seconds")
        started = time.perf_counter()
        deadline = 0.0 if seconds is None else started + seconds
        if (
            not self.reuse
            or self._surface is not nb
            or (
                self.counters[_NODES] * 2 > self.ints.shape[0] and self.ints.shape[0] >= REUSE_NODES
            )
        ):
            self.clear()
        self._surface = nb
        mover = int(s[kernel.S_TO_MOVE])
        if self.params[_CONTEMPT] != 0.0 and mover != int(self.params[_ME]):
            self.clear()  # values in the tree were scored for another player's contempt
        self.params[_ME] = mover
        root = _find_or_add_root(
            s, self.ints, self.floats, self.keys, self.table, self.counters, self.params
        )
        reused = int(self.ints[root, _VISITS])
        left = iterations if iterations is not None else 1 << 62
        done = 0
        while left > 0:
            n = search(
                nb, ring, s, self.ints, self.floats, self.keys, self.table,
                self.edge_action, self.edge_child, self.edge_prior, self.edge_amaf, self.counters,
                self.params, self.weights, self.rng, left, deadline,
            )  # fmt: skip
            done += n
            left -= n
            if not self.counters[_FULL] or not self._grow():
                break
        return self._report(root, done, time.perf_counter() - started, reused)

    def _report(self, root: int, done: int, seconds: float, reused: int) -> SearchReport:
        ints, floats = self.ints, self.floats
        mover = int(ints[root, _MOVER])
        first, expanded = int(ints[root, _FIRST]), int(ints[root, _EXPANDED])
        children = []
        for e in range(first, first + expanded):
            child = int(self.edge_child[e])
            visits = int(ints[child, _VISITS])
            mean = float(floats[child, _TOTAL + mover]) / visits if visits else 0.0
            exact = float(floats[child, _EXACT + mover]) if ints[child, _PROVEN] else None
            children.append(ChildReport(int(self.edge_action[e]), visits, mean, exact))
        children.sort(key=lambda r: (-r.visits, -r.mean))
        proven = float(floats[root, _EXACT + mover]) if ints[root, _PROVEN] else None
        return SearchReport(
            action=_choose(children, proven),
            iterations=done,
            seconds=seconds,
            reused=reused,
            root_visits=int(ints[root, _VISITS]),
            proven=proven,
            nodes=int(self.counters[_NODES]),
            children=children,
        )


def _choose(children: list[ChildReport], proven: float | None) -> int:
    """The most visited action, except that an action proven to reach the root's proven value
    (or a sole win) comes first and one proven to lose comes last."""

    def rank(child: ChildReport) -> tuple[int, int, float]:
        if child.exact is not None:
            if child.exact >= 1.0 or (proven is not None and child.exact >= proven):
                return (2, child.visits, child.mean)
            if child.exact <= -1.0:
                return (0, child.visits, child.mean)
        return (1, child.visits, child.mean)

    return max(children, key=rank).action
