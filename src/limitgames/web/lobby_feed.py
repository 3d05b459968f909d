"""The lobby's live feed: seeks and who is online, pushed over ``WS /lobby/ws``.

The lobby page opens ``/lobby/ws`` and is sent ``{"type": "lobby", "seeks",
"online", "me", "matched"}`` (the answer of ``GET /api/seeks``, which stays for
scripts) at once, whenever a seek is posted, accepted or withdrawn on any server
process, and every :data:`REFRESH_SECONDS` (who is online changes with time;
each refresh of a signed-in page also notes its person as seen, as a polled
request did). A seek's author learns there that it was accepted (``matched``:
the link to the game, given once).

Across processes: a change of the seeks calls :meth:`~limitgames.web.viewers.LobbySignal.touch`, which
wakes this process's lobby sockets and, with ``--redis``, is published on the
fan-out channel under the name :data:`LOBBY` (``fanout.SharedGames``), which
wakes the others' (``viewers.LOBBY``). The client may send ``{"type": "ping"}`` (answered
``{"type": "pong"}``); anything else is ignored. A network address may hold
:data:`LOBBY_SOCKETS_PER_ADDRESS` lobby sockets on one process; more are
refused (close code 1013).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from limitgames.web.people import people_of, signed_in
from limitgames.web.routing import client_address, hub_of

REFRESH_SECONDS = 10.0
"""How often a lobby socket is sent the seeks and who is online when nothing changed."""

BOARD_SECONDS = 2.0
"""How long the open seeks and who is online, read once, serve every lobby socket of the
process (unless the seeks change first: a change wakes them all at once, and they share one
read of the database instead of two queries each; ``viewers.LobbySignal.shared``)."""

LOBBY_SOCKETS_PER_ADDRESS = 8
"""Lobby sockets one network address may hold on one server process."""


router = APIRouter()


async def lobby_snapshot(websocket: WebSocket) -> dict[str, Any]:
    """What the lobby shows now, for this socket's person (see the module docstring)."""
    hub = hub_of(websocket)
    people = people_of(websocket)
    account = await signed_in(websocket)  # a WebSocket has the session too

    async def board() -> tuple[Any, Any]:
        return await hub.db(people.seeks.open_seeks), await hub.db(people.accounts.online)

    seeks, online = await hub.viewers.lobby.shared(board, BOARD_SECONDS)
    matched = await hub.db(people.seeks.deliver, account) if account is not None else []
    return {
        "type": "lobby",
        "seeks": seeks,
        "online": online,
        "me": account.name if account is not None else None,
        "matched": matched,
    }


@router.websocket("/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby's live feed for one page, until it leaves (see the module docstring)."""
    await websocket.accept()
    signal = hub_of(websocket).viewers.lobby
    address = client_address(websocket)
    if signal.sockets[address] >= LOBBY_SOCKETS_PER_ADDRESS:
        with contextlib.suppress(Exception):
            await websocket.close(code=1013, reason="too many lobby sockets")
        return
    signal.sockets[address] += 1

    async def feed() -> None:
        while True:
            await websocket.send_text(json.dumps(await lobby_snapshot(websocket)))
            await signal.wait(REFRESH_SECONDS)

    async def listen() -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("text") == '{"type": "ping"}':
                await websocket.send_text('{"type": "pong"}')
            await asyncio.sleep(0.2)  # a page has nothing to say here: read it slowly

    tasks = [asyncio.create_task(feed()), asyncio.create_task(listen())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                await task
        signal.sockets[address] -= 1
        if signal.sockets[address] <= 0:
            del signal.sockets[address]


__all__ = [
    "BOARD_SECONDS",
    "LOBBY_SOCKETS_PER_ADDRESS",
    "REFRESH_SECONDS",
    "lobby_snapshot",
    "router",
]
