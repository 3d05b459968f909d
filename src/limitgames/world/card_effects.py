"""Playing a politics card and its effect on the player's own nation (rulebook pp 25-30):
:func:`play` pays the cost and applies or queues the effect (:data:`EFFECTS`); a targeted
card queues its ``target`` choice (:mod:`limitgames.world.wars`). When a card may be played
and its cost are in :mod:`limitgames.world.cards`.

Choices defined here: ``upgrade``, ``recall``, ``produce``, ``gain``, ``contribute``.
"""

from __future__ import annotations

from collections.abc import Callable

from limitgames.core import AmountForm
from limitgames.translation import N_, Phrase, joined
from limitgames.translation import gettext as _
from limitgames.world.cards import (
    TARGETED,
    _bank_to_limit,
    _overproduction_plants,
    _p,
    _pay,
    _plant_upgrades,
    _pop,
)
from limitgames.world.data import PLANTS
from limitgames.world.market import bounded_amounts, start_trading
from limitgames.world.nation import INDUSTRIAL, MILITARY, RENEWABLE, Nation
from limitgames.world.social import produce, recycle
from limitgames.world.state import (
    ACCEPT,
    FORMS,
    NATION_NAMES,
    OPTIONS,
    RESOLVE,
    Choice,
    WorldAction,
    WorldState,
)
from limitgames.world.tracks import sol_choice
from limitgames.world.words import phrase

EffectFn = Callable[[WorldState, Nation], None]


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
    helped = joined(  # each nation's name translated where the line is read
        ", ",
        [
            Phrase("%(nation)s %(amount)d $", {"nation": Phrase(NATION_NAMES[x]), "amount": a})
            for x, a in pledges
            if a
        ],
    )
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
        parts = [_returned(player, first)]
        for seat in s.turn_order():
            k = s.return_pollution(s.nations[seat], _p(s, card, "pollution_each"))
            parts.append(_returned(seat, k))
        s.note(
            player,
            N_("Cleaning the Planet: pollution returned: %(parts)s"),
            parts=joined(", ", parts),
        )
    else:
        first = s.return_disruption(n, _p(s, card, "disruption_first"))
        parts = [_returned(player, first)]
        for seat in s.turn_order():
            k = s.return_disruption(s.nations[seat], _p(s, card, "disruption_each"))
            parts.append(_returned(seat, k))
        s.note(
            player,
            N_("Humanitarian Aid: disruption returned: %(parts)s"),
            parts=joined(", ", parts),
        )


def _returned(seat: int, count: int) -> Phrase:
    """``circle 2``: a nation's name (translated where the line is read) and a count."""
    return Phrase("%(nation)s %(count)d", {"nation": Phrase(NATION_NAMES[seat]), "count": count})


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


OPTIONS.update(
    {
        "upgrade": _upgrade_options,
        "recall": _recall_options,
        "produce": _produce_options,
        "gain": _gain_options,
        "contribute": _contribute_options,
    }
)
RESOLVE.update(
    {
        "upgrade": _upgrade_resolve,
        "recall": _recall_resolve,
        "produce": _produce_resolve,
        "gain": _gain_resolve,
        "contribute": _contribute_resolve,
    }
)
ACCEPT["contribute"] = _contribute_accept
FORMS["contribute"] = _contribute_forms
