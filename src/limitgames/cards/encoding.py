"""Limits for research: the fixed action space, the observation tensor, chance.

**Actions**: the engine's own integers are already a fixed space
(:mod:`limitgames.cards.notation`): ``0..21`` (hide, play, exchange a
colour; suspect a seat; pass), so an action *is* its index.

**Observation** (``float32[OBSERVATION_SIZE]``): built from
``observation(seat)`` (so it holds exactly what the seat may know,
``rules/cards.md``, "Information"), as the segments of :data:`SEGMENTS`, in
order. Seats are absolute (``observer`` says which one is yours). Every
feature lies in ``[-1, 1]`` (the declared ``observation_range``): one-hot
blocks are 0/1; a count with a bound from the rules is divided by it
(``/ b``); a count the rules do not bound (rounds, points, scores, passes) is
squashed as ``x / (|x| + k)``, which keeps every value apart and stays below 1.
:func:`raw_observation_tensor` gives the plain numbers (scales:
:data:`SCALES`; ``L`` is the number of limit cards of the set, 24 shipped).

========================  =========  ==================================================  ==============
segment                   size       meaning                                             scale
========================  =========  ==================================================  ==============
``observer``              6          one-hot: the observing seat                         0/1
``players``               5          one-hot: 2..6 players                               0/1
``to_move``               6          one-hot: the seat to decide (none once over)        0/1
``start_player``          6          one-hot: this round's start player                  0/1
``phase``                 3          one-hot: hide, play, over                           0/1
``round``                 1          rounds played                                       x / (x + 10)
``limit_card``            5 x 11     per colour one-hot of the revealed limit card       0/1
``limit_pile``            1          limit cards left (unseen)                           / L
``put_aside``             1          limit cards put aside (unseen)                      / L
``hand``                  5          own hand, per colour                                / 12
``hidden``                5          own hidden cards, per colour                        / 12
``hand_sizes``            6          cards in hand, per seat                             / a full hand
``hidden_counts``         6          hidden cards, per seat                              / 2
``known_cards``           6 x 5      per seat and colour: cards everybody knows it has   / 12
``known_in_hand``         6 x 5      per seat and colour: of those, known in its hand    / 12
``pile``                  60 x 11    per pile position: colour (5), seat (6) one-hot     0/1
``last_played``           6 x 5      per seat: one-hot of its last colour this round     0/1
``draw_pile``             1          cards in the draw pile                              / 60
``draw_pile_known``       60 x 6     per place from the top: colour (5) or unknown (1)   0/1
``points``                6          points per seat                                     x / (x + 5)
``limit_cards_taken``     6          limit cards taken per seat                          / L
``scores``                6          points - 2 x limit cards, per seat                  x / (|x| + 5)
``passes``                6          passes per seat this round                          x / (x + 2)
========================  =========  ==================================================  ==============

The bounds (``rules/cards.md``): 12 cards of each colour, 60 in all (the
smaller variants have fewer: the same divisors serve them); a hand never holds
more than a full hand (the deal: 5, or 6 with 2 players, or the variant's
``hand``: a play draws one card, an exchange draws four for the four shown);
at most two hidden cards (two with 2 players, else one).

**Information state string**: the seat's observation (which keeps every
finished round: its public actions, pile, reveal and suspicion) plus this
round's public actions, as JSON. The seat's own draws are summarised by its
hand (not replayed one by one).

**Chance** (all at setup, ``rules/cards.md``, "Setup"): the limit pile's
cards one at a time from the top (outcome: the index of a distinct card code
of the set, with probability proportional to the copies left; the cards put
aside are never seen and are not drawn), the colour cards one at a time from
the top (60 in the rulebook's game; outcome: a colour 0..4, probability
proportional to the cards of that colour left), then the first start player
(uniform).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from typing import Any

import numpy as np

from limitgames.cards.material import (
    CARDS_PER_COLOUR,
    COLOUR_LETTERS,
    COLOURS,
    colour_card_counts,
    hand_size,
    limit_cards_put_aside,
    load_limit_cards,
)
from limitgames.cards.notation import NUM_ACTIONS, PASS, SUSPECT
from limitgames.core.encoding import EncodingSpec, SetupChance, counted, uniform

MAX_SEATS = 6
MAX_PILE = 5 * CARDS_PER_COLOUR
SEGMENTS: tuple[tuple[str, int], ...] = (
    ("observer", MAX_SEATS),
    ("players", 5),
    ("to_move", MAX_SEATS),
    ("start_player", MAX_SEATS),
    ("phase", 3),
    ("round", 1),
    ("limit_card", 5 * 11),
    ("limit_pile", 1),
    ("put_aside", 1),
    ("hand", 5),
    ("hidden", 5),
    ("hand_sizes", MAX_SEATS),
    ("hidden_counts", MAX_SEATS),
    ("known_cards", MAX_SEATS * 5),
    ("known_in_hand", MAX_SEATS * 5),
    ("pile", MAX_PILE * 11),
    ("last_played", MAX_SEATS * 5),
    ("draw_pile", 1),
    ("draw_pile_known", MAX_PILE * 6),
    ("points", MAX_SEATS),
    ("limit_cards_taken", MAX_SEATS),
    ("scores", MAX_SEATS),
    ("passes", MAX_SEATS),
)
"""The observation's segments: ``(name, size)`` in order (see the module docstring)."""
OFFSETS: dict[str, int] = {}
_at = 0
for _name, _size in SEGMENTS:
    OFFSETS[_name] = _at
    _at += _size
