"""The computer nation of LIMIT (``world``): a search that plays for the final score.

A crisis lowers every nation's score (rulebook p23: money counts ``5 - crises`` points per
10 $; the crises take standards of living, territory and population, pp 20-21), and the 4th
crisis tile ends the game after its generation (p22), cutting short every nation's growth.
A search that backs up only who wins (``ismcts``'s results, 1 / 0 / -1) maximises its rank
in whatever world is left, and wrecks it. This agent backs up a mix of three things per
nation, each in ``-1..1``:

- **its own final score** (:func:`nation_scores`, squashed around :data:`CENTRE`);
- **the world's** (the mean of every nation's projected score, squashed the same way);
- **its rank** (its projected score against the mean of the others', as ``squash``).

The weights are the nation's **personality** (:data:`PERSONALITIES`): ``cooperative``
plays for its score and the world's, ``competitive`` mostly for its rank, ``balanced``
(the default) for its own score first and its rank second, ``independent`` for its own score
only (the crises still count in full: every nation's projected score bears them).

The projected score (:func:`nation_scores`) is the heuristic nation's ``plan_value`` (its
score as the engine counts it at the end, a generation ahead: food, goods, fossil, pollution
and unrest to come, money counted after one or two more crises; ``world_evaluation``), less
:func:`crisis_penalty`: :data:`CRISIS_COST` points per crisis still expected
(:func:`crisis_outlook`: the World Bank, the pollution reserve and the disruption reserve
each give a chance of a crisis) and :data:`END_COST` points per generation a 4th crisis
would cut off. A finished game is worth the engine's final scores, mixed the same way.

The search is ISMCTS (``ismcts``: one tree over the seat's information sets, a new
determinization per iteration) with three changes where the world's rule of thumb pays:

- at the root it only considers the :data:`WIDTH` options that the heuristic nation's
  ``plan_value`` rates best (``world_evaluation.rank_actions``, quantity actions over their
  whole range), so its few hundred iterations go to plans worth comparing;
- the tree is one decision deep (:data:`PLIES`): each iteration judges a root option on a
  fresh determinization, after the mover's best follow-up. A deeper tree expands the
  decisions after the root in random order, and an option whose worth lies in the choice
  after it (Market Access and its trade) then looks worse the more it is searched;
- below the tree it evaluates the leaf at once (``depth=0``, the default) instead of
  playing random decisions, which ruin a LIMIT nation (``docs/agents.md``).

On another game the agent is plain ``ismcts`` with the same budget.

Spec: ``nation:iterations=300,seconds=4,personality=balanced,width=6,plies=1,depth=0,c=0.7,
shortage=points,outlook=generation``.
The iterations are the work per decision (reproducible for a seed); ``seconds`` caps the
wall time of a decision on a slow or busy machine.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from limitgames.agents.base import Agent, register_agent
from limitgames.agents.budget import Budget, OptionReader
from limitgames.agents.evaluation import squash
from limitgames.agents.ismcts import InfoNode, IsmctsAgent
from limitgames.agents.mcts import Playout
from limitgames.agents.world_evaluation import (
    overflow_ahead,
    plan_value,
    rank_actions,
    shown_nations,
    supplied,
)
from limitgames.core import Action, State
from limitgames.world.data import WorldData
from limitgames.world.nation import INDUSTRIAL, MILITARY, Nation


@dataclass(frozen=True)
class Personality:
    """The weights of a nation's value: its own score, the world's, its rank (sum 1)."""

    own: float
    world: float
    rank: float


PERSONALITIES: dict[str, Personality] = {
    "cooperative": Personality(own=0.5, world=0.5, rank=0.0),
    "balanced": Personality(own=0.6, world=0.1, rank=0.3),
    "competitive": Personality(own=0.3, world=0.0, rank=0.7),
    "independent": Personality(own=1.0, world=0.0, rank=0.0),
}
"""The personalities by name (the ``personality`` option)."""

CENTRE = 40.0
"""Points at which a score is worth 0 in the own and world terms (a fair final score)."""
SPREAD = 25.0
"""Points over which ``tanh`` turns a score into -1..1 (own and world terms)."""
RANK_SCALE = 15.0
"""Points over which the lead over the others' mean turns into -1..1 (as ``world_evaluation``)."""
CRISIS_COST = 8.0
"""Points an expected crisis costs each nation beyond its money's value: a standard of living
(x the demographic index), a territory or a population level (rulebook pp 20-21)."""
END_COST = 5.0
"""Points each nation loses per generation a 4th crisis tile cuts off (the growth it misses)."""
LAST_CRISIS = 4
"""The crisis tile that ends the game after its generation (rulebook p22)."""


