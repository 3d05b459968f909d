"""Positions of LIMIT as JSON: a game at the start of a generation, to save or to set up by hand.

A position is the whole table at the start of a generation's political
phase (before technological advancement), so a person who owns the game can
type in their table and let the engine referee from there::

    {
      "game": "world",
      "variant": {"players": 2},
      "generation": 3, "leader": "square",
      "crises": [["financial"], [], []],
      "world_bank": 180, "pollution_reserve": 9, "disruption_reserve": 10,
      "limit_box": {"money": 730, "fossil": 12, "pollution": 21, "disruption": 39, "territory": 0, "shift": 2},
      "colonization": {"territory": 3, "fossil": 6},
      "market": {"renewable": {"position": 3, "stock": 3}, "industrial": {...}, "military": {...}, "fossil": {...}},
      "nations": [
        {"name": "circle", "population": 4, "plants": {"renewable": 3, "industrial": 2, "military": 1},
         "stock": {"renewable": 2, "industrial": 1, "military": 0}, "fossil": 6, "money": 12,
         "territory": 5, "pollution": 1, "disruption": 0, "sol": "22111", "shift_tiles": "ABCDE",
         "shift_zone": 0, "unrest": 6, "hand": ["education", ...],
         "decks": {"society": [...], "military": [...], "production": [...]},
         "permanent": [], "technology": []},
        ...
      ]
    }

Positions are 1-based as on the boards, decks top card
first. Every card of a nation appears exactly once in its hand, decks or
permanent cards, except technology cards not yet received. The crisis list
has one entry per generation so far, the current one empty.

A position may also stand at the start of any later step of the generation
(a referee joining a game under way): ``"step"`` names it (``new_policy``,
``hand_limit``, ``decide_policy``, ``supply`` ... ``class_struggle``,
``cold_war`` ... ``end_generation``, see ``state.STAGES``; or ``stress_test``,
the end of the game: stress test and scoring), and ``"columns"`` gives, per
nation, the player-aid column in force (1-4: class A's standard of living when
the political phase began, for the political steps; class C's when the social
phase began, for the social steps), by default read from the boards as they
are (the stress test always reads class C as it stands). At a later step the current generation may hold crisis
tiles already, and at ``stress_test`` the game may have reached its end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from limitgames.core.chance import Chance
from limitgames.core.errors import LimitGamesError, PositionError
from limitgames.translation import N_
from limitgames.world.data import CLASSES, DECKS, PLANTS, RESOURCES
from limitgames.world.nation import Nation
from limitgames.world.words import phrase

if TYPE_CHECKING:
    from limitgames.world.state import WorldState

CRISES = ("financial", "environmental", "military")
CRISIS_TILES_PER_KIND = 4
"""The box holds 12 crisis tiles: 4 financial, 4 military, 4 environmental (rulebook p4)."""
SHIFT_TILES = 5
"""Demographic-shift tiles per nation box (rulebook p4)."""


def token_totals(data: Any, players: int) -> dict[str, int]:
    """What a game of ``players`` nations holds in all, wherever it lies (nations, World Bank,
    reserves, marketplace, colonization reserve, LIMIT box): the setup's counts, which play
    only moves around (rulebook pp 4-10; the LIMIT box may go below its printed contents).

    Returns ``{"money", "fossil", "pollution", "disruption", "territory", "shift"}``.
    """
    s, nd = data.setup, data.nation
    return {
        "money": s["world_bank_per_nation"] * players
        + s["limit_box_money"]
        + nd["money"] * players,
        "fossil": nd["fossil"] * players
        + data.market_start_stock[3]
        + s["colonization_fossil_base"]
        + s["colonization_fossil_per_nation"] * players
        + s["limit_box_fossil"],
        "pollution": s["pollution_reserve_base"]
        + s["pollution_reserve_per_nation"] * players
        + s["limit_box_pollution"],
        "disruption": s["disruption_reserve_base"]
        + s["disruption_reserve_per_nation"] * players
        + s["limit_box_disruption"],
        "territory": nd["territory"] * players
        + s["colonization_territory_base"]
        + s["colonization_territory_per_nation"] * players,
        "shift": SHIFT_TILES * players,
    }


def counted_tokens(state: WorldState) -> dict[str, dict[str, int]]:
    """Where each kind of :func:`token_totals` lies now: ``{kind: {place: count}}``."""
    ns = state.nations
    box = state.limit_box
    return {
        "money": {
            "nations": sum(n.money for n in ns),
            "World Bank": state.world_bank,
            "LIMIT box": box["money"],
        },
        "fossil": {
            "nations": sum(n.fossil for n in ns),
            "marketplace": state.market_stock[3],
            "colonization reserve": state.colonization[1],
            "LIMIT box": box["fossil"],
        },
        "pollution": {
            "nations": sum(n.pollution for n in ns),
            "reserve": state.pollution_reserve,
            "LIMIT box": box["pollution"],
        },
        "disruption": {
            "nations": sum(n.disruption for n in ns),
            "reserve": state.disruption_reserve,
            "LIMIT box": box["disruption"],
        },
        "territory": {
            "nations": sum(n.territory for n in ns),
            "colonization reserve": state.colonization[0],
            "LIMIT box": box["territory"],
        },
        "shift": {
            "nation boards and zones": sum(sum(n.shift_tiles) + n.shift_zone for n in ns),
            "LIMIT box": box["shift"],
        },
    }


def _check_totals(state: WorldState) -> None:
    """Refuse a table whose tokens do not add up to the box's (one line naming the kind)."""
    totals = token_totals(state.data, state.n)
    for kind, places in counted_tokens(state).items():
        count = sum(places.values())
        if count != totals[kind]:
            where = ", ".join(f"{place} {k}" for place, k in places.items())
            unit = " $" if kind == "money" else ""
            noun = "demographic-shift tiles" if kind == "shift" else kind
            raise PositionError(
                f"{noun}: {count}{unit} on the table ({where}), but a game of {state.n} nations "
                f"holds {totals[kind]}{unit} in all"
            )


