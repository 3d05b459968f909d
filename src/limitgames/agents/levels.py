"""Difficulty levels for people: easy, medium, hard, expert, per game.

``level_spec("hex", "hard")`` gives the agent spec a play command uses for
``--opponent hard``. ``hex`` gets alpha-beta on its learned evaluation at
medium and its compiled MCTS with tactical playouts and the exact solver on
small endings at hard and expert; other perfect-information games get UCT;
``cards`` gets information-set MCTS, which never peeks, and ``world`` its
computer nation (``nation``: information-set MCTS on the nations' projected final
scores).

Every searching level is defined by **work** (iterations, nodes: the same seed
gives the same move on any machine and under any load) with a **wall-time cap**
(``seconds``) that stops the search if a slow or busy machine has not done the
work by then. The work was calibrated so that on a quiet machine a level thinks
about as long as its time budget before the work budgets (``benchmarks/bench_levels.py``:
work per CPU-second, ``docs/agents.md``, "Levels for people"); the cap is four to eleven
times that, and at most 20 s (the server replaces a computer move that thinks 30 s). ``easy`` does not search (one evaluation per legal action).
"""

from __future__ import annotations

from limitgames.agents.base import AgentSpecError
from limitgames.translation import gettext

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
"""The level names, weakest first."""

_HIDDEN: dict[str, str] = {
    "easy": "heuristic:epsilon=0.3",
    "medium": "ismcts:iterations=4000,seconds=3",
    "hard": "ismcts:iterations=15000,seconds=10",
    "expert": "ismcts:iterations=35000,seconds=20",
}
"""cards (and games with hidden information): information-set MCTS by iterations, calibrated on
cards (about 8,000-9,000 iterations a CPU-second at 3 seats) to its former 0.5, 2 and 5 s."""
_PERFECT: dict[str, str] = {
    "easy": "heuristic:epsilon=0.3",
    "medium": "mcts:iterations=4000,seconds=3",
    "hard": "mcts:iterations=15000,seconds=10",
    "expert": "mcts:iterations=35000,seconds=20",
}
"""Other perfect-information games (added by users): UCT with the work of the cards levels
(no game of the project uses this table, so it was not calibrated on one)."""
_HEX_SEARCH = "playouts=tactical,c=1,contempt=0.3,solve=yes,order=1,widen=2"
_HEX: dict[str, str] = {
    "easy": "heuristic:epsilon=0.3",
    "medium": "alphabeta:nodes=80000,placement=4000,seconds=3",
    "hard": f"hexmcts:iterations=16000,placement=20,solve_nodes=200000,seconds=3,{_HEX_SEARCH}",
    "expert": (
        f"hexmcts:iterations=300000,placement=300,solve_nodes=3000000,seconds=20,{_HEX_SEARCH}"
    ),
}
"""hex: greedy with 30% random moves (beatable, makes visible mistakes); alpha-beta on the
learned evaluation, 80,000 positions a move (4,000 in the 2008 placement phase, whose Python
positions cost some 20 times more); hard and expert run one search, the compiled MCTS
``hexmcts`` (transposition table, MCTS-Solver, tree reuse, contempt for draws) with tactical
playouts (``limitgames.hex.tactics``: captures, escapes, set-ups and presses first), the same
tactical order of trial with progressive widening, and c = 1, hard 16,000 iterations a move and
expert 300,000 (about 65,000 a CPU-second: the former 0.3 s and 5 s); both play small endings
with the exact solver (hard 200,000 positions, expert 3,000,000: about 1.6 million a
CPU-second, the former 40% of their time). Hard's work is less than medium's time because its
search is the stronger one: at 1 s hard beat medium 39-0-1 and expert at 3 s beat it only
25-1-14, so hard's budget was cut and expert's raised to make each step at least 70%. Measured
in ``docs/agents.md``, "The ladder, measured"."""
_WORLD: dict[str, str] = {
    "easy": "heuristic",
    "medium": "nation:iterations=60,seconds=3,width=3,personality=cooperative",
    "hard": "nation:iterations=240,seconds=8,width=5,personality=independent,shortage=board",
    "expert": "nation:iterations=800,seconds=20,width=6,personality=independent,shortage=board",
}
"""world: easy is the heuristic nation without random moves (its ties are broken at random);
medium and up the computer nation (``agents/world_nation.py``: ISMCTS on projected final
scores with the crises counted, its root narrowed to the rule of thumb's best few options:
3 for medium, 5 for hard, 6 for expert, each judged over more determinizations), defined by
work (iterations a decision) with a wall-time cap. Medium plays for its own score and the
world's (``cooperative``) and judges a supply shortage still to come by the rule of thumb's
9 points a level; hard and expert play for their own final score (``independent``: the crises
still count in full) and judge a position before the supply step as it will stand after it
(``shortage=board``, ``world_evaluation.supplied``), so that carrying the game past a
shortage never looks better than preventing it (``docs/agents.md``, "The computer nation"). A
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
