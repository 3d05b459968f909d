"""What happens in a game of Limits, as typed events, and how a finished game ended.

Rules: ``rules/cards.md`` ("A round", "End", "Information"). Each event is a frozen
dataclass (:class:`limitgames.core.events.Event`) whose ``audience`` says who may see it.
What the public may not see is told twice: a hidden card is :class:`Hid` with
``colour=None`` for everyone and :class:`Hid` with its colour for its owner only
(``audience={seat}``); a drawn card is :class:`Drew` with ``None`` for every card the
table did not see and the full :class:`Drew` for the drawer only. A card drawn from a
known place on top of the draw pile (the two cards an exchange put there, the piles of
earlier rounds) is public and named in both.

:func:`events_of_action` plays an action on a :class:`~limitgames.cards.rules.CardsState`
and reads the events from the state before and after it (the engine's fast path
:meth:`~limitgames.cards.rules.CardsState.apply` is left as it is). :func:`opening` tells
the start of the first round; :func:`outcome` is the ending of a finished game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from limitgames.cards.material import COLOURS, limit_card_code
from limitgames.cards.notation import EXCHANGE, PASS, PLAY, SUSPECT
from limitgames.core.events import Event, Outcome, Termination


class CardsState(Protocol):
    """What the events read of a :class:`limitgames.cards.rules.CardsState` (named here, not
    imported: the rules module calls this one, so this one may not import it back)."""

    n: int
    player: int
    round: int
    start: int
    limit_card: tuple[int, ...] | None
    draw: list[int]
    draw_known: list[bool]
    pile: list[int]
    hands: list[list[int]]
    hidden: list[list[int]]
    points: list[int]
    taken: list[list[tuple[int, ...]]]
    rounds: list[dict[str, Any]]

    def apply(self, action: Any) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def winners(self) -> list[int]: ...
    def scores(self) -> list[int]: ...


__all__ = [
    "Drew",
    "Exchanged",
    "Hid",
    "LimitCardReturned",
    "LimitCardTaken",
    "Passed",
    "Played",
    "Revealed",
    "RoundScored",
    "RoundStarted",
    "Suspected",
    "events_of_action",
    "opening",
    "outcome",
    "public_events",
]


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round begins: the top limit card is revealed ("A round" 1); public.

    Attributes:
        round: the round number, from 0. start_player: the seat that starts it.
        limit_card: the limit card's code (``"X0335"``: red X, yellow 0, green 3, blue 3,
            purple 5).
    """

    round: int
    start_player: int
    limit_card: str


@dataclass(frozen=True)
class Hid(Event):
    """A seat put a hand card face down ("A round" 2). Told twice: to everyone with
    ``colour=None``, to the seat itself with the colour (``audience={seat}``).

    Attributes:
        seat: who hid. colour: the card's colour (``"red"``...), or ``None`` in the public event.
    """

    seat: int
    colour: str | None


@dataclass(frozen=True)
class Played(Event):
    """A seat put a hand card face up on the pile ("A round" 3, play); public.

    Attributes:
        seat: who played. colour: the card's colour.
    """

    seat: int
    colour: str


@dataclass(frozen=True)
class Exchanged(Event):
    """A seat showed four cards of one colour and scored +1; two of them went on the pile,
    two face down on top of the draw pile ("A round" 3, exchange); public. The four new
    cards are the :class:`Drew` that follows.

    Attributes:
        seat: who exchanged. colour: the colour shown.
    """

    seat: int
    colour: str


@dataclass(frozen=True)
class Drew(Event):
    """A seat drew cards from the draw pile (after a play, an exchange or at the refill).
    Told twice: to everyone with ``None`` for each card the table could not see, to the
    drawer with every colour (``audience={seat}``).

    Attributes:
        seat: who drew. cards: the cards in the order drawn, each a colour or ``None``.
    """

    seat: int
    cards: tuple[str | None, ...]


@dataclass(frozen=True)
class Passed(Event):
    """A seat could neither play, exchange nor suspect and passed (rules: "Edge cases"); public.

    Attributes:
        seat: who passed.
    """

    seat: int


