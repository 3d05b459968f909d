"""Takebacks between people: a seat asks to take back its move, the others agree.

What a real table allows [decision]:

- The move taken back is the game's last one, and it must be the asker's: once
  anybody has moved after it, the offer lapses (an offer, like a draw offer,
  is kept in memory only; ``GameHub.advance`` drops it).
- Every other person seated must accept (in a game of more than two, each of
  them); one decline ends the offer; the asker may withdraw it. Computers'
  and zombie seats are not asked. A game against the computer alone has its
  own undo (``GameHub.undo``) and no takeback.
- ``hex`` (perfect information): always, as at a real board.
- ``cards`` and ``world`` (hidden information): only a move that drew no
  chance outcome and that told nobody, its own seat included, anything hidden:
  every event of it must be of a kind that carries no hidden fact
  (:data:`TELLS_NOTHING_HIDDEN`). In cards that is hiding a card face down
  (the table sees that a card was hidden, the seat its own card: nothing it
  did not know) and passing; playing a card is refused (the card was shown
  and a new one drawn: taking it back would let the seat know the top of the
  pile), and so is a suspicion (it reveals the hidden cards). In world every
  decision draws cards, shows a card to the table or writes the log of a
  secret step to its seat, so none is taken back.
- Rated games need the others' consent like any other. The clocks give no
  time back (``GameHub.take_back``).
"""

from __future__ import annotations

from typing import Protocol

from limitgames.core import State, get_game
from limitgames.translation import gettext
from limitgames.web.connection import Connection
from limitgames.web.live_game import LiveGame
from limitgames.web.refusals import RefusedError
from limitgames.web.seat_events import decision_events
from limitgames.web.viewers import Viewers

TELLS_NOTHING_HIDDEN: dict[str, frozenset[str]] = {
    "cards": frozenset({"Hid", "Passed"}),
    "world": frozenset(),
}
"""Per game with hidden information: the kinds of event that tell no hidden fact to anybody
(cards ``Hid``: the table is told a card was hidden, its colour only to its own seat;
``Passed``: a seat with nothing to do passes; ``rules/cards.md``, "A round" 2 and the
edge cases)."""


class TakebackHost(Protocol):
    """What takebacks need of the server's games (:class:`~limitgames.web.live.GameHub`)."""

    @property
    def viewers(self) -> Viewers:
        """The connections, and the changes shared with other processes."""

    async def take_back(self, live: LiveGame, plies: int) -> None:
        """Keep only the first ``plies`` actions (stored, then in memory); lock held."""


def takeback_refusal(live: LiveGame, seat: int) -> str | None:
    """Why ``seat`` may not ask to take back the last move of ``live`` now, or ``None``.

    The rules of the module docstring; ``live.previous`` (the state before the
    last move) tells what the move drew and showed.
    """
    if live.over:
        return gettext("the game is over")
    if len(live.human_seats()) < 2:
        return gettext("a takeback is between people: against the computer, use undo")
    if not live.action_seats or live.action_seats[-1] != seat:
        return gettext("only your own move can be taken back, before anybody moves after it")
    if get_game(live.stored.game).info.perfect_information:
        return None
    before = live.previous
    if before is None:
        return gettext("this move cannot be taken back: the game was reloaded since")
    return hidden_refusal(live.stored.game, before, live.state, live.notations[-1])


def hidden_refusal(game: str, before: State, after: State, notation: str) -> str | None:
    """Why the move ``notation`` (from ``before`` to ``after``) may not be taken back in a
    game with hidden information, or ``None`` (the module docstring's rule)."""
    if len(after.chance_outcomes()) != len(before.chance_outcomes()):
        return gettext("this move drew a card or shuffled: taking it back would deal again")
    harmless = TELLS_NOTHING_HIDDEN.get(game, frozenset())
    for event in decision_events(before, notation):
        if event.kind not in harmless:
            return gettext("this move showed something hidden: it cannot be taken back")
    return None


def shared_offer(live: LiveGame) -> dict[str, object]:
    """The change shared with the other processes (``fanout.py``): the offer and who agreed."""
    offer = live.takeback_offer
    return {
        "kind": "takeback",
        "offer": None if offer is None else list(offer),
        "agreed": sorted(live.takeback_agreed) if offer is not None else [],
    }


class TakebackService:
    """Takeback offers of one server process's games (see the module docstring)."""

    def __init__(self, host: TakebackHost) -> None:
        self.host = host

    async def answer(self, live: LiveGame, connection: Connection, answer: str) -> None:
        """``ask`` for a takeback of the connection's last move, ``accept`` or ``decline``
        another seat's offer, or ``withdraw`` one's own.

        Once every other person seated has accepted, the move is taken back
        (``GameHub.take_back``: the stored record as if it had not been made)
        and everyone at the table and every spectator is sent the position
        before it.

        Raises:
            RefusedError: a spectator, no offer to answer or withdraw, or a move
                that cannot be taken back (:func:`takeback_refusal`, with the reason).
        """
        async with live.lock:
            if not connection.seats:
                raise RefusedError(gettext("spectators cannot ask for or answer a takeback"))
            offer = live.takeback_offer
            if offer is not None and offer[1] != len(live.action_seats):
                offer = live.takeback_offer = None  # somebody moved since: it lapsed
            if answer == "ask":
                if offer is not None:
                    raise RefusedError(gettext("a takeback is already asked for"))
                seat = live.action_seats[-1] if live.action_seats else min(connection.seats)
                if seat not in connection.seats:
                    seat = min(connection.seats)
                refused = takeback_refusal(live, seat)
                if refused is not None:
                    raise RefusedError(refused)
                live.takeback_offer = (seat, len(live.action_seats))
                live.takeback_agreed = frozenset(connection.seats)
            elif offer is None:
                raise RefusedError(gettext("there is no takeback offer to answer"))
            elif answer == "withdraw" or answer == "decline":
                mine = offer[0] in connection.seats
                if (answer == "withdraw") != mine:
                    raise RefusedError(
                        gettext("there is no takeback offer of yours to withdraw")
                        if answer == "withdraw"
                        else gettext("you cannot decline your own takeback offer: withdraw it")
                    )
                live.takeback_offer = None
            else:
                if offer[0] in connection.seats:
                    raise RefusedError(gettext("you cannot accept your own takeback offer"))
                live.takeback_agreed = live.takeback_agreed | connection.seats
            if live.takeback_offer is not None and live.takeback_agreed >= (
                live.human_seats() - live.computer_seats()
            ):
                await self.host.take_back(live, live.takeback_offer[1] - 1)
            else:
                if live.takeback_offer is None:
                    live.takeback_agreed = frozenset()
                self.host.viewers.share(live, shared_offer(live))
        await self.host.viewers.broadcast(live)

    async def adopt(self, live: LiveGame, change: dict[str, object]) -> None:
        """An offer (or its end) announced by another server process: keep it here too."""
        offer = change.get("offer")
        agreed = change.get("agreed")
        async with live.lock:
            if isinstance(offer, list) and len(offer) == 2:
                live.takeback_offer = (int(offer[0]), int(offer[1]))
                seats = agreed if isinstance(agreed, list) else []
                live.takeback_agreed = frozenset(int(s) for s in seats)
            else:
                live.takeback_offer = None
                live.takeback_agreed = frozenset()
        await self.host.viewers.broadcast(live)


__all__ = [
    "TELLS_NOTHING_HIDDEN",
    "TakebackHost",
    "TakebackService",
    "hidden_refusal",
    "shared_offer",
    "takeback_refusal",
]
