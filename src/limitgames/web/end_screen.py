"""How a game in the browser ended: its :class:`~limitgames.core.events.Outcome`, and the end screen.

The one place where the server decides the outcome of a game it stores
(:func:`outcome_of`): an ending by the rules is the engine's own
(``State.outcome()``); an ending decided at the table is the server's, read
from what it stored (``games.ending`` and ``games.status``, see
:data:`ENDING_RESIGN`, :data:`ENDING_DRAW`, :data:`ENDING_TIME`):

- ``resign:N``: seat N resigned (:attr:`Termination.RESIGNATION`);
- ``draw``: the players agreed to a draw (:attr:`Termination.AGREED_DRAW`);
- ``time:N``: seat N's clock ran out in a game whose clock says so
  (:attr:`Termination.TIME_FORFEIT`, ``ClockSettings.forfeit``);
- status ``abandoned``: nobody played for ``--abandon-hours``
  (:attr:`Termination.ABANDONMENT`, no seat and no result: returns 0 each, no winner).

:func:`end_screen` turns an outcome into what the page's end screen shows
to the people at some seats: the result for them, the winners, the reason in
the game's own words module (``hex/words.py``, ``cards/words.py``,
``world/words.py``, and :func:`limitgames.core.outcome.ending_at_table` for
endings at the table), and the scores (cards: points, limit cards and score
per seat, and every round in words; world: each nation's scorecard).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from limitgames.core import State
from limitgames.core.events import Outcome, Termination
from limitgames.core.outcome import ending_at_table, result_in_words
from limitgames.core.record import outcome_json
from limitgames.translation import gettext
from limitgames.web.storage import STATUS_ABANDONED, StoredGame
from limitgames.web.views import environment

ENDING_RESIGN = "resign"
"""``games.ending`` ``resign:N``: seat N resigned."""
ENDING_DRAW = "draw"
"""``games.ending`` ``draw``: the players agreed to a draw."""
ENDING_TIME = "time"
"""``games.ending`` ``time:N``: seat N's clock ran out and the clock says the seat loses."""

_BY_SEAT = {ENDING_RESIGN: Termination.RESIGNATION, ENDING_TIME: Termination.TIME_FORFEIT}


def stored_ending(seat: int, termination: Termination) -> str:
    """What ``games.ending`` holds for ``termination`` by ``seat`` (``resign:1``, ``time:0``).

    Raises:
        ValueError: a termination the server does not store this way.
    """
    for word, kind in _BY_SEAT.items():
        if kind is termination:
            return f"{word}:{seat}"
    raise ValueError(f"no stored ending for {termination.value}")


def ending_of(stored: StoredGame) -> dict[str, Any] | None:
    """``games.ending`` read: ``{"kind": "resign" | "time", "seat": N}``, ``{"kind": "draw"}``,
    or ``None`` (no ending at the table)."""
    ending = stored.ending
    if ending is None:
        return None
    kind, _, seat = ending.partition(":")
    if kind in _BY_SEAT and seat.isdigit():
        return {"kind": kind, "seat": int(seat)}
    return {"kind": kind}


def outcome_of(stored: StoredGame, state: State) -> Outcome | None:
    """Why and how a stored game ended, or ``None`` while it goes on (or when the engine does
    not say why its games end).

    Args:
        stored: the game as the server stored it (its ending, status and result).
        state: its engine state, all the stored actions applied.

    Returns:
        An ending at the table built from ``stored`` (see the module docstring:
        :meth:`Outcome.at_table` with the stored result), else ``state.outcome()``.
    """
    ending = ending_of(stored)
    if ending is not None and stored.result is not None:
        if ending["kind"] == ENDING_DRAW:
            return Outcome.at_table(Termination.AGREED_DRAW, stored.result)
        termination = _BY_SEAT.get(ending["kind"])
        if termination is not None and "seat" in ending:
            return Outcome.at_table(termination, stored.result, ending["seat"])
    if stored.status == STATUS_ABANDONED and not state.is_terminal():
        return Outcome(Termination.ABANDONMENT, (0.0,) * len(stored.seats), winners=())
    found = outcome_json(state)
    return None if found is None else Outcome.from_json(found)


def headline(outcome: Outcome, names: Sequence[str], seats: Sequence[int]) -> str:
    """The end screen's title for the people at ``seats``: ``You won``, ``You lost``, ``Draw``
    (one seat), else the result in words (``Red wins``); ``No result`` for an abandoned game."""
    if outcome.termination is Termination.ABANDONMENT and not outcome.winners:
        return gettext("No result")
    if len(seats) == 1:
        seat = seats[0]
        if outcome.is_draw:
            return gettext("Draw")
        if seat in outcome.winners:
            return gettext("You won")
        return gettext("You lost")
    text = result_in_words(names, outcome.returns)
    return text[:1].upper() + text[1:]


