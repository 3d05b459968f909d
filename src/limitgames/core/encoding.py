"""What the research adapters need from a game: fixed encodings and explicit chance.

Each engine provides, for every game and variant (the engines stay free of
any framework; NumPy is imported by the engines, never by ``core``):

- an :class:`EncodingSpec`: the number of distinct actions, the observation
  tensor's shape, the longest game, the utility range, the chance mode and
  the largest number of outcomes of one chance node;
- on each state (see :class:`~limitgames.core.protocol.State`):
  ``action_to_index(action) -> int`` and ``index_to_action(index) -> action``
  (a bijection between the actions the game can ever offer and
  ``range(num_distinct_actions)``), ``legal_action_mask() -> bool[A]``,
  ``observation_tensor(seat) -> float32[shape]`` (only what ``seat`` may
  know) and ``information_state_string(seat)`` (perfect recall: what the
  seat has seen and done, as text);
- a :class:`SetupChance`: the game's chance outcomes as explicit chance
  nodes, each with its outcomes and their probabilities, which together
  build the same initial state as a seed would (through the recorded-outcome
  replay of :class:`~limitgames.core.chance.Chance`).

Returns (one scale for every game, ``State.returns()``): +1 for a sole
winner, 0 for a shared result (a draw, or a win shared by several seats),
-1 for a loss; 0 for everybody until the end. The games with scores
(``cards``, ``world``) give them instead with the variant ``returns=score``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Literal

from limitgames.core.chance import Chance

ChanceMode = Literal["deterministic", "explicit"]
WIN_LOSS_RANGE: tuple[float, float] = (-1.0, 1.0)
"""The utility range of ``returns()`` in its default (win / shared / loss) form."""


def outcome_returns(values: list[float] | list[int]) -> list[float]:
    """The project's result scale from per-seat values (higher is better): +1 for the sole
    best seat, 0 for each of several seats sharing the best value, -1 for the others."""
    best = max(values)
    top = sum(1 for v in values if v == best)
    return [(1.0 if top == 1 else 0.0) if v == best else -1.0 for v in values]


@dataclass(frozen=True)
class EncodingSpec:
    """The fixed sizes of one game and variant (what OpenSpiel's ``GameInfo`` declares).

    Attributes:
        game: the game id.
        players: the number of seats.
        num_distinct_actions: actions are indexed ``0 .. num_distinct_actions - 1``.
        observation_shape: the shape of ``observation_tensor(seat)`` (``float32``).
        max_game_length: an upper bound on the decisions of one game (chance excluded).
        min_utility, max_utility: the range of ``returns()``.
        chance_mode: ``"explicit"`` if :meth:`SetupChance.outcomes` lists chance
            outcomes with probabilities; ``"deterministic"`` if there are none.
        max_chance_outcomes: the most outcomes of one chance node (0 without chance).
        max_chance_nodes: an upper bound on the chance nodes of one game.
        zero_sum: whether the returns always add up to 0 (only two-player win/loss games).
        observation_range: bounds of every entry of the observation tensor.
    """

    game: str
    players: int
    num_distinct_actions: int
    observation_shape: tuple[int, ...]
    max_game_length: int
    min_utility: float = WIN_LOSS_RANGE[0]
    max_utility: float = WIN_LOSS_RANGE[1]
    chance_mode: ChanceMode = "explicit"
    max_chance_outcomes: int = 0
    max_chance_nodes: int = 0
    zero_sum: bool = False
    observation_range: tuple[float, float] = (0.0, 1.0)


class SetupChance(ABC):
    """A game's setup chance as a sequence of explicit chance nodes.

    Start from the game's variant, ask :meth:`outcomes` (``[(index, probability)]``,
    probabilities summing to 1) and :meth:`apply` one index per node until
    :meth:`is_done`; then :meth:`initial_state` is the game those outcomes deal.
    Every game's chance happens at setup (the layout and colour deal of ``hex``,
    the shuffles of ``cards`` and ``world``), so no chance node comes later.
    """

    def __init__(self, game: Any, variant: dict[str, Any]) -> None:
        self.game = game
        self.variant = dict(variant)
        self.applied: list[int] = []

    @abstractmethod
    def is_done(self) -> bool:
        """Whether every chance node has been decided."""

    @abstractmethod
    def outcomes(self) -> list[tuple[int, float]]:
        """The current node's outcomes with their probabilities (ascending indices).

        Raises:
            ValueError: when :meth:`is_done`.
        """

    @abstractmethod
    def _apply(self, index: int) -> None:
        """Record outcome ``index`` of the current node (already checked)."""

    @abstractmethod
    def records(self) -> list[dict[str, Any]]:
        """The decided outcomes as the game's chance log (``[{"kind", "value"}]``); only when done."""

    @abstractmethod
    def outcome_to_string(self, index: int) -> str:
        """Outcome ``index`` of the current node, for people."""

    @abstractmethod
    def copy(self) -> SetupChance:
        """An independent copy."""

    def apply(self, index: int) -> None:
        """Decide the current node. Raises ValueError if ``index`` is not one of its outcomes."""
        if index not in {i for i, _ in self.outcomes()}:
            raise ValueError(f"{index} is not a chance outcome here")
        self.applied.append(index)
        self._apply(index)

    def initial_state(self) -> Any:
        """The game dealt by the decided outcomes. Raises ValueError before :meth:`is_done`."""
        if not self.is_done():
            raise ValueError("chance nodes are left to decide")
        return self.game.new_initial_state(chance=Chance(replay=self.records()), **self.variant)


def uniform(count: int) -> list[tuple[int, float]]:
    """``count`` equally likely outcomes ``0 .. count - 1``."""
    p = 1.0 / count
    return [(i, p) for i in range(count)]


def counted(counts: list[int]) -> list[tuple[int, float]]:
    """Draw one item from a multiset: outcome ``i`` with probability ``counts[i] / total``
    (outcomes with a zero count are left out)."""
    total = sum(counts)
    return [(i, c / total) for i, c in enumerate(counts) if c]
