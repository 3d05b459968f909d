"""Load on `limit serve` with several worker processes (issue 13, deliver 2).

Starts a throwaway PostgreSQL cluster and redis-server (``tests/web/services.py``),
then ``limit serve --workers N`` on them, and plays hex over WebSocket clients on
127.0.0.1 (all in this process, asyncio). Two scenarios:

- ``human``: ``--games`` games between two people (each seat its own
  connection, so a game's two seats may sit on different server processes)
  who think 0.5-2.5 s before each action, plus ``--computer-games`` games of
  a person against the computer (``--level``, ``hard`` by default), with
  each of ``--human-workers`` server processes (1 and 2 by default).
  Reports the latency of each person's action (sent -> the view with it
  back on the sender's socket): median, p99, max; and the throughput
  (people's actions per second).
- ``throughput``: ``--fast-games`` games, each played by one connection
  holding both seats, acting as soon as it is its turn; reports actions/s,
  with ``--workers`` 1 and 2 (or the list given).

Bounded: at most ``2 * games + computer_games`` (or ``fast_games``)
connections, ``--seconds`` per measurement; every process it starts is
stopped at the end. The load average is printed beside each figure (the
machine may be shared). Figures are in ``docs/web.md``.

Usage::

    python benchmarks/bench_web_load.py [--seconds 20] [--games 50] [--computer-games 10]
        [--fast-games 32] [--workers 1,2] [--human-workers 1,2]
        [--scenario all|human|throughput] [--repeat 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.services import PostgresCluster, RedisServer, free_port, missing  # noqa: E402


def latency_words(milliseconds: float | None) -> str:
    """A latency as printed: ``"12.3 ms"``, or ``"none measured"`` when there was none (``None``)."""
    return "none measured" if milliseconds is None else f"{milliseconds:.1f} ms"


RAISED = [
    "--games-per-hour",
    "1000000",
    "--unfinished-per-creator",
    "1000000",
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
    "100000",
    "--computer-pause",
    "0",
]
"""Limits out of the way (every client comes from 127.0.0.1); computers do not pause for the eye."""

HEX = {"size": 8}

FAILURES: list[str] = []
"""Connections or requests that failed (reported: a figure with failures is suspect)."""


def _drop_tables(url: str) -> None:
    """Drop every table of the benchmark's database (whatever the migrations made)."""
    from sqlalchemy import MetaData, create_engine

    engine = create_engine(url)
    tables = MetaData()
    tables.reflect(engine)
    tables.drop_all(engine)
    engine.dispose()


class Serve:
    """``limit serve --workers N`` on the benchmark's database and Redis."""

    def __init__(self, db: str, redis: str, workers: int) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "limitgames.web", "--port", str(self.port)]
        command += ["--db", db, "--workers", str(workers), "--log-level", "warning", *RAISED]
        if workers > 1:
            command += ["--redis", redis]
        self.log = Path(tempfile.mkdtemp(prefix="limit-bench-")) / "serve.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/catalog", timeout=1).status_code == 200:
                    return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not start: see {self.log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


async def new_game(http: httpx.AsyncClient, seats: list[dict[str, Any]]) -> dict[str, Any]:
    response = await http.post("/api/games", json={"game": "hex", "variant": HEX, "seats": seats})
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer


async def play_seats(
    base: str,
    game: dict[str, Any],
    seats: list[int],
    end: float,
    think: tuple[float, float] | None,
    latencies: list[tuple[float, float]],
    rng: random.Random,
) -> bool:
    """Play ``seats`` of ``game`` on one connection until it ends (``True``) or ``end``.

    Appends ``(when it was sent, latency)`` of each action (monotonic s): the
    latency runs from sending it to the first view showing it.
    """
    url = base.replace("http://", "ws://") + f"/games/{game['id']}/ws"
    claims = [{"seat": s, "token": game["tokens"][str(s)]} for s in seats]
    async with connect(url, max_size=2**23, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello", "seats": claims}))
        sent_at, sent_ply = 0.0, -1
        while time.monotonic() < end:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), end - time.monotonic()))
            except TimeoutError:
                return False
            if message["type"] != "view":
                continue
            if sent_at and message["ply"] > sent_ply:
                latencies.append((sent_at, time.monotonic() - sent_at))
                sent_at = 0.0
            if message["finished"] or message["error"]:
                return True
            if not message["your_turn"] or sent_at or message["ply"] <= sent_ply:
                continue
            if think is not None:
                await asyncio.sleep(rng.uniform(*think))
                if time.monotonic() >= end:
                    return False
            sent_ply = message["ply"]
            sent_at = time.monotonic()
            action = rng.choice(message["legal"])
            await ws.send(json.dumps({"type": "act", "action": action, "ply": sent_ply}))
    return False