@dataclass(frozen=True)
class Suspected(Event):
    """A seat claimed that another's last card exceeded the limit of its colour ("A round"
    3, suspect); public.

    Attributes:
        seat: who suspects. suspect: the suspected seat. colour: the suspect's last colour.
    """

    seat: int
    suspect: int
    colour: str


@dataclass(frozen=True)
class Revealed(Event):
    """The round's hidden cards are shown ("A round" 4); public.

    Attributes:
        hidden: per seat, the colours it had hidden this round.
    """

    hidden: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RoundScored(Event):
    """A suspicion's check ("A round" 4); public.

    Attributes:
        round: the round number, from 0. seat: who suspected. suspect: the suspected seat.
        colour: the suspect's last colour. counted: the cards of that colour on the pile up
        to and including the suspect's last card. card_limit: the limit card's value for
        the colour (``None``: X, no limit). hidden: the hidden cards of that colour.
        limit: ``card_limit + hidden`` (``None``: no limit). exceeded: ``counted > limit``.
        taker: who takes the limit card (-2). scorer: who scores +1.
    """

    round: int
    seat: int
    suspect: int
    colour: str
    counted: int
    card_limit: int | None
    hidden: int
    limit: int | None
    exceeded: bool
    taker: int
    scorer: int


@dataclass(frozen=True)
class LimitCardTaken(Event):
    """A seat took the round's limit card (worth -2 at the end); public.

    Attributes:
        seat: who took it. limit_card: its code. count: the limit cards that seat now holds.
    """

    seat: int
    limit_card: str
    count: int


@dataclass(frozen=True)
class LimitCardReturned(Event):
    """Nobody in a full circle could act: the round ended without a suspicion and its limit
    card went under the limit pile (rules: "Edge cases"); public.

    Attributes:
        limit_card: its code.
    """

    limit_card: str


def opening(state: CardsState) -> list[Event]:
    """The events that set the table before the first decision: the first round starts.

    Args:
        state: a game of Limits, usually a new one.

    Returns:
        ``[RoundStarted]`` for the current round, or ``[]`` for a finished game.
    """
    if state.limit_card is None:
        return []
    return [RoundStarted(state.round, state.start, limit_card_code(state.limit_card))]


def public_events(actions: list[list[Any]]) -> list[Event]:
    """The public events of a round's decisions as an observation lists them
    (``observation["round_actions"]`` or a finished round's ``"actions"``: ``[seat,
    notation]`` with a hide as ``"hide"``), for a surface that draws from the observation.
    The draws are left out (an observation does not list them).

    Raises:
        ValueError: an entry that is not ``[seat, public notation]``.
    """
    events: list[Event] = []
    last: dict[int, str] = {}
    for entry in actions:
        seat, text = int(entry[0]), str(entry[1])
        verb, _, rest = text.partition(" ")
        if text == "hide":
            events.append(Hid(seat, None))
        elif verb == "play" and rest in COLOURS:
            events.append(Played(seat, rest))
            last[seat] = rest
        elif verb == "exchange" and rest in COLOURS:
            events.append(Exchanged(seat, rest))
            last[seat] = rest
        elif verb == "suspect" and rest.isdigit() and int(rest) in last:
            events.append(Suspected(seat, int(rest), last[int(rest)]))
        elif text == "pass":
            events.append(Passed(seat))
        else:
            raise ValueError(f"not a public Limits action of this round: {entry!r}")
    return events


def events_of_action(state: CardsState, action: int) -> list[Event]:
    """Apply ``action`` to ``state`` (as :meth:`~limitgames.cards.rules.CardsState.apply`)
    and return what happened, in order, each event with its audience.

    Raises:
        IllegalActionError: as ``apply``; the state is unchanged and nothing is returned.
    """
    seat = state.player
    before = _Before(state)
    state.apply(action)
    events: list[Event] = []
    if action < PLAY:
        colour = COLOURS[action]
        events.append(Hid(seat, None))
        events.append(Hid(seat, colour, audience=frozenset({seat})))
        return events
    if action < EXCHANGE:
        events.append(Played(seat, COLOURS[action - PLAY]))
        events += _drew(seat, before.draw[-1:], before.draw_known[-1:])
        return events
    if action < SUSPECT:
        events.append(Exchanged(seat, COLOURS[action - EXCHANGE]))
        taken = min(4, len(before.draw))
        start = len(before.draw) - taken
        events += _drew(seat, before.draw[start:], before.draw_known[start:])
        return events
    if action < PASS:
        suspect = action - SUSPECT
        check = state.rounds[-1]["suspicion"]
        events.append(Suspected(seat, suspect, check["colour"]))
    else:
        events.append(Passed(seat))
        if len(state.rounds) == before.rounds:  # the round goes on
            return events
    events += _round_end(state, before)
    return events


