"""Who a nation's allies are and whether it may ask them for help (seed 004, "Effect of
Alliances", p22): the groups of ``state.alliances``, the allies asked for a resource, and
the ``ask`` a nation about to suffer a shortage is offered.

The alliance step itself, and asking, giving and refusing, are in
:mod:`limitgames.world.alliances`.
"""

from __future__ import annotations

from limitgames.world.data import PLANTS
from limitgames.world.nation import MILITARY, Nation
from limitgames.world.state import Choice, WorldState


def group_of(state: WorldState, kind: str, seat: int) -> list[int] | None:
    """The alliance of ``kind`` that ``seat`` belongs to (its seats), or ``None``."""
    for group in state.alliances[kind]:
        if seat in group:
            return group
    return None


def allies(state: WorldState, kind: str, seat: int) -> list[int]:
    """The other members of ``seat``'s alliance of ``kind``, in turn order."""
    group = group_of(state, kind, seat) or []
    return [x for x in state.turn_order() if x in group and x != seat]


def holding(nation: Nation, resource: str) -> int:
    """How much of ``resource`` (a marketplace resource or ``money``) the nation holds."""
    if resource == "money":
        return nation.money
    if resource == "fossil":
        return nation.fossil
    return nation.stock[PLANTS.index(resource)]


def helpers(state: WorldState, kind: str, seat: int, resource: str) -> list[int]:
    """The allies of ``seat`` who are asked for ``resource``: those holding some (reading
    ``alliance_helpers = "holders"``), or every other member (``"all-members"``)."""
    members = allies(state, kind, seat)
    if state.data.readings["alliance_helpers"] == "all-members":
        return members
    return [x for x in members if holding(state.nations[x], resource) > 0]


def help_kind(state: WorldState, resource: str) -> str | None:
    """The alliance that helps with a shortage of ``resource``: military for military, economic
    for the reading ``economic_help`` (p22); ``None`` if neither."""
    if resource == "military":
        return "military"
    if resource in state.data.readings["economic_help"]:
        return "economic"
    return None


def can_ask(state: WorldState, seat: int, resource: str) -> bool:
    """Whether ``seat`` has allies of the right kind to ask for ``resource``."""
    if not state.alliances_on:
        return False
    kind = "economic" if resource == "money" else help_kind(state, resource)
    return kind is not None and bool(helpers(state, kind, seat, resource))


def offer_ask(state: WorldState, seat: int, resource: str, missing: int) -> bool:
    """Queue the ``ask`` decision of a nation about to lack ``missing`` ``resource`` (a
    shortage, p22), if it has allies to ask; returns whether it was queued."""
    if missing <= 0 or not can_ask(state, seat, resource):
        return False
    state.defer(Choice("ask", seat, (resource, missing, None)))
    return True


def resist_help(state: WorldState, seat: int, amount: int) -> int:
    """How much military ``seat`` lacks to resist by spending ``amount`` if its military allies
    could give some (0 if none can or it needs none)."""
    n = state.nations[seat]
    missing = amount - n.stock[MILITARY]
    if missing <= 0 or not can_ask(state, seat, "military"):
        return 0
    return missing
