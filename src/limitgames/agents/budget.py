"""Search budgets and the reading of agent options from spec strings.

A search agent stops after a number of ``iterations`` (work: reproducible, the
same seed gives the same choice on any machine and under any load) or after
``seconds`` of wall-clock time (stronger on a faster or quieter machine, not
reproducible). A spec gives one, or both: ``mcts:iterations=2000``,
``mcts:seconds=1``, or ``mcts:iterations=2000,seconds=3``, work with a wall-time
cap, as the levels (:mod:`limitgames.agents.levels`) give it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from limitgames.agents.base import AgentSpecError

T = TypeVar("T")

TIME_MARGIN: float = 0.9
"""Share of a time budget that a search spends; the rest covers the final
choice and the caller's overhead, so that a move is returned within the budget."""


@dataclass(frozen=True)
class Budget:
    """How long one search may run.

    Attributes:
        iterations: the number of iterations (playouts, or for alpha-beta
            nodes), or ``None``.
        seconds: wall-clock seconds per decision, or ``None``.
    At least one is set; with both, whichever runs out first stops the search.
    """

    iterations: int | None = None
    seconds: float | None = None

    def start(self) -> BudgetClock:
        """A clock for one search, started now."""
        return BudgetClock(self)

    def describe(self) -> str:
        """``"2000 iterations"`` / ``"1 s"`` / both joined by ``or``."""
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts)


class BudgetClock:
    """Counts the iterations and the time of one search against its :class:`Budget`."""

    __slots__ = ("_deadline", "budget", "iterations", "started")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.started = time.perf_counter()
        self.iterations = 0
        self._deadline = (
            self.started + budget.seconds * TIME_MARGIN if budget.seconds is not None else None
        )

    def tick(self) -> None:
        """Count one iteration."""
        self.iterations += 1

    def exhausted(self) -> bool:
        """Whether the search must stop now."""
        if self.budget.iterations is not None and self.iterations >= self.budget.iterations:
            return True
        return self._deadline is not None and time.perf_counter() >= self._deadline

    def elapsed(self) -> float:
        """Seconds since the clock started."""
        return time.perf_counter() - self.started


class OptionReader:
    """Reads the ``key=value`` options of one spec, with clear errors.

    Every option must be read exactly once; :meth:`finish` raises
    :class:`AgentSpecError` naming any option the agent does not know.
    """

    def __init__(self, agent: str, options: dict[str, str]) -> None:
        self.agent = agent
        self._options = dict(options)

    def _take(self, key: str, default: T, convert: Callable[[str], T], kind: str) -> T:
        if key not in self._options:
            return default
        text = self._options.pop(key)
        try:
            return convert(text)
        except ValueError:
            raise AgentSpecError(f"{self.agent}: option {key}={text!r} is not {kind}") from None

    def integer(self, key: str, default: int | None, minimum: int = 1) -> int | None:
        """An integer option (at least ``minimum``), or ``default`` if absent."""
        value = self._take(key, default, int, "an integer")
        if value is not None and value < minimum:
            raise AgentSpecError(
                f"{self.agent}: option {key} must be at least {minimum} (got {value})"
            )
        return value

    def number(self, key: str, default: float | None, minimum: float = 0.0) -> float | None:
        """A float option (above ``minimum``), or ``default`` if absent."""
        value = self._take(key, default, float, "a number")
        if value is not None and not value > minimum:
            raise AgentSpecError(
                f"{self.agent}: option {key} must be above {minimum:g} (got {value:g})"
            )
        return value

    def fraction(self, key: str, default: float) -> float:
        """A float option in ``[0, 1]``."""
        value = self._take(key, default, float, "a number")
        if not 0.0 <= value <= 1.0:
            raise AgentSpecError(f"{self.agent}: option {key} must lie in 0..1 (got {value:g})")
        return value

    def choice(self, key: str, default: str, choices: tuple[str, ...]) -> str:
        """A string option that must be one of ``choices``."""
        value = self._take(key, default, str, "a word")
        if value not in choices:
            raise AgentSpecError(
                f"{self.agent}: option {key}={value!r} is not one of {', '.join(choices)}"
            )
        return value

    def budget(self, default: Budget) -> Budget:
        """The ``iterations`` / ``seconds`` options; ``default`` when neither is given."""
        iterations = self.integer("iterations", None)
        seconds = self.number("seconds", None)
        if iterations is None and seconds is None:
            return default
        return Budget(iterations=iterations, seconds=seconds)

    def finish(self) -> None:
        """Raise :class:`AgentSpecError` if an option was given that the agent does not take."""
        if self._options:
            unknown = ", ".join(sorted(self._options))
            raise AgentSpecError(f"{self.agent}: unknown option(s) {unknown}")
