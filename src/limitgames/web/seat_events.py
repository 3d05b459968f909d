"""What the last decision did, as events, for each connection: only what its seats may see.

The engine tells a decision as :class:`~limitgames.core.events.Event` values, each naming
its audience (cards: a hidden card's colour to its owner alone; world: a secret choice of a
simultaneous step to its nation alone). The server replays the last decision on a copy of
the state before it (``State.apply_with_events``: the copy draws the same chance outcomes,
its generator being a copy too) and sends each connection only the events one of its seats
may see (:func:`limitgames.core.events.visible`; a spectator: the public ones), as JSON
with the sentence of the game's words module where it has one (``cards/words.py``,
``world/words.py``; hex tells its decisions in ``announcements``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from limitgames.core import State
from limitgames.core.errors import LimitGamesError
from limitgames.core.events import Event, visible


def decision_events(before: State, notation: str) -> list[Event]:
    """The events of the decision ``notation`` taken in ``before`` (which is not changed).

    Returns ``[]`` when the decision cannot be replayed (it always can for a decision the
    server stored from ``before``).
    """
    copy = before.clone()
    try:
        return copy.apply_with_events(copy.parse_action(notation))
    except LimitGamesError:
        return []


def seen_by(events: Sequence[Event], seats: frozenset[int]) -> list[Event]:
    """The events any of ``seats`` may see (no seat: a spectator, the public events), in order."""
    if not seats:
        return visible(events, None)
    return [e for e in events if any(e.visible_to(seat) for seat in sorted(seats))]


def _sentence(game: str, event: Event, names: Sequence[str], you: int | None) -> str | None:
    if game == "cards":
        from limitgames.cards.words import sentence as cards_sentence

        return cards_sentence(event, names, you)
    if game == "world":
        from limitgames.world.words import sentence as world_sentence

        return world_sentence(event, names)
    return None


def events_view(
    game: str, events: Sequence[Event], seats: frozenset[int], names: Sequence[str]
) -> list[dict[str, Any]]:
    """The view's ``events``: :func:`seen_by` ``seats``, each as ``Event.to_json()`` (its
    audience left out) plus ``"sentence"`` in the current language (``None`` where the words
    module tells nothing for it). ``names`` are the seats' names as the page shows them."""
    you = next(iter(seats)) if len(seats) == 1 else None
    told = []
    for event in seen_by(events, seats):
        data = {key: _plain(value) for key, value in event.to_json().items()}
        data["sentence"] = _sentence(game, event, names, you)
        told.append(data)
    return told


def _plain(value: Any) -> Any:
    """A JSON-ready copy (a :class:`~limitgames.translation.Phrase` becomes its English ``str``)."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


__all__ = ["decision_events", "events_view", "seen_by"]
