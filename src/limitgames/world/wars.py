"""Targeted politics cards and wars (rulebook pp 25-30): the ``target`` chosen, the
military spent, the target resisting or yielding (with help from military allies, p22), what a
war takes, and the effects on the target (:data:`TARGET_EFFECTS`). In solo mode the star nation
can be the target (p24).

Choices defined here: ``target``, ``spend``, ``resist``, ``take``, ``give``.
"""

from __future__ import annotations

from collections.abc import Callable

from limitgames.core import AmountForm
from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.cards import (
    WARS,
    _bank_to_limit,
    _p,
    _pay,
    _star_ok,
    _target_ok,
)
from limitgames.world.data import PLANTS, RESOURCES
from limitgames.world.market import bounded_amounts, held
from limitgames.world.nation import INDUSTRIAL, MILITARY, Nation
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

TargetEffectFn = Callable[[WorldState, Nation, Nation], None]


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
    from limitgames.world.allies import resist_help

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
        from limitgames.world.alliances import start_asking
        from limitgames.world.allies import resist_help

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
        "target": _target_options,
        "spend": _spend_options,
        "resist": _resist_options,
        "take": _take_options,
        "give": _give_options,
    }
)
RESOLVE.update(
    {
        "target": _target_resolve,
        "spend": _spend_resolve,
        "resist": _resist_resolve,
        "take": _take_resolve,
        "give": _give_resolve,
    }
)
ACCEPT["spend"] = _spend_accept
FORMS.update({"spend": _spend_forms, "give": _give_forms})
