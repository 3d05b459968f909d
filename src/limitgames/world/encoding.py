"""Poyé's LIMIT for research: a fixed action space, the observation tensor, chance.

**Actions**: every action tuple the game can offer gets a fixed index, in
the order of :func:`action_table` (verbs as in :mod:`limitgames.world.notation`):

=======================================  =============================================
block                                    size
=======================================  =============================================
``deck D``                               3 decks
``keep/discard/play/withdraw/recall C``  5 x the cards of the data (sorted ids)
``pass``, ``resist``, ``yield``,         4
``no-trade``
``spend/give/contribute N``              3 x ``AMOUNTS`` (N = 0 .. 255)
``plant/gain/produce P``                 3 x 3 plants
``raise/lower K``                        2 x 5 classes
``target NATION``                        6
``take X``                               3 (fossil, renewable, industrial)
``buy/sell Q R``                         2 x ``AMOUNTS`` x 4 resources (Q = 0 .. 255)
``price R up/down``                      4 x 2
``take military``                        1 (a reading may let Military Operation take it)
``accept/refuse/ask/break/stay``         5 (alliances, world-3)
``offer/exclude KIND NATION``            2 x 2 x 6
``leave KIND``                           2
``pay/aid N``                            2 x ``AMOUNTS``
``fund C``                               the cards of the data
``target star``                          1 (solo mode)
=======================================  =============================================

Amounts above 255 are never offered through the encoding: the engine lists
a bounded sample of each range that always holds its ten smallest values,
and random games stay below 60.

**Observation** (``float32[observation_size]``): built from
``observation(seat)`` (so it holds exactly what the seat may know: public
boards, its own hand, never another's hand or the order of a deck), as the
segments of :func:`segments`: names are one-hot, card sets are multi-hot over the sorted
card ids; the alliances give each seat its group's number per kind and its token's side;
solo mode adds the star nation's values, tokens and the event pile's size. The log is not
in it (the log is its own channel, :func:`limitgames.world.observe.log`).

Every feature lies in ``[-1, 1]`` (the declared ``observation_range``): one-hot and
multi-hot entries and flags are 0/1; the counts, amounts and track positions, which the
rulebook does not bound (money, stocks and the LIMIT box grow with the game), are squashed
as ``x / (|x| + k)`` (order kept, every value apart, never reaching 1); an alliance group
number (1..6) is divided by 6. :func:`raw_observation_tensor` gives the plain numbers.
The ``k`` per feature (:func:`scale_vectors`), chosen near the values random games reach:

==================================================  ======
feature                                             ``k``
==================================================  ======
``generation``                                      4
``reserves``: world bank; pollution, disruption     100; 20, 20
``limit_box`` (6 kinds)                             20
``colonization`` (territory, fossil)                5
``market`` (position, price, stock per resource)    5
``crises`` (tiles per generation and kind)          1
nation: population, plants (position, value),       10
stocks, fossil, money, territory, pollution,
disruption, standards of living
nation: shift zone, unrest                          2
nation: hand count, hand by deck, deck counts       5
``hand`` (copies of each card)                      1
``scores``                                          10
``star`` (values, tokens, event pile)               10
==================================================  ======

**Information state string**: the observation and the seat's log channel, as
JSON (the log records every public event and the seat's own private ones).

**Chance** (all at setup, rulebook pp 6-10): the start player (uniform),
then for each nation and each of its decks (society, military, production)
the cards one at a time from the top, uniform among the cards left (outcome:
the card's index in the sorted ids).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import numpy as np

from limitgames.core.encoding import EncodingSpec, SetupChance, uniform
from limitgames.world.data import CLASSES, DECKS, PLANTS, RESOURCES, WorldData, variant_data
from limitgames.world.state import NATION_NAMES, OPTIONS, STAGES, STRESS

AMOUNTS = 256
MAX_SEATS = 6
MAX_GENERATIONS = 8
MAX_GAME_LENGTH = 4000
"""A generous bound on decisions (random games of 6 nations take about 420)."""
STAGE_NAMES: tuple[str, ...] = (*STAGES, *STRESS, "scoring")
CHOICE_KINDS: tuple[str, ...] = tuple(sorted(OPTIONS))
CRISES = ("financial", "environmental", "military")
LIMIT_BOX = ("money", "fossil", "pollution", "disruption", "territory", "shift")


@lru_cache(maxsize=8)
def action_table(
    card_ids: tuple[str, ...],
) -> tuple[tuple[tuple[Any, ...], ...], dict[tuple[Any, ...], int]]:
    """Every encodable action in index order, and action -> index, for the cards ``card_ids``."""
    actions: list[tuple[Any, ...]] = [("deck", d) for d in DECKS]
    for verb in ("keep", "discard", "play", "withdraw", "recall"):
        actions += [(verb, c) for c in card_ids]
    actions += [("pass",), ("resist",), ("yield",), ("no-trade",)]
    for verb in ("spend", "give", "contribute"):
        actions += [(verb, k) for k in range(AMOUNTS)]
    for verb in ("plant", "gain", "produce"):
        actions += [(verb, p) for p in PLANTS]
    for verb in ("raise", "lower"):
        actions += [(verb, k) for k in CLASSES]
    actions += [("target", n) for n in NATION_NAMES]
    actions += [("take", x) for x in ("fossil", "renewable", "industrial")]
    for verb in ("buy", "sell"):
        actions += [(verb, q, r) for q in range(AMOUNTS) for r in RESOURCES]
    actions += [("price", r, d) for r in RESOURCES for d in ("up", "down")]
    actions += [("take", "military")]  # a reading of Military Operation may name it (appended)
    actions += [("accept",), ("refuse",), ("ask",), ("break",), ("stay",)]  # appended: world-3
    for verb in ("offer", "exclude"):
        actions += [(verb, k, n) for k in ("military", "economic") for n in NATION_NAMES]
    actions += [("leave", k) for k in ("military", "economic")]
    for verb in ("pay", "aid"):
        actions += [(verb, k) for k in range(AMOUNTS)]
    actions += [("fund", c) for c in card_ids]
    actions += [("target", "star")]
    return tuple(actions), {a: i for i, a in enumerate(actions)}


def card_ids(data: WorldData) -> tuple[str, ...]:
    """The card ids of the data, sorted (the order of every card block)."""
    return tuple(sorted(data.cards))


def segments(data: WorldData) -> tuple[tuple[str, int], ...]:
    """The observation's segments ``(name, size)`` in order, for the cards of ``data``."""
    c = len(data.cards)
    nation = (
        2
        + 2 * len(PLANTS)
        + len(PLANTS)
        + 5
        + len(CLASSES) * 2
        + 1
        + 1
        + 1
        + 2 * len(DECKS)
        + 3 * c
        + 1
    )
    return (
        ("observer", MAX_SEATS),
        ("players", 5),
        ("generation", 1),
        ("stage", len(STAGE_NAMES)),
        ("leader", MAX_SEATS),
        ("to_move", MAX_SEATS),
        ("reserves", 3),  # world bank, pollution reserve, disruption reserve
        ("limit_box", len(LIMIT_BOX)),
        ("colonization", 2),  # territory, fossil
        ("market", 3 * len(RESOURCES)),  # per resource: position, price, stock
        ("crises", MAX_GENERATIONS * len(CRISES)),  # per generation: tiles of each kind
        ("nations", MAX_SEATS * nation),  # per nation: see _nation_fields
        ("hand", c),  # own hand: copies of each card
        ("choice_kind", len(CHOICE_KINDS)),
        ("choice_nation", MAX_SEATS),
        ("scores", MAX_SEATS),
        ("alliances", 2 * 2 * MAX_SEATS + 1),  # per kind, per seat: group number, agreement
        ("star", 10),  # solo: 4 values, 5 tokens, the event pile's size
    )


