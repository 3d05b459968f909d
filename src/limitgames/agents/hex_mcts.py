"""``hexmcts``: hex's compiled Monte Carlo tree search as an agent.

The search itself is :mod:`limitgames.agents.hex_search` (flat arrays, kernel
playouts, one compiled call per move); this agent adds what every tree search
agent here shares (:class:`~limitgames.agents.mcts.MctsAgent`: budgets, the
exact solver on small endings, and the Python UCT for the 2008 placement
phase, which the compiled search does not cover). Only ``hex`` takes it: on
another game it is refused (use ``mcts``).

Spec options (``hexmcts:seconds=1,playouts=tactical,c=1,contempt=0.3,solve=yes``):
    iterations / seconds: the budget per decision (default ``seconds=1``):
        ``iterations`` is work (the same seed gives the same choice under any
        load), ``seconds`` wall time; with both, ``seconds`` is a cap.
    placement: iterations of the Python UCT per decision of the 2008 placement
        phase (default: ``iterations``; a Python iteration there, its playout
        running the Python placement phase, costs some thousand times a
        compiled one, so a work budget gives placement far fewer). ``seconds``
        caps it too.
    c: the UCB1 exploration constant (default 1.4).
    playouts: ``random`` (to the end), ``heuristic`` (``depth`` random
        decisions, then the learned evaluation), ``tactical`` (to the end by the
        tactical policy of :mod:`limitgames.hex.tactics`: captures first, its own
        last freedoms spared), or ``auto`` (default: ``heuristic``). In the
        placement phase ``tactical`` playouts are random ones.
    greed: with ``playouts=tactical``, the chance (0..1, default 1) that a
        playout decision follows the tactical policy rather than chance.
    order: weight of the tactical order of trial, a progressive bias from
        :func:`limitgames.hex.tactics.action_kinds` (default 0, off).
    widen: progressive widening: a node visited ``N`` times has its first
        ``1 + widen sqrt(N)`` actions in play (default 0, off: all).
    rave: RAVE (Gelly and Silver 2007) with equivalence parameter ``k``
        (default 0, off).
    depth: cut-off of heuristic playouts in decisions (default 12).
    reuse: ``yes`` (default) or ``no``: keep the tree between moves.
    table: ``yes`` (default) or ``no``: merge transpositions.
    solver: ``yes`` (default) or ``no``: MCTS-Solver.
    prior: weight of the evaluation prior (progressive bias; default 0, off).
    contempt: what a finished draw costs the agent (0..1, default 0).
    solve: ``yes`` or ``no`` (default): first try the exact solver
        (:mod:`limitgames.hex.solver`) with up to ``solve_share`` of the time
        budget (default 0.4) and, if given, ``solve_nodes`` positions (work).
    opening / opening_work: the movement phase's first ``opening`` turns
        (default 0: none) get ``opening_work`` times the budget (default 3; a
        wall-time cap given with ``iterations`` is not raised):
        :mod:`limitgames.agents.opening`.

Plain UCT is ``hexmcts:playouts=random,table=no,solver=no,reuse=no``. The
``last_info`` keys are those of ``mcts``, plus ``nodes`` and, once the search
proved the result, ``proven``.
"""

from __future__ import annotations

from typing import Any

from limitgames.agents.base import Agent, AgentSpecError, register_agent
from limitgames.agents.budget import TIME_MARGIN, Budget, OptionReader
from limitgames.agents.evaluation import playout_depth_for
from limitgames.agents.hex_evaluation import PLAYOUT_DEPTH, evaluation_array
from limitgames.agents.hex_search import HexSearch
from limitgames.agents.mcts import MctsAgent, Playout, make_playout
from limitgames.agents.opening import Opening, read_opening
from limitgames.core import Action, State
from limitgames.hex.state import HexState

PLAYOUT_KINDS: tuple[str, ...] = ("auto", "random", "heuristic", "tactical")
"""The playout kinds of ``hexmcts``."""


class HexTreeSearch:
    """The movement phase of hex searched by the compiled MCTS
    (:class:`limitgames.agents.hex_search.HexSearch`: flat-array tree, kernel playouts,
    transposition table, MCTS-Solver, evaluation prior, tree reuse, tactical playouts). The
    2008 placement phase is left to the Python search (:meth:`choose` returns ``None``
    there)."""

    def __init__(
        self,
        *,
        c: float = 1.4,
        depth: int | None = PLAYOUT_DEPTH,
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
    ) -> None:
        needs_model = depth is not None or prior > 0.0
        self.search = HexSearch(
            c=c,
            depth=depth,
            evaluation=evaluation_array() if needs_model else None,
            prior=prior,
            contempt=contempt,
            greed=greed,
            order=order,
            widen=widen,
            rave=rave,
            table=table,
            solver=solver,
            reuse=reuse,
            seed=seed,
        )

    def reset(self) -> None:
        """Forget the tree (a new game)."""
        self.search.clear()

    def choose(
        self, state: State, iterations: int | None, seconds: float | None
    ) -> tuple[Action, dict[str, Any]] | None:
        """The action to play and the search's ``last_info``, or ``None`` where the compiled
        search does not apply (the 2008 placement phase, a finished game)."""
        if not isinstance(state, HexState):
            return None
        s, surface = state.kernel_vector(), state.surface
        if s is None or surface is None or state.is_terminal():
            return None
        report = self.search.search(
            surface.neighbour_masks, surface.ring, s, iterations=iterations, seconds=seconds
        )
        total = sum(child.visits for child in report.children) or 1
        chosen = next(c for c in report.children if c.action == report.action)
        value = chosen.exact if chosen.exact is not None else chosen.mean
        info: dict[str, Any] = {
            "iterations": report.iterations,
            "seconds": round(report.seconds, 3),
            "visits": chosen.visits,
            "share": round(chosen.visits / total, 3),
            "value": round(value, 3),
            "win": round(max(0.0, min(1.0, (value + 1) / 2)), 3),
            "top": [
                [state.action_to_string(c.action), round(c.visits / total, 3)]
                for c in report.children[:3]
            ],
            "reused": report.reused,
            "nodes": report.nodes,
        }
        if report.proven is not None:
            proven = report.proven
            info["proven"] = "win" if proven >= 1.0 else "loss" if proven <= -1.0 else "draw"
        return report.action, info