def outcome(state: CardsState) -> Outcome | None:
    """How a finished game of Limits ended (``rules/cards.md``, "End"), or ``None`` while
    it goes on.

    Returns:
        An :class:`~limitgames.core.events.Outcome`: termination ``LIMIT_CARDS_TAKEN``;
        ``returns`` as ``state.returns()``; ``scores``: points − 2 × limit cards taken per
        seat; ``winners``: the seats with the highest score; ``details``: ``points``,
        ``limit_cards`` (codes per seat) and ``rounds`` (each finished round's public
        summary: limit card, start player, public actions, pile, revealed cards, the
        suspicion's check and the taker).
    """
    if not state.is_terminal():
        return None
    details: dict[str, Any] = {
        "points": list(state.points),
        "limit_cards": [[limit_card_code(c) for c in taken] for taken in state.taken],
        "rounds": [dict(r) for r in state.rounds],
    }
    return Outcome(
        termination=Termination.LIMIT_CARDS_TAKEN,
        returns=tuple(state.returns()),
        winners=tuple(state.winners()),
        scores=tuple(float(s) for s in state.scores()),
        details=details,
    )


class _Before:
    """What the events need of the state before an action (copies, the state changes)."""

    def __init__(self, state: CardsState) -> None:
        self.draw = list(state.draw)
        self.draw_known = list(state.draw_known)
        self.pile = list(state.pile)
        self.hands = [list(h) for h in state.hands]
        self.hidden = [list(h) for h in state.hidden]
        self.rounds = len(state.rounds)
        self.limit_card = state.limit_card


def _drew(seat: int, cards: list[int], known: list[bool]) -> list[Event]:
    """The two :class:`Drew` events of ``seat`` drawing ``cards`` (listed bottom to top, as
    the draw pile is kept: the last one is drawn first)."""
    if not cards:
        return []
    order = cards[::-1]
    flags = known[::-1]
    private = tuple(COLOURS[c] for c in order)
    public = tuple(COLOURS[c] if k else None for c, k in zip(order, flags, strict=True))
    return [Drew(seat, public), Drew(seat, private, audience=frozenset({seat}))]


def _round_end(state: CardsState, before: _Before) -> list[Event]:
    """The end of a round: reveal, the check and the limit card, the refill, the next round."""
    summary = state.rounds[-1]
    events: list[Event] = [Revealed(tuple(tuple(cards) for cards in summary["revealed"]))]
    check = summary["suspicion"]
    assert before.limit_card is not None
    code = limit_card_code(before.limit_card)
    if check is None:
        events.append(LimitCardReturned(code))
        first = summary["start_player"]
    else:
        card_limit = check["card_limit"]
        events.append(
            RoundScored(
                summary["round"],
                check["by"],
                check["suspect"],
                check["colour"],
                check["counted"],
                None if card_limit == "X" else int(card_limit),
                check["hidden"],
                check["limit"],
                bool(check["exceeded"]),
                check["taker"],
                check["scorer"],
            )
        )
        taker = check["taker"]
        events.append(LimitCardTaken(taker, code, len(state.taken[taker])))
        first = taker
    if state.is_terminal():
        return events
    # The refill, clockwise from ``first``: the pile went under the draw pile (its first
    # card on top of it), then each seat drew what it missed, one seat after the other.
    draw = before.pile[::-1] + before.draw
    known = [True] * len(before.pile) + before.draw_known
    for k in range(state.n):
        s = (first + k) % state.n
        count = sum(state.hands[s]) - sum(before.hands[s]) - sum(before.hidden[s])
        if count > 0:
            events += _drew(s, draw[len(draw) - count :], known[len(known) - count :])
            del draw[len(draw) - count :]
            del known[len(known) - count :]
    events += opening(state)
    return events
