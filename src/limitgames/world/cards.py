"""The 37 politics cards: when each may be played and its cost (rulebook pp 25-30).

General rules (p13): a card may be played only if its full cost can be paid
(:data:`COSTS`); a cost in social unrest may not push the cube past its last
position (costs are paid "without receiving disruption"); a cost taken from
the World Bank needs that money in the Bank; money costs go to the World Bank
unless the card names the LIMIT box. "Card effects must always be fully
realized": :func:`effect_shortfall` is the one place that says whether a
card's effect on the player's own nation can happen in full (room on the
unrest track, in the classes, on a plant; a card, a plant's fossil, something
on the colonization reserve to take); with the reading ``full_effect =
"partial"`` it is not asked and the effect goes as far as it can. Effects on
other nations and on reserves go as far as they can, as the cards' own "up
to" and "if there are any" say. A nation targeted by another's card plays
again in the decide-policy step even if it had passed.

Decisions inside a card (plant, class, target, military spent, resist,
transaction, ...) are choices: ``target``, ``spend``, ``resist``, ``take``,
``give`` (:mod:`limitgames.world.wars`), ``gain``, ``produce``, ``recall``,
``contribute`` (:mod:`limitgames.world.card_effects`, with ``play`` and the
effects), plus the shared ``plant``, ``raise``, ``lower`` (``tracks``),
``deck``/``keep``, ``trade``/``price``.

Decisions of this project where the rulebook is silent (see docs/world.md):
Offshore Production may only target a nation whose production the player can
fuel; Indoctrination needs a class that can fall (its cost); if the helpers
of Cleaning the Planet / Humanitarian Aid pledge too little for the player to
pay the rest, nothing is paid and the card has no effect. The readings of
lost icons (Military Operation's resources, the plants a war hits, what
Development of Tourism reduces, what Political Interference takes) are the
data's ``[readings]``.
"""

from __future__ import annotations

from collections.abc import Callable

from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.data import PLANTS
from limitgames.world.nation import INDUSTRIAL, MILITARY, RENEWABLE, Nation
from limitgames.world.state import (
    WorldState,
)
from limitgames.world.words import phrase

CheckFn = Callable[[WorldState, Nation], bool]
ShortfallFn = Callable[[WorldState, Nation], str | None]
TargetCheckFn = Callable[[WorldState, Nation, Nation], bool]

WARS = ("mass-destruction", "annexation-of-territory", "military-operation")
"""Cards the target may resist by spending as much military as the attacker."""


def _p(state: WorldState, card: str, key: str) -> int:
    return int(state.data.cards[card].params[key])


def _pop(state: WorldState, nation: Nation, offset: int = 0) -> int:
    return state.population_value(nation, offset)


def unrest_ok(state: WorldState, nation: Nation, k: int) -> bool:
    """Whether a social-unrest cost of ``k`` can be paid without disruption."""
    return nation.unrest + k <= state.data.unrest_positions


def _pay(state: WorldState, nation: Nation, amount: int, to_limit: bool = False) -> None:
    nation.money -= amount
    if to_limit:
        state.limit_box["money"] += amount
    else:
        state.world_bank += amount


def _bank_to_limit(state: WorldState, amount: int) -> None:
    state.world_bank -= amount
    state.limit_box["money"] += amount


def full_effect_required(state: WorldState) -> bool:
    """Whether a card needs its whole effect to be possible (reading ``full_effect``)."""
    return bool(state.data.readings["full_effect"] == "refuse")


def _plant_upgrades(state: WorldState, nation: Nation, card: str) -> list[str]:
    """The plants ``card`` may raise: the player pays for it, and it has room for all the
    card's levels (one level if the full effect is not required)."""
    allowed = PLANTS if card == "industrialization" else ("renewable", "industrial")
    positions = state.data.production_positions
    room = _p(state, card, "levels") if full_effect_required(state) else 1
    out = []
    for name in allowed:
        i = PLANTS.index(name)
        cost = state.data.level(nation.plants[i])
        if nation.plants[i] + room <= nation.plant_cap(i, positions) and nation.money >= cost:
            out.append(name)
    return out


