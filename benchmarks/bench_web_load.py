"""Load on `limit serve` with several worker processes, played by signed-in people.

Starts a throwaway PostgreSQL cluster and redis-server (``tests/web/services.py``),
then ``limit serve --workers N`` on them, and plays hex over WebSocket clients on
127.0.0.1 (all in this process, asyncio).

Every player is a person with an account, as on a server where people sign in.
The accounts are made in the database before anything is timed (with one
Argon2id hash of one password for all: signing up over HTTP would measure
Argon2 and hit the limit of sign-ups per address); then each person signs in
over HTTP as a browser does (the sign-in form for its CSRF cookie and token,
the form posted, the session cookie kept), each from its own loopback address
(127.0.x.y, so the per-address limits on signing in count each person once),
and keeps that cookie for every request and WebSocket of theirs. Two
scenarios:

- ``human``: ``--games`` rated games between two people, made as people make
  them: one posts a rated seek (``POST /api/seeks``), the other accepts it,
  the first finds the game among its matched seeks (``GET /api/seeks``, as
  the lobby polls); each seat its own connection, so a game's two seats may
  sit on different server processes; the people think 0.5-2.5 s before each
  action. Plus ``--computer-games`` casual games of a person against the
  computer (``--level``, ``hard`` by default; ``POST /api/games`` signed in,
  so the seat carries the account). With each of ``--human-workers`` server
  processes (1 and 2 by default). Reports the latency of each person's action
  (sent -> the view with it back on the sender's socket): median, p99, max;
  and the throughput (people's actions per second).
- ``throughput``: ``--fast-games`` casual games, each played by one signed-in
  person on one connection holding both seats, acting as soon as it is its
  turn; reports actions/s, with ``--workers`` 1 and 2 (or the list given).

Each measurement prints, over its counted seconds, the CPU seconds of the web
server processes and of their computers apart (the computers' processes are
the ``SCHED_IDLE`` ones, ``web/computer.py``) and PostgreSQL's and Redis's,
and the web processes' CPU milliseconds per action: the figure that depends
least on other work on the machine. ``--guests``: nobody signs in (the load
as before accounts, for comparison).

Bounded: at most ``2 * games + computer_games`` (or ``fast_games``)
connections, ``--seconds`` per measurement; every process it starts is
stopped at the end. The load average is printed beside each figure (the
machine may be shared). Figures are in ``docs/web.md``.

Usage::

    python benchmarks/bench_web_load.py [--seconds 20] [--games 50] [--computer-games 10]
        [--fast-games 32] [--workers 1,2] [--human-workers 1,2]
        [--scenario all|human|throughput] [--repeat 1] [--guests] [--no-fsync]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

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

PASSWORD = "bench-password-1"
"""Every benchmark person's password (the accounts are throwaway, as is the database)."""

SIGN_IN_AT_ONCE = 4
"""People signing in at the same time (each sign-in is an Argon2id verification, 64 MiB)."""

GUESTS = False
"""``--guests``: nobody signs in, every game is a casual guests' game (as before accounts):
the same load without what accounts add, for comparison."""

FAILURES: list[str] = []
"""Connections or requests that failed (reported: a figure with failures is suspect)."""


class ClientCollections:
    """This process's own garbage collections (the client's), which delay every latency it
    measures meanwhile: each scenario freezes what exists once everybody has signed in
    (``gc.freeze``, so later collections walk only the objects of the play), and reports
    the longest collection of its counted seconds beside its figures."""

    def __init__(self) -> None:
        self.started = 0.0
        self.pauses: list[tuple[float, float]] = []
        """``(monotonic end, seconds)`` of each collection."""
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.monotonic()
        else:
            self.pauses.append((time.monotonic(), time.monotonic() - self.started))

    def settle(self) -> None:
        """Collect, then keep what exists (the people, their clients) out of later collections."""
        gc.collect()
        gc.freeze()

    def longest_ms(self, start: float, end: float) -> float:
        """The longest collection that ended between monotonic ``start`` and ``end`` (ms)."""
        return 1000 * max((s for at, s in self.pauses if start <= at <= end), default=0.0)


