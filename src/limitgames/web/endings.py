"""The end of a game outside its rules, and what comes after: resignation, draw, time-out, rematch.

A seat may resign (:func:`~limitgames.web.live_game.resign_result`), two
people may agree to a draw where the game allows one
(:func:`~limitgames.web.live_game.draw_allowed`), a seat whose clock runs out
loses where the clock says so (:meth:`EndingService.time_forfeit`), and the seats of a game that
is over may ask for a rematch (:meth:`EndingService.rematch`).
"""

from __future__ import annotations

from typing import Protocol

from limitgames.core.events import Termination
from limitgames.translation import gettext
from limitgames.web.clock_service import ClockService
from limitgames.web.connection import Connection
from limitgames.web.database import Database
from limitgames.web.end_screen import ENDING_DRAW, stored_ending
from limitgames.web.live_game import LiveGame, draw_allowed, resign_result
from limitgames.web.messages import NewGame, SeatChoice
from limitgames.web.refusals import RefusedError
from limitgames.web.storage import STATUS_ABANDONED
from limitgames.web.viewers import Viewers


class EndingHost(Protocol):
    """What the endings need of the server's games (:class:`~limitgames.web.live.GameHub`)."""

    @property
    def database(self) -> Database:
        """The database calls."""

    @property
    def viewers(self) -> Viewers:
        """The connections, and the changes shared with other processes."""

    @property
    def clocks(self) -> ClockService:
        """The clocks (they stop when a game ends)."""

    async def create(
        self, request: NewGame, address: str = "local", rematch_of: str | None = None
    ) -> tuple[str, dict[int, str]]:
        """Start a game; ``(game id, {seat: token})`` (a rematch is a new game)."""


