"""The live game's WebSocket, ``WS /games/{id}/ws`` (messages: :mod:`limitgames.web.messages`).

Each connection has three tasks: its sender (its own queue), its reader (no
faster than its rate limit, messages of at most ``MAX_MESSAGE_BYTES``) and a
watcher of its closing; when one ends, all do. Every failure of a client
message becomes an ``error`` message to that client only. Close codes:
:data:`RESYNC_CODE` (``resync``: a client that fell behind reconnects for
the current view), :data:`TRY_LATER_CODE` (a cap or the database), 4404 (no
such game), 1009 (a message too large).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from limitgames.translation import current_language, gettext
from limitgames.web.connection import Connection
from limitgames.web.correspondence import Correspondence
from limitgames.web.listening import bound_once
from limitgames.web.live import GameHub
from limitgames.web.live_game import LiveGame
from limitgames.web.messages import (
    MAX_MESSAGE_BYTES,
    Act,
    AnyClientMessage,
    Chat,
    Draw,
    Email,
    Hello,
    Ping,
    Presence,
    Reclaim,
    Rematch,
    Resign,
    Takeback,
    Undo,
    parse_client_message,
)
from limitgames.web.refusals import RefusedError, StorageUnavailableError
from limitgames.web.routing import LANGUAGE_COOKIE, client_address, client_language, hub_of, no_game

log = logging.getLogger("limitgames.web")

CLOSE_SECONDS = 5.0
"""How long the server tries to send a closing frame to a client that fell behind."""

RESYNC_CODE = 4000
"""WebSocket close code for a client that fell behind (reason ``resync``): reconnect for the current view."""

TRY_LATER_CODE = 1013
"""WebSocket close code for a refused connection (a cap or the database): try again later."""

PING_INTERVAL_SECONDS = 3.0
"""The server pings every client this often (WebSocket ping frames, answered by the browser)."""

PING_TIMEOUT_SECONDS = 5.0
"""A client whose pong has not come this long after a ping is closed: a client that vanished
without a close frame, or stopped reading, is gone within ``PING_INTERVAL_SECONDS +
PING_TIMEOUT_SECONDS`` (8 s)."""

PROBATION_SECONDS = 5.0
"""A connection let in on a seat's reserve (spectators fill their share: ``Viewers.attach``)
must claim a seat within this long, with its first message, or it is closed."""


def socket_options() -> dict[str, float]:
    """uvicorn's WebSocket keep-alive settings for this app (``ws_ping_interval``, ``ws_ping_timeout``)."""
    return {"ws_ping_interval": PING_INTERVAL_SECONDS, "ws_ping_timeout": PING_TIMEOUT_SECONDS}


router = APIRouter()


@router.websocket("/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """The live game ``game_id`` for one client, until it leaves (see the module docstring)."""
    server = websocket.scope.get("server")  # (host, port) the client came to
    # from now on the kernel drops clients that stop acknowledging (listening.py)
    bound_once(int(server[1]) if server and server[1] is not None else None)
    await websocket.accept()
    hub = hub_of(websocket)
    language = client_language(
        websocket.cookies.get(LANGUAGE_COOKIE), websocket.headers.get("accept-language")
    )
    current_language.set(language)  # this connection's errors and refusals
    try:
        live = await hub.get(game_id)
    except StorageUnavailableError as exc:
        await refuse(websocket, str(exc), TRY_LATER_CODE)
        return
    if live is None:
        await refuse(websocket, no_game(game_id), 4404)
        return
    connection = hub.new_connection(client_address(websocket), language)
    refused = hub.attach(live, connection)
    if refused is not None:
        await refuse(websocket, refused, TRY_LATER_CODE)
        return
    try:
        async with anyio.create_task_group() as group:

            async def until_one_ends(work: Callable[[], Awaitable[None]]) -> None:
                try:
                    await work()
                except (WebSocketDisconnect, RuntimeError, OSError):
                    pass  # the client went away
                except Exception:
                    log.exception("game %s: a connection failed", live.id)
                finally:
                    group.cancel_scope.cancel()

            group.start_soon(until_one_ends, lambda: connection.run_sender(websocket.send_text))
            group.start_soon(until_one_ends, lambda: _read(websocket, hub, live, connection))
            group.start_soon(until_one_ends, connection.wait_closed)
    finally:
        hub.detach(live, connection)
    if connection.closing is not None:
        # a client that fell behind: its page reconnects and gets the current view
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=RESYNC_CODE, reason=connection.closing),
                timeout=CLOSE_SECONDS,
            )


async def refuse(websocket: WebSocket, reason: str, code: int) -> None:
    """Tell a just-accepted client why it cannot stay, and close."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "message": reason})
        await websocket.close(code=code, reason=reason[:120])


async def _read(websocket: WebSocket, hub: GameHub, live: LiveGame, connection: Connection) -> None:
    """Read a client's messages until it leaves, no faster than its rate limit.

    A connection on probation (let in on the seats' reserve) is closed unless
    its first message, within :data:`PROBATION_SECONDS`, claims a seat.
    """
    while True:
        await connection.throttle()
        if connection.probation:
            try:
                message = await asyncio.wait_for(websocket.receive(), PROBATION_SECONDS)
            except TimeoutError:
                message = {"type": "websocket.receive", "text": '{"type": "ping"}'}
        else:
            message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None and connection.probation:
            text = '{"type": "ping"}'  # not a hello: turned away below
        if text is None:
            data = message.get("bytes") or b""
            if len(data) > MAX_MESSAGE_BYTES:
                await connection.send({"type": "error", "message": gettext("message too large")})
                await _drain_and_close(websocket, connection, 1009)
                return
            await connection.send({"type": "error", "message": gettext("send JSON text frames")})
            continue
        if len(text) > MAX_MESSAGE_BYTES:
            await connection.send(
                {
                    "type": "error",
                    "message": gettext("message too large (more than %(most)d bytes)")
                    % {"most": MAX_MESSAGE_BYTES},
                }
            )
            await _drain_and_close(websocket, connection, 1009)
            return
        await _handle(hub, live, connection, text, websocket.app.state.correspondence)
        if connection.probation:
            if not connection.seats:
                await connection.send(
                    {"type": "error", "message": hub.viewers.full_for_spectators()}
                )
                await _drain_and_close(websocket, connection, TRY_LATER_CODE)
                return
            connection.probation = False


async def _drain_and_close(websocket: WebSocket, connection: Connection, code: int) -> None:
    """Give the sender a moment to deliver what is queued, then close with ``code``."""
    for _ in range(50):
        if connection.queue.empty():
            break
        await asyncio.sleep(0.01)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(code=code), timeout=CLOSE_SECONDS)


