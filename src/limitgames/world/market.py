"""The marketplace (rulebook p25): transactions and price cubes.

A transaction buys or sells one type of resource (renewable, industrial,
military or fossil) in a quantity of the player's choice, at the unit price
of that resource's price cube, paid to or by the World Bank. Buying is
limited by the marketplace's stock and the buyer's money, selling by the
seller's stock and the World Bank's money; at the leftmost position nothing
can be sold. After a buy the cube moves one position right (at the far right
the price stays 20 $), after a sale one position left, whatever the quantity.

Choices: ``trade`` (``buy N resource`` / ``sell N resource`` / ``no-trade``;
any quantity in range is accepted, the listed ones are a bounded sample so
random play stays quick) and ``price`` (Speculation: move a cube one position).
"""

from __future__ import annotations

from limitgames.core import AmountForm
from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.data import RESOURCES
from limitgames.world.nation import Nation
from limitgames.world.state import (
    ACCEPT,
    FORMS,
    OPTIONS,
    RESOLVE,
    Choice,
    WorldAction,
    WorldState,
)

FOSSIL = 3


def bounded_amounts(lo: int, hi: int) -> list[int]:
    """A modest list of quantities in ``lo..hi``: all of them if few, else the first ten and a spread."""
    if hi < lo:
        return []
    if hi - lo < 12:
        return list(range(lo, hi + 1))
    head = list(range(lo, lo + 10))
    spread = {lo + (hi - lo) * k // 4 for k in (1, 2, 3)} | {hi}
    return head + sorted(x for x in spread if x >= lo + 10)


def unit_price(state: WorldState, resource: int) -> int:
    """The current unit price of ``resource`` (index into :data:`RESOURCES`)."""
    return state.data.prices[state.market_price[resource] - 1]


def held(nation: Nation, resource: int) -> int:
    """How much of ``resource`` the nation holds."""
    return nation.fossil if resource == FOSSIL else nation.stock[resource]


def buy_limit(state: WorldState, nation: Nation, resource: int) -> int:
    """The most the nation can buy of ``resource`` now."""
    return min(state.market_stock[resource], nation.money // unit_price(state, resource))


def sell_limit(state: WorldState, nation: Nation, resource: int) -> int:
    """The most the nation can sell of ``resource`` now (0 at the leftmost price)."""
    if state.market_price[resource] <= 1:
        return 0
    return min(held(nation, resource), state.world_bank // unit_price(state, resource))


def can_trade(state: WorldState, nation: Nation, used: tuple[str, ...] = ()) -> bool:
    """Whether any transaction is possible on a resource not in ``used``."""
    return any(
        buy_limit(state, nation, r) > 0 or sell_limit(state, nation, r) > 0
        for r, name in enumerate(RESOURCES)
        if name not in used
    )


def _trade_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    nation = state.nations[choice.seat]
    _left, used, _total = choice.args
    out: list[WorldAction] = []
    for r, name in enumerate(RESOURCES):
        if name in used:
            continue
        out += [("buy", q, name) for q in bounded_amounts(1, buy_limit(state, nation, r))]
        out += [("sell", q, name) for q in bounded_amounts(1, sell_limit(state, nation, r))]
    if used or not out:
        out.append(("no-trade",))
    return out


def _trade_forms(state: WorldState, choice: Choice) -> list[AmountForm]:
    nation = state.nations[choice.seat]
    _left, used, _total = choice.args
    out: list[AmountForm] = []
    for r, name in enumerate(RESOURCES):
        if name in used:
            continue
        for verb, limit in (
            ("buy", buy_limit(state, nation, r)),
            ("sell", sell_limit(state, nation, r)),
        ):
            if limit >= 1:
                out.append(AmountForm(verb, (verb,), (name,), 1, limit, f"{verb} N {name}"))
    return out


def _trade_accept(state: WorldState, choice: Choice, action: WorldAction) -> str | None:
    nation = state.nations[choice.seat]
    _left, used, _total = choice.args
    if action == ("no-trade",):
        if used or not can_trade(state, nation, used):
            return None
        return _("a transaction must be made (one is possible)")
    if len(action) != 3 or action[0] not in ("buy", "sell") or action[2] not in RESOURCES:
        return _("a transaction is 'buy N resource', 'sell N resource' or 'no-trade'")
    verb, q, name = action
    if type(q) is not int or q < 1:
        return _("the quantity must be a positive whole number")
    if name in used:
        return _("Stock Exchange: the second transaction must be on another resource")
    r = RESOURCES.index(name)
    if verb == "buy":
        limit = buy_limit(state, nation, r)
        if q > limit:
            return _(
                "can buy at most %(limit)d %(resource)s (marketplace stock %(stock)d, "
                "%(price)d $ each, you have %(money)d $)"
            ) % {
                "limit": limit,
                "resource": _(name),
                "stock": state.market_stock[r],
                "price": unit_price(state, r),
                "money": nation.money,
            }
    else:
        if state.market_price[r] <= 1:
            return _("%(resource)s is at the lowest price: it cannot be sold") % {
                "resource": _(name)
            }
        limit = sell_limit(state, nation, r)
        if q > limit:
            return _(
                "can sell at most %(limit)d %(resource)s (you hold %(held)d, the World Bank pays "
                "%(bank)d $)"
            ) % {
                "limit": limit,
                "resource": _(name),
                "held": held(nation, r),
                "bank": state.world_bank,
            }
    return None


def transact(state: WorldState, nation: Nation, verb: str, q: int, name: str) -> None:
    """Make one (checked) transaction and move the price cube."""
    r = RESOURCES.index(name)
    price = unit_price(state, r)
    total = q * price
    if verb == "buy":
        nation.money -= total
        state.world_bank += total
        state.market_stock[r] -= q
        if r == FOSSIL:
            nation.fossil += q
        else:
            nation.stock[r] += q
        state.market_price[r] = min(len(state.data.prices), state.market_price[r] + 1)
    else:
        nation.money += total
        state.world_bank -= total
        state.market_stock[r] += q
        if r == FOSSIL:
            nation.fossil -= q
        else:
            nation.stock[r] -= q
        state.market_price[r] = max(1, state.market_price[r] - 1)
    if verb == "buy":
        template = N_(
            "Transaction: buys %(count)d %(resource)s for %(total)d $ (%(price)d $ each); "
            "%(resource)s price now %(now)d $"
        )
    else:
        template = N_(
            "Transaction: sells %(count)d %(resource)s for %(total)d $ (%(price)d $ each); "
            "%(resource)s price now %(now)d $"
        )
    state.note(
        nation.seat,
        template,
        count=q,
        resource=name,
        total=total,
        price=price,
        now=unit_price(state, r),
    )


def _trade_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    nation = state.nations[choice.seat]
    left, used, total = choice.args
    if action[0] == "no-trade":
        state.note(choice.seat, N_("Transaction: none"))
        return
    verb, q, name = action
    transact(state, nation, verb, q, name)
    if left > 1:
        state.push(Choice("trade", choice.seat, (left - 1, (*used, name), total)))


def start_trading(state: WorldState, nation: Nation) -> None:
    """Market Access / Speculation: 1 transaction, or 2 on different resources with Stock Exchange."""
    count = 1
    if "stock-exchange" in nation.permanent:
        count = state.data.cards["stock-exchange"].p("transactions")
    state.push(Choice("trade", nation.seat, (count, (), count)))


def _price_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    out: list[WorldAction] = []
    top = len(state.data.prices)
    for r, name in enumerate(RESOURCES):
        if state.market_price[r] < top:
            out.append(("price", name, "up"))
        if state.market_price[r] > 1:
            out.append(("price", name, "down"))
    return out


def _price_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    r = RESOURCES.index(action[1])
    state.market_price[r] += 1 if action[2] == "up" else -1
    state.note(
        choice.seat,
        N_("Speculation: %(resource)s price moves %(direction)s to %(now)d $"),
        resource=action[1],
        direction=action[2],
        now=unit_price(state, r),
    )


OPTIONS.update({"trade": _trade_options, "price": _price_options})
RESOLVE.update({"trade": _trade_resolve, "price": _price_resolve})
ACCEPT["trade"] = _trade_accept
FORMS["trade"] = _trade_forms
