"""A deliberately naive best response, for checking :mod:`limitgames.equilibrium`.

It works on the ``pyspiel`` game itself (the adapter, not the EFG text nor OpenSpiel's C++
best response): it lists every history of the best-responding seat's information sets with
its counterfactual weight (chance x the other seat's probabilities), then picks at each set
the action of the highest weighted value, the value of a history below being computed with
those same choices (perfect recall: a set's histories all lie above the sets they lead to).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Strategy = Callable[[Any], dict[int, float]]
"""A seat's strategy: a state -> {action: probability}."""


def best_response_value(game: Any, seat: int, other: Strategy) -> float:
    """The most ``seat`` can expect against the other seat playing ``other``."""
    members: dict[str, list[tuple[Any, float]]] = {}

    def collect(state: Any, weight: float) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for action, p in state.chance_outcomes():
                collect(state.child(action), weight * p)
            return
        player = state.current_player()
        if player == seat:
            key = state.information_state_string(seat)
            members.setdefault(key, []).append((state, weight))
            for action in state.legal_actions():
                collect(state.child(action), weight)
            return
        for action, p in other(state).items():
            if p > 0:
                collect(state.child(action), weight * p)

    collect(game.new_initial_state(), 1.0)
    chosen: dict[str, int] = {}

    def value(state: Any) -> float:
        if state.is_terminal():
            return float(state.returns()[seat])
        if state.is_chance_node():
            return sum(p * value(state.child(a)) for a, p in state.chance_outcomes())
        if state.current_player() != seat:
            return sum(p * value(state.child(a)) for a, p in other(state).items() if p > 0)
        return value(state.child(choose(state.information_state_string(seat))))

    def choose(key: str) -> int:
        if key not in chosen:
            histories = members[key]
            actions = histories[0][0].legal_actions()
            totals = {a: sum(w * value(h.child(a)) for h, w in histories) for a in actions}
            chosen[key] = max(actions, key=lambda a: (totals[a], -a))
        return chosen[key]

    return value(game.new_initial_state())
