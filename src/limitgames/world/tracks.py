"""Moves on a nation's tracks that the nation places itself: the standard of living of a
class (``raise``, ``lower``) and the level of a plant (``plant``) (rulebook p9).

Every phase and card queues these choices (:func:`sol_choice`, :func:`plant_choice`).

Choices defined here: ``raise``, ``lower``, ``plant``.
"""

from __future__ import annotations

from limitgames.translation import N_
from limitgames.world.data import CLASSES, PLANTS
from limitgames.world.nation import Nation
from limitgames.world.state import OPTIONS, RESOLVE, Choice, WorldAction, WorldState


def _raise_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    nation = state.nations[choice.args[1]]
    return [("raise", CLASSES[i]) for i in nation.raisable(state.data.sol_max)]


def _raise_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    count, seat, why = choice.args
    nation = state.nations[seat]
    words = nation.raise_class(CLASSES.index(action[1]), state.data.demographic_shift_at)
    state.note(seat, N_("%(why)s: %(change)s"), why=why, change=words)
    if count > 1:
        state.push(Choice("raise", choice.seat, (count - 1, seat, why)))


def _lower_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    nation = state.nations[choice.args[1]]
    return [("lower", CLASSES[i]) for i in nation.lowerable()]


def _lower_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    count, seat, why = choice.args
    nation = state.nations[seat]
    state.note(
        seat,
        N_("%(why)s: %(change)s"),
        why=why,
        change=nation.lower_class(CLASSES.index(action[1])),
    )
    if count > 1:
        state.push(Choice("lower", choice.seat, (count - 1, seat, why)))


def sol_choice(
    state: WorldState, nation: Nation, delta: int, why: str, deferred: bool = False
) -> None:
    """Queue ``|delta|`` standard-of-living steps the nation places itself (rulebook p9)."""
    if delta == 0:
        return
    choice = Choice("raise" if delta > 0 else "lower", nation.seat, (abs(delta), nation.seat, why))
    if deferred:
        state.defer(choice)
    else:
        state.push(choice)


def _plant_options(state: WorldState, choice: Choice) -> list[WorldAction]:
    """``plant`` choices: args ``(count, nation seat, delta, allowed plant names, why)``."""
    _count, seat, delta, allowed, _why = choice.args
    nation = state.nations[seat]
    positions = state.data.production_positions
    out: list[WorldAction] = []
    for name in allowed:
        i = PLANTS.index(name)
        pos = nation.plants[i]
        if (delta < 0 and pos > 1) or (delta > 0 and pos < nation.plant_cap(i, positions)):
            out.append(("plant", name))
    return out


def _plant_resolve(state: WorldState, choice: Choice, action: WorldAction) -> None:
    count, seat, delta, allowed, why = choice.args
    nation = state.nations[seat]
    i = PLANTS.index(action[1])
    old = nation.plants[i]
    nation.move_plant(i, delta, state.data.production_positions)
    state.note(
        seat,
        N_("%(why)s: %(plant)s plant %(old)d -> %(new)d"),
        why=why,
        plant=action[1],
        old=old,
        new=nation.plants[i],
    )
    if count > 1:
        state.push(Choice("plant", choice.seat, (count - 1, seat, delta, allowed, why)))


def plant_choice(
    state: WorldState,
    nation: Nation,
    count: int,
    delta: int,
    allowed: tuple[str, ...],
    why: str,
    deferred: bool = False,
    decider: int | None = None,
) -> None:
    """Queue ``count`` choices of a plant (among ``allowed``) to move ``delta`` levels."""
    if count <= 0:
        return
    seat = nation.seat if decider is None else decider
    choice = Choice("plant", seat, (count, nation.seat, delta, allowed, why))
    if deferred:
        state.defer(choice)
    else:
        state.push(choice)


OPTIONS.update({"raise": _raise_options, "lower": _lower_options, "plant": _plant_options})
RESOLVE.update({"raise": _raise_resolve, "lower": _lower_resolve, "plant": _plant_resolve})
