"""Difficulty levels for people: easy, medium, hard, expert, per game.

``level_spec("hex", "hard")`` gives the agent spec a play command uses for
``--opponent hard``. ``hex`` gets alpha-beta on its learned evaluation at
medium and its compiled MCTS with tactical playouts and the exact solver on
small endings at hard and expert; other perfect-information games get UCT;
``cards`` gets information-set MCTS, which never peeks, and ``world`` its
computer nation (``nation``: information-set MCTS on the nations' projected final
scores). The time budgets keep a move within six seconds at expert, except
world's, whose levels are defined by iterations with a wall-time cap (at most
3, 8 and 20 s a decision).
"""

from __future__ import annotations

from limitgames.agents.base import AgentSpecError
from limitgames.translation import gettext

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
"""The level names, weakest first."""

_PERFECT: dict[str, str] = {
    "easy": "heuristic:epsilon=0.3",
    "medium": "mcts:seconds=0.5",
    "hard": "mcts:seconds=2",
    "expert": "mcts:seconds=5",
}
_HIDDEN: dict[str, str] = {
    "easy": "heuristic:epsilon=0.3",
    "medium": "ismcts:seconds=0.5",
    "hard": "ismcts:seconds=2",
    "expert": "ismcts:seconds=5",
}
_HEX: dict[str, str] = {
    "easy": "heuristic:epsilon=0.3",
    "medium": "alphabeta:seconds=0.5",
    "hard": "hexmcts:seconds=0.3,playouts=tactical,c=1,contempt=0.3,solve=yes,order=1,widen=2",
    "expert": "hexmcts:seconds=5,playouts=tactical,c=1,contempt=0.3,solve=yes,order=1,widen=2",
}
"""hex (budgets at most 0.2, 1, 3 and 6 s a move on one core): greedy with 30% random moves
(beatable, makes visible mistakes); alpha-beta on the learned evaluation at 0.5 s; hard and
expert run one search, the compiled MCTS ``hexmcts`` (transposition table, MCTS-Solver, tree reuse,
contempt for draws) with tactical playouts (``limitgames.hex.tactics``: captures, escapes,
set-ups and presses first), the same tactical order of trial with progressive widening, and
c = 1, hard at 0.3 s and expert at 5 s; both play small endings with the exact solver. Hard's
0.3 s is shorter than medium's 0.5 s because its search is the stronger one: at 1 s hard beat
medium 39-0-1 and expert at 3 s beat it only 25-1-14, so hard's time was cut and expert's
raised to make each step at least 70%. Measured in ``docs/agents.md``, "The ladder,
measured"."""
_WORLD: dict[str, str] = {
    "easy": "heuristic",
    "medium": "nation:iterations=60,seconds=3,width=3,personality=cooperative",
    "hard": "nation:iterations=240,seconds=8,width=3,personality=cooperative,margin=0.1",
    "expert": "nation:iterations=800,seconds=20,width=4,personality=cooperative,margin=0.1",
}
"""world: easy is the heuristic nation without random moves (its ties are broken at random);
medium and up the computer nation (``agents/world_nation.py``: ISMCTS on projected final
scores with the crises counted, its root narrowed to the rule of thumb's best few options),
defined by work (iterations a decision) with a wall-time cap. A
random move costs a LIMIT nation a lot (the food sold, the money spent on a card it does not
need, its best card discarded): against random nations at 2 nations (60 games, seed 31) it won
56 with none, 51 with 5% random moves, 44 with 10% and 36 with 30% (``docs/agents.md``)."""
_BY_GAME: dict[str, dict[str, str]] = {"hex": _HEX, "cards": _HIDDEN, "world": _WORLD}


def level_spec(game_id: str, level: str) -> str:
    """The agent spec for ``level`` (easy/medium/hard/expert) in the game ``game_id``.

    Games other than the three built-in ones get the perfect-information table
    if their ``GameInfo`` says so, else the hidden-information one.

    Raises:
        AgentSpecError: for an unknown level (the message lists the levels).
    """
    key = level.strip().lower()
    if key not in LEVELS:
        raise AgentSpecError(
            gettext("unknown level %(level)r (levels: %(known)s)")
            % {"level": level, "known": ", ".join(LEVELS)}
        )
    table = _BY_GAME.get(game_id)
    if table is None:
        from limitgames.core import get_game

        try:
            perfect = get_game(game_id).info.perfect_information
        except LookupError:
            perfect = False
        table = _PERFECT if perfect else _HIDDEN
    return table[key]


def is_level(text: str) -> bool:
    """Whether ``text`` names a level rather than an agent spec."""
    return text.strip().lower() in LEVELS
