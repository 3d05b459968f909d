"""What happens in a game of LIMIT, as typed events, and how a finished game ended.

Rules: ``rules/world.md`` (rulebook seed 004). The engine keeps its log
(:attr:`~limitgames.world.state.WorldState.log`: ``(seat or None, line, private)``, the
line a :class:`~limitgames.translation.Phrase` drawn in the reader's language); here each
new line becomes a :class:`Noted` event whose ``audience`` says who may read it:

- a public line: everyone (``audience=None``);
- a private line (it names a card in a hand): its nation only (``audience={seat}``);
- a line of a simultaneous step's secret choice (the rulebook's simultaneous steps, taken
  seat by seat here: ``rules/world.md``, "A generation"): its nation only when it
  is written, then again for everyone with ``revealed=True`` when the step closes (a
  line with no nation is told to nobody until then).

Each decision is a :class:`Decided` event, public unless the table cannot see it (a card
kept or discarded, a secret choice): then only the deciding nation's. :func:`outcome` is
the ending of a finished game (the seventh generation or the fourth crisis, then the
stress test and scoring: rulebook pp 11, 23).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from limitgames.core.events import Event, Outcome, Termination


class WorldState(Protocol):
    """What the events read of a :class:`limitgames.world.state.WorldState` (named here, not
    imported: the state calls this module, so this one may not import it back)."""

    log: list[tuple[int | None, str, bool]]
    veiled_log: list[tuple[int | None, str, bool]]
    crises: list[list[str]]
    generation: int
    solo: bool
    scores: list[int]
    score_details: list[dict[str, int]]

    @property
    def data(self) -> Any: ...
    def current_player(self) -> int: ...
    def announcement(self, action: Any, viewer: int | None) -> str | None: ...
    def action_to_string(self, action: Any) -> str: ...
    def apply(self, action: Any) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...


__all__ = ["Decided", "Noted", "events_of_action", "opening", "outcome"]


@dataclass(frozen=True)
class Decided(Event):
    """A nation took a decision. Public, unless the table may not see it (a card kept or
    discarded, any choice of a simultaneous step): then ``audience={seat}``.

    Attributes:
        seat: the deciding nation's seat. action: the decision in the game's notation
            (``"play education"``, ``"deck society"``).
    """

    seat: int
    action: str


@dataclass(frozen=True)
class Noted(Event):
    """A line of the game's log: what happened, as the rulebook says it.

    Attributes:
        seat: the nation the line is about, or ``None`` for the whole table.
        text: the English line; a :class:`~limitgames.translation.Phrase` keeping its
            template and values, drawn in the reader's language by
            :func:`limitgames.world.words.event_sentence`.
        revealed: ``True`` when a simultaneous step closed and the line, until then its
            nation's alone, is shown to everyone.
    """

    seat: int | None
    text: str
    revealed: bool = False


_Entry = tuple[int | None, str, bool]


def _line(entry: _Entry) -> Noted:
    """The event of a log entry written now: a private line for its nation only."""
    seat, text, private = entry
    if private and seat is not None:
        return Noted(seat, text, audience=frozenset({seat}))
    return Noted(seat, text)


def opening(state: WorldState) -> list[Event]:
    """The events that set the table before the first decision: the log so far as each
    nation may read it (setup, the first automatic steps).

    Args:
        state: a game of LIMIT, usually a new one (or one loaded from a position).
    """
    events: list[Event] = [_line(entry) for entry in state.log]
    events += _veiled(state.veiled_log)
    return events


def _veiled(entries: list[_Entry]) -> list[Event]:
    """Secret choices' lines as they are written: each told to its nation only."""
    return [
        Noted(seat, text, audience=frozenset({seat}))
        for seat, text, _private in entries
        if seat is not None
    ]


def events_of_action(state: WorldState, action: Any) -> list[Event]:
    """Apply ``action`` to ``state`` (as :meth:`~limitgames.world.state.WorldState.apply`)
    and return what happened, in order, each event with its audience.

    The log is read before and after: its new lines, in order, then the new lines held
    back while a simultaneous step is open. A line held back before the action that the
    action's end of step brings into the log is told again to everyone (``revealed``),
    unless it is private. The state's log itself is not changed.

    Raises:
        IllegalActionError: as ``apply``; the state is unchanged and nothing is returned.
    """
    seat = state.current_player()
    public = state.announcement(action, None) is not None
    text = state.action_to_string(action) if isinstance(action, tuple) else repr(action)
    logged = len(state.log)
    held = list(state.veiled_log)  # kept alive, so that the ids below stay theirs
    held_ids = {id(entry) for entry in held}
    state.apply(action)
    events: list[Event] = [Decided(seat, text, audience=None if public else frozenset({seat}))]
    for entry in state.log[logged:]:
        if id(entry) in held_ids:
            if not entry[2]:  # private lines were already told to their nation
                events.append(Noted(entry[0], entry[1], True))
            continue
        events.append(_line(entry))
    events += _veiled([e for e in state.veiled_log if id(e) not in held_ids])
    return events


def outcome(state: WorldState) -> Outcome | None:
    """How a finished game of LIMIT ended, or ``None`` while it goes on.

    Returns:
        An :class:`~limitgames.core.events.Outcome`. Termination: ``FOURTH_CRISIS`` when
        the crisis tiles placed reached the data's ``end.crises`` (4), else
        ``SEVENTH_GENERATION`` when the last generation (``end.generations``, 7) was
        played, else ``SCORED_EARLY`` (a position scored where it stood, ``limit score
        world``). ``returns`` as ``state.returns()``; ``scores``: the victory points per
        nation; ``winners``: the nations with the highest score (solo mode: the one
        nation if it played "a very good game", p24, else nobody). ``details``:
        ``generation``, ``crises``, ``solo`` and ``scorecards`` (per nation its
        happiness, financial, territory, military, impact and total).
    """
    if not state.is_terminal():
        return None
    crises = sum(len(tiles) for tiles in state.crises)
    end = state.data.end
    if crises >= int(end["crises"]):
        termination = Termination.FOURTH_CRISIS
    elif state.generation >= int(end["generations"]):
        termination = Termination.SEVENTH_GENERATION
    else:
        termination = Termination.SCORED_EARLY
    returns = tuple(state.returns())
    scores = tuple(float(s) for s in state.scores)
    if state.solo:
        winners: tuple[int, ...] = (0,) if returns[0] > 0 else ()
    else:
        best = max(scores)
        winners = tuple(s for s, score in enumerate(scores) if score == best)
    details: dict[str, Any] = {
        "generation": state.generation,
        "crises": crises,
        "solo": state.solo,
        "scorecards": [dict(d) for d in state.score_details],
    }
    return Outcome(
        termination=termination,
        returns=returns,
        winners=winners,
        scores=scores,
        details=details,
    )