def observation_size(data: WorldData) -> int:
    """The length of the observation tensor for ``data``."""
    return sum(size for _, size in segments(data))


def encoding_spec(variant: dict[str, Any]) -> EncodingSpec:
    """The fixed sizes of a resolved world variant."""
    data = variant_data(variant)
    players = int(variant["players"])
    score = variant.get("returns") == "score"
    pools = [c for c in data.cards.values() if c.kind == "deck"]
    return EncodingSpec(
        game="world",
        players=players,
        num_distinct_actions=len(action_table(card_ids(data))[0]),
        observation_shape=(observation_size(data),),
        max_game_length=MAX_GAME_LENGTH,
        min_utility=-1000.0 if score else -1.0,
        max_utility=1000.0 if score else 1.0,
        chance_mode="explicit",
        max_chance_outcomes=max(len(data.cards), players),
        max_chance_nodes=1 + players * len(pools),
        zero_sum=players == 2 and not score,
        observation_range=(-1.0, 1.0),  # scaled (module docstring)
    )


def action_to_index(state: Any, action: Any) -> int:
    """The fixed index of an action tuple. Raises ValueError for one the encoding has no index for."""
    index = action_table(card_ids(state.data))[1].get(action) if isinstance(action, tuple) else None
    if index is None:
        raise ValueError(f"{action!r} has no index in the world encoding")
    return index