# --- the value of a position ------------------------------------------------------------------
def _share(need: float, left: float) -> float:
    """The chance (0..1) that a generation's ``need`` empties a reserve holding ``left``:
    1 when it is empty, ``need / (need + left)`` otherwise (a half when it lasts one more
    generation exactly)."""
    if left <= 0:
        return 1.0
    return need / (need + left) if need > 0 else 0.0


def crisis_outlook(state: Any, projected: bool = False, squeeze: bool = False) -> float:
    """Crisis tiles expected at the game's end: those placed plus a chance (0..1) of each
    kind not yet placed this generation (rulebook pp 20-21), from what every seat sees:

    - financial: the World Bank against a generation of taxes (each nation pays class C's
      column of ``taxation_per_pop`` times its population value);
    - environmental: the pollution reserve against a generation of industrial and military
      production's pollution (``data.pollution`` by plant position);
    - military: the disruption reserve against one token per nation and one per step of
      social unrest past 9 (the uprising zone's disruption).

    ``projected=True``: before the supply step, each nation as it will stand after it
    (``world_evaluation.supplied``: a shortage's unrest, and the disruption tokens it takes
    from the reserve), the same way as the position after that step.

    ``squeeze=True`` (the ``outlook=squeeze`` option): a nation's disruption is the larger of
    its steps past 9 and the tokens the next generation's social phase will overflow into
    (``world_evaluation.overflow_ahead``: unrest, class struggle and the food its growing
    population will lack), so the generation in which the people outgrow the land is seen
    coming (``docs/agents.md``, "The computer nation").
    """
    data: WorldData = state.data
    so = data.social
    placed = sum(len(g) for g in state.crises)
    now: list[str] = state.crises[-1] if state.crises else []
    nations: list[Nation] = shown_nations(state)
    reserve = state.disruption_reserve
    if projected:
        boards = [supplied(state, seat, n) for seat, n in enumerate(nations)]
        nations = [n for n, _overflow in boards]
        reserve -= sum(overflow for _n, overflow in boards)
    expected = float(placed)
    if "financial" not in now:
        taxes = sum(
            so["taxation_per_pop"][min(3, max(0, n.sol[2] - 1))] * data.level(n.population)
            for n in nations
        )
        expected += _share(float(taxes), float(state.world_bank))
    if "environmental" not in now:
        pollution = sum(
            data.pollution[n.plants[INDUSTRIAL] - 1] + data.pollution[n.plants[MILITARY] - 1]
            for n in nations
        )
        expected += _share(float(pollution), float(state.pollution_reserve))
    if "military" not in now:
        disruption = len(nations) + sum(
            max(0, n.unrest - 9, overflow_ahead(data, n) if squeeze else 0) for n in nations
        )
        expected += _share(float(disruption), float(reserve))
    return expected


def crisis_penalty(expected: float, crises: int, left: int) -> float:
    """Points each nation stands to lose to the crises still ``expected`` beyond the
    ``crises`` placed: :data:`CRISIS_COST` each, and :data:`END_COST` per generation of the
    ``left`` ones that a 4th tile would cut off, weighted by the chance of that tile
    (``expected - 3`` within 0..1)."""
    more = max(0.0, expected - crises)
    end_chance = min(1.0, max(0.0, expected - (LAST_CRISIS - 1)))
    return CRISIS_COST * more + END_COST * left * end_chance


