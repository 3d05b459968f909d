"""Alpha-beta search with iterative deepening and a transposition table.

Minimax from the point of view of the seat to move at the root: that seat
maximises, every other seat minimises (for two seats this is exact minimax;
for more it is the "paranoid" assumption of Sturtevant and Korf 2000). The
side to maximise is decided by ``current_player()`` at each node, not by
alternation, so games where one seat takes several decisions in a row (a
``hex`` turn is a move then a removal) are searched correctly.

Leaves are scored by the game's evaluation (:mod:`limitgames.agents.evaluation`),
but not in the middle of a seat's turn: a leaf where the seat that just
decided decides again (a ``hex`` removal after its move) is searched one
decision deeper first (a turn-completion extension, like a quiescence
search; ``extend=no`` turns it off);
a finished game is worth ten times its returns, so a proven win outranks
any evaluation. The transposition table is keyed by ``State.key()`` (engines
make it a Zobrist hash) and stores depth, value, bound type and best action;
the best action is searched first at the next iteration. Tables are kept
between moves, one per root seat.

On a game with hidden information the agent searches one determinization
(``state.determinize(seat, rng)``); use ``ismcts`` for such games.

Spec options (``alphabeta:depth=4``, ``alphabeta:nodes=50000,seconds=2``, ``alphabeta:seconds=1``):
    depth: the deepest iteration, in decisions (default 64 with a ``nodes`` or
        ``seconds`` budget, else 4).
    nodes: the work budget per decision: positions searched (every call of the
        search counts one, transposition hits included); the search stops when
        it runs out and the last completed iteration's choice is played. The
        same seed and ``nodes`` give the same choice on any machine and under any
        load (as long as ``seconds`` does not run out first).
    seconds: the time budget per decision, or with ``nodes`` a wall-time cap;
        the last completed iteration's choice is played.
    placement: hex only: the ``nodes`` budget in the 2008 placement phase
        (default: ``nodes``), whose positions are Python objects and cost some
        20 times more than the compiled movement phase's.
    extend: ``yes`` (default) or ``no``: the turn-completion extension.
    solve: ``yes`` or ``no`` (default): first try the game's exact solver
        (hex: :mod:`limitgames.hex.solver`, on small surfaces) with up to
        ``solve_share`` of the time budget (default 0.4) and, if given,
        ``solve_nodes`` positions (its work budget); a solved position is
        played perfectly, otherwise the search runs as usual.
    eval: another evaluation of the game's module by name (hex: ``hand``,
        the hand-tuned one; default: the game's own).

``last_info`` keys: ``depth`` (deepest completed iteration), ``value`` (-1..1
for the seat; a proven result counts as -1 or 1), ``win`` (0..1), ``proven``
(``"win"``, ``"loss"`` or absent), ``nodes``, ``seconds``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from typing import Any

from limitgames.agents.base import Agent, AgentSpecError, register_agent
from limitgames.agents.budget import TIME_MARGIN, OptionReader
from limitgames.agents.evaluation import (
    check_evaluation_option,
    check_solve_option,
    evaluation_for,
    outcome_values,
    solved_choice,
)
from limitgames.agents.heuristic import is_perfect_information
from limitgames.core import Action, State

EXACT, LOWER, UPPER = 0, 1, 2
WIN_SCALE = 10.0
TABLE_LIMIT = 500_000
"""Entries per transposition table before it is cleared."""


class _OutOfTime(Exception):
    """The search ran out of its budget (time or nodes)."""


class AlphaBetaAgent(Agent):
    """Iterative-deepening alpha-beta with a transposition table."""

    name = "alphabeta"

    def __init__(
        self,
        spec: str,
        seed: int | None = None,
        depth: int = 4,
        seconds: float | None = None,
        extend: bool = True,
        solve: bool = False,
        solve_share: float = 0.4,
        evaluation: str | None = None,
        nodes: int | None = None,
        solve_nodes: int | None = None,
        placement: int | None = None,
    ) -> None:
        super().__init__(spec, seed)
        self.max_depth = depth
        self.seconds = seconds
        self.max_nodes = nodes
        self.solve_nodes = solve_nodes
        self.placement = placement
        self.extend = extend
        self.solve = solve
        self.solve_share = solve_share
        self.evaluation = evaluation
        self._tables: dict[int, dict[Hashable, tuple[int, float, int, Action]]] = {}
        self._deadline = math.inf
        self._node_limit = math.inf
        self._nodes = 0

    def reset(self) -> None:
        self._tables.clear()

    def check_game(self, game_id: str) -> None:
        check_evaluation_option(self.name, self.evaluation, game_id)
        if self.placement is not None and game_id != "hex":
            raise AgentSpecError(
                f"{self.name}: option placement={self.placement} does not fit {game_id!r}: "
                "only hex (2008 edition) has a placement phase"
            )
        check_solve_option(self.name, self.solve, game_id)

    def choose(self, state: State) -> Action:
        self.fit_game(state.game_id)
        actions = self.legal_actions_of(state)
        seat = state.current_player()
        started = time.perf_counter()
        if len(actions) == 1:
            self.last_info = {"depth": 0, "nodes": 0, "forced": True}
            return actions[0]
        perfect = is_perfect_information(state)
        if self.solve and perfect:
            solved = solved_choice(
                state, (self.seconds or 10.0) * self.solve_share, self.solve_nodes
            )
            if solved is not None:
                action, self.last_info = solved
                return action
        root = state.clone() if perfect else state.determinize(seat, self.rng)
        self._deadline = (
            started + self.seconds * TIME_MARGIN if self.seconds is not None else math.inf
        )
        self._nodes = 0
        limit = self.max_nodes
        if self.placement is not None and getattr(state, "placement", None) is not None:
            limit = self.placement  # hex's 2008 placement phase (HexState.placement)
        self._node_limit = limit if limit is not None else math.inf
        table = self._tables.setdefault(seat, {})
        if len(table) > TABLE_LIMIT:
            table.clear()
        best_action = actions[0]
        best_value = 0.0
        completed = 0
        for depth in range(1, self.max_depth + 1):
            try:
                value, action = self._root_search(root, depth, seat, table)
            except _OutOfTime:
                break
            best_value, best_action, completed = value, action, depth
            if abs(value) >= WIN_SCALE * 0.5:
                break  # proven
        shown = max(-1.0, min(1.0, best_value))
        self.last_info = {
            "depth": completed,
            "value": round(shown, 3),
            "win": round((shown + 1) / 2, 3),
            "nodes": self._nodes,
            "seconds": round(time.perf_counter() - started, 3),
        }
        if best_value >= WIN_SCALE * 0.5:
            self.last_info["proven"] = "win"
        elif best_value <= -WIN_SCALE * 0.5:
            self.last_info["proven"] = "loss"
        return best_action

    def _ordered(self, state: State, table: dict[Hashable, Any]) -> list[Action]:
        actions = state.legal_actions()
        entry = table.get(state.key())
        if entry is not None and entry[3] in actions:
            actions.remove(entry[3])
            actions.insert(0, entry[3])
        return actions

    def _root_search(
        self, root: State, depth: int, seat: int, table: dict[Hashable, Any]
    ) -> tuple[float, Action]:
        alpha, beta = -math.inf, math.inf
        best_value, best_action = -math.inf, None
        for action in self._ordered(root, table):
            child = root.clone()
            child.apply(action)
            value = self._search(child, depth - 1, alpha, beta, seat, table, seat)
            if value > best_value:
                best_value, best_action = value, action
            alpha = max(alpha, value)
        table[root.key()] = (depth, best_value, EXACT, best_action)
        return best_value, best_action

    def _search(
        self,
        state: State,
        depth: int,
        alpha: float,
        beta: float,
        seat: int,
        table: dict[Hashable, Any],
        last_mover: int,
        extended: bool = False,
    ) -> float:
        self._nodes += 1
        if self._nodes > self._node_limit or time.perf_counter() >= self._deadline:
            raise _OutOfTime
        if state.is_terminal():
            return WIN_SCALE * outcome_values(state.returns())[seat]
        mover = state.current_player()
        if depth <= 0:
            if not (self.extend and not extended and mover == last_mover):
                return evaluation_for(state.game_id, self.evaluation)(state)[seat]
            depth, extended = 1, True  # finish the seat's turn before judging it
        key = state.key()
        entry = table.get(key)
        tt_action = None
        if entry is not None:
            tt_action = entry[3]
            if entry[0] >= depth:
                value, flag = entry[1], entry[2]
                if (
                    flag == EXACT
                    or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)
                ):
                    return float(value)
        actions = state.legal_actions()
        if tt_action is not None and tt_action in actions:
            actions.remove(tt_action)
            actions.insert(0, tt_action)
        maximising = mover == seat
        alpha0, beta0 = alpha, beta
        best = -math.inf if maximising else math.inf
        best_action = actions[0]
        for action in actions:
            child = state.clone()
            child.apply(action)
            value = self._search(child, depth - 1, alpha, beta, seat, table, mover, extended)
            if maximising:
                if value > best:
                    best, best_action = value, action
                    alpha = max(alpha, value)
            elif value < best:
                best, best_action = value, action
                beta = min(beta, value)
            if alpha >= beta:
                break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
        table[key] = (depth, best, flag, best_action)
        return best


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    reader = OptionReader("alphabeta", options)
    nodes = reader.integer("nodes", None)
    seconds = reader.number("seconds", None)
    depth = reader.integer("depth", 64 if seconds is not None or nodes is not None else 4)
    extend = reader.choice("extend", "yes", ("yes", "no")) == "yes"
    solve = reader.choice("solve", "no", ("yes", "no")) == "yes"
    solve_share = reader.fraction("solve_share", 0.4)
    solve_nodes = reader.integer("solve_nodes", None)
    placement = reader.integer("placement", None)
    chosen = reader.choice("eval", "default", ("default", "learned", "hand"))
    evaluation = None if chosen == "default" else chosen
    reader.finish()
    assert depth is not None
    return AlphaBetaAgent(
        spec,
        seed,
        depth=depth,
        seconds=seconds,
        extend=extend,
        solve=solve,
        solve_share=solve_share,
        evaluation=evaluation,
        nodes=nodes,
        solve_nodes=solve_nodes,
        placement=placement,
    )


register_agent(
    "alphabeta",
    _make,
    "iterative-deepening alpha-beta with a transposition table (two seats, perfect "
    "information); options nodes=N (work) and/or seconds=S (time; with nodes a cap), depth=D, "
    "extend=yes|no, solve=yes|no (exact solver on small positions), solve_share=0..1, "
    "solve_nodes=N, placement=N (hex: nodes in the 2008 placement phase)",
)
