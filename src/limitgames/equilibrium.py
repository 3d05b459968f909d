"""Exact equilibria of small games through the OpenSpiel adapter (``limitgames[openspiel]``).

Made for the mini-Limits (``docs/research.md``, "A solved mini-Limits"), but it works on any
two-player ``pyspiel`` game small enough to walk in full (Kuhn poker checks it in the tests):

1. :func:`walk_tree` walks every history of the game through its own ``pyspiel`` API (for
   Limits: :mod:`limitgames.openspiel`, so the rules are the engine's) and writes the tree in
   Gambit's EFG format, one information set per distinct information state string of the
   seat to move, chance with its probabilities as exact fractions;
2. :func:`solve` loads that text as OpenSpiel's ``efg_game`` and runs OpenSpiel's CFR+
   (``pyspiel.CFRPlusSolver``, C++: regret matching+ with alternating updates and a linearly
   weighted average) until the exploitability of the average strategy is below a target;
3. :func:`exploitability` is OpenSpiel's (``pyspiel.exploitability``: NashConv / 2 for two
   players, in the game's return units) of a strategy given as a table keyed by the
   adapter's information state strings (:class:`TreePolicy`), so that the project's agents
   can be measured too (:func:`agent_policy`).

The walk does each information state's bookkeeping once; its cost is one adapter step per
node of the tree (about 5,000 nodes a second on a busy machine).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyspiel

POLICY_FORMAT = "limitgames-policy"
"""The ``format`` field of a saved policy (:meth:`TreePolicy.save`)."""


@dataclass
class InfoSet:
    """One information set of the walked tree.

    Attributes:
        seat: the seat that decides there (0-based).
        number: its number among ``seat``'s information sets (1-based, as in EFG).
        key: the adapter's information state string.
        actions: the legal actions (the adapter's action indices), ascending.
        state: one ``pyspiel`` state of the set (for agents, which see only the seat's view).
        histories: how many histories of the tree lie in the set.
    """

    seat: int
    number: int
    key: str
    actions: list[int]
    state: Any
    histories: int = 0


@dataclass
class GameTree:
    """A game walked in full (:func:`walk_tree`).

    Attributes:
        game: the ``pyspiel`` game that was walked.
        efg: the tree as Gambit EFG text (OpenSpiel's ``efg_game`` reads it).
        infosets: every information set, by its key.
        nodes: counts of ``chance``, ``decision`` and ``terminal`` nodes.
    """

    game: Any
    efg: str
    infosets: dict[str, InfoSet]
    nodes: dict[str, int] = field(default_factory=dict)
    _efg_game: Any = None

    @property
    def efg_game(self) -> Any:
        """The EFG text loaded as OpenSpiel's ``efg_game`` (made once)."""
        if self._efg_game is None:
            self._efg_game = pyspiel.load_efg_game(self.efg)
        return self._efg_game

    def payoff_range(self) -> float:
        """``max_utility - min_utility`` of the walked game (2 for win/loss returns)."""
        return float(self.game.max_utility() - self.game.min_utility())


def _fraction(p: float) -> str:
    """A chance probability as an exact fraction (the engines draw from small counts)."""
    f = Fraction(p).limit_denominator(1_000_000)
    return f"{f.numerator}/{f.denominator}"


def walk_tree(game: Any, progress: Callable[[int], None] | None = None) -> GameTree:
    """Walk every history of ``game`` and write it as EFG.

    Args:
        game: a two-player ``pyspiel`` game with terminal rewards only.
        progress: called with the number of nodes walked so far, every 1,000 nodes.

    Raises:
        ValueError: if the game does not have two players.
    """
    if game.num_players() != 2:
        raise ValueError(f"the game has {game.num_players()} players; the solver takes 2")
    lines = [f'EFG 2 R "{game.get_type().short_name}" {{ "seat 0" "seat 1" }} ""']
    infosets: dict[str, InfoSet] = {}
    numbers = [0, 0]
    counts = {"chance": 0, "decision": 0, "terminal": 0}
    # An explicit stack (the tree is deep enough for Python's recursion to be a worry).
    stack: list[Any] = [game.new_initial_state()]
    walked = 0
    while stack:
        state = stack.pop()
        walked += 1
        if progress is not None and walked % 1000 == 0:
            progress(walked)
        if state.is_terminal():
            counts["terminal"] += 1
            u = state.returns()
            lines.append(f't "" {counts["terminal"]} "" {{ {u[0]!r} {u[1]!r} }}')
            continue
        if state.is_chance_node():
            counts["chance"] += 1
            outcomes = state.chance_outcomes()
            body = " ".join(f'"c{a}" {_fraction(p)}' for a, p in outcomes)
            lines.append(f'c "" {counts["chance"]} "" {{ {body} }} 0')
            children = [state.child(a) for a, _ in outcomes]
        else:
            counts["decision"] += 1
            seat = state.current_player()
            key = state.information_state_string(seat)
            actions = list(state.legal_actions())
            info = infosets.get(key)
            if info is None:
                numbers[seat] += 1
                info = infosets[key] = InfoSet(seat, numbers[seat], key, actions, state.clone())
            elif info.actions != actions or info.seat != seat:
                raise ValueError(f"information state with two sets of legal actions: {key[:80]}")
            info.histories += 1
            body = " ".join(f'"{a}"' for a in actions)
            lines.append(f'p "" {seat + 1} {info.number} "s{seat}i{info.number}" {{ {body} }} 0')
            children = [state.child(a) for a in actions]
        # EFG lists a node's children in order, depth first: push them reversed.
        stack.extend(reversed(children))
    return GameTree(game, "\n".join(lines) + "\n", infosets, counts)


def _efg_states(efg_game: Any) -> Iterator[Any]:
    """Every decision state of an ``efg_game`` (one per history)."""
    stack = [efg_game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
        else:
            yield state
            stack.extend(state.child(a) for a in state.legal_actions())


class TreePolicy:
    """A behaviour strategy of both seats: per information state (the adapter's string), a
    probability per legal action (the adapter's action indices).

    Attributes:
        table: ``{key: {action: probability}}``; a missing key plays uniformly.
    """

    def __init__(self, table: dict[str, dict[int, float]] | None = None) -> None:
        self.table: dict[str, dict[int, float]] = dict(table or {})

    def probabilities(self, info: InfoSet) -> dict[int, float]:
        """The strategy at ``info``: the table's, else uniform over its actions."""
        probs = self.table.get(info.key)
        if probs is None:
            return {a: 1.0 / len(info.actions) for a in info.actions}
        return probs

    def to_efg(self, tree: GameTree) -> Any:
        """The strategy as a ``pyspiel.TabularPolicy`` of ``tree``'s ``efg_game``."""
        by_name = {f"s{i.seat}i{i.number}": i for i in tree.infosets.values()}
        table: dict[str, list[tuple[int, float]]] = {}
        for state in _efg_states(tree.efg_game):
            seat = state.current_player()
            efg_key = state.information_state_string(seat)
            if efg_key in table:
                continue
            info = by_name[efg_key.rsplit("-", 1)[-1]]
            probs = self.probabilities(info)
            table[efg_key] = [
                (a, probs.get(int(state.action_to_string(seat, a)), 0.0))
                for a in state.legal_actions()
            ]
        return pyspiel.TabularPolicy(table)

    def save(self, path: str | Path, meta: dict[str, Any]) -> None:
        """Write the table as gzipped JSON: ``format``, ``meta`` and one entry per information
        state (``key``: the first 16 hex digits of the SHA-256 of the information state
        string, ``actions``, ``probabilities`` rounded to 6 decimals)."""
        entries = [
            {
                "key": infostate_digest(key),
                "actions": sorted(probs),
                "probabilities": [round(probs[a], 6) for a in sorted(probs)],
            }
            for key, probs in sorted(self.table.items())
        ]
        data = {"format": POLICY_FORMAT, "meta": meta, "infostates": entries}
        with gzip.open(path, "wt", encoding="utf-8") as out:
            json.dump(data, out, separators=(",", ":"))

    @staticmethod
    def load(path: str | Path, tree: GameTree) -> TreePolicy:
        """Read a table written by :meth:`save`, keyed again by ``tree``'s information states.

        Raises:
            ValueError: if the file is not such a table or does not fit ``tree``.
        """
        with gzip.open(path, "rt", encoding="utf-8") as src:
            data = json.load(src)
        if not isinstance(data, dict) or data.get("format") != POLICY_FORMAT:
            raise ValueError(f"{path}: not a {POLICY_FORMAT} file")
        keys = {infostate_digest(k): k for k in tree.infosets}
        table: dict[str, dict[int, float]] = {}
        for entry in data["infostates"]:
            key = keys.get(entry["key"])
            if key is None:
                raise ValueError(f"{path}: information state {entry['key']} is not in the game")
            table[key] = dict(zip(entry["actions"], entry["probabilities"], strict=True))
        return TreePolicy(table)


def infostate_digest(key: str) -> str:
    """The first 16 hex digits of the SHA-256 of an information state string (UTF-8)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


@dataclass
class Solution:
    """The result of :func:`solve`.

    Attributes:
        policy: the average strategy of both seats.
        iterations: CFR+ iterations run.
        exploitability: of :attr:`policy` (NashConv / 2, return units).
        values: each seat's expected return when both play :attr:`policy`.
        trace: ``(iterations, exploitability)`` at each check.
    """

    policy: TreePolicy
    iterations: int
    exploitability: float
    values: list[float]
    trace: list[tuple[int, float]]


def solve(
    tree: GameTree,
    target: float,
    max_iterations: int = 100_000,
    check_every: int = 10,
    progress: Callable[[int, float], None] | None = None,
) -> Solution:
    """Run OpenSpiel's CFR+ on ``tree`` until the average strategy's exploitability is below
    ``target`` (return units) or ``max_iterations`` have run.

    CFR+ is deterministic: the result depends on the tree only. The exploitability is
    computed every ``check_every`` iterations (doubling the interval after each check up to
    ``10 * check_every``: a check costs about two iterations) and reported to
    ``progress(iterations, exploitability)``.
    """
    efg_game = tree.efg_game
    solver = pyspiel.CFRPlusSolver(efg_game)
    done, every, exploit = 0, check_every, float("inf")
    trace: list[tuple[int, float]] = []
    while done < max_iterations:
        for _ in range(min(every, max_iterations - done)):
            solver.evaluate_and_update_policy()
        done += min(every, max_iterations - done)
        exploit = float(pyspiel.exploitability(efg_game, solver.average_policy()))
        trace.append((done, exploit))
        if progress is not None:
            progress(done, exploit)
        if exploit < target:
            break
        every = min(2 * every, 10 * check_every)
    average = solver.average_policy()
    table: dict[str, dict[int, float]] = {}
    by_name = {f"s{i.seat}i{i.number}": i for i in tree.infosets.values()}
    for state in _efg_states(efg_game):
        seat = state.current_player()
        info = by_name[state.information_state_string(seat).rsplit("-", 1)[-1]]
        if info.key not in table:
            table[info.key] = {
                int(state.action_to_string(seat, a)): float(p)
                for a, p in average.get_state_policy(state)
            }
    values = [
        float(v) for v in pyspiel.expected_returns(efg_game.new_initial_state(), average, -1, True)
    ]
    return Solution(TreePolicy(table), done, exploit, values, trace)


def exploitability(tree: GameTree, policy: TreePolicy) -> float:
    """OpenSpiel's exploitability of ``policy`` in ``tree`` (NashConv / 2, return units)."""
    return float(pyspiel.exploitability(tree.efg_game, policy.to_efg(tree)))


def expected_returns(tree: GameTree, policy: TreePolicy) -> list[float]:
    """Each seat's expected return when both seats play ``policy``."""
    return [
        float(v)
        for v in pyspiel.expected_returns(
            tree.efg_game.new_initial_state(), policy.to_efg(tree), -1, True
        )
    ]


def agent_policy(
    tree: GameTree,
    spec: str,
    samples: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> TreePolicy:
    """A project agent as a strategy: at each information state with a choice, the share of
    ``samples`` decisions (agents seeded ``seed``, ``seed + 1``, ...) that chose each action,
    on one state of the set (agents see only the seat's view: they never read hidden cards).
    ``random`` is not sampled: it is uniform by definition. Forced states are skipped.

    Raises:
        AgentSpecError: for a bad ``spec``.
    """
    from limitgames.agents import make_agent

    table: dict[str, dict[int, float]] = {}
    name = spec.split(":", 1)[0]
    game_id = tree.game.engine.info.id if hasattr(tree.game, "engine") else None
    for done, info in enumerate(tree.infosets.values(), start=1):
        if progress is not None:
            progress(done)
        if len(info.actions) == 1 or name == "random":
            continue
        inner = info.state.inner
        counts = dict.fromkeys(info.actions, 0)
        for k in range(samples):
            agent = make_agent(spec, seed=seed + k, game=game_id)
            choice = inner.action_to_index(agent.choose(inner.clone()))
            counts[choice] += 1
        table[info.key] = {a: c / samples for a, c in counts.items()}
    return TreePolicy(table)
