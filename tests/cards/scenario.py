"""Building Limits positions for scenario tests: chosen hands, draw pile and limit cards.

A scenario is a real game set up through recorded chance outcomes (the same
path a record replays through), so every rule runs as in play.
"""

from __future__ import annotations

from collections import Counter

from limitgames.cards import CARDS, CardsState, default_limit_cards
from limitgames.cards.material import COLOUR_LETTERS, hand_size, limit_cards_put_aside
from limitgames.core import Chance


def deck_for(players: int, start: int, hands: list[str], draw: str = "") -> str:
    """The 60-letter colour deck (top first) that deals ``hands`` and then has ``draw`` on top.

    Dealing is one card at a time, clockwise from ``start``. The rest of the
    deck (to make 12 of each colour) follows ``draw``, in ``rygbp`` order.
    """
    size = hand_size(players)
    assert len(hands) == players and all(len(h) == size for h in hands)
    dealt = []
    for k in range(size):
        for j in range(players):
            dealt.append(hands[(start + j) % players][k])
    used = Counter(dealt) + Counter(draw)
    rest = "".join(ch * (12 - used[ch]) for ch in COLOUR_LETTERS)
    assert all(used[ch] <= 12 for ch in COLOUR_LETTERS), "more than 12 cards of a colour"
    return "".join(dealt) + draw + rest


def make_state(
    players: int,
    hands: list[str],
    limit_cards: list[str],
    start: int = 0,
    draw: str = "",
) -> CardsState:
    """A new game whose limit pile is exactly ``limit_cards`` (top first) with the given deal."""
    aside = default_limit_cards().codes[: limit_cards_put_aside(players)]
    chance = Chance(
        replay=[
            {"kind": "limit cards", "value": aside + list(limit_cards)},
            {"kind": "colour cards", "value": deck_for(players, start, hands, draw)},
            {"kind": "start player", "value": start},
        ]
    )
    state = CARDS.new_initial_state(chance=chance, players=players)
    assert isinstance(state, CardsState)
    return state


def play(state: CardsState, *moves: str) -> None:
    """Apply each move in notation."""
    for move in moves:
        state.apply_string(move)