async def slot(
    base: str,
    kind: str,
    end: float,
    latencies: list[tuple[float, float]],
    seed: int,
    level: str = "hard",
) -> None:
    """Keep one game of ``kind`` going until ``end`` (a new one when it finishes)."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < end:
            try:
                if kind == "human":
                    game = await new_game(http, [{"kind": "me"}, {"kind": "me"}])
                    human = (0.5, 2.5)
                    await asyncio.gather(
                        *(play_seats(base, game, [s], end, human, latencies, rng) for s in (0, 1))
                    )
                elif kind == "computer":
                    seats = [{"kind": "me"}, {"kind": "computer", "level": level}]
                    game = await new_game(http, seats)
                    await play_seats(base, game, [0], end, (0.5, 2.5), latencies, rng)
                else:
                    game = await new_game(http, [{"kind": "me"}, {"kind": "me"}])
                    await play_seats(base, game, [0, 1], end, None, latencies, rng)
            except (ConnectionClosed, OSError, httpx.HTTPError) as exc:
                FAILURES.append(f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5)


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) used so far by process ``root`` and its descendants (Linux)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


def _services_cpu(postgres: PostgresCluster, redis: RedisServer) -> float:
    """CPU seconds used so far by the benchmark's PostgreSQL (every backend) and Redis."""
    return sum(
        tree_cpu(service.process.pid)
        for service in (postgres, redis)
        if service.process is not None
    )


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def human_scenario(base: str, args: argparse.Namespace) -> dict[str, Any]:
    cpu, start = time.process_time(), time.monotonic()
    warm = start + args.warmup
    end = warm + args.seconds
    human_games: list[tuple[float, float]] = []
    computer_games: list[tuple[float, float]] = []
    tasks = [slot(base, "human", end, human_games, i) for i in range(args.games)]
    tasks += [
        slot(base, "computer", end, computer_games, 1000 + i, args.level)
        for i in range(args.computer_games)
    ]
    await asyncio.gather(*tasks)
    # actions sent once every game is going (the first ones wait for the games to be created)
    others = [latency for sent, latency in computer_games if sent >= warm]
    every = [latency for sent, latency in human_games if sent >= warm] + others
    return {
        "actions": len(every),
        "median_ms": 1000 * statistics.median(every) if every else None,
        "p99_ms": 1000 * _p(every, 0.99) if every else None,
        "max_ms": 1000 * max(every) if every else None,
        "p99_vs_computer_ms": 1000 * _p(others, 0.99) if others else None,
        "actions_per_second": len(every) / args.seconds,
        "client_cpu": (time.process_time() - cpu) / (time.monotonic() - start),
    }


