"""A tiny game for testing the protocol: Nim with a pile drawn by chance."""

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


class NimState(State):
    game_id = "toy-nim"

    def __init__(self, variant: dict[str, Any], chance: Chance) -> None:
        self._variant = variant
        self._chance = chance
        self.pile = int(chance.draw("pile", lambda rng: rng.randint(5, 15)))
        self.player = 0
        self._history: list[int] = []

    @property
    def num_players(self) -> int:
        return int(self._variant["players"])

    @property
    def variant(self) -> dict[str, Any]:
        return self._variant

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.player

    def legal_actions(self) -> list[Any]:
        return [k for k in (1, 2, 3) if k <= self.pile]

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(action, f"cannot take {action} from a pile of {self.pile}")
        self.pile -= action
        self._history.append(action)
        if self.pile:
            self.player = (self.player + 1) % self.num_players

    def is_terminal(self) -> bool:
        return self.pile == 0

    def returns(self) -> list[float]:
        if self.pile:
            return [0.0] * self.num_players
        return [1.0 if i == self.player else -1.0 for i in range(self.num_players)]

    def action_to_string(self, action: Any) -> str:
        return f"take {action}"

    def parse_action(self, text: str) -> Any:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "take" or not parts[1].isdigit():
            raise NotationError(text, "write 'take N'")
        return int(parts[1])

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.current_player()}

    def history(self) -> list[Any]:
        return list(self._history)

    def chance_outcomes(self) -> list[dict[str, Any]]:
        return self._chance.outcomes


class NimGame(Game):
    info = GameInfo(
        id="toy-nim",
        title="Nim",
        designer="folk",
        year=1901,
        min_players=2,
        max_players=3,
        parameters=(Parameter("players", "int", 2, "number of players", minimum=2, maximum=3),),
        rules_version="toy-1",
        rules_doc="tests/core/toy.py",
        perfect_information=True,
    )

    def new_initial_state(
        self, seed: int | None = None, chance: Any = None, **variant: Any
    ) -> State:
        resolved = self.info.resolve_variant(variant)
        return NimState(resolved, chance if chance is not None else Chance(seed))


NIM = register(NimGame())