class HexMctsAgent(MctsAgent):
    """The compiled hex MCTS (movement phase) with the Python UCT for 2008 placement."""

    name = "hexmcts"

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
        solve_nodes: int | None = None,
        placement: int | None = None,
        opening: Opening = Opening(),
        greed: float = 1.0,
        order: float = 0.0,
        widen: float = 0.0,
        rave: float = 0.0,
    ) -> None:
        super().__init__(
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
        self.placement = placement
        self.opening = opening
        self.greed = greed
        self.order = order
        self.widen = widen
        self.rave = rave
        self.table = table
        self.solver = solver
        self.prior = prior
        self.contempt = contempt
        self._compiled: HexTreeSearch | None = None

    def check_game(self, game_id: str) -> None:
        if game_id != "hex":
            raise AgentSpecError(
                f"hexmcts plays only hex, not {game_id!r} (its options are hex's: use mcts)"
            )

    def reset(self) -> None:
        super().reset()
        if self._compiled is not None:
            self._compiled.reset()

    def compiled_search_for(self, game_id: str) -> HexTreeSearch:
        """The compiled search with this agent's options (made at the first move; its seed is
        drawn from the agent's generator then)."""
        if self._compiled is None:
            kind = "heuristic" if self.playouts == "auto" else self.playouts
            depth = None
            if kind == "heuristic":
                depth = self.depth if self.depth is not None else playout_depth_for(game_id)
            self._compiled = HexTreeSearch(
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
        return self._compiled

    def compiled_choice(self, state: State, budget: Budget) -> tuple[Action, dict[str, Any]] | None:
        seconds = budget.seconds
        return self.compiled_search_for(state.game_id).choose(
            state, budget.iterations, None if seconds is None else seconds * TIME_MARGIN
        )

    def python_budget(self, budget: Budget) -> Budget:
        """The 2008 placement phase's budget: ``placement`` iterations (if given), capped by the
        time left."""
        if self.placement is None:
            return budget
        return Budget(iterations=self.placement, seconds=budget.seconds)

    def playout_for(self, game_id: str) -> Playout:
        """The Python search's playout (placement phase): ``tactical`` ones are random there."""
        if self._playout is None or self._playout[0] != game_id:
            kind = "random" if self.playouts == "tactical" else self.playouts
            self._playout = (game_id, make_playout(kind, game_id, self.depth))
        return self._playout[1]


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    reader = OptionReader("hexmcts", options)
    budget = reader.budget(Budget(seconds=1.0))
    c = reader.number("c", 1.4)
    playouts = reader.choice("playouts", "auto", PLAYOUT_KINDS)
    depth = reader.integer("depth", None)
    reuse = reader.choice("reuse", "yes", ("yes", "no")) == "yes"
    table = reader.choice("table", "yes", ("yes", "no")) == "yes"
    solver = reader.choice("solver", "yes", ("yes", "no")) == "yes"
    prior = reader.number("prior", None) or 0.0
    contempt = reader.fraction("contempt", 0.0)
    solve = reader.choice("solve", "no", ("yes", "no")) == "yes"
    solve_share = reader.fraction("solve_share", 0.4)
    solve_nodes = reader.integer("solve_nodes", None)
    placement = reader.integer("placement", None)
    opening = read_opening(reader)
    greed = reader.fraction("greed", 1.0)
    order = reader.number("order", None) or 0.0
    widen = reader.number("widen", None) or 0.0
    rave = reader.number("rave", None) or 0.0
    reader.finish()
    assert c is not None
    return HexMctsAgent(
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
        solve_nodes=solve_nodes,
        placement=placement,
        opening=opening,
        greed=greed,
        order=order,
        widen=widen,
        rave=rave,
    )


register_agent(
    "hexmcts",
    _make,
    "hex only: the compiled MCTS (transposition table, MCTS-Solver, tree reuse); options "
    "iterations=N (work) and/or seconds=S (time; with iterations a cap), placement=N, c=1.4, playouts=auto|random|heuristic|tactical, greed=0..1, "
    "order=W, widen=W, rave=K, depth=D, reuse=yes|no, table=yes|no, solver=yes|no, prior=W, "
    "contempt=0..1, solve=yes|no (exact solver on small positions), solve_share=0..1, "
    "solve_nodes=N, opening=T (turns) and opening_work=3 (their work factor)",
)