def mix(scores: list[float], personality: Personality) -> list[float]:
    """Each nation's value in ``-1..1`` from the nations' (projected or final) ``scores``:
    ``own * tanh((score - CENTRE) / SPREAD) + world * tanh((mean - CENTRE) / SPREAD) + rank *
    squash`` (its lead over the others' mean, :data:`RANK_SCALE`)."""
    mean = sum(scores) / len(scores)
    world = math.tanh((mean - CENTRE) / SPREAD)
    ranks = squash(list(scores), RANK_SCALE)
    return [
        personality.own * math.tanh((s - CENTRE) / SPREAD)
        + personality.world * world
        + personality.rank * r
        for s, r in zip(scores, ranks, strict=True)
    ]


FOLLOW_UPS = frozenset(
    {"trade", "gain", "raise", "lower", "target", "upgrade", "produce", "take", "give", "price"}
)
"""Choices that finish what the nation has just begun (a card's trade, resource, class, target
or plant): a position waiting on one is judged after the mover's best reply."""


def nation_scores(state: Any, projected: bool = False, squeeze: bool = False) -> list[float]:
    """The score each nation is heading for, in points: the heuristic nation's
    ``plan_value`` (its score a generation ahead, money counted after one or two more crises)
    less :func:`crisis_penalty`; the engine's final scores when the game is over.

    While the mover owes a follow-up (:data:`FOLLOW_UPS`: Market Access played, its trade
    still to choose), the mover's score is the best of its legal replies: a card whose worth
    lies in the choice after it is not judged worthless.

    ``projected=True`` (the ``shortage=board`` option): before the supply step, each nation
    is judged as it will stand after it (``plan_value(..., projected=True)`` and
    :func:`crisis_outlook` likewise), the same way as the position after that step.
    ``squeeze=True`` (the ``outlook=squeeze`` option): :func:`crisis_outlook` with ``squeeze``."""
    if state.is_terminal():
        return [float(s) for s in state.scores]
    data: WorldData = state.data
    crises = sum(len(g) for g in state.crises)
    left = max(0, int(data.end["generations"]) - state.generation)
    penalty = crisis_penalty(crisis_outlook(state, projected, squeeze), crises, left)
    scores = [plan_value(state, seat, projected) - penalty for seat in range(len(state.nations))]
    pending = state.pending
    if pending and pending[-1].kind in FOLLOW_UPS:
        mover = state.current_player()
        best = -math.inf
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            if child.is_terminal():
                value = float(child.scores[mover])
            else:
                value = plan_value(child, mover, projected) - crisis_penalty(
                    crisis_outlook(child, projected, squeeze), crises, left
                )
            best = max(best, value)
        if best > -math.inf:
            scores[mover] = best
    return scores


def nation_values(
    state: State, personality: Personality, projected: bool = False, squeeze: bool = False
) -> list[float]:
    """One value per nation in ``-1..1`` (:func:`mix` of :func:`nation_scores`)."""
    return mix(nation_scores(state, projected, squeeze), personality)


# --- the agent --------------------------------------------------------------------------------
WIDTH = 6
"""Root options kept from the rule of thumb's ranking (the ``width`` option's default)."""
MARGIN = 0.05
"""How much better (value units, about 0.02 a point) another option must look than the rule
of thumb's best for the search to play it (the ``margin`` option's default)."""
PLIES = 1
"""The tree's depth in decisions (the ``plies`` option's default): 1 searches the root's options
only, each judged on a fresh determinization per iteration after the mover's best follow-up.
A deeper tree expands the next decisions (the mover's follow-up, the other nations' replies)
in random order, and the means of a root option then average mostly random continuations:
an option whose worth lies in a choice after it (Market Access and its trade) looks worse the
more the search expands it, and a nation that passes instead goes unfed (docs/agents.md)."""
SHORTAGES = ("points", "board")
"""How the search's leaves judge a supply shortage still to come (the ``shortage`` option):
``points`` (the default, level medium) as the heuristic nation does, ``SHORT_FOOD`` points per
population level unfed; ``board`` (levels hard and expert) as the position will stand after
the supply step (``world_evaluation.supplied``: the population, plant levels, unrest and
disruption tokens it costs, each token also ``RESERVE_TOKEN`` points), the same way as a leaf
the search reached after that step. The root's ranking (the rule of thumb) is the heuristic
nation's in both."""
OUTLOOKS = ("generation", "squeeze")
"""How the crisis outlook counts the drain of the disruption reserve (the ``outlook`` option):
``generation`` (the default) one token per nation and one per step of unrest past 9;
``squeeze`` also the tokens the next social phase will overflow into
(:func:`crisis_outlook`)."""
MIN_VISITS = 8
"""Visits an option needs before the search may prefer it to the rule of thumb's best."""


