"""A server killed mid-game and started again resumes every game where it was."""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.web.conftest import Server, new_game
from tests.web.live_client import play_to_end


def test_kill_and_restart_resumes_every_game(db_url: str) -> None:
    server = Server(db_url).start()
    try:
        with httpx.Client(base_url=server.base, timeout=30) as http:
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