def spectator_refusal(message: AnyClientMessage) -> str | None:
    """Why a spectator (a connection without a seat) may not send ``message``, or ``None``.

    A spectator may say hello (to claim a seat with its token), ping and chat
    (to the spectators' channel); everything else is a seat's and is refused
    here, before the game's lock, the database or the players' budget is
    touched, so that spectators cost the players nothing.
    """
    if isinstance(message, (Hello, Ping, Chat, Presence)):
        return None
    if isinstance(message, Act):
        return gettext("spectators cannot act: open your invite link to play")
    if isinstance(message, Resign):
        return gettext("spectators cannot resign")
    if isinstance(message, Draw):
        return gettext("spectators cannot offer a draw")
    if isinstance(message, Rematch):
        return gettext("spectators cannot ask for a rematch")
    if isinstance(message, Reclaim):
        return gettext("spectators have no seat to take back")
    if isinstance(message, Email):
        return gettext("email: spectators get no reminders")
    if isinstance(message, Takeback):
        return gettext("spectators cannot ask for or answer a takeback")
    return gettext("spectators cannot undo: open your invite link to play")


async def _handle(
    hub: GameHub, live: LiveGame, connection: Connection, text: str, reminders: Correspondence
) -> None:
    """Answer one client message; every failure becomes an ``error`` message to this client only."""
    try:
        message = parse_client_message(text)
        refused = spectator_refusal(message) if not connection.seats else None
        if refused is not None:  # before any game work: no lock, no database, no game budget
            await connection.send({"type": "error", "message": refused})
            return
        if isinstance(message, (Hello, Act, Undo, Resign, Draw, Rematch, Reclaim, Takeback)):
            await hub.throttle_game(live, connection)
        if isinstance(message, Hello):
            await hub.join(live, connection, [(c.seat, c.token) for c in message.seats])
            if message.email:
                await reminders.give_address(live, connection, message.email)
        elif isinstance(message, Act):
            await hub.act(live, connection, message.action, message.ply)
        elif isinstance(message, Undo):
            await hub.undo(live, connection)
        elif isinstance(message, Presence):
            await hub.presence.note(live, connection, message.away)
        elif isinstance(message, Ping):
            await connection.send({"type": "pong"})
        elif isinstance(message, Resign):
            await hub.endings.resign(live, connection, message.seat)
        elif isinstance(message, Draw):
            await hub.endings.draw(live, connection, message.accept, message.withdraw)
        elif isinstance(message, Rematch):
            await hub.endings.rematch(live, connection)
        elif isinstance(message, Takeback):
            await hub.takebacks.answer(live, connection, message.answer)
        elif isinstance(message, Chat):
            await hub.chat.post(live, connection, message.text)
        elif isinstance(message, Reclaim):
            await hub.clocks.reclaim(live, connection)
        elif isinstance(message, Email):
            address = await reminders.give_address(live, connection, message.address)
            await connection.send({"type": "reminders", "address": address})
    except (ValueError, RefusedError) as exc:
        await connection.send({"type": "error", "message": str(exc)})
    except Exception:
        log.exception("game %s: unexpected error on a client message", live.id)
        await connection.send(
            {"type": "error", "message": gettext("internal error; the game is unchanged")}
        )


__all__ = [
    "CLOSE_SECONDS",
    "PING_INTERVAL_SECONDS",
    "PING_TIMEOUT_SECONDS",
    "PROBATION_SECONDS",
    "RESYNC_CODE",
    "TRY_LATER_CODE",
    "refuse",
    "router",
    "socket_options",
    "spectator_refusal",
]
