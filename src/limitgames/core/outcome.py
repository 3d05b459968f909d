"""A game's result in words, from the seat names and returns (for every interface)."""

from __future__ import annotations

from collections.abc import Sequence

from limitgames.translation import gettext


def result_in_words(names: Sequence[str], returns: Sequence[float]) -> str:
    """``red wins``, ``red and blue share the win`` or ``draw`` (best return wins; all equal: draw),
    in the current language (:mod:`limitgames.translation`)."""
    best = max(returns)
    winners = [names[i] for i, r in enumerate(returns) if r == best]
    if len(winners) == len(returns):
        return gettext("draw")
    if len(winners) == 1:
        return gettext("%(player)s wins") % {"player": winners[0]}
    together = gettext("%(first)s and %(second)s") % {
        "first": ", ".join(winners[:-1]),
        "second": winners[-1],
    }
    return gettext("%(players)s share the win") % {"players": together}
