"""Playing one tournament game: a pure function of its :class:`GameTask`.

:func:`play_game` runs in a worker process or a Ray task. It imports the
task's plugin modules, builds the agents from their specs and seeds, plays
the game to the end and returns a :class:`GameOutcome` holding the game
record as text (so the parent process, possibly on another machine, writes
it). It never prints.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any

from limitgames.agents import make_agent
from limitgames.arena.schedule import GameTask
from limitgames.core import GameRecord, get_game

MAX_DECISIONS = 100_000
"""A game still running after this many decisions is an error in its engine."""


@dataclass(frozen=True)
class GameOutcome:
    """The result of one game.

    Attributes:
        index: the game number.
        seating: per seat, the agent index.
        returns: per seat, ``State.returns()`` at the end.
        decisions: the number of actions played.
        record: the game record as JSON text.
        think: per seat, ``[total seconds, longest decision in seconds]``.
        termination: why the game ended (``Outcome.termination.value``, e.g.
            ``"last_with_pawns"``), or ``None`` when the engine does not say.
    """

    index: int
    seating: tuple[int, ...]
    returns: tuple[float, ...]
    decisions: int
    record: str
    think: tuple[tuple[float, float], ...]
    termination: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The outcome without its record, JSON-ready."""
        return {
            "index": self.index,
            "seating": list(self.seating),
            "returns": list(self.returns),
            "decisions": self.decisions,
            "termination": self.termination,
        }


def play_game(task: GameTask) -> GameOutcome:
    """Play the game ``task`` describes and return its outcome.

    Raises:
        RuntimeError: if an agent returns an illegal action or the game does
            not end within :data:`MAX_DECISIONS` (naming the game and agent).
    """
    for module in task.plugins:
        importlib.import_module(module)
    game = get_game(task.game)
    state = game.new_initial_state(seed=task.seed, **task.variant)
    agents = [
        make_agent(spec, seed, game=task.game)
        for spec, seed in zip(task.specs, task.agent_seeds, strict=True)
    ]
    think = [[0.0, 0.0] for _ in task.specs]
    decisions = 0
    while not state.is_terminal():
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"game {task.index} did not end within {MAX_DECISIONS} decisions")
        seat = state.current_player()
        started = time.perf_counter()
        action = agents[seat].choose(state)
        spent = time.perf_counter() - started
        think[seat][0] += spent
        think[seat][1] = max(think[seat][1], spent)
        if not state.is_legal(action):
            raise RuntimeError(
                f"game {task.index}: agent {task.specs[seat]!r} chose the illegal action {action!r}"
            )
        state.apply(action)
        decisions += 1
    record = GameRecord.of_state(
        state,
        seats=list(task.specs),
        seed=task.seed,
        meta={
            "event": "limit arena",
            "arena": {
                "index": task.index,
                "seating": list(task.seating),
                "agent_seeds": list(task.agent_seeds),
            },
        },
    )
    return GameOutcome(
        index=task.index,
        seating=task.seating,
        returns=tuple(float(x) for x in state.returns()),
        decisions=decisions,
        record=record.dumps(),
        think=tuple((round(t, 4), round(m, 4)) for t, m in think),
        termination=None if record.outcome is None else str(record.outcome["termination"]),
    )


def outcome_from_record(record: GameRecord, task: GameTask) -> GameOutcome | None:
    """The outcome stored in an earlier run's record of ``task``, or ``None`` if it does not match.

    A record matches when it is finished and was played by the same agents
    in the same seats, with the same seeds and variant.
    """
    arena = record.meta.get("arena")
    if (
        record.result is None
        or not isinstance(arena, dict)
        or arena.get("index") != task.index
        or tuple(arena.get("seating", ())) != task.seating
        or tuple(arena.get("agent_seeds", ())) != task.agent_seeds
        or tuple(record.seats) != task.specs
        or record.seed != task.seed
        or record.game != task.game
        or len(record.result) != len(task.specs)
    ):
        return None
    return GameOutcome(
        index=task.index,
        seating=task.seating,
        returns=tuple(record.result),
        decisions=len(record.actions),
        record=record.dumps(),
        think=tuple((0.0, 0.0) for _ in task.specs),
        termination=None if record.outcome is None else str(record.outcome.get("termination")),
    )