OBSERVATION_SIZE = _at
_PHASES = ("hide", "play", "over")
_COLOUR = {c: i for i, c in enumerate(COLOURS)}
MAX_GAME_LENGTH = 2000
"""A generous bound on decisions (random games end within about 160; no proof of a tighter one)."""


def encoding_spec(variant: dict[str, Any]) -> EncodingSpec:
    """The fixed sizes of a resolved cards variant."""
    players = int(variant["players"])
    codes = load_limit_cards(variant["limit_cards"]).codes
    score = variant.get("returns") == "score"
    return EncodingSpec(
        game="cards",
        players=players,
        num_distinct_actions=NUM_ACTIONS,
        observation_shape=(OBSERVATION_SIZE,),
        max_game_length=MAX_GAME_LENGTH,
        min_utility=-2.0 * len(codes) if score else -1.0,
        max_utility=float(MAX_GAME_LENGTH) if score else 1.0,  # a point takes a decision
        chance_mode="explicit",
        max_chance_outcomes=max(len(set(codes)), 5, players),
        max_chance_nodes=len(codes)
        - limit_cards_put_aside(players, variant.get("limit_pile"), len(codes))
        + sum(colour_card_counts(variant))
        + 1,
        zero_sum=players == 2 and not score,
        observation_range=(-1.0, 1.0),  # scaled (module docstring)
    )


def action_to_index(action: Any) -> int:
    """The index of an action (the action itself). Raises ValueError for anything else."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"{action!r} is not a Limits action")
    return action


def legal_action_mask(state: Any) -> np.ndarray[Any, Any]:
    """``bool[22]``: the legal actions."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    mask[state.legal_actions()] = True
    return mask


SCALES: dict[str, tuple[str, float]] = {
    "round": ("squash", 10.0),
    "limit_pile": ("limit_cards", 1.0),
    "put_aside": ("limit_cards", 1.0),
    "hand": ("bound", float(CARDS_PER_COLOUR)),
    "hidden": ("bound", float(CARDS_PER_COLOUR)),
    "hand_sizes": ("hand", 1.0),
    "hidden_counts": ("bound", 2.0),
    "known_cards": ("bound", float(CARDS_PER_COLOUR)),
    "known_in_hand": ("bound", float(CARDS_PER_COLOUR)),
    "draw_pile": ("bound", float(MAX_PILE)),
    "points": ("squash", 5.0),
    "limit_cards_taken": ("limit_cards", 1.0),
    "scores": ("squash", 5.0),
    "passes": ("squash", 2.0),
}
"""How each counted segment is scaled into ``[-1, 1]`` (the others are one-hot, 0/1):
``("bound", b)`` divides by ``b`` (12 is the most cards of a colour any variant has, 60 the
most colour cards); ``("limit_cards", 1)`` divides by the number of limit cards of the set;
``("hand", 1)`` by the cards of a full hand (``material.hand_size``); ``("squash", k)`` maps
``x`` to ``x / (|x| + k)``."""


