"""UCT Monte Carlo tree search for any number of seats (max-n returns).

Kocsis and Szepesvári's UCT (2006) as surveyed by Browne et al. (2012):
each iteration selects down the tree by UCB1, expands one untried action,
plays out to the end (uniformly at random through ``State.playout``, or a
short random playout cut off by the game's evaluation) and backs up the
result of *every* seat (1 sole winner, 0 shared win, -1 loss: see
``evaluation.outcome_values``, so a game scored in points is played to win); at a node the seat to move picks the child best for
itself (max-n), so it works for 2, 3 or more seats.

The tree is kept between moves: when the agent is asked again later in the
same game, the subtree of the position now on the board is reused if it was
reached (checked by ``State.key()``).

On a game with hidden information the agent does not read the hidden parts:
it searches one determinization (``state.determinize(seat, rng)``) per move.
Use ``ismcts`` for such games.

Spec options (``mcts:seconds=1``, ``mcts:iterations=2000,playouts=heuristic``):
    iterations / seconds: the budget per decision (default ``seconds=1``).
    c: the UCB1 exploration constant (default 1.4, for returns in -1..1).
    playouts: ``random`` (to the end, uniformly), ``heuristic`` (``depth``
        random decisions, then the game's evaluation), ``policy`` (to the
        end with the game's rule-of-thumb policy, 10% random decisions; slow),
        ``tactical`` (hex, in its compiled search: to the end by the tactical
        policy of :mod:`limitgames.hex.tactics`, which takes captures and
        spares its own last freedoms; elsewhere the same as ``random``),
        or ``auto`` (default: ``heuristic`` if the game has an evaluation,
        else ``random``).
    greed: with ``playouts=tactical``, the chance (0..1, default 1) that a
        playout decision follows the tactical policy rather than chance.
    order: (hex) weight of the tactical order of trial, a progressive bias
        from :func:`limitgames.hex.tactics.action_kinds` (default 0, off).
    widen: (hex) progressive widening: a node visited ``N`` times has its
        first ``1 + widen sqrt(N)`` actions in play (default 0, off: all).
    rave: (hex) RAVE (Gelly and Silver 2007) with equivalence parameter ``k``
        (default 0, off): all-moves-as-first statistics per action, mixed into
        the mean with weight ``sqrt(k / (3 n + k))``; they also pick which
        untried action comes next.
    depth: cut-off of heuristic playouts in decisions (default: the game's
        own, ``PLAYOUT_DEPTH`` of its evaluation module: hex 12, cards 2,
        world 24; else 12).
    reuse: ``yes`` (default) or ``no``: keep the tree between moves.
    table: ``yes`` (default) or ``no``: merge transpositions (positions reached
        by different orders of actions share one node).
    solver: ``yes`` (default) or ``no``: MCTS-Solver, proven wins and losses
        backed up the tree, so that forced endings are played perfectly.
    prior: weight of the evaluation prior (progressive bias; default 0, off).
    contempt: what a finished draw costs the agent (0..1, default 0): with
        ``contempt=0.3`` a draw is scored -0.3 for it, so it plays on for a win.
    solve: ``yes`` or ``no`` (default): first try the game's exact solver
        (hex: :mod:`limitgames.hex.solver`, on small surfaces) with up to
        ``solve_share`` of the time budget (default 0.4), as ``alphabeta`` does;
        a solved position is played perfectly, otherwise the search runs on the
        time left.

Games with a compiled search of their own (``hex``: :mod:`limitgames.hex.mcts`,
through ``tree_search`` of its evaluation module) run the whole search there:
flat arrays instead of node objects, playouts inside the kernel, and the
``table``, ``solver``, ``prior``, ``order`` and ``widen`` options and ``tactical``
playouts. Elsewhere the search runs in Python below, where those options have no
effect (``tactical`` playouts are random ones there). Plain UCT is
``mcts:playouts=random,table=no,solver=no,reuse=no``.

``last_info`` keys (for interfaces; see ``docs/agents.md``):
    ``iterations`` (this search), ``seconds`` (wall time), ``visits`` (of the
    chosen action), ``share`` (its share of the root's visits, 0..1),
    ``value`` (its mean return for the seat, -1..1), ``win`` (the same as a
    0..1 estimate), ``reused`` (root visits kept from the previous move),
    ``top`` (up to 3 ``[notation, share]`` pairs).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from limitgames.agents.base import Agent, register_agent
from limitgames.agents.budget import TIME_MARGIN, Budget, BudgetClock, OptionReader
from limitgames.agents.evaluation import (
    Policy,
    TreeSearch,
    evaluation_for,
    has_evaluation,
    outcome_values,
    playout_depth_for,
    policy_for,
    solved_choice,
    tree_search_for,
)
from limitgames.agents.heuristic import is_perfect_information
from limitgames.core import Action, State

Playout = Callable[[State, random.Random], list[float]]


class Node:
    """A node of the search tree: the position after ``action`` from ``parent``.

    ``totals[s]`` is the sum of seat ``s``'s returns over the ``visits``
    iterations through this node; ``player`` is the seat to move here
    (negative when terminal); ``untried`` are the actions not yet expanded.
    """

    __slots__ = ("action", "children", "parent", "player", "totals", "untried", "visits")

    def __init__(
        self, parent: Node | None, action: Action, player: int, untried: list[Action], seats: int
    ) -> None:
        self.parent = parent
        self.action = action
        self.player = player
        self.untried = untried
        self.children: list[Node] = []
        self.visits = 0
        self.totals = [0.0] * seats

    def mean(self, seat: int) -> float:
        """The mean return of ``seat`` through this node (0 if never visited)."""
        return self.totals[seat] / self.visits if self.visits else 0.0


def random_playout(state: State, rng: random.Random) -> list[float]:
    """Play ``state`` to the end uniformly at random (the engine's fast loop); the results."""
    return outcome_values(state.playout(rng))


def cutoff_playout(depth: int) -> Playout:
    """A playout of at most ``depth`` random decisions, then the game's evaluation."""

    def playout(state: State, rng: random.Random) -> list[float]:
        state.playout(rng, depth)  # the engine's own loop (hex: inside its compiled kernel)
        if state.is_terminal():
            return outcome_values(state.returns())
        return evaluation_for(state.game_id)(state)

    return playout


def policy_playout(policy: Policy, epsilon: float = 0.1) -> Playout:
    """A playout to the end following the game's rule-of-thumb ``policy``.

    Each decision is uniformly random with chance ``epsilon`` (so playouts vary).
    """

    def playout(state: State, rng: random.Random) -> list[float]:
        while not state.is_terminal():
            if rng.random() < epsilon:
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
            else:
                state.apply(policy(state, rng))
        return outcome_values(state.returns())

    return playout


PLAYOUT_KINDS: tuple[str, ...] = ("auto", "random", "heuristic", "policy")
"""The playout kinds every tree search here knows (``mcts`` and ``ismcts``)."""
MCTS_PLAYOUT_KINDS: tuple[str, ...] = (*PLAYOUT_KINDS, "tactical")
"""``mcts`` also knows ``tactical``: a game's compiled tactical policy (hex), else ``random``."""


def make_playout(kind: str, game_id: str | None, depth: int | None) -> Playout:
    """The playout of ``kind`` (see :data:`PLAYOUT_KINDS`) for ``game_id``.

    ``auto`` is ``heuristic`` for a game with an evaluation (``hex``,
    ``cards``), else ``random``. (``policy`` playouts read observations at
    every step and are too slow to be the default.)
    ``policy`` without a policy falls back to ``random``, and so does
    ``tactical`` (it exists only inside a compiled search: hex).
    """
    if kind == "auto" and game_id is not None:
        kind = "heuristic" if has_evaluation(game_id) else "random"
    if kind == "heuristic":
        if depth is None:
            depth = playout_depth_for(game_id) if game_id is not None else 12
        return cutoff_playout(depth)
    if kind == "policy" and game_id is not None:
        policy = policy_for(game_id)
        if policy is not None:
            return policy_playout(policy)
    return random_playout


def select_ucb(node: Node, c: float) -> Node:
    """The child maximising UCB1 for the seat to move at ``node``."""
    seat = node.player
    explore = c * math.sqrt(math.log(node.visits))
    sqrt = math.sqrt
    best = node.children[0]
    best_score = -math.inf
    for child in node.children:
        visits = child.visits
        score = (child.totals[seat] + explore * sqrt(visits)) / visits  # mean + c sqrt(ln N / n)
        if score > best_score:
            best, best_score = child, score
    return best


class SearchNode(Protocol):
    """What :func:`describe_root` reads of a tree node (``Node`` or ISMCTS's ``InfoNode``)."""

    visits: int
    action: Action

    def mean(self, seat: int) -> float: ...


def describe_root(
    state: State,
    root_children: Sequence[SearchNode],
    seat: int,
    chosen: SearchNode,
    clock: BudgetClock,
) -> dict[str, Any]:
    """The ``last_info`` dict of a tree search (see the module docstring)."""
    total = sum(child.visits for child in root_children) or 1
    value = chosen.mean(seat)
    ranked = sorted(root_children, key=lambda n: n.visits, reverse=True)[:3]
    return {
        "iterations": clock.iterations,
        "seconds": round(clock.elapsed(), 3),
        "visits": chosen.visits,
        "share": round(chosen.visits / total, 3),
        "value": round(value, 3),
        "win": round(max(0.0, min(1.0, (value + 1) / 2)), 3),
        "top": [[state.action_to_string(n.action), round(n.visits / total, 3)] for n in ranked],
    }


class MctsAgent(Agent):
    """UCT with max-n backups, tree reuse and a time or iteration budget."""

    name = "mcts"

    def __init__(
        self,
        spec: str,
        seed: int | None = None,
        budget: Budget | None = None,
        c: float = 1.4,
        playouts: str = "auto",
        depth: int | None = None,
        reuse: bool = True,
        table: bool = True,
        solver: bool = True,
        prior: float = 0.0,
        contempt: float = 0.0,
        solve: bool = False,
        solve_share: float = 0.4,
        greed: float = 1.0,
        order: float = 0.0,
        widen: float = 0.0,
        rave: float = 0.0,
    ) -> None:
        super().__init__(spec, seed)
        self.greed = greed
        self.order = order
        self.widen = widen
        self.rave = rave
        self.solve = solve
        self.solve_share = solve_share
        self.table = table
        self.solver = solver
        self.prior = prior
        self.contempt = contempt
        self._compiled: tuple[str, TreeSearch | None] | None = None
        self.budget = budget or Budget(seconds=1.0)
        self.c = c
        self.playouts = playouts
        self.depth = depth
        self._playout: tuple[str, Playout] | None = None
        self.reuse = reuse
        self._root: Node | None = None
        self._root_state: State | None = None

    def reset(self) -> None:
        self._root = None
        self._root_state = None
        if self._compiled is not None and self._compiled[1] is not None:
            self._compiled[1].reset()

    def compiled_search_for(self, game_id: str) -> TreeSearch | None:
        """The game's compiled tree search with this agent's options (made once per game id),
        or ``None`` (no compiled search, or ``policy`` playouts, which it does not run)."""
        if self._compiled is None or self._compiled[0] != game_id:
            search = None
            kind = self.playouts
            if kind == "auto":
                kind = "heuristic" if has_evaluation(game_id) else "random"
            if kind in ("random", "heuristic", "tactical"):
                depth = None
                if kind == "heuristic":
                    depth = self.depth if self.depth is not None else playout_depth_for(game_id)
                search = tree_search_for(
                    game_id,
                    c=self.c,
                    depth=depth,
                    prior=self.prior,
                    contempt=self.contempt,
                    greed=self.greed if kind == "tactical" else 0.0,
                    order=self.order,
                    widen=self.widen,
                    rave=self.rave,
                    table=self.table,
                    solver=self.solver,
                    reuse=self.reuse,
                    seed=self.rng.getrandbits(62),
                )
            self._compiled = (game_id, search)
        return self._compiled[1]

    def playout_for(self, game_id: str) -> Playout:
        """The playout function this agent uses on ``game_id`` (resolved once per game)."""
        if self._playout is None or self._playout[0] != game_id:
            self._playout = (game_id, make_playout(self.playouts, game_id, self.depth))
        return self._playout[1]

    def _reused_root(self, state: State) -> Node | None:
        """The subtree for ``state`` kept from the previous search, if it was reached."""
        if not self.reuse or self._root is None or self._root_state is None:
            return None
        old = self._root_state
        old_history = old.history()
        new_history = state.history()
        if len(new_history) < len(old_history) or new_history[: len(old_history)] != old_history:
            return None
        node = self._root
        replica = old.clone()
        for action in new_history[len(old_history) :]:
            for child in node.children:
                if child.action == action:
                    node = child
                    break
            else:
                return None
            replica.apply(action)
        if replica.key() != state.key() or not (node.untried or node.children):
            return None
        node.parent = None
        node.action = None
        return node

    def choose(self, state: State) -> Action:
        actions = self.legal_actions_of(state)
        seat = state.current_player()
        if len(actions) == 1:
            self.last_info = {"iterations": 0, "visits": 0, "share": 1.0, "forced": True}
            return actions[0]
        perfect = is_perfect_information(state)
        started = time.perf_counter()
        budget = self.budget
        if self.solve and perfect:
            solved = solved_choice(state, (budget.seconds or 10.0) * self.solve_share)
            if solved is not None:
                action, self.last_info = solved
                return action
            if budget.seconds is not None:  # the search gets the time left
                spent = time.perf_counter() - started
                budget = Budget(budget.iterations, max(0.01, budget.seconds - spent))
        compiled = self.compiled_search_for(state.game_id) if perfect else None
        if compiled is not None:
            seconds = budget.seconds
            found = compiled.choose(
                state,
                budget.iterations,
                None if seconds is None else seconds * TIME_MARGIN,
            )
            if found is not None:
                action, self.last_info = found
                return action
        root_state = state.clone() if perfect else state.determinize(seat, self.rng)
        seats = state.num_players
        root = self._reused_root(state) if perfect else None
        reused = root.visits if root is not None else 0
        if root is None:
            root = Node(None, None, seat, list(actions), seats)
        clock = budget.start()
        rng, c, playout = self.rng, self.c, self.playout_for(state.game_id)
        while True:
            if root.children and clock.exhausted():
                break
            node = root
            st = root_state.clone()
            while not node.untried and node.children:
                node = select_ucb(node, c)
                st.apply(node.action)
            if node.untried:
                action = node.untried.pop(rng.randrange(len(node.untried)))
                st.apply(action)
                terminal = st.is_terminal()
                child = Node(
                    node,
                    action,
                    -1 if terminal else st.current_player(),
                    [] if terminal else st.legal_actions(),
                    seats,
                )
                node.children.append(child)
                node = child
                result = outcome_values(st.returns()) if terminal else playout(st, rng)
            else:
                result = outcome_values(st.returns())
            walker: Node | None = node
            while walker is not None:
                walker.visits += 1
                totals = walker.totals
                for i in range(seats):
                    totals[i] += result[i]
                walker = walker.parent
            clock.tick()
        chosen = max(root.children, key=lambda n: (n.visits, n.mean(seat)))
        self.last_info = describe_root(state, root.children, seat, chosen, clock)
        self.last_info["reused"] = reused
        if perfect and self.reuse:
            self._root, self._root_state = root, root_state
        return chosen.action


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    reader = OptionReader("mcts", options)
    budget = reader.budget(Budget(seconds=1.0))
    c = reader.number("c", 1.4)
    playouts = reader.choice("playouts", "auto", MCTS_PLAYOUT_KINDS)
    depth = reader.integer("depth", None)
    reuse = reader.choice("reuse", "yes", ("yes", "no")) == "yes"
    table = reader.choice("table", "yes", ("yes", "no")) == "yes"
    solver = reader.choice("solver", "yes", ("yes", "no")) == "yes"
    prior = reader.number("prior", None) or 0.0
    contempt = reader.fraction("contempt", 0.0)
    solve = reader.choice("solve", "no", ("yes", "no")) == "yes"
    solve_share = reader.fraction("solve_share", 0.4)
    greed = reader.fraction("greed", 1.0)
    order = reader.number("order", None) or 0.0
    widen = reader.number("widen", None) or 0.0
    rave = reader.number("rave", None) or 0.0
    reader.finish()
    assert c is not None
    return MctsAgent(
        spec,
        seed,
        budget,
        c=c,
        playouts=playouts,
        depth=depth,
        reuse=reuse,
        table=table,
        solver=solver,
        prior=prior,
        contempt=contempt,
        solve=solve,
        solve_share=solve_share,
        greed=greed,
        order=order,
        widen=widen,
        rave=rave,
    )


register_agent(
    "mcts",
    _make,
    "UCT tree search, max-n for any number of seats; options seconds=S or iterations=N, "
    "c=1.4, playouts=auto|random|heuristic|policy|tactical, greed=0..1, order=W, widen=W, rave=K, "
    "depth=D, reuse=yes|no, "
    "table=yes|no, "
    "solver=yes|no, prior=W, contempt=0..1 (hex: a compiled search), solve=yes|no (exact solver on small "
    "positions), solve_share=0..1",
)