COLLECTIONS = ClientCollections()


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


def make_accounts(url: str, names: list[str]) -> None:
    """Make an account for each of ``names`` in the database at ``url`` (untimed: see the
    module docstring), all with :data:`PASSWORD`."""
    from sqlalchemy import create_engine

    from limitgames.web.accounts import Accounts, hash_password

    engine = create_engine(url)
    try:
        accounts, hashed = Accounts(engine), hash_password(PASSWORD)
        for name in names:
            accounts.create(name, hashed)
    finally:
        engine.dispose()


class Person:
    """A signed-in person of the benchmark: their HTTP client (its cookies are the
    browser's), their own loopback address and their CSRF token for the scripts' calls."""

    def __init__(self, base: str, name: str, number: int) -> None:
        self.base, self.name = base, name
        self.address = f"127.0.{1 + number // 250}.{1 + number % 250}"
        # idle connections closed after 4 s, before the server's keep-alive of 5 s (uvicorn's
        # default) ends them: else a request sent as the server closes fails (2 in a run)
        transport = httpx.AsyncHTTPTransport(
            local_address=self.address, limits=httpx.Limits(keepalive_expiry=4.0)
        )
        self.http = httpx.AsyncClient(base_url=base, timeout=60, transport=transport)
        self.csrf = ""

    async def sign_in(self) -> None:
        """Sign in as a browser does: the form (its CSRF cookie and hidden token), then post it.

        Raises:
            RuntimeError: the server did not sign this person in.
        """
        page = await self.http.get("/account/signin")
        page.raise_for_status()
        found = re.search(r'name="csrftoken" value="([^"]+)"', page.text)
        if found is None:
            raise RuntimeError("the sign-in form has no CSRF token")
        form = {"name": self.name, "password": PASSWORD, "csrftoken": found.group(1)}
        answer = await self.http.post("/account/signin", data=form)
        if answer.status_code != 303:
            raise RuntimeError(f"{self.name} was not signed in: HTTP {answer.status_code}")
        me = (await self.http.get("/api/me")).json()
        if me["name"] != self.name:
            raise RuntimeError(f"{self.name} is not signed in after signing in: {me}")
        self.csrf = me["csrf"]  # the lobby's scripts send it in x-csrftoken

    def cookie_header(self) -> dict[str, str]:
        """The ``Cookie`` header a browser sends with this person's WebSocket handshake."""
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())}

    async def close(self) -> None:
        await self.http.aclose()


async def sign_in_everyone(base: str, url: str, count: int, prefix: str) -> list[Person]:
    """``count`` people with accounts made in the database and signed in over HTTP
    (with :data:`GUESTS`: ``count`` guests, nobody signed in)."""
    names = [f"{prefix}{i:03d}" for i in range(count)]
    if GUESTS:
        return [Person(base, name, i) for i, name in enumerate(names)]
    await asyncio.to_thread(make_accounts, url, names)
    people = [Person(base, name, i) for i, name in enumerate(names)]
    gate = asyncio.Semaphore(SIGN_IN_AT_ONCE)

    async def one(person: Person) -> None:
        async with gate:
            await person.sign_in()

    await asyncio.gather(*(one(p) for p in people))
    return people


def _token(link: str) -> str:
    """The seat token in an invitation link (``/games/ID#seat=S&token=T``)."""
    return parse_qs(urlsplit(link).fragment)["token"][0]


