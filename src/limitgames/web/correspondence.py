"""Correspondence games: the e-mail reminder to the seat whose days per move run low.

A game with a ``days`` clock (``clocks.py``: 1-14 days for each turn) is
played over days; its people come and go. When the seat to move has less
than :attr:`Correspondence.share` of its turn left, the server sends one
e-mail to the address that seat's person gave when taking it (``hello``'s
``email``, or later an ``email`` message from the game page's field), else
to the e-mail of the account that took the seat (:func:`reminder_address`
is the one place that looks it up).

One reminder per turn, whatever the number of server processes: a process
sends it only after the database let it mark the turn (``games.reminded_ply``
set from a smaller value to the turn's ply, while the game still has that
many actions: one ``UPDATE``, so of two processes deciding at once one
wins). A reminder the mail server refused is not tried again for that turn
(logged).

The SMTP server is configured by the environment (:func:`mailer_from_environment`):
``LIMIT_SMTP_HOST`` (none: no e-mail is sent), ``LIMIT_SMTP_PORT`` (25),
``LIMIT_SMTP_FROM``, ``LIMIT_SMTP_USER`` and ``LIMIT_SMTP_PASSWORD``,
``LIMIT_SMTP_STARTTLS`` (``1``), and ``LIMIT_SITE_URL`` for the link to the
game. Mail is sent with the standard library's :mod:`smtplib`, on a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import smtplib
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from limitgames.translation import N_, gettext
from limitgames.web.clocks import CLOCK_DAYS
from limitgames.web.connection import Connection
from limitgames.web.refusals import RefusedError
from limitgames.web.schema import STATUS_PLAYING, AccountRow, GameRow, SeatRow

if TYPE_CHECKING:
    from limitgames.web.live import GameHub
    from limitgames.web.live_game import LiveGame

log = logging.getLogger("limitgames.web")

REMIND_SHARE = 0.25
"""A reminder goes when less than this share of the turn's time is left (a quarter)."""

CHECK_EVERY_SECONDS = 60.0
"""How often a server process looks for reminders due (a day's clock needs no finer look)."""

EMAIL = re.compile(r"[^@\s<>,;\"]{1,64}@[^@\s<>,;\"]+\.[^@\s<>,;\"]+")
"""What is taken for an e-mail address: local part, ``@``, a domain with a dot, no spaces."""

SUBJECT = N_("Your move in %(game)s: %(left)s left")
BODY = N_(
    "It is your turn in the %(game)s game you play on limit serve.\n"
    "Less than %(left)s of your %(days)d days for this move are left; then the computer "
    "plays your seat.\n\n%(link)s\n"
)


class Mailer(Protocol):
    """Sends one e-mail."""

    async def send(self, to: str, subject: str, body: str) -> None:
        """Send ``body`` (plain text) to ``to``; raises ``OSError``/``smtplib.SMTPException``."""


@dataclass(frozen=True)
class SmtpMailer:
    """E-mail through an SMTP server (:mod:`smtplib`, run on a thread).

    Attributes:
        host, port: the SMTP server.
        sender: the ``From`` address.
        username, password: a login, if the server wants one.
        starttls: upgrade the connection with STARTTLS before sending.
        timeout: seconds for the SMTP conversation.
    """

    host: str
    port: int = 25
    sender: str = "limitgames@localhost"
    username: str | None = None
    password: str | None = None
    starttls: bool = False
    timeout: float = 30.0

    def _send(self, message: EmailMessage) -> None:
        with smtplib.SMTP(self.host, self.port, timeout=self.timeout) as smtp:
            if self.starttls:
                smtp.starttls()
            if self.username is not None:
                smtp.login(self.username, self.password or "")
            smtp.send_message(message)

    async def send(self, to: str, subject: str, body: str) -> None:
        """Send one plain-text e-mail to ``to``.

        Raises:
            OSError, smtplib.SMTPException: the server cannot be reached or refused it.
        """
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        await asyncio.to_thread(self._send, message)


def mailer_from_environment(environ: Mapping[str, str] | None = None) -> SmtpMailer | None:
    """The SMTP server the environment names (module docstring), or ``None`` (no e-mail).

    Raises:
        ValueError: ``LIMIT_SMTP_PORT`` is not a port number.
    """
    env = os.environ if environ is None else environ
    host = env.get("LIMIT_SMTP_HOST", "").strip()
    if not host:
        return None
    port_text = env.get("LIMIT_SMTP_PORT", "25")
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"LIMIT_SMTP_PORT must be a port number, not {port_text!r}")
    return SmtpMailer(
        host=host,
        port=int(port_text),
        sender=env.get("LIMIT_SMTP_FROM", "limitgames@localhost"),
        username=env.get("LIMIT_SMTP_USER") or None,
        password=env.get("LIMIT_SMTP_PASSWORD") or None,
        starttls=env.get("LIMIT_SMTP_STARTTLS", "0") == "1",
    )


def check_email(text: str) -> str:
    """``text`` stripped, if it looks like an e-mail address (:data:`EMAIL`).

    Raises:
        RefusedError: it does not (one line, naming the field).
    """
    address = text.strip()
    if len(address) > 254 or not EMAIL.fullmatch(address):
        raise RefusedError(gettext("email: not an e-mail address"))
    return address


def reminder_address(engine: Engine, game_id: str, seat: int) -> str | None:
    """Where the reminders of ``seat`` in ``game_id`` go (``None``: nowhere).

    The one place that decides it: the address given when taking the seat
    (``seats.email``), else the e-mail of the account that took it, if it
    gave one (``accounts.email``).
    """
    with Session(engine) as session:
        row = session.execute(
            select(SeatRow.email, AccountRow.email)
            .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
        ).first()
    if row is None:
        return None
    given, account = row
    return given or account or None


