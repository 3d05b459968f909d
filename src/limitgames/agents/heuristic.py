"""The greedy agent: a one-ply search with the game's evaluation.

For each legal action it plays the action on a copy, evaluates the result for
the seat to move (when the same seat decides again -- a ``hex`` turn is a
move then a removal -- it looks one decision further and takes its best
follow-up, so a whole turn is judged; ``lookahead=decision`` turns this off) (see :mod:`limitgames.agents.evaluation`: for ``hex`` pawns,
freedoms, mobility and removable tiles; for ``cards`` the suspicion from the
count of a colour seen against the limit it could have; for ``world`` a
rule-of-thumb policy) and takes the best, ties broken at random. An action that
wins at once is always taken.

On a game with hidden information it evaluates the actions on one
determinization (``state.determinize(seat, rng)``), never on the real state.

Options (spec ``heuristic:epsilon=0.2``):
    epsilon: chance (0..1) of playing a uniformly random action instead;
        used for the easy level. Default 0.
    lookahead: ``turn`` (default) or ``decision`` (see above).
    eval: another evaluation of the game's module by name (hex: ``hand``, the
        hand-tuned one, which ``scripts/train_hex_evaluation.py`` plays with so
        that its data do not depend on the weights it writes; default: the
        game's own).

``last_info`` keys: ``value`` (evaluation of the chosen action for the seat,
-1..1), ``win`` (the same as a 0..1 estimate), ``actions`` (how many were
compared), ``random`` (true when epsilon chose).
"""

from __future__ import annotations

from limitgames.agents.base import Agent, register_agent
from limitgames.agents.budget import OptionReader
from limitgames.agents.evaluation import (
    Evaluation,
    check_evaluation_option,
    evaluation_for,
    outcome_values,
    policy_for,
)
from limitgames.core import Action, State, get_game


def is_perfect_information(state: State) -> bool:
    """Whether ``state``'s game has no hidden information (unknown games count as hidden)."""
    try:
        return get_game(state.game_id).info.perfect_information
    except LookupError:
        return False


class HeuristicAgent(Agent):
    """One-ply greedy play with the game's evaluation."""

    name = "heuristic"

    def __init__(
        self,
        spec: str,
        seed: int | None = None,
        epsilon: float = 0.0,
        turn: bool = True,
        evaluation: str | None = None,
    ) -> None:
        super().__init__(spec, seed)
        self.epsilon = epsilon
        self.turn = turn
        self.evaluation = evaluation

    def check_game(self, game_id: str) -> None:
        check_evaluation_option(self.name, self.evaluation, game_id)

    def choose(self, state: State) -> Action:
        self.fit_game(state.game_id)
        actions = self.legal_actions_of(state)
        seat = state.current_player()
        if len(actions) == 1:
            self.last_info = {"actions": 1, "random": False}
            return actions[0]
        if self.epsilon and self.rng.random() < self.epsilon:
            self.last_info = {"actions": len(actions), "random": True}
            return actions[self.rng.randrange(len(actions))]
        policy = policy_for(state.game_id)
        if policy is not None:
            choice = policy(state, self.rng)
            self.last_info = {"actions": len(actions), "random": False, "policy": True}
            return choice
        root = state if is_perfect_information(state) else state.determinize(seat, self.rng)
        evaluate = evaluation_for(state.game_id, self.evaluation)
        best: list[Action] = []
        best_value = -float("inf")
        for action in actions:
            child = root.clone()
            child.apply(action)
            value = self._value(child, seat, evaluate, self.turn)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        choice = best[self.rng.randrange(len(best))]
        shown = max(-1.0, min(1.0, best_value))
        self.last_info = {
            "actions": len(actions),
            "value": round(shown, 3),
            "win": round((shown + 1) / 2, 3),
            "random": False,
        }
        return choice

    def _value(self, state: State, seat: int, evaluate: Evaluation, follow: bool) -> float:
        """The value of ``state`` for ``seat``; if ``follow`` and ``seat`` moves again, its best follow-up."""
        if state.is_terminal():
            value = outcome_values(state.returns())[seat]
            return value + 10.0 if value > 0 else value  # a win now beats any evaluation
        if follow and state.current_player() == seat:
            best = -float("inf")
            for action in state.legal_actions():
                child = state.clone()
                child.apply(action)
                best = max(best, self._value(child, seat, evaluate, False))
            return best
        return evaluate(state)[seat]


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    reader = OptionReader("heuristic", options)
    epsilon = reader.fraction("epsilon", 0.0)
    lookahead = reader.choice("lookahead", "turn", ("turn", "decision"))
    chosen = reader.choice("eval", "default", ("default", "learned", "hand"))
    reader.finish()
    return HeuristicAgent(
        spec,
        seed,
        epsilon=epsilon,
        turn=lookahead == "turn",
        evaluation=None if chosen == "default" else chosen,
    )


register_agent(
    "heuristic",
    _make,
    "greedy play with the game's evaluation, one turn deep; options epsilon=0..1 (random "
    "moves), lookahead=turn|decision, eval=default|learned|hand",
)