def index_to_action(state: Any, index: int) -> tuple[Any, ...]:
    """The action tuple of an index. Raises ValueError out of range."""
    actions = action_table(card_ids(state.data))[0]
    if not 0 <= index < len(actions):
        raise ValueError(f"action index {index} is outside 0..{len(actions) - 1}")
    return actions[index]


def legal_action_mask(state: Any) -> np.ndarray[Any, Any]:
    """``bool[num_distinct_actions]``: the legal actions that have an index (all of them in
    practice; see the module docstring on amounts)."""
    actions, index = action_table(card_ids(state.data))
    mask = np.zeros(len(actions), dtype=np.bool_)
    for a in state.legal_actions():
        i = index.get(a)
        if i is not None:
            mask[i] = True
    return mask


def _nation_fields(nation: dict[str, Any], cards: dict[str, int]) -> list[float]:
    out: list[float] = [nation["population"]["position"], nation["population"]["value"]]
    for p in PLANTS:
        out += [nation["plants"][p]["position"], nation["plants"][p]["value"]]
    out += [nation["stock"][p] for p in PLANTS]
    out += [
        nation["fossil"],
        nation["money"],
        nation["territory"],
        nation["pollution"],
        nation["disruption"],
    ]
    out += [nation["sol"][k] for k in CLASSES]
    out += [1.0 if k in nation["shift_tiles"] else 0.0 for k in CLASSES]
    out += [nation["shift_zone"], nation["unrest"], nation["hand_count"]]
    out += [nation["hand_by_deck"][d] for d in DECKS]
    out += [nation["deck_counts"][d] for d in DECKS]
    for key in ("permanent", "played", "technology"):
        block = [0.0] * len(cards)
        for c in nation[key]:
            block[cards[c]] = 1.0
        out += block
    out.append(1.0 if nation["passed"] else 0.0)
    return out


_NATION_SQUASH = (
    [10.0] * (2 + 2 * len(PLANTS) + len(PLANTS) + 5 + len(CLASSES))
    + [0.0] * len(CLASSES)  # shift tiles: flags
    + [2.0, 2.0]  # shift zone, unrest
    + [5.0] * (1 + 2 * len(DECKS))  # hand count, hand by deck, deck counts
)
"""The ``k`` of the counted fields of a nation, in :func:`_nation_fields` order (the card
blocks and the passed flag after them are 0/1)."""
_SEGMENT_SQUASH: dict[str, list[float] | float] = {
    "generation": 4.0,
    "reserves": [100.0, 20.0, 20.0],
    "limit_box": 20.0,
    "colonization": 5.0,
    "market": 5.0,
    "crises": 1.0,
    "hand": 1.0,
    "scores": 10.0,
    "star": 10.0,
}