async def new_game(person: Person, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A casual game made by ``person`` (signed in: their seats carry their account)."""
    response = await person.http.post(
        "/api/games", json={"game": "hex", "variant": HEX, "seats": seats}
    )
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer


async def rated_game(author: Person, accepter: Person) -> dict[str, Any]:
    """A rated game between two people through a seek, as the lobby makes it: ``{"id",
    "tokens": {"0": author's, "1": accepter's}}``.

    Raises:
        RuntimeError: the author's matched seek did not come.
    """
    seek = {"game": "hex", "variant": HEX, "rated": True}
    posted = await author.http.post("/api/seeks", json=seek, headers={"x-csrftoken": author.csrf})
    posted.raise_for_status()
    accepted = await accepter.http.post(
        f"/api/seeks/{posted.json()['id']}/accept", headers={"x-csrftoken": accepter.csrf}
    )
    accepted.raise_for_status()
    game = accepted.json()
    for _ in range(20):  # the lobby polls its seeks; the match is there at once
        matched = (await author.http.get("/api/seeks")).json()["matched"]
        mine = [m for m in matched if m["game_id"] == game["id"]]
        if mine:
            tokens = {"0": _token(mine[0]["link"]), "1": _token(game["link"])}
            return {"id": game["id"], "tokens": tokens}
        await asyncio.sleep(0.5)
    raise RuntimeError(f"the seek of {author.name} was accepted but never delivered")


async def play_seats(
    person: Person,
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
    url = person.base.replace("http://", "ws://") + f"/games/{game['id']}/ws"
    claims = [{"seat": s, "token": game["tokens"][str(s)]} for s in seats]
    async with connect(
        url,
        max_size=2**23,
        open_timeout=30,
        additional_headers=person.cookie_header(),
        local_addr=(person.address, 0),
    ) as ws:
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
    people: list[Person],
    kind: str,
    end: float,
    latencies: list[tuple[float, float]],
    seed: int,
    level: str = "hard",
) -> None:
    """Keep one game of ``kind`` going until ``end`` (a new one when it finishes), played
    by ``people`` (two for ``"human"``: they take turns posting the seek; else one)."""
    rng = random.Random(seed)
    games = 0
    while time.monotonic() < end:
        try:
            if kind == "human":
                author, accepter = people if games % 2 == 0 else people[::-1]
                if GUESTS:
                    game = await new_game(author, [{"kind": "me"}, {"kind": "me"}])
                else:
                    game = await rated_game(author, accepter)
                human = (0.5, 2.5)
                await asyncio.gather(
                    play_seats(author, game, [0], end, human, latencies, rng),
                    play_seats(accepter, game, [1], end, human, latencies, rng),
                )
            elif kind == "computer":
                seats = [{"kind": "me"}, {"kind": "computer", "level": level}]
                game = await new_game(people[0], seats)
                await play_seats(people[0], game, [0], end, (0.5, 2.5), latencies, rng)
            else:
                game = await new_game(people[0], [{"kind": "me"}, {"kind": "me"}])
                await play_seats(people[0], game, [0, 1], end, None, latencies, rng)
            games += 1
        except (ConnectionClosed, OSError, httpx.HTTPError, RuntimeError) as exc:
            FAILURES.append(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(0.5)


SCHED_IDLE = 5
"""Linux's number of the ``SCHED_IDLE`` scheduling class (``sched.h``): the computers' processes."""


def tree_cpu(root: int) -> tuple[float, float]:
    """CPU seconds (user + system) used so far by process ``root`` and its descendants
    (Linux): ``(the others, those in the SCHED_IDLE class)``, i.e. the web server
    processes, and the computers' search processes (``web/computer.py``)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    idle: set[int] = set()
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / tick
        if int(fields[38]) == SCHED_IDLE:  # field 41 of /proc/PID/stat, the policy
            idle.add(pid)
    web, computers, todo = 0.0, 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in idle:
            computers += times.get(pid, 0.0)
        else:
            web += times.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return web, computers


def _services_cpu(postgres: PostgresCluster, redis: RedisServer) -> float:
    """CPU seconds used so far by the benchmark's PostgreSQL (every backend) and Redis."""
    return sum(
        sum(tree_cpu(service.process.pid))
        for service in (postgres, redis)
        if service.process is not None
    )


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Meter:
    """The CPU seconds of the servers (web processes, computers) and of PostgreSQL and Redis
    between :meth:`start` and :meth:`stop`."""

    def __init__(self, server: Serve, services: Any) -> None:
        self.server, self.services = server, services
        self.web = self.computers = self.others = 0.0

    def start(self) -> None:
        self.web, self.computers = tree_cpu(self.server.process.pid)
        self.others = self.services()

    def stop(self) -> None:
        web, computers = tree_cpu(self.server.process.pid)
        self.web, self.computers = web - self.web, computers - self.computers
        self.others = self.services() - self.others

    async def over(self, start: float, end: float) -> None:
        """Measure from monotonic ``start`` to ``end`` (the counted part of a scenario)."""
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        self.start()
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        self.stop()

    def words(self, actions: int) -> str:
        per_action = 1000 * self.web / actions if actions else float("nan")
        return (
            f"the servers used {self.web:.1f} CPU s ({per_action:.2f} ms an action), their "
            f"computers {self.computers:.1f} CPU s, PostgreSQL and Redis {self.others:.1f} CPU s"
        )


async def human_scenario(
    server: Serve, db_url: str, meter: Meter, args: argparse.Namespace
) -> dict[str, Any]:
    signing = time.monotonic()
    people = await sign_in_everyone(
        server.base, db_url, 2 * args.games + args.computer_games, "person"
    )
    signed_in = time.monotonic() - signing
    COLLECTIONS.settle()
    cpu, start = time.process_time(), time.monotonic()
    warm = start + args.warmup
    end = warm + args.seconds
    human_games: list[tuple[float, float]] = []
    computer_games: list[tuple[float, float]] = []
    tasks = [
        slot(people[2 * i : 2 * i + 2], "human", end, human_games, i) for i in range(args.games)
    ]
    tasks += [
        slot([people[2 * args.games + i]], "computer", end, computer_games, 1000 + i, args.level)
        for i in range(args.computer_games)
    ]
    await asyncio.gather(meter.over(warm, end), *tasks)
    for person in people:
        await person.close()
    gc.unfreeze()  # the next measurement's people are frozen in their turn
    # actions sent once every game is going (the first ones wait for the games to be created)
    others = [latency for sent, latency in computer_games if sent >= warm]
    every = [latency for sent, latency in human_games if sent >= warm] + others
    return {
        "people": len(people),
        "sign_in_seconds": signed_in,
        "actions": len(every),
        "median_ms": 1000 * statistics.median(every) if every else None,
        "p99_ms": 1000 * _p(every, 0.99) if every else None,
        "max_ms": 1000 * max(every) if every else None,
        "p99_vs_computer_ms": 1000 * _p(others, 0.99) if others else None,
        "actions_per_second": len(every) / args.seconds,
        "client_cpu": (time.process_time() - cpu) / (time.monotonic() - start),
        "client_gc_ms": COLLECTIONS.longest_ms(warm, end),
    }


async def throughput_scenario(
    server: Serve, db_url: str, meter: Meter, args: argparse.Namespace
) -> dict[str, Any]:
    signing = time.monotonic()
    people = await sign_in_everyone(server.base, db_url, args.fast_games, "player")
    signed_in = time.monotonic() - signing
    COLLECTIONS.settle()
    cpu, start = time.process_time(), time.monotonic()
    warm = start + args.warmup
    end = warm + args.seconds
    latencies: list[tuple[float, float]] = []
    tasks = [slot([people[i]], "fast", end, latencies, i) for i in range(args.fast_games)]
    await asyncio.gather(meter.over(warm, end), *tasks)
    for person in people:
        await person.close()
    gc.unfreeze()  # the next measurement's people are frozen in their turn
    counted = [latency for sent, latency in latencies if warm <= sent + latency <= end]
    return {
        "people": len(people),
        "sign_in_seconds": signed_in,
        "actions": len(counted),
        "actions_per_second": len(counted) / args.seconds,
        "p99_ms": 1000 * _p(counted, 0.99) if counted else float("nan"),
        "client_cpu": (time.process_time() - cpu) / (time.monotonic() - start),
        "client_gc_ms": COLLECTIONS.longest_ms(warm, end),
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
        "--guests",
        action="store_true",
        help="nobody signs in: guests' casual games, as before accounts (for comparison)",
    )
    parser.add_argument(
        "--no-fsync",
        action="store_true",
        help="PostgreSQL without fsync (measures the servers, not the disk)",
    )
    args = parser.parse_args()
    global GUESTS
    GUESTS = args.guests
    args.games = min(args.games, 200)
    args.fast_games = min(args.fast_games, 200)
    args.seconds = min(args.seconds, 300.0)
    args.warmup = min(args.warmup, 60.0)
    problem = missing()
    if problem is not None:
        sys.exit(f"cannot run: {problem}")
    postgres = PostgresCluster(durable=not args.no_fsync).start()
    redis = RedisServer().start()

    kind, who = ("casual", "guests") if GUESTS else ("rated", "people signed in")

    def services() -> float:
        return _services_cpu(postgres, redis)

    try:
        for _ in range(args.repeat):
            if args.scenario in ("all", "human"):
                for workers in [int(w) for w in args.human_workers.split(",")]:
                    _drop_tables(postgres.url)
                    server = Serve(postgres.url, redis.url, workers)
                    meter = Meter(server, services)
                    try:
                        before = _load()
                        figures = asyncio.run(human_scenario(server, postgres.url, meter, args))
                    finally:
                        server.stop()
                    print(
                        f"human pace, {args.games} {kind} games + {args.computer_games} vs "
                        f"computer ({args.level}), {figures['people']} {who} "
                        f"(in {figures['sign_in_seconds']:.1f} s, not counted), {workers} "
                        f"worker(s), {args.seconds:g} s after {args.warmup:g} s: "
                        f"{figures['actions']} actions "
                        f"({figures['actions_per_second']:.1f} actions/s), "
                        f"median {latency_words(figures['median_ms'])}, "
                        f"p99 {latency_words(figures['p99_ms'])}, "
                        f"max {latency_words(figures['max_ms'])} "
                        f"(p99 in the computer games "
                        f"{latency_words(figures['p99_vs_computer_ms'])}); "
                        f"client CPU {figures['client_cpu']:.0%} of a core, its longest garbage "
                        f"collection {figures['client_gc_ms']:.0f} ms; in the "
                        f"{args.seconds:g} s counted, {meter.words(figures['actions'])}; "
                        f"{before} before, {_load()} after",
                        flush=True,
                    )
            if args.scenario in ("all", "throughput"):
                rates = {}
                for workers in [int(w) for w in args.workers.split(",")]:
                    _drop_tables(postgres.url)
                    server = Serve(postgres.url, redis.url, workers)
                    meter = Meter(server, services)
                    try:
                        before = _load()
                        figures = asyncio.run(
                            throughput_scenario(server, postgres.url, meter, args)
                        )
                    finally:
                        server.stop()
                    rates[workers] = figures["actions_per_second"]
                    print(
                        f"throughput, {args.fast_games} games as fast as possible, "
                        f"{figures['people']} {who} (in "
                        f"{figures['sign_in_seconds']:.1f} s, not counted), {workers} "
                        f"worker(s), {args.seconds:g} s after {args.warmup:g} s: "
                        f"{figures['actions_per_second']:.0f} actions/s (p99 "
                        f"{figures['p99_ms']:.0f} ms, client CPU "
                        f"{figures['client_cpu']:.0%} of a core, its longest garbage collection "
                        f"{figures['client_gc_ms']:.0f} ms; {meter.words(figures['actions'])}); "
                        f"{before} before, {_load()} after",
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