class NationAgent(IsmctsAgent):
    """ISMCTS on the nations' projected scores, its root narrowed by the rule of thumb."""

    name = "nation"

    def __init__(
        self,
        spec: str,
        seed: int | None = None,
        budget: Budget | None = None,
        personality: str = "balanced",
        width: int = WIDTH,
        depth: int = 0,
        c: float = 0.7,
        margin: float = MARGIN,
        plies: int = PLIES,
        shortage: str = "points",
        outlook: str = "generation",
    ) -> None:
        super().__init__(spec, seed, budget, c=c, playouts="heuristic", depth=depth)
        self.projected = shortage == "board"
        self.squeeze = outlook == "squeeze"
        self.world_plies = plies
        self.personality = PERSONALITIES[personality]
        self.width = width
        self.margin = margin
        self._first: Action | None = None
        self._world = True

    def root_actions(self, state: State) -> list[Action]:
        self._world = state.game_id == "world"
        self.plies = self.world_plies if self._world else None
        if not self._world:  # another game: plain ISMCTS
            self._first = None
            return super().root_actions(state)
        ranked = rank_actions(state, self.rng)
        if not ranked:
            self._first = None
            return self.legal_actions_of(state)
        self._first = ranked[0][1]
        return [action for _value, action in ranked[: self.width]]

    def pick(self, candidates: list[InfoNode], seat: int) -> InfoNode:
        """The rule of thumb's best option, unless the search found another better by more
        than ``margin`` (in value units; about 0.02 a point of score) on at least
        :data:`MIN_VISITS` visits: the search corrects the rule of thumb where it sees a
        clear gain (a crisis avoided, a score raised), and its noise does not replace it."""
        first = candidates[0]
        if first.action != self._first:
            return super().pick(candidates, seat)
        best = max(candidates, key=lambda n: (n.mean(seat), n.visits))
        if best.visits >= MIN_VISITS and best.mean(seat) > first.mean(seat) + self.margin:
            return best
        return first

    def final_values(self, state: State) -> list[float]:
        if not self._world:
            return super().final_values(state)
        return nation_values(state, self.personality, self.projected, self.squeeze)

    def make_leaf(self, state: State) -> Playout:
        if not self._world:
            return super().make_leaf(state)
        personality, depth, projected = self.personality, self.depth or 0, self.projected
        squeeze = self.squeeze

        def leaf(det: State, rng: random.Random) -> list[float]:
            for _step in range(depth):
                if det.is_terminal():
                    break
                legal = det.legal_actions()
                det.apply(legal[rng.randrange(len(legal))])
            return nation_values(det, personality, projected, squeeze)

        return leaf


def _make(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    reader = OptionReader("nation", options)
    budget = reader.budget(Budget(iterations=300, seconds=4.0))
    personality = reader.choice("personality", "balanced", tuple(PERSONALITIES))
    width = reader.integer("width", WIDTH)
    depth = reader.integer("depth", 0, minimum=0)
    c = reader.number("c", 0.7)
    margin = reader.fraction("margin", MARGIN)
    plies = reader.integer("plies", PLIES, minimum=1)
    shortage = reader.choice("shortage", "points", SHORTAGES)
    outlook = reader.choice("outlook", "generation", OUTLOOKS)
    reader.finish()
    assert width is not None and depth is not None and c is not None and plies is not None
    return NationAgent(
        spec,
        seed,
        budget,
        personality=personality,
        width=width,
        depth=depth,
        c=c,
        margin=margin,
        plies=plies,
        shortage=shortage,
        outlook=outlook,
    )


register_agent(
    "nation",
    _make,
    "LIMIT (world) computer nation: ISMCTS on projected final scores, crises counted, the "
    "root narrowed by the rule of thumb; options iterations=N, seconds=S (cap), "
    "personality=cooperative|balanced|competitive|independent, width=K, plies=1, depth=D, c=0.7, "
    "margin=0.05, shortage=points|board, outlook=generation|squeeze",
)
