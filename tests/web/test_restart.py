"""A server killed mid-game and started again resumes every game where it was."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest

from tests.deadlines import scaled
from tests.web.conftest import Server, new_game
from tests.web.live_client import play_to_end


@pytest.mark.slow  # three games through a server killed and started again, two played to the end (199 s under load)
def test_kill_and_restart_resumes_every_game(db_url: str) -> None:
    server = Server(db_url).start()
    try:
        with httpx.Client(base_url=server.base, timeout=scaled(30)) as http:
            hexes = [
                new_game(
                    http,
                    "hex",
                    [{"kind": "me"}, {"kind": "computer", "level": "random"}],
                    {"size": 4},
                    seed=s,
                )
                for s in (1, 2)
            ]
            cards = new_game(
                http,
                "cards",
                [
                    {"kind": "me"},
                    {"kind": "computer", "level": "random"},
                    {"kind": "computer", "level": "random"},
                ],
                {"players": 3},
                seed=8,
            )
            games = [*hexes, cards]

            async def first_moves() -> list[dict[str, object]]:
                return await asyncio.gather(
                    *(
                        play_to_end(server.base, g, 0, random.Random(i), max_actions=3)
                        for i, g in enumerate(games)
                    )
                )

            before = asyncio.run(first_moves())
            assert all(not v["finished"] and v["ply"] >= 3 for v in before)
            server.kill()  # SIGKILL right after the views were announced
            server.start()
            for game, view in zip(games, before, strict=True):
                summary = http.get(f"/api/games/{game['id']}").json()
                assert summary["plies"] == view["ply"], game["id"]
                assert summary["status"] == "playing"

        async def resume() -> list[dict[str, object]]:
            return await asyncio.gather(
                *(
                    play_to_end(server.base, g, 0, random.Random(i), max_actions=0)
                    for i, g in enumerate(games)
                )
            )

        again = asyncio.run(resume())
        for old, new in zip(before, again, strict=True):
            assert new["ply"] == old["ply"] and new["observation"] == old["observation"]
            assert new["error"] is None

        async def finish() -> list[dict[str, object]]:
            return await asyncio.gather(
                *(play_to_end(server.base, g, 0, random.Random(7)) for g in hexes)
            )

        ends = asyncio.run(finish())
        assert all(v["finished"] for v in ends)
    finally:
        server.stop()


def test_a_computer_thinking_when_the_server_dies_moves_after_the_restart(db_url: str) -> None:
    from websockets.asyncio.client import connect

    server = Server(db_url).start()
    try:
        with httpx.Client(base_url=server.base, timeout=scaled(30)) as http:
            game = new_game(
                http,
                "hex",
                [{"kind": "me"}, {"kind": "computer", "level": "medium"}],
                {"size": 4},
                seed=3,
            )
        url = server.base.replace("http://", "ws://") + f"/games/{game['id']}/ws"

        async def until_the_computer_thinks() -> int:
            async with connect(url, open_timeout=scaled(20), ping_interval=None) as ws:
                await ws.send(
                    json.dumps(
                        {"type": "hello", "seats": [{"seat": 0, "token": game["tokens"]["0"]}]}
                    )
                )
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] != "view" or not message["seats"]:
                        continue
                    if message["thinking"] == 1:
                        return int(message["ply"])
                    if message["your_turn"]:
                        await ws.send(
                            json.dumps(
                                {
                                    "type": "act",
                                    "action": message["legal"][0],
                                    "ply": message["ply"],
                                }
                            )
                        )

        ply = asyncio.run(until_the_computer_thinks())
        server.kill()
        server.start()
        resumed = asyncio.run(play_to_end(server.base, game, 0, random.Random(1), max_actions=0))
        assert resumed["ply"] > ply and resumed["your_turn"] and resumed["error"] is None
    finally:
        server.stop()