STEP_NAMES = {"stress_test": "stress_start"}
"""A position's ``step`` -> the engine's stage, where the names differ."""
POLITICAL_STEPS = ("new_policy", "hand_limit", "decide_policy")
"""Steps whose player-aid column is class A's (the political phase's)."""


def position_json(state: WorldState) -> dict[str, Any]:
    """The position at the start of ``state``'s current generation (JSON-ready).

    It holds every hand and the order of every deck: it is for saving and
    refereeing, not for a seat's eyes.
    """
    from limitgames.world.state import NATION_NAMES

    nations, g = state.opening
    step: dict[str, Any] = {}
    stage = g.get("stage", "technology")
    if stage != "technology":
        names = {v: k for k, v in STEP_NAMES.items()}
        step = {"step": names.get(stage, stage), "columns": [c + 1 for c in g["columns"]]}
    return {
        "game": "world",
        "variant": {k: v for k, v in state.variant.items() if v is not None},
        **step,
        "generation": g["generation"],
        "leader": NATION_NAMES[g["leader"]],
        "crises": [list(c) for c in g["crises"]],
        "world_bank": g["world_bank"],
        "pollution_reserve": g["pollution_reserve"],
        "disruption_reserve": g["disruption_reserve"],
        "limit_box": dict(g["limit_box"]),
        "colonization": {"territory": g["colonization"][0], "fossil": g["colonization"][1]},
        "market": {
            name: {"position": g["market_price"][r], "stock": g["market_stock"][r]}
            for r, name in enumerate(RESOURCES)
        },
        "alliances": {
            kind: [[NATION_NAMES[x] for x in group] for group in groups]
            for kind, groups in g.get("alliances", {}).items()
        },
        "demilitarized": bool(g.get("demilitarized", False)),
        "nations": [
            {
                "name": NATION_NAMES[n.seat],
                "population": n.population,
                "plants": {name: n.plants[i] for i, name in enumerate(PLANTS)},
                "stock": {name: n.stock[i] for i, name in enumerate(PLANTS)},
                "fossil": n.fossil,
                "money": n.money,
                "territory": n.territory,
                "pollution": n.pollution,
                "disruption": n.disruption,
                "sol": "".join(str(x) for x in n.sol),
                "shift_tiles": "".join(CLASSES[i] for i in range(5) if n.shift_tiles[i]),
                "shift_zone": n.shift_zone,
                "unrest": n.unrest,
                "hand": list(n.hand),
                "decks": {d: list(n.decks[d]) for d in DECKS},
                "permanent": list(n.permanent),
                "technology": list(n.technology),
            }
            for n in nations
        ],
    }


def _int(value: Any, where: str, lo: int | None = 0, hi: int | None = None) -> int:
    if type(value) is not int:
        raise PositionError(f"{where}: {value!r} is not a whole number")
    if lo is not None and value < lo:
        raise PositionError(f"{where}: {value} is below {lo}")
    if hi is not None and value > hi:
        raise PositionError(f"{where}: {value} is above {hi}")
    return value


