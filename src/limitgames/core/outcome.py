"""A game's result in words, from the seat names and returns (for every interface)."""

from __future__ import annotations

from collections.abc import Sequence

from limitgames.core.events import Outcome, Termination
from limitgames.translation import gettext, ngettext


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


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``, in the current language."""
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s and %(second)s") % {
        "first": ", ".join(items[:-1]),
        "second": items[-1],
    }


def ending_at_table(outcome: Outcome, names: Sequence[str], you: int | None = None) -> str:
    """An ending decided at the table, in one sentence, in the current language: a
    resignation, an agreed draw, a time-out or a player who left (:attr:`Outcome.by`, told
    in the second person when it is ``you``), and who wins. ``""`` for an ending decided by
    the rules (each game's words module says those)."""
    termination = outcome.termination
    if termination is Termination.AGREED_DRAW:
        return gettext("The players agreed to a draw.")
    by = outcome.by
    if by is None or termination.decided_by_rules:
        return ""
    mine = by == you
    if termination is Termination.RESIGNATION:
        what = gettext("You resigned") if mine else gettext("%(player)s resigned")
    elif termination is Termination.TIME_FORFEIT:
        what = gettext("Your clock ran out") if mine else gettext("%(player)s's clock ran out")
    else:
        what = gettext("You left the game") if mine else gettext("%(player)s left the game")
    what = what % {"player": names[by]}
    won = [names[s] for s in outcome.winners]
    if not won or outcome.is_draw:
        return gettext("%(ending)s.") % {"ending": what}
    words = ngettext("%(ending)s: %(players)s wins.", "%(ending)s: %(players)s win.", len(won))
    return words % {"ending": what, "players": listing(won)}
