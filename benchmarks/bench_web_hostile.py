"""What hostile clients cost a game on `limit serve` (issue 13's probe, in small).

Starts the server as a subprocess (SQLite in a temporary folder, computers in
threads) and measures one game of hex (two seats on one connection, acting as
fast as the server answers) while other clients misbehave:

- ``spectators``: N spectators watch the game (they read what they get);
- ``flood``: one client sends pings as fast as it can on another game; the
  measured game acts at a human-like 10 actions/s and its round-trip latency
  is reported.

Usage::

    python benchmarks/bench_web_hostile.py [--seconds 5] [--spectators 100]

Figures are in ``docs/web.md``. Bounded: at most ``--spectators`` + 2
connections on 127.0.0.1 and ``--seconds`` per scenario.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

CREATION = ["--games-per-hour", "100000", "--unfinished-per-creator", "100000"]
"""The benchmark starts many games from one address."""

RAISED = [
    *CREATION,
    "--messages-per-second",
    "100000",
    "--message-burst",
    "1000",
    "--actions-per-second",
    "100000",
    "--action-burst",
    "1000",
    "--connections-per-game",
    "1000",
    "--connections-per-address",
    "1000",
]
"""Limits out of the way, to measure what the server itself can do."""


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _known(options: list[str]) -> list[str]:
    """``options`` without those this version of the server lacks (to measure older versions)."""
    help_text = subprocess.run(
        [sys.executable, "-m", "limitgames.web", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "400"},  # Rich shortens long option names otherwise
    ).stdout
    kept: list[str] = []
    for name, value in zip(options[::2], options[1::2], strict=True):
        if name in help_text:
            kept += [name, value]
    return kept


def start_server(folder: Path, options: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    options = _known(options)
    port = _port()
    command = [sys.executable, "-m", "limitgames.web", "--port", str(port), "--threads"]
    command += ["--db", f"sqlite:///{folder / 'games.sqlite3'}", "--log-level", "warning"]
    process = subprocess.Popen(command + options, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            if httpx.get(base + "/api/catalog", timeout=1).status_code == 200:
                return process, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start")


def new_hex(base: str) -> dict[str, Any]:
    body = {"game": "hex", "variant": {"size": 8}, "seats": [{"kind": "me"}, {"kind": "friend"}]}
    answer: dict[str, Any] = httpx.post(base + "/api/games", json=body, timeout=30).json()
    return answer


async def play_game(
    url: str, tokens: dict[str, str], end: float, pace: float | None
) -> list[float]:
    """Play both seats of one game until it ends (or ``end``); each action's round trip (s)."""
    trips: list[float] = []
    seats = [{"seat": int(s), "token": t} for s, t in tokens.items()]
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "seats": seats}))
        sent = 0.0
        while time.monotonic() < end:
            message = json.loads(await ws.recv())
            if message["type"] != "view":
                continue
            if sent:
                trips.append(time.monotonic() - sent)
                sent = 0.0
            if message["finished"]:
                break
            if not message["your_turn"]:
                continue
            if pace:
                await asyncio.sleep(1 / pace)
            sent = time.monotonic()
            act = {"type": "act", "action": message["legal"][0], "ply": message["ply"]}
            await ws.send(json.dumps(act))
    return trips


async def watch(url: str, ready: asyncio.Queue[None], stop: asyncio.Event) -> None:
    async with connect(url, max_size=2**22) as ws:
        await ws.recv()
        ready.put_nowait(None)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ws.recv(), timeout=0.2)


async def play(base: str, seconds: float, pace: float | None, spectators: int = 0) -> list[float]:
    """Play hex games for ``seconds`` of play, each watched by ``spectators``; the round trips."""
    trips: list[float] = []
    while sum(trips) < seconds:
        game = new_hex(base)
        url = base.replace("http", "ws") + f"/games/{game['id']}/ws"
        ready: asyncio.Queue[None] = asyncio.Queue()
        stop = asyncio.Event()
        watchers = [asyncio.create_task(watch(url, ready, stop)) for _ in range(spectators)]
        for _ in range(spectators):
            await ready.get()
        trips += await play_game(url, game["tokens"], time.monotonic() + seconds, pace)
        stop.set()
        await asyncio.gather(*watchers, return_exceptions=True)
    return trips


async def flood(url: str, stop: asyncio.Event) -> None:
    """Send pings as fast as possible (reading the pongs), reconnecting when dropped."""
    while not stop.is_set():
        with contextlib.suppress(ConnectionClosed):
            # from another address than the players (127.0.0.2), as an attacker would be
            raw = socket.create_connection(
                ("127.0.0.1", int(url.split(":")[2].split("/")[0])), source_address=("127.0.0.2", 0)
            )
            async with connect(url, sock=raw, close_timeout=0.1) as ws:

                async def drain() -> None:
                    async for _ in ws:
                        pass

                reader = asyncio.create_task(drain())
                try:
                    while not stop.is_set():
                        for _ in range(50):
                            await ws.send('{"type": "ping"}')
                        await asyncio.sleep(0)
                finally:
                    reader.cancel()


async def play_under_flood(base: str, seconds: float) -> list[float]:
    """Play at 10 actions/s while one client floods another game with pings."""
    target = new_hex(base)
    stop = asyncio.Event()
    task = asyncio.create_task(
        flood(base.replace("http", "ws") + f"/games/{target['id']}/ws", stop)
    )
    trips = await play(base, seconds, pace=10)
    stop.set()
    await asyncio.gather(task, return_exceptions=True)
    return trips


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def _latency(trips: list[float]) -> str:
    return f"median {statistics.median(trips) * 1000:.1f} ms, p99 {_p99(trips) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--spectators", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, base = start_server(Path(folder), RAISED)
        try:
            for count in (0, args.spectators):
                trips = asyncio.run(play(base, args.seconds, None, count))
                print(f"{count:4d} spectators: {len(trips) / sum(trips):7.1f} actions/s")
        finally:
            process.terminate()
            process.wait(10)
    with tempfile.TemporaryDirectory() as folder:
        process, base = start_server(Path(folder), CREATION)  # the default rates
        try:
            quiet = asyncio.run(play(base, args.seconds, pace=10))
            print(f"10 actions/s, quiet server:   {_latency(quiet)}")
            flooded = asyncio.run(play_under_flood(base, args.seconds))
            print(f"10 actions/s, one ping flood: {_latency(flooded)}")
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