def _plant_payable(state: WorldState, nation: Nation, card: str) -> bool:
    """The cost of a plant card: a plant it names whose current value the player can pay."""
    allowed = PLANTS if card == "industrialization" else ("renewable", "industrial")
    return any(nation.money >= state.data.level(nation.plants[PLANTS.index(p)]) for p in allowed)


def _overproduction_plants(state: WorldState, nation: Nation) -> list[str]:
    return [
        PLANTS[i]
        for i in (INDUSTRIAL, MILITARY)
        if nation.fossil >= state.data.fossil_cost[nation.plants[i] - 1]
    ]


# --- costs (can the full cost be paid now?) -------------------------------------------------
def _money_per_pop(card: str) -> CheckFn:
    return lambda s, n: n.money >= _p(s, card, "money_per_pop") * _pop(s, n)


def _unrest_cost(card: str) -> CheckFn:
    return lambda s, n: unrest_ok(s, n, _p(s, card, "unrest_cost"))


COSTS: dict[str, CheckFn] = {
    "public-expenditure": _money_per_pop("public-expenditure"),
    "education": _money_per_pop("education"),
    "investment-policy": _money_per_pop("investment-policy"),
    "graduate-studies": _money_per_pop("graduate-studies"),
    "indoctrination": lambda s, n: bool(n.lowerable()),
    "vegetarianism": _unrest_cost("vegetarianism"),
    "overconsumption": lambda s, n: (
        n.stock[INDUSTRIAL] >= _p(s, "overconsumption", "industrial_per_pop") * _pop(s, n)
    ),
    "sustainable-consumption": _unrest_cost("sustainable-consumption"),
    "surcharge": lambda s, n: (
        unrest_ok(s, n, _p(s, "surcharge", "unrest_cost"))
        and s.world_bank >= _p(s, "surcharge", "bank_to_limit")
    ),
    "political-reform": lambda s, n: n.money >= _p(s, "political-reform", "money"),
    "conscription": _unrest_cost("conscription"),
    "artificial-intelligence": lambda s, n: n.money >= _p(s, "artificial-intelligence", "money"),
    "industrialization": lambda s, n: _plant_payable(s, n, "industrialization"),
    "robotization": lambda s, n: _plant_payable(s, n, "robotization"),
    "policy-planning": _unrest_cost("policy-planning"),
    "extraction": lambda s, n: n.money >= _p(s, "extraction", "money"),
    "urbanization": lambda s, n: (
        n.stock[INDUSTRIAL] >= _p(s, "urbanization", "industrial_per_pop") * _pop(s, n)
    ),
    "overproduction": _unrest_cost("overproduction"),
    "craftsmanship": lambda s, n: n.money >= _p(s, "craftsmanship", "money"),
    "recycling": lambda s, n: n.plants[INDUSTRIAL] > _p(s, "recycling", "industrial_levels"),
    "green-production": lambda s, n: (
        n.plants[INDUSTRIAL] > _p(s, "green-production", "industrial_levels")
    ),
    "intensive-farming": lambda s, n: (
        n.money >= _p(s, "intensive-farming", "money_per_value") * s.data.level(n.plants[RENEWABLE])
    ),
    "cleaning-the-planet": lambda s, n: (
        sum(m.money for m in s.nations) >= _p(s, "cleaning-the-planet", "money")
    ),
    "humanitarian-aid": lambda s, n: (
        sum(m.money for m in s.nations) >= _p(s, "humanitarian-aid", "money")
    ),
    "market-access": lambda s, n: True,
    "speculation": lambda s, n: (
        s.world_bank >= _p(s, "speculation", "bank_to_limit")
        and n.money >= _p(s, "speculation", "money_to_limit")
    ),
    "stock-exchange": lambda s, n: n.money >= _p(s, "stock-exchange", "money_to_limit"),
    "colonization": lambda s, n: n.stock[MILITARY] >= _p(s, "colonization", "military"),
    "police-repression": lambda s, n: (
        n.stock[MILITARY] >= _pop(s, n, _p(s, "police-repression", "military_pop_offset"))
    ),
}
"""card -> whether its full cost can be paid now (p13); targeted cards add a target check."""


