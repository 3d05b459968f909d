"""The evaluation of a LIMIT (``world``) position and the heuristic nation's policy.

**Evaluation** (search agents' leaves). Read from what every seat sees: nations' boards are
open in the game, hands are not (``rules/world.md``); while a simultaneous step is open a
deciding nation's board is seen as it was before its first choice (the veil). Each nation's
value is its score as the engine counts it at the end (rulebook p23, with the data's
scoring weights and demographic index, so a data override reaches the computer too), plus
the rule of thumb of a careful player:

- **feed the population**: renewable production short of the population value costs a
  population level at supply, so each missing unit counts ``FOOD`` points;
- **keep social unrest down**: every step above the growth zone's middle (6) costs
  ``UNREST`` points, and the uprising zone (10-11) twice as much;
- **keep pollution down** (already -2 per token in the score).

Values are the scores relative to the other nations, squashed to ``-1..1`` with
:data:`SCALE`; a finished game is worth its results. :func:`evaluate_state` reads the
nations' numbers directly (no observation, no log text: search leaves stay cheap);
:func:`evaluate_observation` computes the same from the spectator's observation (kept as
the reference it is tested against).

**Policy** (the ``heuristic`` nation, level ``easy``): see :func:`policy`.
"""

from __future__ import annotations

import random
from typing import Any

from limitgames.agents.evaluation import outcome_values, squash
from limitgames.core import Action, IllegalActionError, State
from limitgames.world.data import CLASSES, WorldData
from limitgames.world.nation import INDUSTRIAL, MILITARY, RENEWABLE, Nation
from limitgames.world.scoring import score_view

FOOD = 1.0
UNREST = 2.0
SCALE = 15.0
PLAYOUT_DEPTH = 6
"""Random decisions before a heuristic playout is cut off: short, so that a 1-s ISMCTS move
at 4 nations runs several thousand iterations (``docs/agents.md``)."""