async def throughput_scenario(base: str, args: argparse.Namespace) -> dict[str, Any]:
    cpu, start = time.process_time(), time.monotonic()
    warm = start + args.warmup
    end = warm + args.seconds
    latencies: list[tuple[float, float]] = []
    tasks = [slot(base, "fast", end, latencies, i) for i in range(args.fast_games)]
    await asyncio.gather(*tasks)
    counted = [latency for sent, latency in latencies if warm <= sent + latency <= end]
    return {
        "actions_per_second": len(counted) / args.seconds,
        "p99_ms": 1000 * _p(counted, 0.99),
        "client_cpu": (time.process_time() - cpu) / (time.monotonic() - start),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per measurement")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play before measuring (not counted)"
    )
    parser.add_argument("--games", type=int, default=50, help="games between people (human pace)")
    parser.add_argument("--computer-games", type=int, default=10)
    parser.add_argument("--level", default="hard", help="the computer's level")
    parser.add_argument("--fast-games", type=int, default=32, help="games for the throughput")
    parser.add_argument("--workers", default="1,2", help="worker counts for the throughput")
    parser.add_argument(
        "--human-workers", default="1,2", help="worker counts for the human-pace scenario"
    )
    parser.add_argument("--scenario", choices=("all", "human", "throughput"), default="all")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--no-fsync",
        action="store_true",
        help="PostgreSQL without fsync (measures the servers, not the disk)",
    )
    args = parser.parse_args()
    args.games = min(args.games, 200)
    args.fast_games = min(args.fast_games, 200)
    args.seconds = min(args.seconds, 300.0)
    args.warmup = min(args.warmup, 60.0)
    problem = missing()
    if problem is not None:
        sys.exit(f"cannot run: {problem}")
    postgres = PostgresCluster(durable=not args.no_fsync).start()
    redis = RedisServer().start()
    try:
        for _ in range(args.repeat):
            if args.scenario in ("all", "human"):
                for workers in [int(w) for w in args.human_workers.split(",")]:
                    _drop_tables(postgres.url)
                    server = Serve(postgres.url, redis.url, workers)
                    try:
                        before = _load()
                        cpu = tree_cpu(server.process.pid)
                        figures = asyncio.run(human_scenario(server.base, args))
                        cpu = tree_cpu(server.process.pid) - cpu
                    finally:
                        server.stop()
                    print(
                        f"human pace, {args.games} games + {args.computer_games} vs computer "
                        f"({args.level}), {workers} worker(s), {args.seconds:g} s after "
                        f"{args.warmup:g} s: {figures['actions']} actions "
                        f"({figures['actions_per_second']:.1f} actions/s), "
                        f"median {latency_words(figures['median_ms'])}, "
                        f"p99 {latency_words(figures['p99_ms'])}, "
                        f"max {latency_words(figures['max_ms'])} "
                        f"(p99 in the computer games "
                        f"{latency_words(figures['p99_vs_computer_ms'])}); "
                        f"client CPU {figures['client_cpu']:.0%} of a core; the servers and "
                        f"their computers used {cpu:.1f} CPU s; "
                        f"{before} before, {_load()} after",
                        flush=True,
                    )
            if args.scenario in ("all", "throughput"):
                rates = {}
                for workers in [int(w) for w in args.workers.split(",")]:
                    _drop_tables(postgres.url)
                    server = Serve(postgres.url, redis.url, workers)
                    try:
                        before = _load()
                        cpu = tree_cpu(server.process.pid)
                        others = _services_cpu(postgres, redis)
                        figures = asyncio.run(throughput_scenario(server.base, args))
                        cpu = tree_cpu(server.process.pid) - cpu
                        others = _services_cpu(postgres, redis) - others
                    finally:
                        server.stop()
                    rates[workers] = figures["actions_per_second"]
                    print(
                        f"throughput, {args.fast_games} games as fast as possible, {workers} "
                        f"worker(s), {args.seconds:g} s: {figures['actions_per_second']:.0f} "
                        f"actions/s (p99 {figures['p99_ms']:.0f} ms, client CPU "
                        f"{figures['client_cpu']:.0%} of a core; the servers used {cpu:.1f} CPU s, "
                        f"PostgreSQL and Redis {others:.1f} CPU s); "
                        f"{before} before, "
                        f"{_load()} after",
                        flush=True,
                    )
                if 1 in rates and len(rates) > 1:
                    best = max(w for w in rates if w > 1)
                    print(f"ratio {best} workers / 1 worker: {rates[best] / rates[1]:.2f}x")
    finally:
        redis.stop()
        postgres.stop()
    if FAILURES:
        print(f"{len(FAILURES)} failed connections or requests, e.g. {FAILURES[0]}")


if __name__ == "__main__":
    main()
