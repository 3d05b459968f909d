"""A small hidden-information game for testing agents: two seats, one suit of tricks.

Cards 1..9 are shuffled (one chance outcome, "deal"); each seat gets ``hand``
cards, the rest are never seen. The leader plays a card face up, the other
seat follows with any card; the higher card wins the trick and leads the next.
Whoever wins more tricks wins (returns 1 / -1; a tie is 0). A seat sees its
own hand and every card played; ``determinize`` deals the other hand from the
cards that seat has not seen.
"""

from __future__ import annotations

import random
from typing import Any

from limitgames.core import (
    TERMINAL,
    Chance,
    Game,
    GameInfo,
    IllegalActionError,
    NotationError,
    Parameter,
    State,
    register,
)

DECK = list(range(1, 10))


class TricksState(State):
    game_id = "toy-tricks"

    def __init__(self, variant: dict[str, Any], chance: Chance) -> None:
        self._variant = variant
        self._chance = chance
        size = int(variant["hand"])
        deal = [int(x) for x in chance.draw("deal", lambda rng: rng.sample(DECK, len(DECK)))]
        self.hands = [sorted(deal[:size]), sorted(deal[size : 2 * size])]
        self.leader = 0
        self.trick: list[int] = []  # cards of the trick in progress, leader's first
        self.played: list[tuple[int, int]] = []  # (seat, card) in order
        self.won = [0, 0]
        self._history: list[int] = []

    @classmethod
    def from_hands(cls, hands: list[list[int]]) -> TricksState:
        """A game dealt ``hands`` (for tests), seat 0 to lead."""
        state = cls(
            {"players": 2, "hand": len(hands[0])},
            Chance(seed=0, replay=[{"kind": "deal", "value": DECK}]),
        )
        state.hands = [sorted(h) for h in hands]
        return state

    @property
    def num_players(self) -> int:
        return 2

    @property
    def variant(self) -> dict[str, Any]:
        return self._variant

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return self.leader if not self.trick else 1 - self.leader

    def legal_actions(self) -> list[Any]:
        if self.is_terminal():
            return []
        return list(self.hands[self.current_player()])

    def apply(self, action: Any) -> None:
        if self.is_terminal():
            raise IllegalActionError(action, "the game is over")
        seat = self.current_player()
        if action not in self.hands[seat]:
            raise IllegalActionError(action, f"card {action} is not in the hand")
        self.hands[seat].remove(action)
        self.played.append((seat, action))
        self.trick.append(action)
        self._history.append(action)
        if len(self.trick) == 2:
            lead, follow = self.trick
            winner = self.leader if lead > follow else 1 - self.leader
            self.won[winner] += 1
            self.leader = winner
            self.trick = []

    def is_terminal(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.won[0] == self.won[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.won[0] > self.won[1] else [-1.0, 1.0]

    def action_to_string(self, action: Any) -> str:
        return f"play {action}"

    def parse_action(self, text: str) -> Any:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "play" or not parts[1].isdigit():
            raise NotationError(text, "write 'play N'")
        return int(parts[1])

    def observation(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "played": [list(p) for p in self.played],
            "won": list(self.won),
            "to_move": self.current_player(),
            "hand_sizes": [len(h) for h in self.hands],
        }
        if seat is not None:
            view["hand"] = list(self.hands[seat])
        return view

    def determinize(self, seat: int, rng: random.Random) -> State:
        other = 1 - seat
        seen = set(self.hands[seat]) | {card for _, card in self.played}
        unseen = [c for c in DECK if c not in seen]
        twin = self.clone()
        assert isinstance(twin, TricksState)
        twin.hands[other] = sorted(rng.sample(unseen, len(self.hands[other])))
        return twin

    def clone(self) -> State:
        twin = TricksState.__new__(TricksState)
        twin._variant = self._variant
        twin._chance = self._chance.clone()
        twin.hands = [list(h) for h in self.hands]
        twin.leader = self.leader
        twin.trick = list(self.trick)
        twin.played = list(self.played)
        twin.won = list(self.won)
        twin._history = list(self._history)
        return twin

    def history(self) -> list[Any]:
        return list(self._history)

    def chance_outcomes(self) -> list[dict[str, Any]]:
        return self._chance.outcomes


class TricksGame(Game):
    info = GameInfo(
        id="toy-tricks",
        title="Tricks",
        designer="test",
        year=2026,
        min_players=2,
        max_players=2,
        parameters=(
            Parameter("players", "int", 2, "number of players", choices=(2,)),
            Parameter("hand", "int", 3, "cards per hand", minimum=1, maximum=4),
        ),
        rules_version="toy-1",
        rules_doc="tests/agents/toy_tricks.py",
        perfect_information=False,
    )

    def new_initial_state(
        self, seed: int | None = None, chance: Any = None, **variant: Any
    ) -> State:
        resolved = self.info.resolve_variant(variant)
        return TricksState(resolved, chance if chance is not None else Chance(seed))


TRICKS = register(TricksGame())