def winners_text(outcome: Outcome, names: Sequence[str]) -> str:
    """Who won, in one line: ``Winner: red``, ``Winners: red and blue``, ``Draw``, ``Nobody won``."""
    if not outcome.winners:
        return gettext("Nobody won")
    if outcome.is_draw:
        return gettext("Draw")
    won = [names[s] for s in outcome.winners]
    if len(won) == 1:
        return gettext("Winner: %(players)s") % {"players": won[0]}
    together = result_in_words(
        names, [1.0 if s in outcome.winners else 0.0 for s in range(len(names))]
    )
    return together[:1].upper() + together[1:]


def reason(outcome: Outcome, game: str, names: Sequence[str], you: int | None, state: State) -> str:
    """Why the game ended, in the game's words (see the module docstring)."""
    termination = outcome.termination
    if termination is Termination.ABANDONMENT and outcome.by is None:
        return gettext("Nobody played for too long: the game was abandoned, with no result.")
    if not termination.decided_by_rules:
        return ending_at_table(outcome, names, you)
    if game == "hex":
        from limitgames.hex.words import end_reason

        edition = str(getattr(state, "edition", "nestorgames"))
        return end_reason(outcome, names, edition=edition, you=you)
    if game == "cards":
        from limitgames.cards.words import outcome_sentence as cards_sentence

        return cards_sentence(outcome, names, you)
    if game == "world":
        from limitgames.world.words import outcome_sentence as world_sentence

        return world_sentence(outcome, names)
    return result_in_words(names, outcome.returns)


def _result_word(outcome: Outcome, seat: int) -> str:
    if not outcome.winners:
        return gettext("no result")
    if outcome.is_draw:
        return gettext("draw")
    return gettext("won") if seat in outcome.winners else gettext("lost")


def score_table(outcome: Outcome, game: str, names: Sequence[str]) -> dict[str, Any]:
    """The scores as a table: ``{"caption": str, "columns": [str], "rows": [[str]],
    "winners": [row index], "rounds": [sentence]}``.

    cards (``rules/cards.md``, "End"): points, the number of limit cards taken and the
    score (points - 2 x limit cards) per seat, and each round in words; world
    (``rules/world.md``, scoring): each nation's scorecard; otherwise, or for an ending at
    the table, each seat's result (won, lost, draw).
    """
    details = dict(outcome.details)
    rows: list[list[str]] = []
    rounds: list[str] = []
    if game == "cards" and outcome.scores is not None and "points" in details:
        from limitgames.cards.words import round_sentence

        columns = [gettext("player"), gettext("points"), gettext("limit cards"), gettext("score")]
        taken = details.get("limit_cards") or [[] for _ in names]
        for seat, name in enumerate(names):
            count = len(taken[seat]) if seat < len(taken) else 0
            rows.append(
                [
                    name,
                    str(int(details["points"][seat])),
                    str(count),
                    f"{int(outcome.scores[seat]):+d}",
                ]
            )
        rounds = [round_sentence(dict(r), names) for r in details.get("rounds") or []]
        caption = gettext("Scores")
    elif game == "world" and details.get("scorecards"):
        columns = [
            gettext("nation"),
            gettext("happiness"),
            gettext("money"),
            gettext("territory"),
            gettext("military"),
            gettext("impact"),
            gettext("total"),
        ]
        for seat, card in enumerate(details["scorecards"]):
            keys = ("happiness", "financial", "territory", "military", "impact", "total")
            rows.append([names[seat], *(str(card.get(key, "")) for key in keys)])
        caption = gettext("Victory points")
    else:
        columns = [gettext("player"), gettext("result")]
        rows = [[name, _result_word(outcome, seat)] for seat, name in enumerate(names)]
        caption = gettext("Result")
    return {
        "caption": caption,
        "columns": columns,
        "rows": rows,
        "winners": [s for s in outcome.winners if s < len(rows)],
        "rounds": rounds,
    }


def end_screen(
    outcome: Outcome, game: str, names: Sequence[str], seats: Sequence[int], state: State
) -> dict[str, Any]:
    """What the page's end screen shows to the people at ``seats`` (empty: a spectator).

    Args:
        outcome: how the game ended (:func:`outcome_of`).
        game: the game id (``hex``, ``cards``, ``world``; another game gets the generic words).
        names: the seats' names as the page shows them (already translated).
        seats: the page's seats (one seat: the result and the reason in the second person).
        state: the engine state at the end (hex: its edition).

    Returns:
        ``{"outcome": title, "winners": line, "reason": sentence, "scores": html}`` (all of
        it words for people; the termination is in the view's ``outcome``): ``scores`` is the table of :func:`score_table` drawn by
        ``templates/end_scores.html.j2`` (escaped).
    """
    you = seats[0] if len(seats) == 1 else None
    table = score_table(outcome, game, names)
    return {
        "outcome": headline(outcome, names, seats),
        "winners": winners_text(outcome, names),
        "reason": reason(outcome, game, names, you, state),
        "scores": environment.get_template("end_scores.html.j2").render(table=table),
    }


__all__ = [
    "ENDING_DRAW",
    "ENDING_RESIGN",
    "ENDING_TIME",
    "end_screen",
    "ending_of",
    "headline",
    "outcome_of",
    "reason",
    "score_table",
    "stored_ending",
    "winners_text",
]
