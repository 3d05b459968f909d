"""What each seat of Limits knows: observations and determinizations.

Rules: ``rules/cards.md``, "Information". A seat knows its own hand and hidden
cards, the revealed limit card, everything played in public (with perfect
recall: the whole pile, every exchange and the four cards it showed, every
suspicion and reveal), scores, hand sizes and pile sizes. It never sees
another seat's hand or hidden cards, nor the order of the unseen part of the
draw pile.

Some cards are public although face down. The engine tracks them as
*known cards*:

- in the draw pile: the two cards an exchange put on top, and the piles of
  earlier rounds, which went under the draw pile in the order played;
- in a seat's cards: cards it drew from a known place in the draw pile, and
  its hidden cards once revealed and taken back.

Two lower bounds per seat and colour hold this knowledge exactly:
``known[seat]`` on its hand + hidden cards, and ``known_hand[seat]`` on its
hand alone. Drawing a known card raises both; playing a colour lowers both
by one (where positive); an exchange shows four cards in hand (both bounds
at least 4) which then leave the hand (both lowered by 4, floored at 0);
hiding a card forgets ``known_hand`` (nobody knows which card went, but
``known`` still bounds hand + hidden); the reveal sets both to
``hidden + max(known_hand, known - hidden)``.

A determinization keeps everything a seat knows and deals all the rest (the
other seats' unknown cards, their hidden cards, the unknown places in the
draw pile, the unseen limit cards) at random from what is left.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from limitgames.cards.material import COLOURS, NO_LIMIT, limit_card_code
from limitgames.cards.notation import NUM_ACTIONS, PLAY, action_name
from limitgames.core.protocol import TERMINAL

if TYPE_CHECKING:
    from limitgames.cards.rules import CardsState

_PHASES = ("hide", "play", "over")
_PUBLIC_NAMES = tuple("hide" if a < PLAY else action_name(a) for a in range(NUM_ACTIONS))
"""Each action as the other seats see it: a hide without its colour."""
_COLOUR_OR_NONE = (*COLOURS, None)
_CODES: dict[tuple[int, ...], str] = {}


def _code(card: tuple[int, ...]) -> str:
    code = _CODES.get(card)
    if code is None:
        code = _CODES[card] = limit_card_code(card)
    return code


def _counts(counts: list[int]) -> dict[str, int]:
    return dict(zip(COLOURS, counts, strict=True))


def observation(state: CardsState, seat: int | None) -> dict[str, Any]:
    """The information state of ``seat`` (``None``: a spectator), as a JSON-ready dict.

    Keys (colours are names, cards of a limit card ``0``-``9`` or ``"X"``):

    - ``seat``, ``players``, ``round`` (0-based), ``phase`` (``"hide"``,
      ``"play"``, ``"over"``), ``to_move`` (a seat or ``None``), ``start_player``;
    - ``limit_card`` (``{"red": "X", ...}`` or ``None`` once over),
      ``limit_card_code`` (``"X0335"``), ``limit_pile`` (cards left, unseen),
      ``limit_cards_put_aside`` (unseen, out of the game);
    - ``hand``, ``hidden``: the seat's own cards per colour (``None`` for a spectator);
    - ``hand_sizes``, ``hidden_counts``: per seat;
    - ``known_cards``: per seat, the cards (per colour) everybody knows it holds
      among its hand and hidden cards; ``known_in_hand``: those known to be in
      its hand;
    - ``pile``: ``[[seat, colour], ...]`` in the order played (the whole pile:
      interfaces show only ``pile_top`` unless asked); ``pile_top``;
      ``last_played``: per seat its last colour this round or ``None``;
    - ``draw_pile``: its size; ``draw_pile_known``: from the top, each card's
      colour if public, else ``None``;
    - ``points``, ``limit_cards_taken`` (codes per seat), ``scores``;
    - ``round_actions``: ``[[seat, notation], ...]`` this round, hides as ``"hide"``;
    - ``rounds``: the finished rounds (limit card, public actions, pile, the
      revealed hidden cards, the suspicion's check and who took the card).
      These dicts are shared with the state (no copy, for speed): read-only.
    """
    n = state.n
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat} in a {n}-player game")
    card = state.limit_card
    last = [None if i < 0 else COLOURS[state.pile[i]] for i in state.last_index]
    player = state.current_player()
    return {
        "game": "cards",
        "seat": seat,
        "players": n,
        "round": state.round,
        "phase": _PHASES[state.phase],
        "to_move": None if player == TERMINAL else player,
        "start_player": state.start,
        "limit_card": None
        if card is None
        else {name: ("X" if v == NO_LIMIT else v) for name, v in zip(COLOURS, card, strict=True)},
        "limit_card_code": None if card is None else _code(card),
        "limit_pile": len(state.limit_pile),
        "limit_cards_put_aside": len(state.put_aside),
        "hand": None if seat is None else _counts(state.hands[seat]),
        "hidden": None if seat is None else _counts(state.hidden[seat]),
        "hand_sizes": [sum(h) for h in state.hands],
        "hidden_counts": [sum(h) for h in state.hidden],
        "known_cards": [_counts(k) for k in state.known],
        "known_in_hand": [_counts(k) for k in state.known_hand],
        "pile": [[s, COLOURS[c]] for s, c in zip(state.pile_seats, state.pile, strict=True)],
        "pile_top": COLOURS[state.pile[-1]] if state.pile else None,
        "last_played": last,
        "draw_pile": len(state.draw),
        "draw_pile_known": [
            _COLOUR_OR_NONE[c if k else 5]
            for c, k in zip(reversed(state.draw), reversed(state.draw_known), strict=True)
        ],
        "points": list(state.points),
        "limit_cards_taken": [[_code(c) for c in t] for t in state.taken],
        "scores": state.scores(),
        "round_actions": [[s, _PUBLIC_NAMES[a]] for s, a in state.round_actions],
        "rounds": list(state.rounds),
    }


def unseen_colour_counts(state: CardsState, seat: int) -> list[int]:
    """Colour cards per colour whose place ``seat`` does not know (``int`` ×5).

    These are the other seats' cards beyond their known ones, their hidden
    cards, and the unknown places of the draw pile.
    """
    counts = list(state.deck_counts)
    for c in state.pile:
        counts[c] -= 1
    for c, known in zip(state.draw, state.draw_known, strict=True):
        if known:
            counts[c] -= 1
    for s in range(state.n):
        own = (state.hands[s], state.hidden[s]) if s == seat else (state.known[s],)
        for part in own:
            for c in range(5):
                counts[c] -= part[c]
    return counts


def determinize(state: CardsState, seat: int, rng: random.Random) -> CardsState:
    """A full state that ``seat`` cannot tell from ``state``, the rest dealt at random.

    Keeps ``seat``'s own cards, the pile, the known cards of the draw pile and
    of every seat, every size and the whole public history; deals the unseen
    colour cards (:func:`unseen_colour_counts`) at random into the other
    seats' unknown cards (then picks their hidden cards at random among
    their cards not known to be in hand) and the unknown places of the draw
    pile; shuffles the unseen limit
    cards (the limit pile except cards known to lie at its bottom, and the
    cards put aside). ``observation(seat)`` of the result equals that of
    ``state``. The result is for search: its chance log is ``state``'s.

    Raises:
        ValueError: if ``seat`` is not a seat of this game.
    """
    if not 0 <= seat < state.n:
        raise ValueError(f"there is no seat {seat} in a {state.n}-player game")
    world = state.clone()
    counts = unseen_colour_counts(state, seat)
    pool = [c for c in range(5) for _ in range(counts[c])]
    rng.shuffle(pool)
    pos = 0
    for s in range(state.n):
        if s == seat:
            continue
        size = sum(state.hands[s]) + sum(state.hidden[s])
        cards = [c for c in range(5) for _ in range(state.known[s][c])]
        unknown = size - len(cards)
        cards += pool[pos : pos + unknown]
        pos += unknown
        # The hidden cards come from the cards not known to be in the hand.
        hand = [0] * 5
        for c in cards:
            hand[c] += 1
        spare = [c for c in range(5) for _ in range(hand[c] - state.known_hand[s][c])]
        hidden = [0] * 5
        for c in rng.sample(spare, sum(state.hidden[s])):
            hidden[c] += 1
            hand[c] -= 1
        world.hands[s] = hand
        world.hidden[s] = hidden
    draw = world.draw
    for i, known in enumerate(world.draw_known):
        if not known:
            draw[i] = pool[pos]
            pos += 1
    if pos != len(pool):  # pragma: no cover - conservation is tested
        raise AssertionError(f"determinize: {len(pool) - pos} unseen cards left over")
    fixed = state.limit_bottom_known
    # Sorted first, so that the result depends on what the seat knows and on rng only.
    unseen = sorted(world.limit_pile[fixed:] + world.put_aside)
    rng.shuffle(unseen)
    free = len(world.limit_pile) - fixed
    world.limit_pile = world.limit_pile[:fixed] + unseen[:free]
    world.put_aside = unseen[free:]
    return world
