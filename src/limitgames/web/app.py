"""The web app on FastAPI: :func:`create_app` puts the routers together.

The routes live in routers by area: the pages (``pages.py``: lobby, game,
replay, debrief, rules, language switch), the JSON API (``api.py``) and the
live game's WebSocket (``game_socket.py``); what they share is in
``routing.py``. The app adds what every answer gets: the client's language
(its cookie, else ``Accept-Language``), :data:`SECURITY_HEADERS`, gzip from
:data:`GZIP_MINIMUM_BYTES` on, and one-line errors (``{"detail": "..."}``):
422 for a request that does not validate, 503 when the database refuses
(full disk, read-only: try again later).
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.middleware.gzip import GZipMiddleware

from limitgames.core import LimitGamesError, available_games, get_game
from limitgames.translation import using
from limitgames.web import (
    account_pages,
    api,
    game_socket,
    lobby_feed,
    pages,
    people,
    seeks,
    your_turn,
)
from limitgames.web.accounts import server_secret
from limitgames.web.catalog import catalog, offer_in_lobby
from limitgames.web.computer import DEFAULT_MOVE_SECONDS, ComputerPool, level_notes
from limitgames.web.correspondence import Correspondence
from limitgames.web.fanout import RedisFanout, SharedGames
from limitgames.web.limits import ServerLimits
from limitgames.web.live import GameHub
from limitgames.web.live_game import DataFiles
from limitgames.web.pages import Debriefs
from limitgames.web.refusals import StorageUnavailableError
from limitgames.web.routing import (
    LANGUAGE_COOKIE,
    MAX_BODY_BYTES,
    client_language,
    page_path,
    parse_json_body,
    safe_next,
)
from limitgames.web.startup import ServerStart, StartingGate
from limitgames.web.storage import Store
from limitgames.web.warmup import warm_up

STATIC = Path(__file__).parent / "static"

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
"""Sent with every HTTP answer: only this site's own scripts run, no framing, no referrer."""

GZIP_MINIMUM_BYTES = 500
"""Responses from this size on are sent gzip-compressed to clients that accept it."""
MAX_DATA_FILE_BYTES = 1 << 20
"""The largest data file an admin may offer (``--world-data``), in bytes."""

DB_THREADS = 8
"""Threads that run one server process's database calls on PostgreSQL (SQLite: 1): every action
waits for its commit, and more commits at once let PostgreSQL group them (4 → 8 raised one
process from about 210 to 260 actions/s, `benchmarks/bench_web_load.py`)."""

STALL_MARGIN_SECONDS = 5.0
"""With several processes: a computer move not seen this long after its time limit is taken over."""


def check_data_files(data_files: DataFiles) -> dict[str, dict[str, str]]:
    """Check the data sets an admin offers; return them with absolute paths.

    Each must name a game with a parameter of kind ``path``, be a regular
    file of at most :data:`MAX_DATA_FILE_BYTES` and load as that game's data.

    Raises:
        ValueError: naming the data set and what is wrong (for the admin).
    """
    checked: dict[str, dict[str, str]] = {}
    for game_id, names in data_files.items():
        game = get_game(game_id)
        param = next((p for p in game.info.parameters if p.kind == "path"), None)
        if param is None:
            raise ValueError(f"{game_id} takes no data file")
        for name, file in names.items():
            if not name or not all(c.isalnum() or c in "-_." for c in name) or len(name) > 40:
                raise ValueError(f"data set name {name!r}: use letters, digits, - _ . (1-40)")
            path = Path(file).expanduser().resolve()
            if not path.is_file():
                raise ValueError(f"data set {name}: {file} is not a regular file")
            if path.stat().st_size > MAX_DATA_FILE_BYTES:
                raise ValueError(
                    f"data set {name}: {file} is larger than {MAX_DATA_FILE_BYTES} bytes"
                )
            try:
                game.new_initial_state(seed=0, **{param.name: str(path)})
            except LimitGamesError as exc:
                raise ValueError(f"data set {name}: {exc}") from None
            checked.setdefault(game_id, {})[name] = str(path)
    return checked


async def settle_memory() -> None:
    """Import what the lobby and the computers need, then exempt it all from garbage collection.

    A full collection of the server's long-lived objects (the imported
    modules, Numba's and the agents' among them, about 180,000 objects) took
    about 100 ms, during which the event loop answered nobody: the load
    benchmark saw every game of a process stall 100-200 ms at once, a few
    times a minute. Each game is also played once (``warmup.warm_up``:
    the hex kernels are loaded by Numba then, not on the event loop in the
    middle of somebody's action). ``gc.freeze()`` moves what exists after start-up to the
    permanent generation, so later collections only walk the objects of the
    games themselves. Runs once in the background after start-up (the
    imports take about 0.5 s in a thread); the server answers meanwhile.
    """

    def warm() -> None:
        for game_id in available_games():
            level_notes(game_id)
        warm_up()  # the compiled kernels loaded now, not during somebody's action

    await asyncio.to_thread(warm)
    gc.collect()
    gc.freeze()


