"""A game of LIMIT as the protocol's ``State``: the table and its flow (:class:`WorldState`,
:mod:`limitgames.world.state`, which the phases play on) with the notation
(:mod:`limitgames.world.notation`), what each seat may see and its determinization
(:mod:`limitgames.world.observe`) and the research encodings (:mod:`limitgames.world.encoding`);
set up as the rulebook says (:mod:`limitgames.world.setup`, p10) unless a position lays it out
(:mod:`limitgames.world.position`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from limitgames.core import Action, Chance
from limitgames.core.events import Event, Outcome
from limitgames.world.data import WorldData
from limitgames.world.events import events_of_action, outcome
from limitgames.world.setup import set_up
from limitgames.world.state import WorldAction, WorldState


class WorldGameState(WorldState):
    """A game of LIMIT for 2-6 nations, or solo (see :class:`WorldState`), with every method of
    the ``State`` protocol."""

    def __init__(
        self,
        variant: dict[str, Any],
        data: WorldData,
        chance: Chance,
        load: Callable[[WorldState], None] | None = None,
    ) -> None:
        """A new game set up for ``variant["players"]`` nations, or laid out by ``load``
        (see :mod:`limitgames.world.position`), then played on to the first decision."""
        super().__init__(variant, data, chance, set_up if load is None else load)

    # --- protocol: notation, information ----------------------------------------------
    def apply_with_events(self, action: Any) -> list[Event]:
        """Play ``action`` like :meth:`apply` and return what happened: the decision and the
        log's new lines, each with who may read it (:mod:`limitgames.world.events`).

        Raises:
            IllegalActionError: as :meth:`apply`; the state is unchanged.
        """
        return events_of_action(self, action)

    def outcome(self) -> Outcome | None:
        """Why and how the game ended (the fourth crisis, the seventh generation, or a
        position scored early), the scores, the winners and the generation in ``details``,
        or ``None`` while it goes on; see :func:`limitgames.world.events.outcome`."""
        return outcome(self)

    def action_to_string(self, action: Action) -> str:
        from limitgames.world.notation import action_to_string

        if not isinstance(action, tuple):
            return repr(action)
        return action_to_string(self, action)

    def parse_action(self, text: str) -> WorldAction:
        from limitgames.world.notation import parse_action

        return parse_action(self, text)

    def observation(self, seat: int | None) -> dict[str, Any]:
        from limitgames.world.observe import observation

        return observation(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> WorldState:
        from limitgames.world.observe import determinize

        return determinize(self, seat, rng)

    # --- research encodings (world.encoding) ------------------------------------------
    def action_to_index(self, action: Action) -> int:
        """The fixed index of an action tuple (:mod:`limitgames.world.encoding`). Raises ValueError."""
        from limitgames.world.encoding import action_to_index

        return action_to_index(self, action)

    def index_to_action(self, index: int) -> Action:
        """The action tuple of a fixed index. Raises ValueError out of range."""
        from limitgames.world.encoding import index_to_action

        return index_to_action(self, index)

    def legal_action_mask(self) -> Any:
        """``numpy.bool_[num_distinct_actions]``: the legal actions."""
        from limitgames.world.encoding import legal_action_mask

        return legal_action_mask(self)

    def observation_tensor(self, seat: int) -> Any:
        """``numpy.float32[observation_size]``: ``seat``'s view (:mod:`limitgames.world.encoding`)."""
        from limitgames.world.encoding import observation_tensor

        return observation_tensor(self, seat)

    def information_state_string(self, seat: int) -> str:
        """``seat``'s observation and log channel as JSON (:mod:`limitgames.world.encoding`)."""
        from limitgames.world.encoding import information_state_string

        return information_state_string(self, seat)