def _sol_room(n: Nation, sol_max: int) -> int:
    """How many standard-of-living steps the classes can still take in all (each up to the top;
    the order rule only fixes which class rises first)."""
    return sum(sol_max - x for x in n.sol)


def _unrest_room(card: str, key: str = "unrest") -> ShortfallFn:
    """A decrease of social unrest by the card's ``key``: the cube must have room to move it all."""

    def shortfall(s: WorldState, n: Nation) -> str | None:
        k = -_p(s, card, key)
        if n.unrest - k < 1:
            return _("social unrest is %(unrest)d: it cannot decrease by %(count)d") % {
                "unrest": n.unrest,
                "count": k,
            }
        return None

    return shortfall


def _sol_rise(card: str, key: str = "sol") -> ShortfallFn:
    def shortfall(s: WorldState, n: Nation) -> str | None:
        k = _p(s, card, key)
        room = _sol_room(n, s.data.sol_max)
        if room < k:
            return _("the classes can rise %(room)d step(s) in all, not %(count)d") % {
                "room": room,
                "count": k,
            }
        return None

    return shortfall


def _plant_room(card: str) -> ShortfallFn:
    def shortfall(s: WorldState, n: Nation) -> str | None:
        if _plant_upgrades(s, n, card):
            return None
        k = _p(s, card, "levels")
        return _("no plant you can pay for has room to rise %(count)d level(s)") % {"count": k}

    return shortfall


EFFECT_NEEDS: dict[str, ShortfallFn] = {
    "public-expenditure": _unrest_room("public-expenditure"),
    "education": _sol_rise("education"),
    "investment-policy": _unrest_room("investment-policy"),
    "graduate-studies": _sol_rise("graduate-studies"),
    "indoctrination": _unrest_room("indoctrination"),
    "overconsumption": _unrest_room("overconsumption"),
    "political-reform": lambda s, n: None if any(n.decks.values()) else _("every deck is empty"),
    "artificial-intelligence": lambda s, n: (
        None
        if any(not s.data.cards[c].permanent and c != "artificial-intelligence" for c in n.played)
        else _("no instant card played this generation to take back")
    ),
    "industrialization": _plant_room("industrialization"),
    "robotization": _plant_room("robotization"),
    "urbanization": _sol_rise("urbanization"),
    "overproduction": lambda s, n: (
        None
        if _overproduction_plants(s, n)
        else _("not enough fossil for the industrial or the military plant to produce")
    ),
    "colonization": lambda s, n: (
        None if any(s.colonization) else _("nothing is left on the colonization reserve")
    ),
    "police-repression": _unrest_room("police-repression"),
}
"""card -> why its effect on the player's own nation could not happen in full now (``None``: it
can). Cards not listed always can: gains, permanent effects, and effects on others or on
reserves (which go as far as they can)."""


def effect_shortfall(state: WorldState, nation: Nation, card: str) -> str | None:
    """Why ``card``'s effect could not be fully realized now, or ``None`` (rulebook p13: "Card
    effects must always be fully realized"). Always ``None`` under the reading
    ``full_effect = "partial"``, except where nothing at all could happen (no deck to draw
    from, no card to take back, no plant to raise, no fossil to produce, an empty
    colonization reserve)."""
    need = EFFECT_NEEDS.get(card)
    if need is None:
        return None
    if not full_effect_required(state) and card not in _NOTHING_WITHOUT:
        return None
    return need(state, nation)


_NOTHING_WITHOUT = (
    "political-reform",
    "artificial-intelligence",
    "industrialization",
    "robotization",
    "overproduction",
    "colonization",
)


def _target_ok(state: WorldState, card: str, attacker: Nation, target: Nation) -> bool:
    if target is attacker:
        return False
    if card == "offshore-production":
        pos = target.plants[INDUSTRIAL]
        return (
            attacker.money >= state.data.level(pos)
            and attacker.fossil >= state.data.fossil_cost[pos - 1]
            and state.world_bank >= _p(state, card, "bank_to_limit")
        )
    return True