def _get(mapping: Any, key: str, where: str) -> Any:
    if not isinstance(mapping, Mapping):
        raise PositionError(f"{where}: expected an object")
    if key not in mapping:
        raise PositionError(f"{where}: missing {key!r}")
    return mapping[key]


def state_from_position(
    position: Mapping[str, Any], chance: Chance | None = None, step: str | None = None
) -> WorldState:
    """A game starting from ``position`` (see the module docstring) at the start of its step.

    Args:
        position: the decoded JSON.
        chance: the source of later chance outcomes (the cards told in a game refereed at a
            real table, variant ``draws=table``); default a seeded generator.
        step: overrides the position's ``step`` (``"stress_test"``: score it as it stands).

    Raises:
        PositionError: one line naming the field that is wrong and why.
    """
    from limitgames.world.data import embed_overrides, variant_data
    from limitgames.world.game_state import WorldGameState
    from limitgames.world.info import WORLD_INFO
    from limitgames.world.state import NATION_NAMES, STAGES

    if not isinstance(position, Mapping):
        raise PositionError("a position is a JSON object")
    if position.get("game", "world") != "world":
        raise PositionError(f"not a world position (game {position.get('game')!r})")
    raw_nations = _get(position, "nations", "position")
    if not isinstance(raw_nations, list) or not 2 <= len(raw_nations) <= 6:
        raise PositionError("nations: a list of 2 to 6 nations")
    variant = dict(position.get("variant") or {})
    variant.setdefault("players", len(raw_nations))
    try:
        resolved = embed_overrides(WORLD_INFO.resolve_variant(variant))
        data = variant_data(resolved)
    except LimitGamesError as exc:
        raise PositionError(f"variant: {exc}") from None
    if resolved.get("solo"):
        raise PositionError("variant: solo games cannot start from a position")
    if resolved["players"] != len(raw_nations):
        raise PositionError(
            f"variant: players is {resolved['players']} but {len(raw_nations)} nations are given"
        )
    if resolved["stress_tests"] is None:
        resolved["stress_tests"] = data.end["stress_tests"]
    n = len(raw_nations)
    names = list(NATION_NAMES[:n])
    step_name = step if step is not None else position.get("step", "technology")
    steps = [*(s for s in STAGES if s != "social_start"), *STEP_NAMES]
    if step_name not in steps:
        raise PositionError(f"step: {step_name!r} is not one of {', '.join(steps)}")
    stage = STEP_NAMES.get(step_name, step_name)
    at_start = stage == "technology"
    at_end = stage == "stress_start"

    def load(state: WorldState) -> None:
        g = _int(_get(position, "generation", "position"), "generation", 1, data.end["generations"])
        leader = _get(position, "leader", "position")
        if leader not in names:
            raise PositionError(f"leader: {leader!r} is not one of {', '.join(names)}")
        crises = _get(position, "crises", "position")
        if not isinstance(crises, list) or len(crises) != g:
            raise PositionError(f"crises: one list of tiles per generation so far ({g})")
        for i, tiles in enumerate(crises):
            if (
                not isinstance(tiles, list)
                or any(t not in CRISES for t in tiles)
                or len(set(tiles)) != len(tiles)
            ):
                raise PositionError(
                    f"crises[{i}]: tiles are financial/environmental/military, each at most once"
                )
        if crises[-1] and at_start:
            raise PositionError("crises: the current generation has no tile yet at its start")
        for kind in CRISES:
            placed = sum(t.count(kind) for t in crises)
            if placed > CRISIS_TILES_PER_KIND:
                raise PositionError(
                    f"crises: {placed} {kind} tiles, but the box holds {CRISIS_TILES_PER_KIND}"
                )
        placed = sum(len(t) for t in crises[:-1])
        if placed >= data.end["crises"] and not at_end:
            raise PositionError(
                f"crises: {placed} tiles placed before generation {g}, but the game ends once "
                f"{data.end['crises']} are placed"
            )
        state.generation = g
        state.leader = names.index(leader)
        state.crises = [list(t) for t in crises]
        state.world_bank = _int(_get(position, "world_bank", "position"), "world_bank")
        state.pollution_reserve = _int(
            _get(position, "pollution_reserve", "position"), "pollution_reserve"
        )
        state.disruption_reserve = _int(
            _get(position, "disruption_reserve", "position"), "disruption_reserve"
        )
        box = _get(position, "limit_box", "position")
        state.limit_box = {
            k: _int(_get(box, k, "limit_box"), f"limit_box.{k}", None)
            for k in ("money", "fossil", "pollution", "disruption", "territory", "shift")
        }
        col = _get(position, "colonization", "position")
        state.colonization = [
            _int(_get(col, "territory", "colonization"), "colonization.territory"),
            _int(_get(col, "fossil", "colonization"), "colonization.fossil"),
        ]
        market = _get(position, "market", "position")
        for r, name in enumerate(RESOURCES):
            entry = _get(market, name, "market")
            state.market_price[r] = _int(
                _get(entry, "position", f"market.{name}"), f"market.{name}.position", 1, 7
            )
            state.market_stock[r] = _int(
                _get(entry, "stock", f"market.{name}"), f"market.{name}.stock"
            )
        state.nations = [_nation(state, seat, raw, names) for seat, raw in enumerate(raw_nations)]
        _load_alliances(state, position, names)
        _check_totals(state)
        if not at_start:
            _enter_step(state, position, stage)
        where = (
            N_("the stress test")
            if at_end
            else phrase(N_("the %(step)s step"), step=step_name.replace("_", " "))
        )
        state.note(
            None,
            N_(
                "Set up from a position at %(where)s of generation %(generation)d; %(nation)s holds the leadership tile"
            ),
            where=where,
            generation=g,
            nation=leader,
        )

    state = WorldGameState(
        resolved, data, chance if chance is not None else Chance(seed=0), load=load
    )
    state._position = dict(position)
    return state