def store_address(engine: Engine, game_id: str, seats: list[int], address: str) -> None:
    """Keep ``address`` for the reminders of ``seats`` of ``game_id``."""
    with Session(engine) as session, session.begin():
        session.execute(
            update(SeatRow)
            .where(SeatRow.game_id == game_id, SeatRow.seat.in_(seats))
            .values(email=address)
        )


def claim_reminder(engine: Engine, game_id: str, ply: int) -> bool:
    """Mark the turn at ``ply`` of ``game_id`` reminded; ``False`` if it was already (or moved on)."""
    with Session(engine) as session, session.begin():
        result = session.execute(
            update(GameRow)
            .where(
                GameRow.id == game_id,
                GameRow.status == STATUS_PLAYING,
                GameRow.plies == ply,
                or_(GameRow.reminded_ply.is_(None), GameRow.reminded_ply < ply),
            )
            .values(reminded_ply=ply)
        )
        return bool(getattr(result, "rowcount", 0) == 1)


def _duration(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours:.0f} h" if hours >= 1 else f"{max(1.0, seconds / 60):.0f} min"


class Correspondence:
    """The reminders of one server process's correspondence games (module docstring).

    Args:
        hub: the process's games (their clocks: ``hub.clocks``, whose time a test may set).
        mailer: how e-mail is sent (``None``: the environment's, see
            :func:`mailer_from_environment`; none there: no reminders).
        share: remind when less than this share of a turn is left (0-1).
        site_url: the site's address, for the link in the e-mail
            (default ``LIMIT_SITE_URL``, else a path alone).
    """

    def __init__(
        self,
        hub: GameHub,
        mailer: Mailer | None = None,
        share: float = REMIND_SHARE,
        site_url: str | None = None,
    ) -> None:
        if not 0 < share < 1:
            raise ValueError(f"share must be between 0 and 1, not {share!r}")
        self.hub = hub
        self.mailer: Mailer | None = mailer
        self.share = share
        self.site_url = (site_url or os.environ.get("LIMIT_SITE_URL", "")).rstrip("/")
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Look for reminders due every :data:`CHECK_EVERY_SECONDS` (with an SMTP server only)."""
        if self.mailer is None:
            self.mailer = mailer_from_environment()
        if self.mailer is not None and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._every_minute())

    async def close(self) -> None:
        """Stop looking."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _every_minute(self) -> None:
        while True:
            await asyncio.sleep(CHECK_EVERY_SECONDS)
            try:
                await self.remind()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a database away: tried again next time
                log.warning("correspondence reminders not checked (%s)", exc)

    async def give_address(self, live: LiveGame, connection: Connection, text: str) -> str:
        """The person of ``connection`` gives ``text`` as their address for reminders; returns
        the address kept (stripped).

        Raises:
            RefusedError: not a correspondence game, a spectator, or not an address.
        """
        if live.clock_settings.kind != CLOCK_DAYS:
            raise RefusedError(gettext("email: only correspondence games send reminders"))
        if not connection.seats:
            raise RefusedError(gettext("email: spectators get no reminders"))
        address = check_email(text)
        engine = self.hub.store.engine
        await self.hub.db(store_address, engine, live.id, sorted(connection.seats), address)
        return address

    def due(self, live: LiveGame) -> int | None:
        """The seat of ``live`` to remind now (its turn's time is below the share), or ``None``."""
        clock = live.clock
        if live.over or live.error is not None or clock is None or clock.running is None:
            return None
        if live.clock_settings.kind != CLOCK_DAYS:
            return None
        full = live.clock_settings.turn_seconds()
        left = clock.left(clock.running, self.hub.clocks.now())
        return clock.running if 0 < left < self.share * full else None

    async def remind(self) -> list[tuple[str, int]]:
        """Send every reminder due in this process's games; return them (game id, seat).

        Raises:
            StorageUnavailableError: the database refused.
        """
        sent: list[tuple[str, int]] = []
        if self.mailer is None:
            return sent
        engine = self.hub.store.engine
        for live in list(self.hub.games.values()):
            seat = self.due(live)
            if seat is None:
                continue
            address = await self.hub.db(reminder_address, engine, live.id, seat)
            if address is None:
                continue  # (an address given later still gets this turn's reminder)
            ply = len(live.action_seats)
            if not await self.hub.db(claim_reminder, engine, live.id, ply):
                continue  # reminded already, here or by another process
            assert live.clock is not None
            left = live.clock.left(seat, self.hub.clocks.now())
            words = {
                "game": live.stored.game,
                "left": _duration(left),
                "days": live.clock_settings.days or 0,
                "link": f"{self.site_url}/games/{live.id}",
            }
            try:
                await self.mailer.send(address, gettext(SUBJECT) % words, gettext(BODY) % words)
            except (OSError, smtplib.SMTPException) as exc:
                log.warning(
                    "game %s: the reminder to seat %d was not sent (%s)", live.id, seat, exc
                )
                continue
            sent.append((live.id, seat))
        return sent


__all__ = [
    "CHECK_EVERY_SECONDS",
    "REMIND_SHARE",
    "Correspondence",
    "Mailer",
    "SmtpMailer",
    "check_email",
    "claim_reminder",
    "mailer_from_environment",
    "reminder_address",
    "store_address",
]