@lru_cache(maxsize=8)
def scale_vectors(data: WorldData) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``(divisor, squash)``, ``float32[observation_size]`` each, for the cards of ``data``:
    feature ``i`` is divided by ``divisor[i]`` where ``squash[i]`` is 0, else mapped to
    ``x / (|x| + squash[i])`` (see the module docstring)."""
    segs = segments(data)
    size = sum(n for _, n in segs)
    divisor = np.ones(size, dtype=np.float32)
    squash = np.zeros(size, dtype=np.float32)
    at = 0
    for name, n in segs:
        if name in _SEGMENT_SQUASH:
            squash[at : at + n] = _SEGMENT_SQUASH[name]
        elif name == "nations":
            width = n // MAX_SEATS
            for seat in range(MAX_SEATS):
                start = at + width * seat
                squash[start : start + len(_NATION_SQUASH)] = _NATION_SQUASH
        elif name == "alliances":
            for k in range(2):  # per kind: group numbers 1..6, then the agreement flags
                base = at + 2 * MAX_SEATS * k
                divisor[base : base + MAX_SEATS] = float(MAX_SEATS)
        at += n
    return divisor, squash


def scale_observation(raw: np.ndarray[Any, Any], data: WorldData) -> np.ndarray[Any, Any]:
    """The scaled tensor (every entry in ``[-1, 1]``) of a raw one (:func:`raw_observation_tensor`)."""
    divisor, squash = scale_vectors(data)
    squashed = raw / (np.abs(raw) + np.where(squash > 0, squash, 1.0))
    scaled: np.ndarray[Any, Any] = np.where(squash > 0, squashed, raw / divisor)
    return scaled.astype(np.float32)


def observation_tensor(state: Any, seat: int) -> np.ndarray[Any, Any]:
    """``float32[observation_size]``: ``seat``'s view, every feature in ``[-1, 1]`` (see the
    module docstring). Raises ValueError for a seat not in the game."""
    return scale_observation(raw_observation_tensor(state, seat), state.data)


def raw_observation_tensor(state: Any, seat: int) -> np.ndarray[Any, Any]:
    """``float32[observation_size]``: ``seat``'s view with plain numbers (not scaled). Raises
    ValueError for a seat not in the game."""
    if not 0 <= seat < state.n:
        raise ValueError(f"there is no seat {seat} in a {state.n}-player game")
    obs = state.observation(seat)
    ids = card_ids(state.data)
    cards = {c: i for i, c in enumerate(ids)}
    segs = segments(state.data)
    offsets: dict[str, int] = {}
    at = 0
    for name, size in segs:
        offsets[name] = at
        at += size
    out = np.zeros(at, dtype=np.float32)
    o = offsets
    out[o["observer"] + seat] = 1
    out[o["players"] + obs["players"] - 2] = 1
    out[o["generation"]] = obs["generation"]
    out[o["stage"] + STAGE_NAMES.index(obs["stage"])] = 1
    out[o["leader"] + NATION_NAMES.index(obs["leader"])] = 1
    if obs["to_move"] is not None:
        out[o["to_move"] + NATION_NAMES.index(obs["to_move"])] = 1
    out[o["reserves"] : o["reserves"] + 3] = [
        obs["world_bank"],
        obs["pollution_reserve"],
        obs["disruption_reserve"],
    ]
    out[o["limit_box"] : o["limit_box"] + len(LIMIT_BOX)] = [obs["limit_box"][k] for k in LIMIT_BOX]
    out[o["colonization"] : o["colonization"] + 2] = [
        obs["colonization"]["territory"],
        obs["colonization"]["fossil"],
    ]
    for r, name in enumerate(RESOURCES):
        m = obs["market"][name]
        out[o["market"] + 3 * r : o["market"] + 3 * r + 3] = [m["position"], m["price"], m["stock"]]
    for g, tiles in enumerate(obs["crises"][:MAX_GENERATIONS]):
        for t in tiles:
            out[o["crises"] + 3 * g + CRISES.index(t)] += 1
    width = dict(segs)["nations"] // MAX_SEATS
    for nation in obs["nations"]:
        fields = _nation_fields(nation, cards)
        start = o["nations"] + width * nation["seat"]
        out[start : start + width] = fields
    for c in obs.get("hand", []):
        out[o["hand"] + cards[c]] += 1
    choice = obs.get("choice")
    if choice is not None:
        out[o["choice_kind"] + CHOICE_KINDS.index(choice["kind"])] = 1
        out[o["choice_nation"] + NATION_NAMES.index(choice["nation"])] = 1
    if "scores" in obs:
        out[o["scores"] : o["scores"] + len(obs["scores"])] = obs["scores"]
    for k, kind in enumerate(("military", "economic")):
        base = o["alliances"] + 2 * MAX_SEATS * k
        for number, group in enumerate((obs["alliances"] or {}).get(kind, []), start=1):
            for name in group:
                out[base + NATION_NAMES.index(name)] = number
        for name in obs["agreement"][kind]:
            out[base + MAX_SEATS + NATION_NAMES.index(name)] = 1
    out[o["alliances"] + 4 * MAX_SEATS] = 1.0 if obs["demilitarized"] else 0.0
    if "star" in obs:
        star = obs["star"]
        values = [star["values"][k] for k in ("population", "sol_c", "military", "industrial")]
        tokens = [star[k] for k in ("money", "fossil", "territory", "pollution", "disruption")]
        out[o["star"] : o["star"] + 10] = [*values, *tokens, obs["events"]["draw_pile"]]
    return out


def information_state_string(state: Any, seat: int) -> str:
    """``seat``'s observation and its log channel, as JSON (the log in English whatever the
    language being served: agents key on this string)."""
    from limitgames.translation import using
    from limitgames.world.observe import log

    obs = state.observation(seat)
    with using("en"):
        obs["log"] = log(state, seat)
    return json.dumps(obs, sort_keys=True, separators=(",", ":"))


class WorldSetupChance(SetupChance):
    """The start player, then each nation's three decks dealt card by card."""

    def __init__(self, game: Any, variant: dict[str, Any]) -> None:
        resolved = game.info.resolve_variant(variant)
        data = variant_data(resolved)
        if resolved["stress_tests"] is None:
            resolved["stress_tests"] = data.end["stress_tests"]
        super().__init__(game, resolved)
        self.players = int(resolved["players"])
        self.ids = card_ids(data)
        self.pools = {
            d: sorted(c.id for c in data.cards.values() if c.kind == "deck" and c.deck == d)
            for d in DECKS
        }
        self.start: int | None = None
        self.decks: list[list[list[str]]] = []  # per nation, per deck, cards top first
        self._left: list[str] = []

    def _position(self) -> tuple[int, int] | None:
        """(nation, deck) being dealt, or None when done."""
        if len(self.decks) == self.players and len(self.decks[-1]) == len(DECKS) and not self._left:
            return None
        return len(self.decks) - 1, len(self.decks[-1]) - 1

    def is_done(self) -> bool:
        return self.start is not None and self._position() is None

    def outcomes(self) -> list[tuple[int, float]]:
        if self.start is None:
            return uniform(self.players)
        if self.is_done():
            raise ValueError("no chance node is left")
        p = 1.0 / len(self._left)
        return sorted((self.ids.index(c), p) for c in self._left)

    def _apply(self, index: int) -> None:
        if self.start is None:
            self.start = index
            self._next_deck()
            return
        card = self.ids[index]
        self._left.remove(card)
        self.decks[-1][-1].append(card)
        if not self._left:
            self._next_deck()

    def _next_deck(self) -> None:
        if not self.decks or len(self.decks[-1]) == len(DECKS):
            if len(self.decks) == self.players:
                return
            self.decks.append([])
        self.decks[-1].append([])
        self._left = list(self.pools[DECKS[len(self.decks[-1]) - 1]])

    def outcome_to_string(self, index: int) -> str:
        if self.start is None:
            return f"start player {NATION_NAMES[index]}"
        return f"card {self.ids[index]}"

    def records(self) -> list[dict[str, Any]]:
        return [
            {"kind": "start_player", "value": self.start},
            {"kind": "decks", "value": self.decks},
        ]

    def copy(self) -> WorldSetupChance:
        other = WorldSetupChance.__new__(WorldSetupChance)
        other.__dict__.update(self.__dict__)
        other.applied = list(self.applied)
        other.decks = [[list(d) for d in nation] for nation in self.decks]
        other._left = list(self._left)
        return other