def _load_alliances(state: WorldState, position: Mapping[str, Any], names: list[str]) -> None:
    """The optional ``alliances`` (``{"military": [["circle", "square"]], "economic": []}``, all
    tokens negotiation side up at a generation's start) and ``demilitarized`` (p21-22)."""
    raw = position.get("alliances") or {}
    if not isinstance(raw, Mapping) or set(raw) - {"military", "economic"}:
        raise PositionError("alliances: an object with the lists 'military' and 'economic'")
    if isinstance(raw, Mapping) and any(raw.values()) and not state.alliances_on:
        raise PositionError("alliances: the alliance step is off in this variant")
    for kind in ("military", "economic"):
        groups = raw.get(kind, [])
        seen: set[str] = set()
        if not isinstance(groups, list):
            raise PositionError(f"alliances.{kind}: a list of alliances (lists of nations)")
        for group in groups:
            if (
                not isinstance(group, list)
                or len(group) < 2
                or any(x not in names for x in group)
                or seen & set(group)
                or len(set(group)) != len(group)
            ):
                raise PositionError(
                    f"alliances.{kind}: {group!r} is not 2 or more nations, each in one alliance"
                )
            seen |= set(group)
            state.alliances[kind].append(sorted(names.index(x) for x in group))
    demilitarized = position.get("demilitarized", False)
    if not isinstance(demilitarized, bool):
        raise PositionError("demilitarized: true or false")
    state.demilitarized = demilitarized
    everyone = sorted(range(state.n))
    if not demilitarized and everyone in state.alliances["military"]:
        raise PositionError(
            "alliances.military: every nation is in one military alliance, so demilitarization "
            "has occurred (p22 'If all nations form part of the same military alliance, "
            "demilitarization occurs'): set demilitarized to true"
        )


def _enter_step(state: WorldState, position: Mapping[str, Any], stage: str) -> None:
    """Put a loaded table at the start of ``stage`` with its player-aid columns."""
    from limitgames.world.political import column_a, snapshot
    from limitgames.world.social import column_c
    from limitgames.world.state import STAGES

    political = stage in POLITICAL_STEPS
    columns = position.get("columns")
    if columns is None:
        state.columns = [column_a(state, n) if political else column_c(n) for n in state.nations]
    else:
        if not isinstance(columns, list) or len(columns) != state.n:
            raise PositionError(f"columns: one player-aid column (1-4) per nation ({state.n})")
        state.columns = [_int(c, f"columns[{i}]", 1, 4) - 1 for i, c in enumerate(columns)]
    state.stage = stage
    if stage in STAGES:
        state.stage_index = STAGES.index(stage)
    state.opening = snapshot(state)