@lru_cache(maxsize=64)
def _scale_vectors(
    limit_cards: int, hand: int
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``(divisor, squash)``, ``float32[OBSERVATION_SIZE]`` each: feature ``i`` is divided by
    ``divisor[i]`` where ``squash[i]`` is 0, else squashed with ``k = squash[i]``."""
    divisor = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    squash = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    for name, size in SEGMENTS:
        if name not in SCALES:
            continue
        kind, value = SCALES[name]
        part = slice(OFFSETS[name], OFFSETS[name] + size)
        if kind == "squash":
            squash[part] = value
        else:
            divisor[part] = {"bound": value, "limit_cards": limit_cards, "hand": hand}[kind]
    return divisor, squash


def scale_observation(
    raw: np.ndarray[Any, Any], limit_cards: int, hand: int
) -> np.ndarray[Any, Any]:
    """The scaled tensor (``float32[OBSERVATION_SIZE]``, every entry in ``[-1, 1]``) of a raw one
    (:func:`raw_observation_tensor`) for a set of ``limit_cards`` limit cards and full hands of
    ``hand`` cards (:data:`SCALES`)."""
    divisor, squash = _scale_vectors(limit_cards, hand)
    squashed = raw / (np.abs(raw) + np.where(squash > 0, squash, 1.0))
    scaled: np.ndarray[Any, Any] = np.where(squash > 0, squashed, raw / divisor)
    return scaled.astype(np.float32)


def observation_tensor(state: Any, seat: int) -> np.ndarray[Any, Any]:
    """``float32[OBSERVATION_SIZE]``: ``seat``'s view, every feature in ``[-1, 1]`` (see the
    module docstring). Raises ValueError for a seat not in the game."""
    obs = state.observation(seat)
    # every limit card of the set is in exactly one of these places, all public counts
    limit_cards = (
        obs["limit_pile"]
        + obs["limit_cards_put_aside"]
        + (obs["limit_card"] is not None)
        + sum(len(t) for t in obs["limit_cards_taken"])
    )
    hand = hand_size(int(obs["players"]), state.variant.get("hand"))
    return scale_observation(_raw_tensor(obs, seat), int(limit_cards), hand)


def raw_observation_tensor(state: Any, seat: int) -> np.ndarray[Any, Any]:
    """``float32[OBSERVATION_SIZE]``: ``seat``'s view with plain counts (not scaled: the module
    docstring's table without its last column). Raises ValueError."""
    return _raw_tensor(state.observation(seat), seat)


def _raw_tensor(obs: dict[str, Any], seat: int) -> np.ndarray[Any, Any]:
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    o = OFFSETS
    out[o["observer"] + seat] = 1
    out[o["players"] + obs["players"] - 2] = 1
    if obs["to_move"] is not None:
        out[o["to_move"] + obs["to_move"]] = 1
    out[o["start_player"] + obs["start_player"]] = 1
    out[o["phase"] + _PHASES.index(obs["phase"])] = 1
    out[o["round"]] = obs["round"]
    card = obs["limit_card"]
    if card is not None:
        for c, name in enumerate(COLOURS):
            v = card[name]
            out[o["limit_card"] + 11 * c + (10 if v == "X" else v)] = 1
    out[o["limit_pile"]] = obs["limit_pile"]
    out[o["put_aside"]] = obs["limit_cards_put_aside"]
    for c, name in enumerate(COLOURS):
        out[o["hand"] + c] = obs["hand"][name]
        out[o["hidden"] + c] = obs["hidden"][name]
    n = obs["players"]
    out[o["hand_sizes"] : o["hand_sizes"] + n] = obs["hand_sizes"]
    out[o["hidden_counts"] : o["hidden_counts"] + n] = obs["hidden_counts"]
    for s in range(n):
        for c, name in enumerate(COLOURS):
            out[o["known_cards"] + 5 * s + c] = obs["known_cards"][s][name]
            out[o["known_in_hand"] + 5 * s + c] = obs["known_in_hand"][s][name]
        last = obs["last_played"][s]
        if last is not None:
            out[o["last_played"] + 5 * s + _COLOUR[last]] = 1
    for i, (s, colour) in enumerate(obs["pile"][:MAX_PILE]):
        out[o["pile"] + 11 * i + _COLOUR[colour]] = 1
        out[o["pile"] + 11 * i + 5 + s] = 1
    out[o["draw_pile"]] = obs["draw_pile"]
    for i, colour in enumerate(obs["draw_pile_known"][:MAX_PILE]):
        out[o["draw_pile_known"] + 6 * i + (5 if colour is None else _COLOUR[colour])] = 1
    out[o["points"] : o["points"] + n] = obs["points"]
    out[o["limit_cards_taken"] : o["limit_cards_taken"] + n] = [
        len(t) for t in obs["limit_cards_taken"]
    ]
    out[o["scores"] : o["scores"] + n] = obs["scores"]
    for s, name in obs["round_actions"]:
        if name == "pass":
            out[o["passes"] + s] += 1
    return out