# --- evaluation -------------------------------------------------------------------------------
def board_score(data: WorldData, nation: Nation, crises: int) -> int:
    """The total score (rulebook p23) of ``nation``'s board with ``crises`` tiles placed:
    the number ``scoring.score_nation`` adds up, computed without its reckoning text."""
    w: dict[str, Any] = data.scoring
    sol = nation.sol
    total_sol = 0
    for c in w["sol_classes"]:
        total_sol += sol[CLASSES.index(c)]
    pos = max(1, min(9, nation.population))
    value = int(w["financial_base"]) - crises
    financial = value * (nation.money // int(w["money_unit"])) if value > 0 else 0
    return int(
        total_sol * data.demographic_index[pos - 1]
        + financial
        + w["territory"] * nation.territory
        + w["military_points"] * (nation.stock[MILITARY] // w["military_unit"])
        + w["pollution"] * nation.pollution
        + w["disruption"] * nation.disruption
    )


def board_value(data: WorldData, nation: Nation, crises: int) -> float:
    """The projected score of one nation board (see the module docstring)."""
    food_gap = max(
        0,
        data.level(nation.population)
        - data.level(nation.plants[RENEWABLE])
        - nation.stock[RENEWABLE],
    )
    unrest = nation.unrest
    unrest_cost = max(0, unrest - 6) + max(0, unrest - 9)
    return float(board_score(data, nation, crises)) - FOOD * food_gap - UNREST * unrest_cost


def shown_nations(state: Any) -> list[Nation]:
    """The nation boards as every seat sees them (a veiled board as it was before the
    simultaneous step's first choice)."""
    veil: dict[int, Nation] = state.veil
    return [veil.get(i, n) for i, n in enumerate(state.nations)]


def evaluate_state(state: State) -> list[float]:
    """One value per nation in ``[-1, 1]``, read from the nations' numbers; results when the
    game is over. Equal to :func:`evaluate_observation` (tested)."""
    if state.is_terminal():
        return outcome_values(state.returns())
    data: WorldData = state.data  # type: ignore[attr-defined]
    tiles: list[list[str]] = state.crises  # type: ignore[attr-defined]
    crises = sum(len(g) for g in tiles)
    return squash([board_value(data, n, crises) for n in shown_nations(state)], SCALE)


def nation_value(data: WorldData, nation: dict[str, Any], crises: int) -> float:
    """The projected score of one nation from its public view (``observe.nation_view``)."""
    score = score_view(data, nation, crises)["total"]
    food_gap = max(
        0,
        int(nation["population"]["value"])
        - int(nation["plants"]["renewable"]["value"])
        - int(nation["stock"]["renewable"]),
    )
    unrest = int(nation["unrest"])
    unrest_cost = max(0, unrest - 6) + max(0, unrest - 9)
    return float(score) - FOOD * food_gap - UNREST * unrest_cost


def evaluate_observation(state: State) -> list[float]:
    """:func:`evaluate_state` computed from the spectator's observation (the reference)."""
    if state.is_terminal():
        return outcome_values(state.returns())
    view = state.observation(None)
    crises = sum(len(tiles) for tiles in view.get("crises", []))
    data: WorldData = state.data  # type: ignore[attr-defined]
    return squash([nation_value(data, n, crises) for n in view["nations"]], SCALE)


evaluate = evaluate_state
EVALUATIONS = {"state": evaluate_state, "observation": evaluate_observation}
"""The evaluations by name (``evaluation_for("world", variant)``)."""


# --- policy: the heuristic nation -------------------------------------------------------------
SHORT_FOOD = 9.0
"""Points a population level left unfed costs (a population level, a plant level and unrest +3)."""
SHORT_GOODS = 4.0
"""Points a population level left without industrial goods costs (1 standard of living, unrest +2)."""
SHORT_FOSSIL = 3.0
"""Points per fossil missing for a generation's production (unrest +2, a plant level)."""
CRISIS_POLLUTION = 4.0
"""Points per pollution token a generation adds beyond the nation's share of the reserve."""
UNREST_STEP = 0.75
"""Points per step of social unrest above 6 (now, and after class struggle adds A - E)."""
UNREST_HIGH = 1.5
"""Points more per step above 8, near the uprising zone (10-11: military or money spent)."""
UNREST_OVER = 3.0
"""Points more per step past 11 (one disruption token each, -1 point, and the military crisis
when the reserve runs out). Social unrest itself scores nothing: these were twice as high until
the heuristic spent 60 $ a generation on Investment Policy and Public Expenditure against
random nations, whose crises leave money worth (5 - crises) points per 10 $ (docs/agents.md)."""
CARD_WORTH: dict[str, float] = {
    "education": 1.0,
    "market-access": 0.9,
    "speculation": 0.8,
    "public-expenditure": 0.8,
    "craftsmanship": 0.7,
    "industrialization": 0.7,
    "graduate-studies": 0.6,
    "investment-policy": 0.6,
    "urbanization": 0.5,
    "robotization": 0.5,
}
"""A card kept in hand (or played this generation: it comes back) is worth these few points,
so the nation keeps and draws the cards that feed, educate and trade."""
AMOUNTS = 40
"""Amounts tried per quantity action (all of them when its range is at most this long)."""
BEFORE_SUPPLY = frozenset(
    {"technology", "new_policy", "hand_limit", "decide_policy", "social_start"}
)
BEFORE_CONSUMPTION = frozenset({"supply", "conserve"})
"""Stages after supply whose nation has still to consume (a supply shortage's plant choice
waits there): judged from them, a plan that sold the goods class C needs looked free."""


def _levels_short(data: WorldData, population: int, offset: int, have: int) -> int:
    """Population levels whose need (``level(p + offset)``) ``have`` leaves unmet."""
    p = population
    while p > 0 and data.level(p + offset) > have:
        p -= 1
    return population - p


RESERVE_TOKEN = 2.0
"""Points a disruption token on the nation's board costs beyond the score's -1, when
:func:`plan_value` projects the supply step: a token missing from the disruption reserve
(14 at 4 nations) brings the military crisis closer, which costs every nation about
``CRISIS_COST`` (8) points: some 32 points of the world's score over 14 tokens. Before the
supply step the tokens a shortage's unrest will overflow into are on the projected board, so
letting a population go unfed is not cheaper than feeding it (``docs/agents.md``)."""
SHORTAGE_PLANTS = (MILITARY, INDUSTRIAL, RENEWABLE)
"""The order in which :func:`supplied` lowers a nation's plants for a supply shortage (the
nation's choice, rulebook p14): military first (it feeds no one and pollutes), renewable last
(it feeds the next generation)."""


def _lower_plants(data: WorldData, nation: Nation, count: int) -> None:
    """Lower ``count`` plant levels of ``nation`` in :data:`SHORTAGE_PLANTS` order, a plant at
    position 1 being left alone (the engine offers only plants above 1)."""
    for _ in range(count):
        for i in SHORTAGE_PLANTS:
            if nation.plants[i] > 1:
                nation.move_plant(i, -1, data.production_positions)
                break


def supplied(state: Any, seat: int, board: Nation | None = None) -> tuple[Nation, int]:
    """The board of the nation at ``seat`` (``board``: that nation's board as another seat
    sees it, by default ``state.nations[seat]``) as it will stand after this generation's supply
    step (rulebook p14, "Supply"; amounts in ``world/data.toml``), and the disruption tokens
    that step's unrest overflows into (taken from the reserve while it lasts, then from the
    LIMIT box).

    Before the supply step (a stage of :data:`BEFORE_SUPPLY`), the renewable stock feeds what
    it can (Vegetarianism: one level lower); each population level left unfed costs
    ``renewable_shortage_population`` population levels, ``renewable_shortage_plant`` plant
    levels (lowered in :data:`SHORTAGE_PLANTS` order) and ``renewable_shortage_unrest`` steps
    of social unrest, each step past the track's end a disruption token (rulebook p9). Plant
    levels the nation still owes from a shortage (a ``plant`` choice with a negative move,
    pending or deferred) are lowered the same way, so a position just before supply and the
    same position just after it give the same board. Without a shortage to come or owed, the
    board is a copy of the nation's own. Allies' help (p22) is not assumed.
    """
    data: WorldData = state.data
    nation = (state.nations[seat] if board is None else board).copy()
    so = data.social
    overflow = 0
    if state.stage in BEFORE_SUPPLY:
        offset = -1 if "vegetarianism" in nation.permanent else 0
        pop = nation.population
        short = _levels_short(data, pop, offset, nation.stock[RENEWABLE])
        fed = pop - short
        nation.stock[RENEWABLE] -= data.level(fed + offset) if fed > 0 else 0
        if short:
            nation.population = max(1, pop - so["renewable_shortage_population"] * short)
            unrest = nation.unrest + so["renewable_shortage_unrest"] * short
            overflow = max(0, unrest - data.unrest_positions)
            nation.unrest = min(unrest, data.unrest_positions)
            nation.disruption += overflow
            _lower_plants(data, nation, so["renewable_shortage_plant"] * short)
    for choice in (*state.pending, *state.deferred):
        if choice.kind == "plant" and choice.args[1] == seat and choice.args[2] < 0:
            _lower_plants(data, nation, int(choice.args[0]) * -int(choice.args[2]))
    return nation, overflow


def unfed_after_growth(data: WorldData, nation: Nation, left: int) -> tuple[int, int]:
    """The population position ``nation`` will reach after one generation of growth (class
    C's column of ``population_growth``), and the levels of it the next generation's food
    will leave unfed: the renewable it keeps of ``left`` in store (at most ``renewable_keep``)
    plus its renewable production (Vegetarianism feeds one level lower)."""
    so = data.social
    column = min(3, max(0, nation.sol[2] - 1))
    offset = -1 if "vegetarianism" in nation.permanent else 0
    growth = int(so["population_growth"][column])
    grown = min(data.population_positions, nation.population + max(0, growth))
    food = min(int(so["renewable_keep"]), left) + data.level(nation.plants[RENEWABLE])
    return grown, _levels_short(data, grown, offset, food)


def overflow_ahead(data: WorldData, nation: Nation) -> int:
    """Disruption tokens the next generation's social phase will push past the unrest track's
    end for ``nation`` as it stands (rulebook p9: each step past the end is a token): its
    unrest, plus class struggle's ``A - E`` (the phase's last step), plus
    ``renewable_shortage_unrest`` per population level its food will leave unfed after one
    generation of growth (:func:`unfed_after_growth`, from its whole store)."""
    _grown, unfed = unfed_after_growth(data, nation, nation.stock[RENEWABLE])
    unrest = nation.unrest + max(0, nation.sol[0] - nation.sol[4])
    unrest += int(data.social["renewable_shortage_unrest"]) * unfed
    return max(0, unrest - data.unrest_positions)


def plan_value(state: Any, seat: int, projected: bool = False) -> float:
    """What the nation at ``seat`` is heading for, a generation ahead, in points.

    Its score now (money counted continuously), minus what the next supply, consumption and
    production would cost it (rulebook pp 14-18): levels of population unfed by its
    renewable stock (now, before supply) and by stock plus renewable production (next
    generation, with population growth); goods short for class C's consumption; fossil
    short for its plants; its pollution per generation beyond its share of the pollution
    reserve (an environmental crisis); social unrest near the uprising and disruption zones.

    ``projected=False`` (the heuristic nation, level ``easy``, and the ``nation`` agent with
    ``shortage=points``): before the supply step each population level the stock leaves
    unfed costs :data:`SHORT_FOOD` points. ``projected=True`` (``shortage=board``): the
    position is judged as it will stand after the supply step (:func:`supplied`: the
    population, plant levels, unrest and disruption tokens the shortage costs), the same way
    as the position after that step, so an option that carries the game past supply is not
    worth more than one that prevents the shortage.
    """
    data: WorldData = state.data
    nation: Nation = state.nations[seat]
    if projected:
        if state.stage in BEFORE_SUPPLY or any(
            c.kind == "plant" for c in (*state.pending, *state.deferred)
        ):  # else the projected board is a copy of the nation's own (not made: it is costly)
            nation = supplied(state, seat)[0]
        value_of_tokens = -RESERVE_TOKEN * nation.disruption
    else:
        value_of_tokens = 0.0
    so = data.social
    crises = sum(len(g) for g in state.crises)
    w = data.scoring
    base, unit = int(w["financial_base"]), int(w["money_unit"])
    money_points = nation.money // unit * max(0, base - crises)
    value = float(board_score(data, nation, crises) - money_points) + value_of_tokens
    # money counts at the end, after the crises still to come: one more is assumed, and one
    # more again while the World Bank holds less than a generation and a half of taxes (it
    # pays taxes; a card's price goes back to it: spending keeps the financial crisis away)
    taxes = sum(
        so["taxation_per_pop"][min(3, max(0, n.sol[2] - 1))] * data.level(n.population)
        for n in state.nations
    )
    risk = 1 + (1 if state.world_bank < 1.5 * taxes else 0)
    value += nation.money * max(0, base - crises - risk) / unit
    column = min(3, max(0, nation.sol[2] - 1))
    pop = nation.population
    stock_r = nation.stock[RENEWABLE]
    before = state.stage in BEFORE_SUPPLY
    food_offset = -1 if "vegetarianism" in nation.permanent else 0
    if before and not projected:
        value -= SHORT_FOOD * _levels_short(data, pop, food_offset, stock_r)
        left = max(0, stock_r - data.level(pop + food_offset))
    else:
        left = stock_r
    grown, unfed = unfed_after_growth(data, nation, left)
    value -= SHORT_FOOD * 0.7 * unfed
    value += 0.05 * min(left, data.level(grown))  # a reserve of food, not a pile to rot
    # in the long run the land feeds at most the renewable plant's top (the territory) plus a
    # full store (10): each population level the remaining generations of growth (class C at
    # 1-2) would put beyond that starves; class C at 3 stops growth
    top = data.level(min(nation.territory, data.production_positions)) + so["renewable_keep"]
    feedable = 0
    while feedable < data.population_positions and data.level(feedable + 1 + food_offset) <= top:
        feedable += 1
    remaining = max(0, int(data.end["generations"]) - state.generation)
    growth = max(0, 3 - min(3, nation.sol[2])) / 2
    value -= 3.0 * growth * max(0, pop + remaining - feedable)
    goods_need = 0
    if so["consumes_industrial"][column]:
        offset = so["consumption_offset"][column]
        if "sustainable-consumption" in nation.permanent:
            offset -= 1
        goods = nation.stock[INDUSTRIAL]
        # consumption comes after supply: still ahead while the supply step waits on a choice
        ahead_of_consumption = before or state.stage in BEFORE_CONSUMPTION
        short_now = _levels_short(data, pop, offset, goods) if ahead_of_consumption else 0
        goods_need = data.level(pop + offset)
        next_goods = max(0, goods - goods_need) + data.level(nation.plants[INDUSTRIAL])
        value -= SHORT_GOODS * (short_now + 0.7 * _levels_short(data, grown, offset, next_goods))
    costs = data.fossil_cost
    fossil_need = costs[nation.plants[INDUSTRIAL] - 1] + costs[nation.plants[MILITARY] - 1]
    value -= SHORT_FOSSIL * max(0, fossil_need - nation.fossil)
    pollution = (
        data.pollution[nation.plants[INDUSTRIAL] - 1] + data.pollution[nation.plants[MILITARY] - 1]
    )
    share = state.pollution_reserve / max(1, state.n)
    value -= CRISIS_POLLUTION * max(0.0, pollution - share)
    value -= 0.5 * nation.plants[MILITARY]  # military plants pollute and feed no one
    unrest = nation.unrest  # class struggle adds A - E at the end of each social phase
    ahead = unrest + nation.sol[0] - nation.sol[4]
    for level in (unrest, ahead):
        value -= (
            UNREST_STEP * max(0, level - 6)
            + UNREST_HIGH * max(0, level - 8)
            + UNREST_OVER * max(0, level - 11)
        )
    value += sum(CARD_WORTH.get(c, 0.0) for c in nation.hand + nation.played)
    # a shortage already resolved may leave its standard-of-living loss to be placed (a
    # "lower" choice still on the stack): count it now, at the demographic index a counted
    # class (A, C or E) is worth, so that a plan which runs into it is not rated too well
    index = data.demographic_index[max(1, min(9, pop)) - 1]
    for choice in (*state.pending, *state.deferred):
        if choice.kind == "lower" and choice.args[1] == seat:
            value -= index * int(choice.args[0])
    return float(value)


def _candidates(state: Any) -> list[Action]:
    """The legal options, with each quantity action's whole range (``action_forms``): every
    amount when the range is short, else :data:`AMOUNTS` amounts spread over it."""
    actions: list[Action] = list(state.legal_actions())
    seen = set(actions)
    for form in state.action_forms():
        lo, hi = form.minimum, form.maximum
        if hi - lo < AMOUNTS:
            amounts = list(range(lo, hi + 1))
        else:
            amounts = sorted({lo + (hi - lo) * k // (AMOUNTS - 1) for k in range(AMOUNTS)})
        for q in amounts:
            action = (*form.prefix, q, *form.suffix)
            if action not in seen:
                seen.add(action)
                actions.append(action)
    return actions


def _after(state: Any, seat: int, follow: bool) -> float:
    """:func:`plan_value` of ``seat`` in ``state``; if ``follow`` and the seat decides again
    at once (a card's class or plant, a second transaction), after its best follow-up."""
    if state.is_terminal():
        return plan_value(state, seat)
    if follow and state.current_player() == seat:
        best = -float("inf")
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            best = max(best, _after(child, seat, False))
        return best
    return plan_value(state, seat)


def rank_actions(state: State, rng: random.Random) -> list[tuple[float, Action]]:
    """The options of the seat to move (quantity actions over their whole range) with their
    :func:`plan_value` a generation ahead, best first, judged on one determinization of the
    seat's knowledge (``state.determinize``: no hidden card is read); options the deal drawn
    does not allow are left out. Ties keep a random order (the list is shuffled first)."""
    seat = state.current_player()
    actions = _candidates(state)
    rng.shuffle(actions)
    root = state.determinize(seat, rng)
    ranked: list[tuple[float, Action]] = []
    for action in actions:
        child = root.clone()
        try:
            child.apply(action)
        except IllegalActionError:  # legal for the seat, not in this deal: skip it
            continue
        ranked.append((_after(child, seat, True), action))
    ranked.sort(key=lambda pair: -pair[0])  # stable: equal values keep the shuffled order
    return ranked


def policy(state: State, rng: random.Random) -> Action:
    """The heuristic nation's choice for the seat to move: the option (quantity actions over
    their whole range) whose result :func:`plan_value` rates best, a generation ahead, judged
    on a determinization (``state.determinize``: other hands and the decks dealt at random,
    so no hidden card is read); ties broken at random.

    It feeds its people first (buys renewable or raises the renewable plant when the next
    supply would fall short), educates when it can pay, sells what it will not eat,
    keeps its pollution under its share of the reserve and its unrest out of the uprising
    zone.
    """
    seat = state.current_player()
    actions = _candidates(state)
    if len(actions) == 1:
        return actions[0]
    root = state.determinize(seat, rng)
    best: list[Action] = []
    best_value = -float("inf")
    for action in actions:
        child = root.clone()
        try:
            child.apply(action)
        except IllegalActionError:  # legal for the seat, not in this deal: skip it
            continue
        value = _after(child, seat, True)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    if not best:
        return actions[rng.randrange(len(actions))]
    return best[rng.randrange(len(best))]
