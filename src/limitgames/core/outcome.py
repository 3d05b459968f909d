"""A game's result in words, from the seat names and returns (for every interface)."""

from __future__ import annotations

from collections.abc import Sequence


def result_in_words(names: Sequence[str], returns: Sequence[float]) -> str:
    """``red wins``, ``red and blue share the win`` or ``draw`` (best return wins; all equal: draw)."""
    best = max(returns)
    winners = [names[i] for i, r in enumerate(returns) if r == best]
    if len(winners) == len(returns):
        return "draw"
    return " and ".join(winners) + (" wins" if len(winners) == 1 else " share the win")
