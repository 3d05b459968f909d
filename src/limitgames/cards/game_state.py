"""A game of Limits as the protocol's ``State``: the rules and how play goes on
(:class:`limitgames.cards.rules.CardsState`) with what each seat may see and its
determinization (:mod:`limitgames.cards.observe`) and the research encodings
(:mod:`limitgames.cards.encoding`).
"""

from __future__ import annotations

import random
from typing import Any

from limitgames.cards.rules import CardsState
from limitgames.core.protocol import Action, State


class CardsGameState(CardsState):
    """A game of Limits for 2-6 seats (see :mod:`limitgames.cards.rules`), with every method of
    the ``State`` protocol."""

    # ---------------------------------------------------------- information
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` knows (``None``: a spectator); see :func:`limitgames.cards.observe.observation`."""
        from limitgames.cards.observe import observation

        return observation(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``seat``'s observation; see :func:`limitgames.cards.observe.determinize`."""
        from limitgames.cards.observe import determinize

        return determinize(self, seat, rng)

    # ----------------------------------------- research encodings (cards.encoding)
    def action_to_index(self, action: Action) -> int:
        """The fixed index of ``action``: the action itself (``0..21``). Raises ValueError."""
        from limitgames.cards.encoding import action_to_index

        return action_to_index(action)

    def index_to_action(self, index: int) -> Action:
        """The action of an index (the index itself). Raises ValueError out of ``0..21``."""
        from limitgames.cards.encoding import action_to_index

        return action_to_index(index)

    def legal_action_mask(self) -> Any:
        """``numpy.bool_[22]``: the legal actions."""
        from limitgames.cards.encoding import legal_action_mask

        return legal_action_mask(self)

    def observation_tensor(self, seat: int) -> Any:
        """``numpy.float32[OBSERVATION_SIZE]``: ``seat``'s view (:mod:`limitgames.cards.encoding`)."""
        from limitgames.cards.encoding import observation_tensor

        return observation_tensor(self, seat)

    def information_state_string(self, seat: int) -> str:
        """``seat``'s information state as JSON (:mod:`limitgames.cards.encoding`)."""
        from limitgames.cards.encoding import information_state_string

        return information_state_string(self, seat)