class EndingService:
    """Resignations, draws and rematches of one server process's games."""

    def __init__(self, host: EndingHost) -> None:
        self.host = host

    async def resign(self, live: LiveGame, connection: Connection, seat: int | None) -> None:
        """``seat`` (one of the connection's; may be left out when it plays one) resigns.

        The game ends with :func:`resign_result`. Raises :class:`RefusedError`
        when the game is over or the seat is not the connection's.
        """
        async with live.lock:
            if seat is None:
                if len(connection.seats) != 1:
                    raise RefusedError(
                        gettext("spectators cannot resign")
                        if not connection.seats
                        else gettext("say which of your seats resigns")
                    )
                seat = next(iter(connection.seats))
            if seat not in connection.seats:
                raise RefusedError(
                    gettext("seat %(seat)s is not yours: you cannot resign it") % {"seat": seat}
                )
            ending = stored_ending(seat, Termination.RESIGNATION)
            await self._end(live, resign_result(len(live.seats), seat), ending)
        await self.host.viewers.broadcast(live)

    async def time_forfeit(self, live: LiveGame, seat: int) -> None:
        """``seat``'s clock ran out in a game whose clock says the seat then loses
        (``ClockSettings.forfeit``): the game ends as if it resigned (:func:`resign_result`),
        stored as ``time:N`` (:attr:`Termination.TIME_FORFEIT`). The lock is held; the
        caller (``ClockService.check``) broadcasts.

        Raises:
            RefusedError: the game is over or no longer being played.
        """
        ending = stored_ending(seat, Termination.TIME_FORFEIT)
        await self._end(live, resign_result(len(live.seats), seat), ending)

    async def draw(
        self, live: LiveGame, connection: Connection, accept: bool, withdraw: bool = False
    ) -> None:
        """Offer or agree to a draw (``accept``), decline the one offered, or ``withdraw`` one's own.

        The game ends in a draw (0 each) once every seat agreed
        (:func:`draw_allowed` says where a draw may be offered). Withdrawing
        takes the connection's seats out of the offer; a seat's own move
        withdraws its offer too (``GameHub.advance``).

        Raises:
            RefusedError: the game is over, a spectator, no draw in this game,
                or no offer to decline or withdraw.
        """
        async with live.lock:
            if live.over:
                raise RefusedError(gettext("the game is over"))
            if not connection.seats:
                raise RefusedError(gettext("spectators cannot offer a draw"))
            if not draw_allowed(live.stored.game, live.seats):
                raise RefusedError(gettext("a draw can be agreed only in hex between two people"))
            if withdraw:
                if not live.draw_offer & connection.seats:
                    raise RefusedError(gettext("there is no draw offer of yours to withdraw"))
                live.draw_offer = live.draw_offer - connection.seats
            elif not accept:
                if not live.draw_offer - connection.seats:
                    raise RefusedError(gettext("there is no draw offer to decline"))
                live.draw_offer = frozenset()
            else:
                live.draw_offer = live.draw_offer | connection.seats
                if live.draw_offer >= {s.seat for s in live.seats}:
                    await self._end(live, [0.0] * len(live.seats), ENDING_DRAW)
            if not live.over:
                self.host.viewers.share(live, {"kind": "draw", "offer": sorted(live.draw_offer)})
        await self.host.viewers.broadcast(live)

    async def _end(self, live: LiveGame, result: list[float], ending: str) -> None:
        """Store the end of a game outside its rules (the lock is held)."""
        if live.over:
            raise RefusedError(gettext("the game is over"))
        if not await self.host.database.run(
            self.host.database.store.end_game, live.id, result, ending
        ):
            raise RefusedError(gettext("this game is no longer being played"))
        live.stored.status = "finished"
        live.stored.result = list(result)
        live.stored.ending = ending
        live.draw_offer = frozenset()
        live.thinking = None
        live.generation += 1
        if live.computer_task is not None:
            live.computer_task.cancel()
        self.host.clocks.follow(live)
        self.host.viewers.share(live, {"kind": "reload"})

    async def rematch(self, live: LiveGame, connection: Connection) -> None:
        """A seat of a finished game asks for a rematch.

        The first request starts a new game with the same game and variant,
        a fresh seed drawn by the server, and the seats rotated (the player
        of seat i plays seat i+1 mod n; computers keep their level, seats
        never taken stay open). Only the seats of whoever asked are joined
        at once; every other person's seat waits for its person to open the
        rematch (its clock does not run before, and nobody becomes a zombie
        of a game they never opened). Each person's new token goes only to
        connections that proved their old seat (``{"type": "rematch"}``),
        now or when they come back, on this server process and, through
        ``Viewers.on_change``, on the others (:meth:`adopt_rematch`); later requests
        get the same game. The
        tokens wait in memory: after a restart the rematch's seats are
        reached through the link of whoever was sent it.

        Raises:
            RefusedError: a spectator, a game not finished.
            TooManyError: the asking address started too many games.
        """
        async with live.lock:
            if not connection.seats:
                raise RefusedError(gettext("spectators cannot ask for a rematch"))
            if not live.over or live.stored.status == STATUS_ABANDONED:
                raise RefusedError(gettext("a rematch is for a game that is over"))
            if live.rematch_id is None:
                n = len(live.seats)
                choices: list[SeatChoice] = [SeatChoice(kind="open")] * n
                for s in live.seats:
                    if s.is_computer:
                        choice = SeatChoice(kind="computer", level=s.label)
                    elif s.is_open:
                        choice = SeatChoice(kind="open")
                    elif s.seat in connection.seats:
                        choice = SeatChoice(kind="me", name=s.label)  # who asked: joined
                    else:  # joined once its person opens the rematch with the token offered
                        choice = SeatChoice(kind="friend", name=s.label)
                    choices[(s.seat + 1) % n] = choice
                request = NewGame(
                    game=live.stored.game,
                    variant=dict(live.stored.variant),
                    seats=choices,
                    clock=live.clock_settings.to_choice(),
                )
                game_id, tokens = await self.host.create(request, connection.address, live.id)
                live.rematch_id = game_id
                live.rematch_tokens = {(new - 1) % n: (new, token) for new, token in tokens.items()}
                self.host.viewers.share(
                    live,
                    {
                        "kind": "rematch",
                        "game_id": game_id,
                        "tokens": {
                            str(old): [new, token]
                            for old, (new, token) in live.rematch_tokens.items()
                        },
                    },
                )
        for other in list(live.connections):
            await self.offer_rematch(live, other)
        await self.host.viewers.broadcast(live)

    async def adopt_rematch(
        self, live: LiveGame, game_id: str, tokens: dict[int, tuple[int, str]]
    ) -> None:
        """A rematch of ``live`` started by another server process: offer it here.

        ``tokens`` is ``{old seat: (new seat, token)}``; each connection here
        is sent only the tokens of the seats it proved
        (:meth:`offer_rematch`). When two processes started a rematch at
        the same moment, both keep the one with the smaller game id
        [decision], so both seats meet in the same game (the other stays
        unplayed and is abandoned in time).
        """
        async with live.lock:
            if live.rematch_id is not None and live.rematch_id <= game_id:
                return
            live.rematch_id = game_id
            live.rematch_tokens = dict(tokens)
        for other in list(live.connections):
            await self.offer_rematch(live, other)
        await self.host.viewers.broadcast(live)

    async def offer_rematch(self, live: LiveGame, connection: Connection) -> None:
        """Send ``connection`` the rematch tokens of the seats it proved (if a rematch started)."""
        if live.rematch_id is None:
            return
        mine = {
            str(new): token
            for old, (new, token) in live.rematch_tokens.items()
            if old in connection.seats
        }
        if mine:
            await connection.send({"type": "rematch", "game_id": live.rematch_id, "tokens": mine})


__all__ = ["EndingHost", "EndingService"]