def _star_ok(state: WorldState, card: str, attacker: Nation) -> bool:
    """Solo mode: whether ``card`` may target the star nation (Offshore Production: you can pay
    its industrial value and fuel that production)."""
    if card != "offshore-production":
        return True
    from limitgames.world.solo import star_offshore_cost

    value, fossil, _pollution = star_offshore_cost(state)
    return (
        attacker.money >= value
        and attacker.fossil >= fossil
        and state.world_bank >= _p(state, card, "bank_to_limit")
    )


def _targeted_check(card: str) -> CheckFn:
    def check(s: WorldState, n: Nation) -> bool:
        if card in WARS and n.stock[MILITARY] < _p(s, card, "military_min"):
            return False
        if card == "terrorism" and n.stock[MILITARY] < _p(s, card, "military"):
            return False
        if card in ("political-interference", "development-of-tourism") and s.world_bank < _p(
            s, card, "bank_to_limit"
        ):
            return False
        if card == "soft-power" and n.money < _p(s, card, "money"):
            return False
        if s.solo:
            return _star_ok(s, card, n)
        return any(_target_ok(s, card, n, t) for t in s.nations)

    return check


TARGETED = (
    "offshore-production",
    "soft-power",
    "political-interference",
    "development-of-tourism",
    "terrorism",
    *WARS,
)
for _card in TARGETED:
    COSTS[_card] = _targeted_check(_card)


def can_play(state: WorldState, nation: Nation, card: str) -> bool:
    """Whether ``nation`` may play ``card`` now: it holds it, can pay the full cost, and the
    effect can be fully realized (:func:`effect_shortfall`)."""
    return (
        card in nation.hand
        and COSTS[card](state, nation)
        and effect_shortfall(state, nation, card) is None
    )


def why_not_playable(state: WorldState, nation: Nation, card: str) -> str:
    """Why ``nation`` may not play ``card`` now, in one line (for a refused ``play``)."""
    name = _(state.data.cards[card].name)
    if card not in nation.hand:
        return _("%(card)s is not in your hand") % {"card": name}
    if not COSTS[card](state, nation):
        return _("%(card)s: its full cost cannot be paid (%(cost)s)") % {
            "card": name,
            "cost": _(state.data.cards[card].cost),
        }
    short = effect_shortfall(state, nation, card)
    if short is not None:
        return _("%(card)s: its effect cannot be fully realized (%(why)s)") % {
            "card": name,
            "why": short,
        }
    return _("%(card)s cannot be played now") % {"card": name}


def can_withdraw(state: WorldState, nation: Nation, card: str) -> bool:
    """Whether Policy Planning / Intensive Farming can be taken back now."""
    if card not in nation.permanent:
        return False
    if card == "policy-planning":
        return unrest_ok(state, nation, _p(state, card, "withdraw_unrest"))
    return card == "intensive-farming"


def withdraw(state: WorldState, nation: Nation, card: str, forced: bool = False) -> None:
    """Take back Policy Planning (unrest +2) or Intensive Farming (renewable -1 level, none at the
    minimum) to the bottom of its deck (rulebook p28)."""
    nation.permanent.remove(card)
    nation.decks[state.data.cards[card].deck].append(card)
    name = state.data.cards[card].name
    if card == "policy-planning":
        state.change_unrest(
            nation,
            _p(state, card, "withdraw_unrest"),
            phrase(N_("%(card)s taken back"), card=name),
        )
        return
    old = nation.plants[RENEWABLE]
    nation.plants[RENEWABLE] = max(1, old - _p(state, card, "withdraw_levels"))
    if forced:
        template = N_("%(card)s taken back (not enough fossil): renewable plant %(old)d -> %(new)d")
    else:
        template = N_("%(card)s taken back: renewable plant %(old)d -> %(new)d")
    state.note(nation.seat, template, card=name, old=old, new=nation.plants[RENEWABLE])
