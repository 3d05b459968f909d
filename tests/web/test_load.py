"""Fifty games against computer seats, played at once on one server, without an error."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from tests.deadlines import scaled
from tests.web.conftest import Server, new_game
from tests.web.live_client import play_to_end

GAMES = 50


@pytest.mark.slow  # fifty games against the computer at once (93 s under load)
def test_fifty_concurrent_games_against_the_computer(server: Server) -> None:
    with httpx.Client(base_url=server.base, timeout=scaled(30)) as http:
        games = []
        for i in range(GAMES):
            if i % 5 == 4:
                seats = [
                    {"kind": "me"},
                    {"kind": "computer", "level": "random"},
                    {"kind": "computer", "level": "random"},
                ]
                games.append(new_game(http, "cards", seats, {"players": 3}, seed=i))
            else:
                seats = [{"kind": "me"}, {"kind": "computer", "level": "random"}]
                games.append(new_game(http, "hex", seats, {"size": 3 + i % 2}, seed=i))

        async def play_all() -> list[dict[str, object]]:
            return await asyncio.gather(
                *(play_to_end(server.base, g, 0, random.Random(i)) for i, g in enumerate(games))
            )

        ends = asyncio.run(asyncio.wait_for(play_all(), timeout=scaled(600)))
        assert all(v["finished"] and v["error"] is None for v in ends)
        finished = {g["id"] for g in http.get("/api/games?status=finished").json()}
        assert {g["id"] for g in games} <= finished
        for g in games[:5]:
            assert http.get(f"/games/{g['id']}/record.json").status_code == 200
    log = server.log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log and "ERROR" not in log, log[-2000:]


def test_the_load_benchmark_says_when_it_measured_no_latency() -> None:
    # a scenario without computer games measured nothing there: "0.0 ms" would be a figure
    from benchmarks.bench_web_load import latency_words

    assert latency_words(None) == "none measured"
    assert latency_words(0.04) == "0.0 ms"  # a real (small) measure is printed as a figure
    assert latency_words(12.345) == "12.3 ms"
