"""The web app: lobby, game pages, replays and the live WebSocket, on FastAPI.

:func:`create_app` builds the app for a database URL. Routes:

==============================  =================================================
``GET /``                       the lobby (pick a game, fill the seats, start)
``GET /api/catalog``            the games, their variant parameters, the levels
``POST /api/games``             start a game (:class:`~limitgames.web.messages.NewGame`)
``GET /api/games``              games, newest first (``?status=playing``, ``?ids=a,b``)
``GET /api/games/{id}``         one game's public summary
``GET /games/{id}``             the game page (the seat comes from the link's
                                ``#seat=N&token=T`` fragment, never sent to the server
                                in a URL)
``WS /games/{id}/ws``           the live game (see :mod:`limitgames.web.messages`)
``GET /games/{id}/replay``      step through a finished game
``GET /api/games/{id}/replay/{ply}``  the spectator's view after ``ply`` actions
``GET /games/{id}/debrief``     a finished world game beside World3 (plots and words)
``GET /games/{id}/record.json`` the record (games that are over; perfect-information
                                games also during play)
``GET /api/open-games``         games being played with a seat anyone may take
``POST /api/games/{id}/seats/{seat}``  take an open seat (:class:`~limitgames.web.messages.TakeSeat`):
                                its token and link
``GET /rules/{game}``           the rules of a game, in the page's language
==============================  =================================================

Errors are one line (``{"detail": "..."}``): 400/422 for a bad request
(malformed JSON, ``NaN`` and ``Infinity`` included), 404 for an unknown id,
413 for a body over :data:`MAX_BODY_BYTES`, 429 for a rate limit or cap,
503 when the database refuses (full disk, read-only: try again later).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import anyio
from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.middleware.gzip import GZipMiddleware

from limitgames.core import LimitGamesError, available_games, get_game
from limitgames.translation import (
    LANGUAGE_NAMES,
    LANGUAGES,
    browser_catalogue,
    current_language,
    from_accept_language,
    gettext,
    supported,
    using,
)
from limitgames.web.computer import DEFAULT_MOVE_SECONDS, LEVELS, ComputerPool, level_notes
from limitgames.web.fanout import RedisFanout, SharedGames
from limitgames.web.limits import ServerLimits
from limitgames.web.live import (
    GAME_ID,
    Connection,
    DataFiles,
    GameHub,
    LiveGame,
    RefusedError,
    StorageUnavailableError,
    TooManyError,
    build_state,
)
from limitgames.web.messages import (
    MAX_MESSAGE_BYTES,
    Act,
    Chat,
    Draw,
    Hello,
    NewGame,
    Ping,
    Reclaim,
    Rematch,
    Resign,
    TakeSeat,
    Undo,
    first_error,
    parse_client_message,
)
from limitgames.web.rules_page import render_rules, rules_games
from limitgames.web.storage import STATUS_PLAYING, Store
from limitgames.web.views import environment, render_view
from limitgames.web.world_html import debrief as world_debrief

log = logging.getLogger("limitgames.web")
STATIC = Path(__file__).parent / "static"
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<polygon points="16,1 29,8.5 29,23.5 16,31 3,23.5 3,8.5" fill="#8c3b1f"/>'
    '<circle cx="16" cy="16" r="7" fill="#f6f1e4"/></svg>'
)


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
MAX_BODY_BYTES = 16384
"""The largest request body accepted (``POST /api/games``), in bytes."""

MAX_DATA_FILE_BYTES = 1 << 20
"""The largest data file an admin may offer (``--world-data``), in bytes."""

DEBRIEFS_KEPT = 16
"""How many World3 debriefs (``GET /games/{id}/debrief``) a server keeps drawn."""

CLOSE_SECONDS = 5.0
"""How long the server tries to send a closing frame to a client that fell behind."""

DB_THREADS = 8
"""Threads that run one server process's database calls on PostgreSQL (SQLite: 1): every action
waits for its commit, and more commits at once let PostgreSQL group them (4 → 8 raised one
process from about 210 to 260 actions/s, `benchmarks/bench_web_load.py`)."""

STALL_MARGIN_SECONDS = 5.0
"""With several processes: a computer move not seen this long after its time limit is taken over."""

RESYNC_CODE = 4000
"""WebSocket close code for a client that fell behind (reason ``resync``): reconnect for the current view."""

TRY_LATER_CODE = 1013
"""WebSocket close code for a refused connection (a cap or the database): try again later."""


class _NotJSON(ValueError):
    """A constant or number JSON does not have (``NaN``, ``Infinity``, ``1e999``)."""


def _no_constant(name: str) -> Any:
    raise _NotJSON(gettext("%(value)s is not a JSON number") % {"value": name})


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJSON(gettext("%(value)s is too large for a number") % {"value": text})
    return value


def parse_json_body(raw: bytes) -> Any:
    """The JSON value of a request body; ``NaN``, ``Infinity`` and overflowing numbers refused.

    Raises:
        HTTPException: 422 with a one-line reason.
    """
    try:
        return json.loads(raw, parse_constant=_no_constant, parse_float=_finite_float)
    except _NotJSON as exc:
        raise HTTPException(
            status_code=422,
            detail=gettext("the request body is not valid JSON: %(reason)s") % {"reason": exc},
        ) from None
    except (ValueError, RecursionError):
        raise HTTPException(
            status_code=422, detail=gettext("the request body is not valid JSON")
        ) from None


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


def catalog(data_files: DataFiles | None = None) -> list[dict[str, Any]]:
    """The games the lobby offers: metadata, variant parameters and computer levels.

    Each parameter is its game's declaration (``GameInfo.parameters``) in the request's
    language: ``name``, ``label``, ``kind``, ``default``, ``help``, ``choices`` with their
    ``choice_labels``, ``minimum``, ``maximum``. A parameter of kind ``path`` is offered as a
    choice among the names of the data sets in ``data_files`` (and left out when there are
    none).
    """
    offered = data_files or {}
    games = []
    for game_id in available_games():
        if game_id.startswith("toy-") and game_id not in _extra_lobby_games:
            continue
        info = get_game(game_id).info
        games.append(
            {
                "id": info.id,
                "title": info.title,
                "designer": info.designer,
                "year": info.year,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "perfect_information": info.perfect_information,
                "description": gettext(info.description),
                "parameters": [
                    {
                        "name": p.name,
                        "label": gettext(p.title),
                        "kind": "str" if p.kind == "path" else p.kind,
                        "default": p.default,
                        "help": gettext(p.help),
                        "choices": (
                            [None, *sorted(offered.get(info.id, {}))]
                            if p.kind == "path"
                            else list(p.choices)
                            if p.choices is not None
                            else None
                        ),
                        "choice_labels": (
                            [gettext(p.choice_label(c)) for c in p.choices]
                            if p.kind != "path" and p.choices is not None
                            else None
                        ),
                        "minimum": p.minimum,
                        "maximum": p.maximum,
                    }
                    for p in info.parameters
                    if not p.local and (p.kind != "path" or offered.get(info.id))
                ],
                "levels": level_notes(info.id),
            }
        )
    return games


_extra_lobby_games: set[str] = set()


def offer_in_lobby(game_id: str) -> None:
    """Also list a ``toy-`` game (from tests) in the lobby."""
    _extra_lobby_games.add(game_id)


LANGUAGE_COOKIE = "limit_language"
"""The cookie that remembers the language chosen with the switch (a code of ``LANGUAGES``)."""

LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600

_page_path: ContextVar[str] = ContextVar("page_path", default="/")
"""The path of the page being served (where the language switch comes back to)."""


def client_language(cookie: str | None, accept_language: str | None) -> str:
    """The language of a client: the one it chose (cookie), else the one its browser prefers
    most (``Accept-Language``), else English. Always one of ``LANGUAGES``."""
    chosen = cookie if cookie in LANGUAGES else None
    return chosen or from_accept_language(accept_language) or LANGUAGES[0]


def safe_next(path: str | None) -> str:
    """A path on this site to go back to after the language switch (anything else: the lobby)."""
    if not path or len(path) > 200 or not path.startswith("/") or path.startswith("//"):
        return "/"
    if any(c in path for c in "\\\r\n") or "://" in path:
        return "/"
    return path


def _page(name: str, **context: Any) -> HTMLResponse:
    language = current_language.get()
    return HTMLResponse(
        environment.get_template(name).render(
            language=language,
            languages=[(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
            here=_page_path.get(),
            **context,
        ),
        headers={"Content-Language": language, "Vary": "Accept-Language, Cookie"},
    )


async def settle_memory() -> None:
    """Import what the lobby and the computers need, then exempt it all from garbage collection.

    A full collection of the server's long-lived objects (the imported
    modules, Numba's and the agents' among them, about 180,000 objects) took
    about 100 ms, during which the event loop answered nobody: the load
    benchmark saw every game of a process stall 100-200 ms at once, a few
    times a minute. ``gc.freeze()`` moves what exists after start-up to the
    permanent generation, so later collections only walk the objects of the
    games themselves. Runs once in the background after start-up (the
    imports take about 0.5 s in a thread); the server answers meanwhile.
    """

    def warm() -> None:
        for game_id in available_games():
            level_notes(game_id)

    await asyncio.to_thread(warm)
    gc.collect()
    gc.freeze()


def create_app(
    database_url: str,
    move_seconds: float = DEFAULT_MOVE_SECONDS,
    computer_workers: int = 2,
    computer_processes: bool = False,
    limits: ServerLimits | None = None,
    data_files: DataFiles | None = None,
    redis_url: str | None = None,
) -> FastAPI:
    """The app on the database at ``database_url`` (migrated at start-up).

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///path``, ``postgresql+psycopg://...``).
        move_seconds: the time limit of one computer move (thinking time only).
        computer_workers: workers that run computer moves.
        computer_processes: run them in worker processes (``limit serve``) rather than threads.
        limits: rates, caps and time-outs (default :class:`ServerLimits`).
        data_files: ``{game id: {name: file}}``, data sets clients may pick by
            name (``limit serve --world-data NAME=FILE``).
        redis_url: share live updates with the other server processes on
            the same database through this Redis (:mod:`limitgames.web.fanout`);
            ``None``: this process is the only one.

    Raises:
        ValueError: a data set that is not a readable, valid data file.
    """
    offered = check_data_files(data_files or {})
    server_limits = limits or ServerLimits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store.open, database_url)
        pool = ComputerPool(
            workers=computer_workers, move_seconds=move_seconds, processes=computer_processes
        )
        # SQLite takes one writer at a time; a server database commits several games at once
        threads = 1 if store.engine.dialect.name == "sqlite" else DB_THREADS
        hub = GameHub(store, pool, server_limits, offered, db_threads=threads)
        app.state.hub = hub
        shared: SharedGames | None = None
        if redis_url is not None:
            stall = move_seconds + server_limits.computer_pause + STALL_MARGIN_SECONDS
            shared = SharedGames(hub, RedisFanout(redis_url), stall_after=stall)
            await shared.start()
        await hub.resume_all()
        settling = asyncio.create_task(settle_memory())
        try:
            yield
        finally:
            settling.cancel()
            if shared is not None:
                await shared.close()
            await hub.close()
            hub.computers.shutdown()
            store.close()

    app = FastAPI(title="limitgames", lifespan=lifespan, docs_url=None, redoc_url=None)
    # pages, scripts and records are compressed; GZipMiddleware passes websockets through untouched
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES)
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
        path_token = _page_path.set(request.url.path)
        try:
            with using(language):
                return await call_next(request)
        finally:
            _page_path.reset(path_token)

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    def hub_of(request: Request | WebSocket) -> GameHub:
        hub: GameHub = request.app.state.hub
        return hub

    @app.get("/", response_class=HTMLResponse)
    async def lobby() -> HTMLResponse:
        # "<" escaped so that no text can close the <script> element holding the JSON
        data = json.dumps(catalog(offered)).replace("<", "\\u003c")
        rules = [(g, get_game(g).info.title) for g in rules_games()]
        away = f"{server_limits.zombie_after / 60:g}"
        return _page(
            "lobby.html.j2", catalog_json=data, levels=LEVELS, rules=rules, away_default=away
        )

    @app.post("/language", include_in_schema=False)
    async def choose_language(request: Request) -> Response:
        """The language switch: remember the chosen language in a cookie and go back."""
        form = parse_qs((await _read_body(request)).decode("utf-8", "replace"))
        chosen = supported((form.get("language") or [""])[0]) or LANGUAGES[0]
        answer = RedirectResponse(safe_next((form.get("next") or ["/"])[0]), status_code=303)
        answer.set_cookie(
            LANGUAGE_COOKIE,
            chosen,
            max_age=LANGUAGE_COOKIE_SECONDS,
            samesite="lax",
            httponly=True,
        )
        return answer

    @app.get("/catalogue/{language}.js", include_in_schema=False)
    async def language_catalogue(language: str) -> Response:
        """The browser's catalogue (``window.LIMIT_CATALOGUE``) of one of ``LANGUAGES``;
        any other name gets English's (empty)."""
        code = language if language in LANGUAGES else LANGUAGES[0]
        return Response(
            browser_catalogue(code),
            media_type="text/javascript; charset=utf-8",
            headers={"Cache-Control": "public, max-age=3600"},
        )

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml")

    @app.get("/api/catalog")
    async def api_catalog() -> list[dict[str, Any]]:
        return catalog(offered)

    @app.post("/api/games")
    async def api_new_game(request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        raw = await _read_body(request)
        try:
            body = NewGame.model_validate(parse_json_body(raw))
        except ValidationError as exc:
            raise HTTPException(status_code=422, detail=first_error(exc)) from None
        try:
            game_id, tokens = await hub.create(body, _address(request))
        except StorageUnavailableError:
            raise
        except TooManyError as exc:
            raise HTTPException(status_code=429, detail=str(exc)) from None
        except RefusedError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return {
            "id": game_id,
            "url": f"/games/{game_id}",
            "tokens": {str(seat): token for seat, token in tokens.items()},
            "links": {
                str(seat): f"/games/{game_id}#seat={seat}&token={token}"
                for seat, token in tokens.items()
            },
        }

    @app.get("/api/games")
    async def api_games(
        request: Request, status: str | None = None, ids: str | None = None
    ) -> list[dict[str, Any]]:
        hub = hub_of(request)
        id_list = (
            [i for i in ids.split(",") if GAME_ID.fullmatch(i)][:100] if ids is not None else None
        )
        if status is not None and status not in ("playing", "finished", "abandoned"):
            raise HTTPException(
                status_code=400,
                detail=gettext("status is 'playing', 'finished' or 'abandoned'"),
            )
        return await hub.db(hub.store.summaries, id_list, status, 100)

    @app.get("/api/games/{game_id}")
    async def api_game(request: Request, game_id: str) -> dict[str, Any]:
        hub = hub_of(request)
        found = (
            await hub.db(hub.store.summaries, [game_id], None, 1)
            if GAME_ID.fullmatch(game_id)
            else []
        )
        if not found:
            raise HTTPException(status_code=404, detail=_no_game(game_id))
        return found[0]

    @app.get("/api/open-games")
    async def api_open_games(request: Request) -> list[dict[str, Any]]:
        return await hub_of(request).seats.open_games()

    @app.post("/api/games/{game_id}/seats/{seat}")
    async def api_take_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
        hub = hub_of(request)
        raw = await _read_body(request)
        try:
            body = TakeSeat.model_validate(parse_json_body(raw) if raw.strip() else {})
        except ValidationError as exc:
            raise HTTPException(status_code=422, detail=first_error(exc)) from None
        if not hub.seats.take_allowed(_address(request)):
            raise HTTPException(
                status_code=429,
                detail=gettext("too many seats taken from your address: try again later"),
            )
        live = await live_or_404(request, game_id)
        try:
            token = await hub.seats.take(live, seat, body.name)
        except StorageUnavailableError:
            raise
        except RefusedError as exc:
            raise HTTPException(status_code=409, detail=str(exc)) from None
        return {
            "id": game_id,
            "seat": seat,
            "token": token,
            "link": f"/games/{game_id}#seat={seat}&token={token}",
        }

    @app.get("/rules/{game}", response_class=HTMLResponse)
    async def rules_page(game: str, language: str | None = None) -> HTMLResponse:
        """The rules of ``game`` in the page's language (``?language=en``: the English
        reference; any code not offered is ignored), else in English with a note."""
        if game not in rules_games():
            shown = game if len(game) <= 40 else game[:40] + "..."
            raise HTTPException(
                status_code=404, detail=gettext("no rules for the game %(game)r") % {"game": shown}
            )
        wanted = language if language in LANGUAGES else current_language.get()
        rules = render_rules(game, wanted)
        return _page(
            "rules.html.j2",
            title=rules.title,
            body=rules.html,
            game=game,
            rules_language=rules.language,
            untranslated=rules.language != wanted,
        )

    async def live_or_404(request: Request, game_id: str) -> LiveGame:
        live = await hub_of(request).get(game_id)
        if live is None:
            raise HTTPException(status_code=404, detail=_no_game(game_id))
        return live

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    async def game_page(request: Request, game_id: str) -> HTMLResponse:
        live = await live_or_404(request, game_id)
        info = get_game(live.stored.game).info
        return _page(
            "game.html.j2",
            game_id=game_id,
            game=live.stored.game,
            title=info.title,
            variant_text=", ".join(
                f"{gettext(k)} {v}" for k, v in live.stored.variant.items() if v is not None
            ),
        )

    @app.get("/games/{game_id}/record.json")
    async def record(request: Request, game_id: str) -> Response:
        live = await live_or_404(request, game_id)
        info = get_game(live.stored.game).info
        if live.stored.status == STATUS_PLAYING and not info.perfect_information:
            raise HTTPException(
                status_code=403,
                detail=gettext("the record of a game with hidden cards is served once it is over"),
            )
        async with live.lock:
            text = live.stored.record().dumps()
        return Response(
            text,
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="limit-{live.stored.game}-{game_id}.json"'
            },
        )

    @app.get("/games/{game_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, game_id: str) -> HTMLResponse:
        live = await live_or_404(request, game_id)
        info = get_game(live.stored.game).info
        finished = live.stored.status != STATUS_PLAYING
        return _page(
            "replay.html.j2",
            game_id=game_id,
            title=info.title,
            finished=finished,
            plies=len(live.notations),
        )

    debriefs: dict[tuple[str, str], dict[str, Any]] = {}  # (game id, language) -> drawing
    debrief_lock = asyncio.Lock()

    @app.get("/games/{game_id}/debrief", response_class=HTMLResponse)
    async def debrief_page(request: Request, game_id: str) -> HTMLResponse:
        """The World3 debrief of a finished world game, drawn from its stored record (one at
        a time, in a worker thread; kept for the last :data:`DEBRIEFS_KEPT` games)."""
        live = await live_or_404(request, game_id)
        if live.stored.game != "world":
            raise HTTPException(
                status_code=404, detail=gettext("the World3 debrief is for world games")
            )
        if live.stored.status == STATUS_PLAYING:
            raise HTTPException(
                status_code=409, detail=gettext("the debrief is drawn once the game is over")
            )
        key = (game_id, current_language.get())  # the plots' words are in the reader's language
        found = debriefs.get(key)
        if found is None:
            async with debrief_lock:  # matplotlib draws one figure at a time
                found = debriefs.get(key)
                if found is None:
                    async with live.lock:
                        record = live.stored.record()
                    try:
                        found = await asyncio.to_thread(world_debrief, record)
                    except (LimitGamesError, ValueError) as exc:
                        raise HTTPException(
                            status_code=409,
                            detail=gettext("no debrief for this game: %(reason)s")
                            % {"reason": exc},
                        ) from None
                    debriefs[key] = found  # to_thread runs in a copy of this context
                    while len(debriefs) > DEBRIEFS_KEPT:
                        debriefs.pop(next(iter(debriefs)))
        return _page("world_debrief.html.j2", game_id=game_id, **found)

    @app.get("/api/games/{game_id}/replay/{ply}")
    async def replay_step(request: Request, game_id: str, ply: int) -> dict[str, Any]:
        live = await live_or_404(request, game_id)
        if live.stored.status == STATUS_PLAYING:
            raise HTTPException(
                status_code=409, detail=gettext("the game is not finished yet: watch it live")
            )
        total = len(live.notations)
        if not 0 <= ply <= total:
            raise HTTPException(
                status_code=400, detail=gettext("ply is 0..%(last)d") % {"last": total}
            )
        try:
            state = await asyncio.to_thread(
                build_state, live.stored, ply, hub_of(request).data_files
            )
        except LimitGamesError as exc:
            raise HTTPException(
                status_code=500,
                detail=gettext("the record does not replay: %(reason)s") % {"reason": exc},
            ) from None
        names = live.seat_names()
        view = render_view(state, None, names=names)
        return {
            "ply": ply,
            "plies": total,
            "moves": list(live.notations),
            "move_seats": list(live.action_seats),
            "names": names,
            "result": live.result_words(),
            "board": view["board"],
            "side": view["side"],
            "status": view["status"],
        }

    @app.websocket("/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        hub = hub_of(websocket)
        language = client_language(
            websocket.cookies.get(LANGUAGE_COOKIE), websocket.headers.get("accept-language")
        )
        current_language.set(language)  # this connection's errors and refusals
        try:
            live = await hub.get(game_id)
        except StorageUnavailableError as exc:
            await _refuse(websocket, str(exc), TRY_LATER_CODE)
            return
        if live is None:
            await _refuse(websocket, _no_game(game_id), 4404)
            return
        connection = hub.new_connection(_address(websocket), language)
        refused = hub.attach(live, connection)
        if refused is not None:
            await _refuse(websocket, refused, TRY_LATER_CODE)
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

    return app


async def _read_body(request: Request) -> bytes:
    """The request body, read no further than :data:`MAX_BODY_BYTES` (413 beyond)."""
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise HTTPException(
                status_code=413,
                detail=gettext("the request body is larger than %(most)d bytes")
                % {"most": MAX_BODY_BYTES},
            )
    return bytes(raw)


def _address(request: Request | WebSocket) -> str:
    """The client's network address (behind a proxy: what uvicorn's ``--forwarded-allow-ips`` trusts)."""
    return request.client.host if request.client is not None else "unknown"


def _no_game(game_id: str) -> str:
    shown = game_id if len(game_id) <= 40 else game_id[:40] + "..."
    return gettext("no game %(id)r") % {"id": shown}


async def _refuse(websocket: WebSocket, reason: str, code: int) -> None:
    """Tell a just-accepted client why it cannot stay, and close."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "message": reason})
        await websocket.close(code=code, reason=reason[:120])


async def _read(websocket: WebSocket, hub: GameHub, live: LiveGame, connection: Connection) -> None:
    """Read a client's messages until it leaves, no faster than its rate limit."""
    while True:
        await connection.throttle()
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
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
        await _handle(hub, live, connection, text)


async def _drain_and_close(websocket: WebSocket, connection: Connection, code: int) -> None:
    """Give the sender a moment to deliver what is queued, then close with ``code``."""
    for _ in range(50):
        if connection.queue.empty():
            break
        await asyncio.sleep(0.01)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(code=code), timeout=CLOSE_SECONDS)


async def _handle(hub: GameHub, live: LiveGame, connection: Connection, text: str) -> None:
    """Answer one client message; every failure becomes an ``error`` message to this client only."""
    try:
        message = parse_client_message(text)
        if isinstance(message, (Hello, Act, Undo, Resign, Draw, Rematch, Reclaim)):
            await hub.throttle_game(live)
        if isinstance(message, Hello):
            await hub.join(live, connection, [(c.seat, c.token) for c in message.seats])
        elif isinstance(message, Act):
            await hub.act(live, connection, message.action, message.ply)
        elif isinstance(message, Undo):
            await hub.undo(live, connection)
        elif isinstance(message, Ping):
            await connection.send({"type": "pong"})
        elif isinstance(message, Resign):
            await hub.resign(live, connection, message.seat)
        elif isinstance(message, Draw):
            await hub.draw(live, connection, message.accept)
        elif isinstance(message, Rematch):
            await hub.rematch(live, connection)
        elif isinstance(message, Chat):
            await hub.chat.post(live, connection, message.text)
        elif isinstance(message, Reclaim):
            await hub.clocks.reclaim(live, connection)
    except (ValueError, RefusedError) as exc:
        await connection.send({"type": "error", "message": str(exc)})
    except Exception:
        log.exception("game %s: unexpected error on a client message", live.id)
        await connection.send(
            {"type": "error", "message": gettext("internal error; the game is unchanged")}
        )


__all__ = ["catalog", "create_app", "offer_in_lobby"]