def create_app(
    database_url: str,
    move_seconds: float = DEFAULT_MOVE_SECONDS,
    computer_workers: int = 2,
    computer_processes: bool = False,
    computer_priority: str = "idle",
    limits: ServerLimits | None = None,
    data_files: DataFiles | None = None,
    redis_url: str | None = None,
    secret_key: str | None = None,
) -> FastAPI:
    """The app on the database at ``database_url`` (migrated at start-up).

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///path``, ``postgresql+psycopg://...``).
        move_seconds: the time limit of one computer move (thinking time only).
        computer_workers: workers that run computer moves.
        computer_processes: run them in worker processes (``limit serve``) rather than threads.
        computer_priority: those processes' priority (``idle``, ``low``, ``normal``:
            :data:`~limitgames.web.computer.COMPUTER_PRIORITIES`).
        limits: rates, caps and time-outs (default :class:`ServerLimits`).
        data_files: ``{game id: {name: file}}``, data sets clients may pick by
            name (``limit serve --world-data NAME=FILE``).
        redis_url: share live updates with the other server processes on
            the same database through this Redis (:mod:`limitgames.web.fanout`);
            ``None``: this process is the only one.
        secret_key: signs the session and CSRF cookies (``people.py``); ``None``:
            :func:`~limitgames.web.accounts.server_secret` (the environment, else a
            file made in the data directory on first start, shared by every worker).

    Raises:
        ValueError: a data set that is not a readable, valid data file.
        OSError: no secret given and its file can be neither read nor made.
    """
    offered = check_data_files(data_files or {})
    server_limits = limits or ServerLimits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = ComputerPool(
            workers=computer_workers,
            move_seconds=move_seconds,
            processes=computer_processes,
            priority=computer_priority,
        )
        app.state.debriefs = Debriefs()
        opened: list[Store] = []
        shared: list[SharedGames] = []

        async def open_database() -> None:
            if not opened:
                opened.append(await asyncio.to_thread(Store.open, database_url))
            store = opened[0]
            await asyncio.to_thread(store.load_secrets)  # made on the very first start
            # SQLite takes one writer at a time; a server database commits several games at once
            threads = 1 if store.engine.dialect.name == "sqlite" else DB_THREADS
            app.state.hub = GameHub(store, pool, server_limits, offered, db_threads=threads)
            app.state.people = people.People.on(store.engine)
            app.state.correspondence = Correspondence(app.state.hub)

        async def connect_redis() -> None:
            if redis_url is None:
                return
            stall = move_seconds + server_limits.computer_pause + STALL_MARGIN_SECONDS
            games = SharedGames(app.state.hub, RedisFanout(redis_url), stall_after=stall)
            await games.start()
            shared.append(games)

        async def resume() -> None:
            await app.state.hub.resume_all()
            app.state.correspondence.start()  # e-mail reminders, with an SMTP server

        # each step is tried again until its service answers (a 503 meanwhile: startup.py)
        start = ServerStart(
            [
                ("the database", open_database, (DBAPIError, OSError)),
                ("Redis", connect_redis, (ConnectionError,)),
                ("the database", resume, (StorageUnavailableError,)),
            ]
        )
        app.state.start = start
        await start.first_try()
        settling = asyncio.create_task(settle_memory())
        try:
            yield
        finally:
            settling.cancel()
            await start.close()
            for games in shared:
                await games.close()
            if opened:
                await app.state.correspondence.close()
                await app.state.hub.close()
            pool.shutdown()
            for store in opened:
                store.close()

    app = FastAPI(title="limitgames", lifespan=lifespan, docs_url=None, redoc_url=None)
    # pages, scripts and records are compressed; GZipMiddleware passes websockets through untouched
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES)
    people.install(app, secret_key or server_secret(database_url))
    # outermost of these: nothing behind it runs before the process is ready (startup.py)
    app.add_middleware(StartingGate, start=lambda: getattr(app.state, "start", None))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(StorageUnavailableError)
    async def storage_unavailable(request: Request, exc: StorageUnavailableError) -> Response:
        return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "5"})

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "path", "query"))
        message = str(first.get("msg", "invalid request")).splitlines()[0]
        return JSONResponse(
            {"detail": f"{where}: {message}" if where else message}, status_code=422
        )

    @app.middleware("http")
    async def language_of_request(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        language = client_language(
            request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language")
        )
        path_token = page_path.set(request.url.path)
        try:
            with using(language):
                return await call_next(request)
        finally:
            page_path.reset(path_token)

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    app.include_router(pages.router)
    app.include_router(api.router)
    app.include_router(game_socket.router)
    app.include_router(account_pages.router)
    app.include_router(seeks.router)
    app.include_router(lobby_feed.router)
    app.include_router(your_turn.router)
    return app


__all__ = [
    "DB_THREADS",
    "GZIP_MINIMUM_BYTES",
    "LANGUAGE_COOKIE",
    "MAX_BODY_BYTES",
    "MAX_DATA_FILE_BYTES",
    "SECURITY_HEADERS",
    "catalog",
    "check_data_files",
    "client_language",
    "create_app",
    "offer_in_lobby",
    "parse_json_body",
    "safe_next",
    "settle_memory",
]
