"""Rules of thumb for Rosenberg's Limits (``cards``): suspicion by counting colours.

Everything here reads only ``state.observation(seat)`` of the seat to move
and the notation of its legal actions (``rules/cards.md``), never the hidden
cards.

The **limit a colour could have** is the limit card's value plus the hidden
cards of that colour: the seat knows its own hidden cards, and each of the
other seats' hidden cards is that colour with probability ``p`` = the share
of that colour among the cards the seat has not seen. So the chance that a
count of ``n`` cards of the colour is over the limit ``L`` is
``P(n > L + own + H)`` with ``H ~ Binomial(others' hidden cards, p)``
(:func:`over_limit_chance`). ``X`` never goes over.

:func:`policy` (the ``heuristic`` agent on ``cards``):

- hide step: hide the colour held most (it raises the limit of the colour
  the seat will play);
- suspect the seat whose last card is most likely over its limit, if that
  chance is above one half;
- otherwise exchange four of a colour if the two cards it puts on the pile
  are probably safe, else play the colour whose next card is least likely
  to go over (ties: the colour held most).

:func:`evaluate` (search cut-offs): each seat's score (points minus two per
limit card), relative to the others, squashed to ``-1..1``.
"""

from __future__ import annotations

import math
import random
from typing import Any

from limitgames.agents.evaluation import outcome_values, squash
from limitgames.core import Action, State

COLOURS_TOTAL = 12
"""Colour cards of each colour in the game."""
PLAYOUT_DEPTH = 2
"""Random decisions before a heuristic playout is cut off: random play decides
little in Limits except by suspecting at random, so playouts stay short."""


def binomial_cdf(k: int, n: int, p: float) -> float:
    """``P(X <= k)`` for ``X ~ Binomial(n, p)``."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def unseen_share(view: dict[str, Any], colour: str) -> float:
    """The share of ``colour`` among the colour cards the seat has not seen (0..1)."""
    seat = view["seat"]
    colours = list(view["hand"])
    seen = {c: view["hand"][c] + view["hidden"][c] for c in colours}
    for _, c in view["pile"]:
        seen[c] += 1
    for c in view["draw_pile_known"]:
        if c is not None:
            seen[c] += 1
    for s, known in enumerate(view["known_cards"]):
        if s != seat:
            for c in colours:
                seen[c] += known[c]
    unseen = {c: max(0, COLOURS_TOTAL - seen[c]) for c in colours}
    total = sum(unseen.values())
    return unseen[colour] / total if total else 0.0


def over_limit_chance(view: dict[str, Any], colour: str, count: int) -> float:
    """The chance that ``count`` cards of ``colour`` exceed its limit, for the observing seat."""
    limit = view["limit_card"][colour]
    if limit == "X":
        return 0.0
    own_hidden = view["hidden"][colour]
    others_hidden = sum(view["hidden_counts"]) - sum(view["hidden"].values())
    margin = count - int(limit) - own_hidden  # over iff hidden others < margin
    return binomial_cdf(margin - 1, others_hidden, unseen_share(view, colour))


def count_up_to_last(view: dict[str, Any], suspect: int) -> tuple[str, int] | None:
    """The suspect's last colour and the count of that colour on the pile up to its last card."""
    pile = view["pile"]
    for i in range(len(pile) - 1, -1, -1):
        if pile[i][0] == suspect:
            colour = pile[i][1]
            return colour, sum(1 for _, c in pile[: i + 1] if c == colour)
    return None


def policy(state: State, rng: random.Random) -> Action:
    """The rule-of-thumb choice of the seat to move (see the module docstring)."""
    seat = state.current_player()
    view = state.observation(seat)
    actions = state.legal_actions()
    named = {state.action_to_string(a): a for a in actions}
    hand: dict[str, int] = view["hand"]
    if view["phase"] == "hide":
        best = max((c for c in hand if f"hide {c}" in named), key=lambda c: (hand[c], rng.random()))
        return named[f"hide {best}"]
    suspicions = []
    for text, action in named.items():
        if text.startswith("suspect "):
            target = count_up_to_last(view, int(text.split()[1]))
            if target is not None:
                suspicions.append((over_limit_chance(view, *target), rng.random(), action))
    if suspicions:
        chance, _, action = max(suspicions)
        if chance > 0.5:
            return action
    pile_counts: dict[str, int] = dict.fromkeys(hand, 0)
    for _, c in view["pile"]:
        pile_counts[c] += 1
    for c in hand:
        if f"exchange {c}" in named and over_limit_chance(view, c, pile_counts[c] + 2) < 0.5:
            return named[f"exchange {c}"]
    plays = [
        (over_limit_chance(view, c, pile_counts[c] + 1), -hand[c], rng.random(), named[f"play {c}"])
        for c in hand
        if f"play {c}" in named
    ]
    if plays:
        return min(plays)[3]
    if suspicions:
        return max(suspicions)[2]
    return actions[rng.randrange(len(actions))]


def evaluate(state: State) -> list[float]:
    """Each seat's score relative to the others, in ``-1..1``; results when over."""
    if state.is_terminal():
        return outcome_values(state.returns())
    scores = state.observation(None)["scores"]  # public: points - 2 x limit cards, so far
    return squash([float(x) for x in scores], scale=3.0)
