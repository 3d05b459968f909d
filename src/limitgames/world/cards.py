"""The 37 politics cards: when each may be played, its cost and its effect (rulebook pp 25-30).

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
``gain``, ``produce``, ``recall``, ``give``, ``contribute``, plus the shared
``plant``, ``raise``, ``lower``, ``deck``/``keep``, ``trade``/``price``.

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

from limitgames.core import AmountForm
from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.data import PLANTS, RESOURCES
from limitgames.world.market import bounded_amounts, held, start_trading
from limitgames.world.nation import INDUSTRIAL, MILITARY, RENEWABLE, Nation
from limitgames.world.social import produce, recycle
from limitgames.world.state import (
    ACCEPT,
    FORMS,
    NATION_NAMES,
    OPTIONS,
    RESOLVE,
    STAR,
    Choice,
    WorldAction,
    WorldState,
)
from limitgames.world.tracks import plant_choice, sol_choice
from limitgames.world.words import phrase

CheckFn = Callable[[WorldState, Nation], bool]
ShortfallFn = Callable[[WorldState, Nation], str | None]
EffectFn = Callable[[WorldState, Nation], None]
TargetCheckFn = Callable[[WorldState, Nation, Nation], bool]
TargetEffectFn = Callable[[WorldState, Nation, Nation], None]

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


# --- playing -----------------------------------------------------------------------------
def play(state: WorldState, nation: Nation, card: str) -> None:
    """Play ``card`` (already checked by :func:`can_play`): pay its cost, apply or queue its effect."""
    info = state.data.cards[card]
    nation.hand.remove(card)
    (nation.permanent if info.permanent else nation.played).append(card)
    state.note(nation.seat, N_("plays %(card)s"), card=info.name)
    if card in TARGETED:
        state.push(Choice("target", nation.seat, (card,)))
        return
    EFFECTS[card](state, nation)


def _unrest_card(card: str) -> EffectFn:
    def effect(s: WorldState, n: Nation) -> None:
        s.change_unrest(n, _p(s, card, "unrest"), s.data.cards[card].name)

    return effect


def _money_unrest(card: str) -> EffectFn:
    def effect(s: WorldState, n: Nation) -> None:
        cost = _p(s, card, "money_per_pop") * _pop(s, n)
        _pay(s, n, cost)
        s.change_unrest(
            n,
            _p(s, card, "unrest"),
            phrase(N_("%(card)s (cost %(cost)d $)"), card=s.data.cards[card].name, cost=cost),
        )

    return effect


def _money_sol(card: str) -> EffectFn:
    def effect(s: WorldState, n: Nation) -> None:
        cost = _p(s, card, "money_per_pop") * _pop(s, n)
        _pay(s, n, cost)
        s.note(n.seat, N_("%(card)s: pay %(cost)d $"), card=s.data.cards[card].name, cost=cost)
        sol_choice(s, n, _p(s, card, "sol"), s.data.cards[card].name)

    return effect


def _unrest_cost_only(card: str) -> EffectFn:
    def effect(s: WorldState, n: Nation) -> None:
        s.change_unrest(
            n,
            _p(s, card, "unrest_cost"),
            phrase(N_("%(card)s (cost)"), card=s.data.cards[card].name),
        )

    return effect


def _indoctrination(s: WorldState, n: Nation) -> None:
    s.change_unrest(n, _p(s, "indoctrination", "unrest"), N_("Indoctrination"))
    sol_choice(s, n, -_p(s, "indoctrination", "sol_cost"), N_("Indoctrination (cost)"))


def _overconsumption(s: WorldState, n: Nation) -> None:
    cost = _p(s, "overconsumption", "industrial_per_pop") * _pop(s, n)
    n.stock[INDUSTRIAL] -= cost
    extra = recycle(s, n, cost)
    s.note(
        n.seat, N_("Overconsumption: spend %(cost)d industrial%(extra)s"), cost=cost, extra=extra
    )
    s.change_unrest(n, _p(s, "overconsumption", "unrest"), N_("Overconsumption"))


def _urbanization(s: WorldState, n: Nation) -> None:
    cost = _p(s, "urbanization", "industrial_per_pop") * _pop(s, n)
    n.stock[INDUSTRIAL] -= cost
    extra = recycle(s, n, cost)
    s.note(n.seat, N_("Urbanization: spend %(cost)d industrial%(extra)s"), cost=cost, extra=extra)
    sol_choice(s, n, _p(s, "urbanization", "sol"), N_("Urbanization"))


def _surcharge(s: WorldState, n: Nation) -> None:
    s.change_unrest(n, _p(s, "surcharge", "unrest_cost"), N_("Surcharge (cost)"))
    _bank_to_limit(s, _p(s, "surcharge", "bank_to_limit"))
    gain = _p(s, "surcharge", "money_per_pop") * _pop(s, n)
    s.pay_from_bank(n, gain)
    s.note(
        n.seat,
        N_("Surcharge: %(bank)d $ from the World Bank to the LIMIT box; +%(gain)d $"),
        bank=_p(s, "surcharge", "bank_to_limit"),
        gain=gain,
    )


def _political_reform(s: WorldState, n: Nation) -> None:
    _pay(s, n, _p(s, "political-reform", "money"))
    s.push(Choice("deck", n.seat, ("political_reform",)))


def _conscription(s: WorldState, n: Nation) -> None:
    s.change_unrest(n, _p(s, "conscription", "unrest_cost"), N_("Conscription (cost)"))
    gain = _pop(s, n, _p(s, "conscription", "military_pop_offset"))
    n.stock[MILITARY] += gain
    s.note(n.seat, N_("Conscription: +%(gain)d military"), gain=gain)


def _artificial_intelligence(s: WorldState, n: Nation) -> None:
    _pay(s, n, _p(s, "artificial-intelligence", "money"))
    s.push(Choice("recall", n.seat, ()))


def _plant_card(card: str) -> EffectFn:
    def effect(s: WorldState, n: Nation) -> None:
        s.push(Choice("upgrade", n.seat, (card,)))

    return effect


def _extraction(s: WorldState, n: Nation) -> None:
    _pay(s, n, _p(s, "extraction", "money"))
    s.gain_pollution(n, _p(s, "extraction", "pollution"))
    k = _p(s, "extraction", "fossil")
    n.fossil += k
    s.limit_box["fossil"] -= k
    s.note(
        n.seat,
        N_("Extraction: +%(fossil)d fossil from the LIMIT box, +%(pollution)d pollution"),
        fossil=k,
        pollution=_p(s, "extraction", "pollution"),
    )


def _overproduction(s: WorldState, n: Nation) -> None:
    s.change_unrest(n, _p(s, "overproduction", "unrest_cost"), N_("Overproduction (cost)"))
    s.push(Choice("produce", n.seat, ()))


def _craftsmanship(s: WorldState, n: Nation) -> None:
    _pay(s, n, _p(s, "craftsmanship", "money"))
    s.push(Choice("gain", n.seat, ()))


def _plant_cost_card(card: str) -> EffectFn:
    def effect(s: WorldState, n: Nation) -> None:
        old = n.plants[INDUSTRIAL]
        n.plants[INDUSTRIAL] -= _p(s, card, "industrial_levels")
        s.note(
            n.seat,
            N_("%(card)s (cost): industrial plant %(old)d -> %(new)d"),
            card=s.data.cards[card].name,
            old=old,
            new=n.plants[INDUSTRIAL],
        )

    return effect


def _intensive_farming(s: WorldState, n: Nation) -> None:
    cost = _p(s, "intensive-farming", "money_per_value") * s.data.level(n.plants[RENEWABLE])
    _pay(s, n, cost)
    s.note(n.seat, N_("Intensive Farming (cost): %(cost)d $"), cost=cost)


def _helped_card(card: str) -> EffectFn:
    def effect(s: WorldState, n: Nation) -> None:
        helpers = tuple(x for x in s.turn_order() if x != n.seat and s.nations[x].money > 0)
        _next_contribution(s, card, n.seat, helpers, ())

    return effect


def _market_access(s: WorldState, n: Nation) -> None:
    start_trading(s, n)


def _speculation(s: WorldState, n: Nation) -> None:
    _bank_to_limit(s, _p(s, "speculation", "bank_to_limit"))
    _pay(s, n, _p(s, "speculation", "money_to_limit"), to_limit=True)
    s.note(
        n.seat,
        N_(
            "Speculation (cost): %(bank)d $ from the World Bank and %(own)d $ of yours to the LIMIT box"
        ),
        bank=_p(s, "speculation", "bank_to_limit"),
        own=_p(s, "speculation", "money_to_limit"),
    )
    start_trading(s, n)
    s.push(Choice("price", n.seat, ()))


def _stock_exchange(s: WorldState, n: Nation) -> None:
    _pay(s, n, _p(s, "stock-exchange", "money_to_limit"), to_limit=True)
    s.note(
        n.seat,
        N_("Stock Exchange (cost): %(own)d $ to the LIMIT box"),
        own=_p(s, "stock-exchange", "money_to_limit"),
    )


def _colonization(s: WorldState, n: Nation) -> None:
    n.stock[MILITARY] -= _p(s, "colonization", "military")
    s.gain_disruption(n, _p(s, "colonization", "disruption"))
    t = min(_p(s, "colonization", "territory"), s.colonization[0])
    f = min(_p(s, "colonization", "fossil"), s.colonization[1])
    s.colonization[0] -= t
    s.colonization[1] -= f
    n.territory += t
    n.fossil += f
    s.note(
        n.seat,
        N_(
            "Colonization: spend %(military)d military, +%(disruption)d disruption; "
            "+%(territory)d territory, +%(fossil)d fossil"
        ),
        military=_p(s, "colonization", "military"),
        disruption=_p(s, "colonization", "disruption"),
        territory=t,
        fossil=f,
    )


def _police_repression(s: WorldState, n: Nation) -> None:
    cost = _pop(s, n, _p(s, "police-repression", "military_pop_offset"))
    n.stock[MILITARY] -= cost
    s.gain_disruption(n, _p(s, "police-repression", "disruption"))
    s.note(
        n.seat,
        N_("Police Repression (cost): %(military)d military, +%(disruption)d disruption"),
        military=cost,
        disruption=_p(s, "police-repression", "disruption"),
    )
    s.change_unrest(n, _p(s, "police-repression", "unrest"), N_("Police Repression"))


EFFECTS: dict[str, EffectFn] = {
    "public-expenditure": _money_unrest("public-expenditure"),
    "education": _money_sol("education"),
    "investment-policy": _money_unrest("investment-policy"),
    "graduate-studies": _money_sol("graduate-studies"),
    "indoctrination": _indoctrination,
    "vegetarianism": _unrest_cost_only("vegetarianism"),
    "overconsumption": _overconsumption,
    "sustainable-consumption": _unrest_cost_only("sustainable-consumption"),
    "surcharge": _surcharge,
    "political-reform": _political_reform,
    "conscription": _conscription,
    "artificial-intelligence": _artificial_intelligence,
    "industrialization": _plant_card("industrialization"),
    "robotization": _plant_card("robotization"),
    "policy-planning": _unrest_cost_only("policy-planning"),
    "extraction": _extraction,
    "urbanization": _urbanization,
    "overproduction": _overproduction,
    "craftsmanship": _craftsmanship,
    "recycling": _plant_cost_card("recycling"),
    "green-production": _plant_cost_card("green-production"),
    "intensive-farming": _intensive_farming,
    "cleaning-the-planet": _helped_card("cleaning-the-planet"),
    "humanitarian-aid": _helped_card("humanitarian-aid"),
    "market-access": _market_access,
    "speculation": _speculation,
    "stock-exchange": _stock_exchange,
    "colonization": _colonization,
    "police-repression": _police_repression,
}


# --- choices of card effects ----------------------------------------------------------------
def _upgrade_options(s: WorldState, c: Choice) -> list[WorldAction]:
    return [("plant", name) for name in _plant_upgrades(s, s.nations[c.seat], c.args[0])]


def _upgrade_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    n = s.nations[c.seat]
    card = c.args[0]
    i = PLANTS.index(action[1])
    old = n.plants[i]
    cost = s.data.level(old)
    _pay(s, n, cost)
    n.move_plant(i, _p(s, card, "levels"), s.data.production_positions)
    s.note(
        c.seat,
        N_("%(card)s: pay %(cost)d $, %(plant)s plant %(old)d -> %(new)d"),
        card=s.data.cards[card].name,
        cost=cost,
        plant=action[1],
        old=old,
        new=n.plants[i],
    )


def _recall_options(s: WorldState, c: Choice) -> list[WorldAction]:
    n = s.nations[c.seat]
    return [
        ("recall", card)
        for card in dict.fromkeys(n.played)
        if not s.data.cards[card].permanent and card != "artificial-intelligence"
    ]


def _recall_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    n = s.nations[c.seat]
    n.played.remove(action[1])
    n.hand.append(action[1])
    s.note(
        c.seat,
        N_("Artificial Intelligence: %(card)s back to the hand"),
        card=s.data.cards[action[1]].name,
    )


def _produce_options(s: WorldState, c: Choice) -> list[WorldAction]:
    return [("produce", name) for name in _overproduction_plants(s, s.nations[c.seat])]


def _produce_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    produce(s, s.nations[c.seat], PLANTS.index(action[1]), N_("Overproduction"))


def _gain_options(s: WorldState, c: Choice) -> list[WorldAction]:
    return [("gain", name) for name in PLANTS]


def _gain_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    k = _p(s, "craftsmanship", "resources")
    s.nations[c.seat].stock[PLANTS.index(action[1])] += k
    s.note(c.seat, N_("Craftsmanship: +%(count)d %(resource)s"), count=k, resource=action[1])


# contributions (Cleaning the Planet, Humanitarian Aid)
def _next_contribution(
    s: WorldState,
    card: str,
    player: int,
    helpers: tuple[int, ...],
    pledges: tuple[tuple[int, int], ...],
) -> None:
    if helpers:
        s.push(Choice("contribute", helpers[0], (card, player, helpers[1:], pledges)))
        return
    need = _p(s, card, "money")
    pledged = sum(a for _, a in pledges)
    rest = max(0, need - pledged)
    n = s.nations[player]
    name = s.data.cards[card].name
    if n.money < rest:
        s.note(
            player,
            N_(
                "%(card)s: %(pledged)d $ pledged, %(rest)d $ needed but only %(held)d $ held; no effect"
            ),
            card=name,
            pledged=pledged,
            rest=rest,
            held=n.money,
        )
        return
    for seat, amount in pledges:
        _pay(s, s.nations[seat], amount)
    _pay(s, n, rest)
    helped = ", ".join(f"{NATION_NAMES[x]} {a} $" for x, a in pledges if a)
    if helped:
        s.note(
            player,
            N_("%(card)s: pays %(rest)d $ (helped by %(helpers)s)"),
            card=name,
            rest=rest,
            helpers=helped,
        )
    else:
        s.note(player, N_("%(card)s: pays %(rest)d $"), card=name, rest=rest)
    if card == "cleaning-the-planet":
        first = s.return_pollution(n, _p(s, card, "pollution_first"))
        parts = [f"{NATION_NAMES[player]} {first}"]
        for seat in s.turn_order():
            k = s.return_pollution(s.nations[seat], _p(s, card, "pollution_each"))
            parts.append(f"{NATION_NAMES[seat]} {k}")
        s.note(
            player, N_("Cleaning the Planet: pollution returned: %(parts)s"), parts=", ".join(parts)
        )
    else:
        first = s.return_disruption(n, _p(s, card, "disruption_first"))
        parts = [f"{NATION_NAMES[player]} {first}"]
        for seat in s.turn_order():
            k = s.return_disruption(s.nations[seat], _p(s, card, "disruption_each"))
            parts.append(f"{NATION_NAMES[seat]} {k}")
        s.note(
            player, N_("Humanitarian Aid: disruption returned: %(parts)s"), parts=", ".join(parts)
        )


def _contribute_max(s: WorldState, c: Choice) -> int:
    card, _player, _helpers, pledges = c.args
    need: int = _p(s, card, "money") - sum(int(a) for _, a in pledges)
    return max(0, min(s.nations[c.seat].money, need))


def _contribute_options(s: WorldState, c: Choice) -> list[WorldAction]:
    return [("contribute", 0)] + [
        ("contribute", a) for a in bounded_amounts(1, _contribute_max(s, c))
    ]


def _contribute_forms(s: WorldState, c: Choice) -> list[AmountForm]:
    return [AmountForm("contribute", ("contribute",), (), 0, _contribute_max(s, c), "contribute N")]


def _contribute_accept(s: WorldState, c: Choice, action: WorldAction) -> str | None:
    if len(action) != 2 or action[0] != "contribute" or type(action[1]) is not int:
        return _("write 'contribute N'")
    top = _contribute_max(s, c)
    if not 0 <= action[1] <= top:
        return _("a contribution is 0..%(top)d $") % {"top": top}
    return None


def _contribute_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    card, player, helpers, pledges = c.args
    if action[1]:
        s.note(
            c.seat,
            N_("pledges %(amount)d $ to %(card)s"),
            amount=action[1],
            card=s.data.cards[card].name,
        )
    _next_contribution(s, card, player, helpers, (*pledges, (c.seat, action[1])))


# targets and wars
def _target_options(s: WorldState, c: Choice) -> list[WorldAction]:
    attacker = s.nations[c.seat]
    if s.solo:
        return [("target", "star")] if _star_ok(s, c.args[0], attacker) else []
    return [
        ("target", NATION_NAMES[t.seat]) for t in s.nations if _target_ok(s, c.args[0], attacker, t)
    ]


def _target_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    card = c.args[0]
    a = s.nations[c.seat]
    if action[1] == "star":
        s.note(c.seat, N_("%(card)s targets the star nation"), card=s.data.cards[card].name)
        if card in WARS:
            s.push(Choice("spend", c.seat, (card, STAR)))
            return
        from limitgames.world.solo import star_effect

        star_effect(s, card, a)
        return
    t = s.nations[NATION_NAMES.index(action[1])]
    if t.passed:
        t.passed = False
        s.note(t.seat, N_("targeted by %(card)s: may play again"), card=s.data.cards[card].name)
    s.note(
        c.seat, N_("%(card)s targets %(nation)s"), card=s.data.cards[card].name, nation=action[1]
    )
    if card in WARS:
        s.push(Choice("spend", c.seat, (card, t.seat)))
        return
    TARGET_EFFECTS[card](s, a, t)


def _spend_range(s: WorldState, c: Choice) -> tuple[int, int]:
    return _p(s, c.args[0], "military_min"), s.nations[c.seat].stock[MILITARY]


def _spend_options(s: WorldState, c: Choice) -> list[WorldAction]:
    lo, hi = _spend_range(s, c)
    amounts = set(bounded_amounts(lo, hi))
    target_military = _military_of(s, c.args[1])
    amounts |= {x for x in (target_military, target_military + 1) if lo <= x <= hi}
    return [("spend", x) for x in sorted(amounts)]


def _spend_forms(s: WorldState, c: Choice) -> list[AmountForm]:
    lo, hi = _spend_range(s, c)
    return [AmountForm("spend", ("spend",), (), lo, hi, "spend N")] if lo <= hi else []


def _spend_accept(s: WorldState, c: Choice, action: WorldAction) -> str | None:
    if len(action) != 2 or action[0] != "spend" or type(action[1]) is not int:
        return _("write 'spend N' (military)")
    lo, hi = _spend_range(s, c)
    if not lo <= action[1] <= hi:
        return _("spend between %(lo)d and %(hi)d military") % {"lo": lo, "hi": hi}
    return None


def _spend_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    card, target = c.args
    a = s.nations[c.seat]
    amount = action[1]
    a.stock[MILITARY] -= amount
    d = _p(s, card, "disruption")
    s.gain_disruption(a, d)
    s.note(
        c.seat,
        N_("%(card)s: spends %(amount)d military, +%(disruption)d disruption"),
        card=s.data.cards[card].name,
        amount=amount,
        disruption=d,
    )
    if target == STAR:
        from limitgames.world.solo import star_war

        star_war(s, card, a, amount)
        return
    s.push(Choice("resist", target, (card, c.seat, amount)))


def _military_of(s: WorldState, seat: int) -> int:
    """The military a target holds (the star nation: its value of the generation)."""
    if seat == STAR:
        from limitgames.world.solo import star_values

        return star_values(s)["military"]
    return s.nations[seat].stock[MILITARY]


def _resist_options(s: WorldState, c: Choice) -> list[WorldAction]:
    """Resist (spend as much military as the attacker), yield, or, with military allies and
    too little military, ask them first (p22; once per attack: ``args[3]``)."""
    from limitgames.world.alliances import resist_help

    out: list[WorldAction] = []
    if s.nations[c.seat].stock[MILITARY] >= c.args[2]:
        out.append(("resist",))
    elif len(c.args) < 4 and resist_help(s, c.seat, c.args[2]):
        out.append(("ask",))
    out.append(("yield",))
    return out


def _resist_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    card, attacker, amount = c.args[:3]
    t = s.nations[c.seat]
    a = s.nations[attacker]
    name = s.data.cards[card].name
    if action[0] == "ask":
        from limitgames.world.alliances import resist_help, start_asking

        again = Choice("resist", c.seat, (card, attacker, amount, True))
        start_asking(s, c.seat, "military", resist_help(s, c.seat, amount), again)
        return
    if action[0] == "resist":
        t.stock[MILITARY] -= amount
        s.note(
            c.seat,
            N_("resists %(card)s: spends %(amount)d military; no effect"),
            card=name,
            amount=amount,
        )
        return
    s.note(c.seat, N_("does not resist %(card)s"), card=name)
    if card == "military-operation":
        s.push(Choice("take", attacker, (t.seat,)))
        return
    lost = min(_p(s, card, "territory"), t.territory)
    t.territory -= lost
    if card == "annexation-of-territory":
        a.territory += lost
        where: str = phrase(N_("to %(nation)s"), nation=NATION_NAMES[attacker])
    else:
        s.limit_box["territory"] += lost
        where = N_("to the LIMIT box")
    drop = t.cap_renewable()
    text: str = phrase(
        N_("%(card)s: loses %(lost)d territory %(where)s"), card=name, lost=lost, where=where
    )
    if drop:
        text += phrase(N_(", renewable plant -%(drop)d (above the territory)"), drop=drop)
    if card == "mass-destruction":
        k = _p(s, card, "pollution")
        s.gain_pollution(t, k)
        text += phrase(N_(", +%(pollution)d pollution"), pollution=k)
    s.note(c.seat, text)
    plants = PLANTS if s.data.readings["war_plants"] == "any" else ("industrial", "military")
    plant_choice(s, t, _p(s, card, "production_levels"), -1, plants, name, decider=attacker)


def _take_options(s: WorldState, c: Choice) -> list[WorldAction]:
    """Military Operation: the resources of the reading ``military_operation_takes`` the
    target holds (it takes up to the amount: "a maximum of")."""
    if c.args[0] == STAR:  # the star nation holds fossil as tokens; the rest are values
        star = s.star
        assert star is not None
        return [
            ("take", what)
            for what, _ in s.data.military_operation_takes
            if what == "fossil" and star.fossil > 0
        ]
    t = s.nations[c.args[0]]
    return [
        ("take", what)
        for what, _ in s.data.military_operation_takes
        if held(t, RESOURCES.index(what)) > 0
    ]


def _take_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    a = s.nations[c.seat]
    what = action[1]
    top = dict(s.data.military_operation_takes)[what]
    if c.args[0] == STAR:
        star = s.star
        assert star is not None
        k = min(top, star.fossil)
        star.fossil -= k
        a.fossil += k
        s.note(
            c.seat, N_("Military Operation: takes %(count)d fossil from the star nation"), count=k
        )
        return
    t = s.nations[c.args[0]]
    r = RESOURCES.index(what)
    k = min(top, held(t, r))
    if what == "fossil":
        t.fossil -= k
        a.fossil += k
    else:
        t.stock[r] -= k
        a.stock[r] += k
    s.note(
        c.seat,
        N_("Military Operation: takes %(count)d %(resource)s from %(nation)s"),
        count=k,
        resource=what,
        nation=NATION_NAMES[t.seat],
    )


def _offshore(s: WorldState, a: Nation, t: Nation) -> None:
    pos = t.plants[INDUSTRIAL]
    value = s.data.level(pos)
    a.money -= value
    t.money += value
    _bank_to_limit(s, _p(s, "offshore-production", "bank_to_limit"))
    fossil = s.data.fossil_cost[pos - 1]
    pollution = s.data.pollution[pos - 1]
    a.fossil -= fossil
    s.limit_box["fossil"] += fossil
    a.stock[INDUSTRIAL] += value
    s.gain_pollution(t, pollution)
    s.note(
        a.seat,
        N_(
            "Offshore Production: pays %(value)d $ to %(nation)s, %(bank)d $ World Bank -> LIMIT "
            "box; +%(value)d industrial, fossil -%(fossil)d; %(nation)s +%(pollution)d pollution"
        ),
        value=value,
        nation=NATION_NAMES[t.seat],
        bank=_p(s, "offshore-production", "bank_to_limit"),
        fossil=fossil,
        pollution=pollution,
    )


def _soft_power(s: WorldState, a: Nation, t: Nation) -> None:
    _pay(s, a, _p(s, "soft-power", "money"))
    s.note(a.seat, N_("Soft Power (cost): %(cost)d $"), cost=_p(s, "soft-power", "money"))
    s.push(Choice("give", a.seat, (t.seat,)))


def _give_options(s: WorldState, c: Choice) -> list[WorldAction]:
    top = min(_p(s, "soft-power", "pollution"), s.nations[c.seat].pollution)
    return [("give", k) for k in range(1, top + 1)]


def _give_forms(s: WorldState, c: Choice) -> list[AmountForm]:
    top = min(_p(s, "soft-power", "pollution"), s.nations[c.seat].pollution)
    return [AmountForm("give", ("give",), (), 1, top, "give N")] if top >= 1 else []


def _give_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    a = s.nations[c.seat]
    if c.args[0] == STAR:
        star = s.star
        assert star is not None
        a.pollution -= action[1]
        star.pollution += action[1]
        s.note(
            c.seat, N_("Soft Power: gives %(count)d pollution to the star nation"), count=action[1]
        )
        return
    t = s.nations[c.args[0]]
    a.pollution -= action[1]
    t.pollution += action[1]
    s.note(
        c.seat,
        N_("Soft Power: gives %(count)d pollution to %(nation)s"),
        count=action[1],
        nation=NATION_NAMES[t.seat],
    )


def _interference(s: WorldState, a: Nation, t: Nation) -> None:
    _bank_to_limit(s, _p(s, "political-interference", "bank_to_limit"))
    due = (
        t.population
        if s.data.readings["interference_takes"] == "population-position"
        else s.population_value(t)
    )
    take = min(t.money, due)
    t.money -= take
    a.money += take
    s.note(
        a.seat,
        N_("Political Interference: takes %(money)d $ from %(nation)s"),
        money=take,
        nation=NATION_NAMES[t.seat],
    )
    s.push(
        Choice(
            "raise",
            a.seat,
            (_p(s, "political-interference", "sol"), t.seat, N_("Political Interference")),
        )
    )


def _tourism(s: WorldState, a: Nation, t: Nation) -> None:
    _bank_to_limit(s, _p(s, "development-of-tourism", "bank_to_limit"))
    due = (t.sol[2] - 1) * _p(s, "development-of-tourism", "money_per_sol")
    take = min(due, t.money)
    t.money -= take
    a.money += take
    s.note(
        a.seat,
        N_("Development of Tourism: takes %(money)d $ from %(nation)s"),
        money=take,
        nation=NATION_NAMES[t.seat],
    )
    k = _p(s, "development-of-tourism", "unrest")
    if s.data.readings["tourism_reduces"] == "sol":
        sol_choice(s, t, -abs(k), N_("Development of Tourism"))
    else:
        s.change_unrest(t, k, N_("Development of Tourism"))


def _terrorism(s: WorldState, a: Nation, t: Nation) -> None:
    a.stock[MILITARY] -= _p(s, "terrorism", "military")
    s.gain_disruption(a, _p(s, "terrorism", "disruption"))
    s.note(
        a.seat,
        N_("Terrorism (cost): %(military)d military, +%(disruption)d disruption"),
        military=_p(s, "terrorism", "military"),
        disruption=_p(s, "terrorism", "disruption"),
    )
    s.change_unrest(t, _p(s, "terrorism", "unrest"), N_("Terrorism"))


TARGET_EFFECTS: dict[str, TargetEffectFn] = {
    "offshore-production": _offshore,
    "soft-power": _soft_power,
    "political-interference": _interference,
    "development-of-tourism": _tourism,
    "terrorism": _terrorism,
}

OPTIONS.update(
    {
        "upgrade": _upgrade_options,
        "recall": _recall_options,
        "produce": _produce_options,
        "gain": _gain_options,
        "contribute": _contribute_options,
        "target": _target_options,
        "spend": _spend_options,
        "resist": _resist_options,
        "take": _take_options,
        "give": _give_options,
    }
)
RESOLVE.update(
    {
        "upgrade": _upgrade_resolve,
        "recall": _recall_resolve,
        "produce": _produce_resolve,
        "gain": _gain_resolve,
        "contribute": _contribute_resolve,
        "target": _target_resolve,
        "spend": _spend_resolve,
        "resist": _resist_resolve,
        "take": _take_resolve,
        "give": _give_resolve,
    }
)
ACCEPT.update({"spend": _spend_accept, "contribute": _contribute_accept})
FORMS.update({"spend": _spend_forms, "contribute": _contribute_forms, "give": _give_forms})
