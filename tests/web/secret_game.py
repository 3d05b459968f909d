"""A tiny game with hidden information, for the web tests: each seat holds a secret number.

Seats take turns saying ``bet 1`` .. ``bet 3``; after four bets the highest
secret wins. ``observation(seat)`` holds only that seat's secret, so any
other seat's secret showing up in a message is a leak.
"""

from __future__ import annotations

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

BETS = 4


class SecretState(State):
    game_id = "toy-secret"

    def __init__(self, variant: dict[str, Any], chance: Chance) -> None:
        self._variant = variant
        self._chance = chance
        n = int(variant["players"])
        self.secrets = [
            int(x) for x in chance.draw("deal", lambda rng: rng.sample(range(100000, 999999), n))
        ]
        self.bets: list[int] = []

    @property
    def num_players(self) -> int:
        return int(self._variant["players"])

    @property
    def variant(self) -> dict[str, Any]:
        return self._variant

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.bets) % self.num_players

    def legal_actions(self) -> list[Any]:
        return [] if self.is_terminal() else [1, 2, 3]

    def apply(self, action: Any) -> None:
        if self.is_terminal():
            raise IllegalActionError(action, "the game is over")
        if action not in (1, 2, 3):
            raise IllegalActionError(action, "a bet is 1, 2 or 3")
        self.bets.append(action)

    def is_terminal(self) -> bool:
        return len(self.bets) >= BETS

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.num_players
        best = max(self.secrets)
        return [1.0 if s == best else -1.0 for s in self.secrets]

    def action_to_string(self, action: Any) -> str:
        return f"bet {action}"

    def parse_action(self, text: str) -> Any:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "bet" or not parts[1].isdigit():
            raise NotationError(text, "write 'bet N'")
        return int(parts[1])

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {
            "secret": None if seat is None else self.secrets[seat],
            "bets": list(self.bets),
            "to_move": None if self.is_terminal() else self.current_player(),
        }

    def history(self) -> list[Any]:
        return list(self.bets)

    def chance_outcomes(self) -> list[dict[str, Any]]:
        return self._chance.outcomes

    def clone(self) -> SecretState:
        other = SecretState.__new__(SecretState)
        other._variant = self._variant
        other._chance = self._chance.clone()
        other.secrets = list(self.secrets)
        other.bets = list(self.bets)
        return other


class SecretGame(Game):
    info = GameInfo(
        id="toy-secret",
        title="Secret numbers",
        designer="tests",
        year=2026,
        min_players=2,
        max_players=3,
        parameters=(Parameter("players", "int", 2, "number of players", minimum=2, maximum=3),),
        rules_version="toy-1",
        rules_doc="tests/web/secret_game.py",
        perfect_information=False,
    )

    def new_initial_state(
        self, seed: int | None = None, chance: Any = None, **variant: Any
    ) -> State:
        resolved = self.info.resolve_variant(variant)
        return SecretState(resolved, chance if chance is not None else Chance(seed))


SECRET = register(SecretGame())
