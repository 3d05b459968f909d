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
    iterations / seconds: the budget per decision (default ``seconds=1``):
        ``iterations`` is work (the same seed gives the same choice on any
        machine and under any load), ``seconds`` wall time; with both,
        ``seconds`` is a cap (whichever runs out first stops the search).
    c: the UCB1 exploration constant (default 1.4, for returns in -1..1).
    playouts: ``random`` (to the end, uniformly), ``heuristic`` (``depth``
        random decisions, then the game's evaluation), ``policy`` (to the
        end with the game's rule-of-thumb policy, 10% random decisions; slow;
        only for a game that has one), or ``auto`` (default: ``heuristic`` if
        the game has an evaluation, else ``random``).
    depth: cut-off of heuristic playouts in decisions (default: the game's
        own, ``PLAYOUT_DEPTH`` of its evaluation module: hex 12, cards 2,
        world 24; else 12).
    reuse: ``yes`` (default) or ``no``: keep the tree between moves.
    solve: ``yes`` or ``no`` (default): first try the game's exact solver
        (hex: :mod:`limitgames.hex.solver`, on small surfaces; only for a game
        that has one) with up to ``solve_share`` of the time budget (default
        0.4) and, if given, ``solve_nodes`` positions (its work budget), as
        ``alphabeta`` does; a solved position is played perfectly, otherwise
        the search runs on the time left.

An option a game does not take (``playouts=policy`` without a policy,
``solve=yes`` without a solver) is refused with its name
(:meth:`~limitgames.agents.base.Agent.check_game`). Hex has a compiled search
of its own with more options (transposition table, MCTS-Solver, prior,
tactical playouts, progressive widening, RAVE, contempt): the ``hexmcts``
agent (:mod:`limitgames.agents.hex_mcts`). ``mcts`` on hex is this Python
search (plain UCT, slower).

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

from limitgames.agents.base import Agent, AgentSpecError, register_agent
from limitgames.agents.budget import Budget, BudgetClock, OptionReader
from limitgames.agents.evaluation import (
    Policy,
    check_solve_option,
    evaluation_for,
    has_evaluation,
    outcome_values,
    playout_depth_for,
    policy_for,
    solved_choice,
)
from limitgames.agents.heuristic import is_perfect_information
from limitgames.agents.opening import Opening
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


def check_playouts(agent: str, kind: str, game_id: str) -> None:
    """Refuse ``playouts=policy`` for a game without a rule-of-thumb policy.

    Raises:
        AgentSpecError: naming the option ``playouts``.
    """
    if kind == "policy" and policy_for(game_id) is None:
        raise AgentSpecError(
            f"{agent}: option playouts=policy does not fit {game_id!r}: it has no policy"
        )


def make_playout(kind: str, game_id: str | None, depth: int | None) -> Playout:
    """The playout of ``kind`` (see :data:`PLAYOUT_KINDS`) for ``game_id``.

    ``auto`` is ``heuristic`` for a game with an evaluation (``hex``,
    ``cards``), else ``random``. (``policy`` playouts read observations at
    every step and are too slow to be the default.)
    ``policy`` without a policy falls back to ``random`` (the agents refuse
    it first: :func:`check_playouts`).
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
        solve: bool = False,
        solve_share: float = 0.4,
        solve_nodes: int | None = None,
    ) -> None:
        super().__init__(spec, seed)
        self.solve = solve
        self.solve_share = solve_share
        self.solve_nodes = solve_nodes
        self.budget = budget or Budget(seconds=1.0)
        self.opening = Opening()
        """More work in hex's opening (off here; ``hexmcts`` and ``puct`` take the options)."""
        self.c = c
        self.playouts = playouts
        self.depth = depth
        self._playout: tuple[str, Playout] | None = None
        self.reuse = reuse
        self._root: Node | None = None
        self._root_state: State | None = None

    def check_game(self, game_id: str) -> None:
        check_playouts(self.name, self.playouts, game_id)
        check_solve_option(self.name, self.solve, game_id)

    def reset(self) -> None:
        self._root = None
        self._root_state = None

    def compiled_choice(self, state: State, budget: Budget) -> tuple[Action, dict[str, Any]] | None:
        """The action and ``last_info`` of a compiled search of the position, or ``None`` (then
        the Python search below runs). ``mcts`` has none; :mod:`limitgames.agents.hex_mcts`
        overrides this."""
        return None

    def decision_budget(self, state: State) -> Budget:
        """The budget of the decision at ``state``: the agent's own, times ``opening_work`` in
        the first ``opening`` turns of hex (:attr:`opening`, set by ``hexmcts`` and ``puct``;
        off for ``mcts``: :mod:`limitgames.agents.opening`)."""
        return self.opening.budget(state, self.budget)

    def python_budget(self, budget: Budget) -> Budget:
        """The budget of the Python search below (``mcts``: the agent's own; ``hexmcts``, whose
        compiled search is far faster, gives the 2008 placement phase its own work)."""
        return budget

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
        self.fit_game(state.game_id)
        actions = self.legal_actions_of(state)
        seat = state.current_player()
        if len(actions) == 1:
            self.last_info = {"iterations": 0, "visits": 0, "share": 1.0, "forced": True}
            return actions[0]
        perfect = is_perfect_information(state)
        started = time.perf_counter()
        budget = self.decision_budget(state)
        if self.solve and perfect:
            solved = solved_choice(
                state, (budget.seconds or 10.0) * self.solve_share, self.solve_nodes
            )
            if solved is not None:
                action, self.last_info = solved
                return action
            if budget.seconds is not None:  # the search gets the time left
                spent = time.perf_counter() - started
                budget = Budget(budget.iterations, max(0.01, budget.seconds - spent))
        found = self.compiled_choice(state, budget) if perfect else None
        if found is not None:
            action, self.last_info = found
            return action
        budget = self.python_budget(budget)
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
    playouts = reader.choice("playouts", "auto", PLAYOUT_KINDS)
    depth = reader.integer("depth", None)
    reuse = reader.choice("reuse", "yes", ("yes", "no")) == "yes"
    solve = reader.choice("solve", "no", ("yes", "no")) == "yes"
    solve_share = reader.fraction("solve_share", 0.4)
    solve_nodes = reader.integer("solve_nodes", None)
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
        solve=solve,
        solve_share=solve_share,
        solve_nodes=solve_nodes,
    )


register_agent(
    "mcts",
    _make,
    "UCT tree search in Python, max-n for any number of seats (hex's compiled search: hexmcts); "
    "options seconds=S or iterations=N, c=1.4, playouts=auto|random|heuristic|policy, depth=D, "
    "reuse=yes|no, solve=yes|no (exact solver on small positions), solve_share=0..1, "
    "solve_nodes=N",
)