def information_state_string(state: Any, seat: int) -> str:
    """``seat``'s observation with this round's public actions and the decision count, as JSON."""
    obs = state.observation(seat)
    obs["decisions"] = len(state.history())
    return json.dumps(obs, sort_keys=True, separators=(",", ":"))


class CardsSetupChance(SetupChance):
    """The limit pile, the colour-card shuffle and the start player, one draw a node.

    Only the limit cards that will be played are drawn, the top of the limit pile first
    (outcome: a distinct card code, probability proportional to the copies left); the cards
    put aside are never seen, so they are the rest of the set, in set order. Then the
    variant's colour cards from the top (outcome: a colour), then the start player.
    """

    def __init__(self, game: Any, variant: dict[str, Any]) -> None:
        resolved = game.info.resolve_variant(variant)
        super().__init__(game, resolved)
        set_codes = load_limit_cards(resolved["limit_cards"]).codes
        self.players = int(resolved["players"])
        self.set_codes = set_codes
        self.codes = sorted(set(set_codes))
        self.code_counts = [set_codes.count(c) for c in self.codes]
        aside = limit_cards_put_aside(self.players, resolved.get("limit_pile"), len(set_codes))
        self._pile_total = len(set_codes) - aside
        self.pile_order: list[str] = []  # the limit pile, top first
        self.colour_counts = colour_card_counts(resolved)
        self._deck_total = sum(self.colour_counts)
        self.deck: list[str] = []
        self.start: int | None = None

    def _stage(self) -> str:
        if len(self.pile_order) < self._pile_total:
            return "limit"
        if len(self.deck) < self._deck_total:
            return "colour"
        return "start" if self.start is None else "done"

    def is_done(self) -> bool:
        return self._stage() == "done"

    def outcomes(self) -> list[tuple[int, float]]:
        stage = self._stage()
        if stage == "limit":
            return counted(self.code_counts)
        if stage == "colour":
            return counted(self.colour_counts)
        if stage == "start":
            return uniform(self.players)
        raise ValueError("no chance node is left")

    def _apply(self, index: int) -> None:
        stage = self._stage()
        if stage == "limit":
            self.code_counts[index] -= 1
            self.pile_order.append(self.codes[index])
        elif stage == "colour":
            self.colour_counts[index] -= 1
            self.deck.append(COLOUR_LETTERS[index])
        else:
            self.start = index

    def outcome_to_string(self, index: int) -> str:
        stage = self._stage()
        if stage == "limit":
            return f"limit card {self.codes[index]}"
        if stage == "colour":
            return f"colour card {COLOURS[index]}"
        return f"start player {index}"

    def records(self) -> list[dict[str, Any]]:
        drawn = Counter(self.pile_order)
        aside = []
        for code in self.set_codes:
            if drawn[code]:
                drawn[code] -= 1
            else:
                aside.append(code)
        return [
            {"kind": "limit cards", "value": aside + self.pile_order},
            {"kind": "colour cards", "value": "".join(self.deck)},
            {"kind": "start player", "value": self.start},
        ]

    def copy(self) -> CardsSetupChance:
        other = CardsSetupChance.__new__(CardsSetupChance)
        other.__dict__.update(self.__dict__)
        other.applied = list(self.applied)
        other.code_counts = list(self.code_counts)
        other.pile_order = list(self.pile_order)
        other.colour_counts = list(self.colour_counts)
        other.deck = list(self.deck)
        return other


__all__ = [
    "OBSERVATION_SIZE",
    "PASS",
    "SCALES",
    "SEGMENTS",
    "SUSPECT",
    "CardsSetupChance",
    "action_to_index",
    "encoding_spec",
    "information_state_string",
    "legal_action_mask",
    "observation_tensor",
    "raw_observation_tensor",
    "scale_observation",
]
