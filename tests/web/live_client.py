"""A scripted player for a real server: connects over WebSocket and plays random legal actions."""

from __future__ import annotations

import json
import random
from typing import Any

from websockets.asyncio.client import connect

from tests.deadlines import scaled


async def play_to_end(
    base: str, game: dict[str, Any], seat: int, rng: random.Random, max_actions: int | None = None
) -> dict[str, Any]:
    """Play ``seat`` of ``game`` until it ends; return the last view.

    With ``max_actions``, stop after that many of our actions, at the next view
    in which it is our turn again (a position the server holds still).

    Raises ``AssertionError`` on any error message from the server.
    """
    url = base.replace("http://", "ws://") + f"/games/{game['id']}/ws"
    played = 0
    # no keepalive pings of our own: their 20-s answer deadline (websockets' default) is not
    # what the tests check, and a crowded machine missed it
    async with connect(url, max_size=2**22, open_timeout=scaled(20), ping_interval=None) as ws:
        await ws.send(
            json.dumps(
                {"type": "hello", "seats": [{"seat": seat, "token": game["tokens"][str(seat)]}]}
            )
        )
        welcomed = False
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                raise AssertionError(f"game {game['id']}: {message['message']}")
            if message["type"] == "welcome":
                welcomed = True
                continue
            if message["type"] != "view" or not welcomed:
                continue
            paused = max_actions is not None and played >= max_actions and message["your_turn"]
            if message["finished"] or message["error"] or paused:
                return dict(message)
            if message["your_turn"]:
                action = rng.choice(message["legal"])
                await ws.send(json.dumps({"type": "act", "action": action, "ply": message["ply"]}))
                played += 1
