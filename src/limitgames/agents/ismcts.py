"""Single-observer information-set MCTS (SO-ISMCTS).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2), 2012, algorithm 3. The agent searches one tree whose nodes
are information sets of the observing seat (sequences of actions). Each
iteration draws a fresh determinization ``state.determinize(seat, rng)`` --
a full state consistent with what the seat knows, the hidden parts dealt at
random -- and descends the tree restricted to the actions legal in that
determinization, choosing by UCB1 with availability counts (a child's
exploration term uses the number of times it was *available*, not its
parent's visits). It then expands one untried action, plays out and backs
up every seat's returns (max-n, so any number of seats).

The agent never reads hidden state directly: everything it learns about the
position comes from ``determinize`` and from the legal actions of the seat
to move at the root (which the seat knows). For a fixed seed its choice
therefore does not depend on the other seats' hidden cards (tested).

Spec options (``ismcts:iterations=2000``, ``ismcts:seconds=1``):
    iterations / seconds: the budget per decision (default ``seconds=1``).
    c: the exploration constant (default 1.4, for returns in -1..1).
    playouts: ``auto`` (default), ``random``, ``heuristic`` or ``policy``,
        as for ``mcts``; ``depth`` cuts heuristic playouts (default: the game's own).

``last_info`` keys: as ``mcts`` (``iterations``, ``seconds``, ``visits``,
``share``, ``value``, ``win``, ``top``).
"""

from __future__ import annotations

import math

from limitgames.agents.base import Agent, register_agent
from limitgames.agents.budget import Budget, OptionReader
from limitgames.agents.evaluation import outcome_values
from limitgames.agents.mcts import (
    PLAYOUT_KINDS,
    Playout,
    check_playouts,
    describe_root,
    make_playout,
)
from limitgames.core import Action, IllegalActionError, State

ROOT_TRIES = 1000
"""Iterations a search goes on past its budget while no root action has been playable in any
deal drawn (a root list wider than the legal actions: then the first action is played)."""


class InfoNode:
    """A node of the information-set tree: reached by ``action`` from ``parent``.

    ``totals[s]`` sums seat ``s``'s returns over ``visits``; ``available``
    counts the iterations in which ``action`` was legal at the parent.
    """

    __slots__ = ("action", "available", "children", "parent", "totals", "visits")

    def __init__(self, parent: InfoNode | None, action: Action, seats: int) -> None:
        self.parent = parent
        self.action = action
        self.children: dict[Action, InfoNode] = {}
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * seats

    def mean(self, seat: int) -> float:
        """The mean return of ``seat`` through this node."""
        return self.totals[seat] / self.visits if self.visits else 0.0


class IsmctsAgent(Agent):
    """SO-ISMCTS with a time or iteration budget."""

    name = "ismcts"

    def __init__(
        self,
        spec: str,
        seed: int | None = None,
        budget: Budget | None = None,
        c: float = 1.4,
        playouts: str = "auto",
        depth: int | None = None,
    ) -> None:
        super().__init__(spec, seed)
        self.budget = budget or Budget(seconds=1.0)
        self.c = c
        self.playouts = playouts
        self.depth = depth
        self.plies: int | None = None
        """The tree's depth in decisions (``None``: unbounded; a game's own agent may cap it:
        an iteration that reaches a node that deep judges it there, without expanding)."""

    def check_game(self, game_id: str) -> None:
        check_playouts(self.name, self.playouts, game_id)

    # --- hooks: a game's own agent (``world_nation``) overrides these -----------------------
    def root_actions(self, state: State) -> list[Action]:
        """The actions the search chooses among at the root (default: all legal ones)."""
        return self.legal_actions_of(state)

    def final_values(self, state: State) -> list[float]:
        """Each seat's value of a finished game (default: results, 1 / 0 / -1)."""
        return outcome_values(state.returns())

    def choose(self, state: State) -> Action:
        self.fit_game(state.game_id)
        actions = self.root_actions(state)
        seat = state.current_player()
        if len(actions) == 1:
            self.last_info = {"iterations": 0, "visits": 0, "share": 1.0, "forced": True}
            return actions[0]
        seats = state.num_players
        root = InfoNode(None, None, seats)
        clock = self.budget.start()
        rng, c = self.rng, self.c
        playout = self.make_leaf(state)
        while not (clock.exhausted() and (root.children or clock.iterations >= ROOT_TRIES)):
            det = state.determinize(seat, rng)
            node = root
            ply = 0
            while not det.is_terminal() and (self.plies is None or ply < self.plies):
                ply += 1
                legal = actions if node is root else det.legal_actions()
                children = node.children
                untried = [a for a in legal if a not in children]
                for a in legal:
                    if a in children:
                        children[a].available += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    if node is root:
                        try:  # legal for the seat, perhaps not in this deal
                            det.apply(action)
                        except IllegalActionError:
                            break
                    else:
                        det.apply(action)
                    child = InfoNode(node, action, seats)
                    child.available = 1
                    children[action] = child
                    node = child
                    break
                mover = det.current_player()
                best: InfoNode | None = None
                best_score = -math.inf
                for a in legal:
                    ch = children[a]
                    score = ch.totals[mover] / ch.visits + c * math.sqrt(
                        math.log(ch.available) / ch.visits
                    )
                    if score > best_score:
                        best, best_score = ch, score
                assert best is not None
                if node is root:
                    try:
                        det.apply(best.action)
                    except IllegalActionError:
                        break
                else:
                    det.apply(best.action)
                node = best
            if node is root:  # a root action this deal does not allow: nothing learnt
                clock.tick()
                continue
            result = self.final_values(det) if det.is_terminal() else playout(det, rng)
            walker: InfoNode | None = node
            while walker is not None:
                walker.visits += 1
                totals = walker.totals
                for i in range(seats):
                    totals[i] += result[i]
                walker = walker.parent
            clock.tick()
        candidates = [root.children[a] for a in actions if a in root.children]
        if not candidates:  # no root action was playable in any deal drawn
            self.last_info = {"iterations": clock.iterations, "visits": 0, "share": 0.0}
            return actions[0]
        chosen = self.pick(candidates, seat)
        self.last_info = describe_root(state, candidates, seat, chosen, clock)
        return chosen.action

    def pick(self, candidates: list[InfoNode], seat: int) -> InfoNode:
        """The root child to play, from ``candidates`` in the root's action order (default:
        the most visited, ties to the better mean)."""
        return max(candidates, key=lambda n: (n.visits, n.mean(seat)))

    def make_leaf(self, state: State) -> Playout:
        """How an iteration ends below the tree (default: the ``playouts`` option's kind)."""
        return make_playout(self.playouts, state.game_id, self.depth)


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    reader = OptionReader("ismcts", options)
    budget = reader.budget(Budget(seconds=1.0))
    c = reader.number("c", 1.4)
    playouts = reader.choice("playouts", "auto", PLAYOUT_KINDS)
    depth = reader.integer("depth", None)
    reader.finish()
    assert c is not None
    return IsmctsAgent(spec, seed, budget, c=c, playouts=playouts, depth=depth)


register_agent(
    "ismcts",
    _make,
    "information-set MCTS (Cowling et al. 2012) for hidden cards, via determinizations; "
    "options seconds=S or iterations=N, c=1.4, playouts=auto|random|heuristic|policy, depth=D",
)