def _nation(state: WorldState, seat: int, raw: Any, names: list[str]) -> Nation:
    where = f"nations[{seat}]"
    data = state.data
    if _get(raw, "name", where) != names[seat]:
        raise PositionError(f"{where}: the nation in seat {seat} is {names[seat]}")
    n = Nation(seat)
    n.population = _int(
        _get(raw, "population", where), f"{where}.population", 1, data.population_positions
    )
    plants = _get(raw, "plants", where)
    stock = _get(raw, "stock", where)
    for i, name in enumerate(PLANTS):
        n.plants[i] = _int(
            _get(plants, name, f"{where}.plants"),
            f"{where}.plants.{name}",
            1,
            data.production_positions,
        )
        n.stock[i] = _int(_get(stock, name, f"{where}.stock"), f"{where}.stock.{name}")
    for key in ("fossil", "money", "territory", "pollution", "disruption", "shift_zone"):
        setattr(n, key, _int(_get(raw, key, where), f"{where}.{key}"))
    if n.plants[0] > max(1, n.territory):
        raise PositionError(
            f"{where}: the renewable plant ({n.plants[0]}) is beyond the territory ({n.territory})"
        )
    sol = _get(raw, "sol", where)
    if (
        not isinstance(sol, str)
        or len(sol) != 5
        or not all(c.isdigit() and 1 <= int(c) <= data.sol_max for c in sol)
    ):
        raise PositionError(
            f'{where}.sol: five digits 1-{data.sol_max} for classes A-E, e.g. "33221"'
        )
    n.sol = [int(c) for c in sol]
    if any(n.sol[i] < n.sol[i + 1] for i in range(4)):
        raise PositionError(f"{where}.sol: a class may not stand above a higher class ({sol})")
    tiles = _get(raw, "shift_tiles", where)
    if not isinstance(tiles, str) or any(c not in CLASSES for c in tiles):
        raise PositionError(
            f'{where}.shift_tiles: the classes whose tile is still on the board, e.g. "CDE"'
        )
    n.shift_tiles = [c in tiles for c in CLASSES]
    if sum(n.shift_tiles) + n.shift_zone > SHIFT_TILES:
        raise PositionError(
            f"{where}.shift_zone: {n.shift_zone} tiles in the zone and {sum(n.shift_tiles)} on the "
            f"board, but a nation has {SHIFT_TILES}"
        )
    for i in range(5):
        if n.shift_tiles[i] and n.sol[i] >= data.demographic_shift_at:
            raise PositionError(
                f"{where}.shift_tiles: class {CLASSES[i]} has reached 3, its tile has moved"
            )
    n.unrest = _int(_get(raw, "unrest", where), f"{where}.unrest", 1, data.unrest_positions)
    seen: list[str] = []

    def cards(value: Any, path: str, deck: str | None = None) -> list[str]:
        if not isinstance(value, list) or any(c not in data.cards for c in value):
            raise PositionError(f"{path}: a list of card ids (e.g. public-expenditure)")
        if deck is not None and any(data.cards[c].deck != deck for c in value):
            raise PositionError(f"{path}: holds a card of another deck")
        seen.extend(value)
        return list(value)

    n.hand = cards(_get(raw, "hand", where), f"{where}.hand")
    decks = _get(raw, "decks", where)
    for d in DECKS:
        n.decks[d] = cards(_get(decks, d, f"{where}.decks"), f"{where}.decks.{d}", d)
    n.permanent = cards(raw.get("permanent", []), f"{where}.permanent")
    if any(not data.cards[c].permanent for c in n.permanent):
        raise PositionError(f"{where}.permanent: only permanent-effect cards stay in play")
    technology = raw.get("technology", [])
    if not isinstance(technology, list) or any(
        c not in data.cards or data.cards[c].kind != "technology" for c in technology
    ):
        raise PositionError(f"{where}.technology: the technology cards already received")
    n.technology = list(technology)
    expected = sorted(
        c.id for c in data.cards.values() if c.kind != "technology" or c.id in technology
    )
    if sorted(seen) != expected:
        missing = sorted(set(expected) - set(seen))
        extra = sorted(c for c in set(seen) if seen.count(c) > 1 or c not in expected)
        detail = (
            f"missing {', '.join(missing)}"
            if missing
            else f"unexpected or repeated {', '.join(extra)}"
        )
        raise PositionError(
            f"{where}: every card appears once in hand, decks or permanent cards ({detail})"
        )
    return n


# --- the score calculator (limit score world) ---------------------------------------------------
def stress_test(position: Mapping[str, Any], stress_tests: int | None = None) -> WorldState:
    """The game of ``position`` ended where it stands: its stress test run (rulebook p23,
    "Stress Test": supply, consumption and production again, shortages applied, no crises)
    up to its first decision (a plant or class a shortage lets a nation choose), or scored.

    Args:
        position: a position (``world.position``) at any step; its boards are stress tested.
        stress_tests: how many stress tests (0-2; default the position's variant or the data's).

    Raises:
        PositionError: a bad position, one line naming the field.
    """
    start = dict(position)
    if stress_tests is not None:
        start["variant"] = {**dict(start.get("variant") or {}), "stress_tests": stress_tests}
    return state_from_position(start, step="stress_test")
