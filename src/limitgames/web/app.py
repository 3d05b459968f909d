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
``GET /games/{id}/record.json`` the record (finished games; perfect-information
                                games also during play)
==============================  =================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from limitgames.core import LimitGamesError, available_games, get_game
from limitgames.web.computer import DEFAULT_MOVE_SECONDS, LEVELS, ComputerPool, level_notes
from limitgames.web.live import Connection, GameHub, LiveGame, RefusedError, build_state
from limitgames.web.messages import (
    MAX_MESSAGE_BYTES,
    Act,
    Hello,
    NewGame,
    Ping,
    Undo,
    parse_client_message,
)
from limitgames.web.storage import Store
from limitgames.web.views import environment, render_view, result_text

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


def catalog() -> list[dict[str, Any]]:
    """The games the lobby offers: metadata, variant parameters and computer levels."""
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
                "description": info.description,
                "parameters": [
                    {
                        "name": p.name,
                        "kind": p.kind,
                        "default": p.default,
                        "help": p.help,
                        "choices": list(p.choices) if p.choices is not None else None,
                        "minimum": p.minimum,
                        "maximum": p.maximum,
                    }
                    for p in info.parameters
                    if p.kind != "path"
                ],
                "levels": level_notes(info.id),
            }
        )
    return games


_extra_lobby_games: set[str] = set()


def offer_in_lobby(game_id: str) -> None:
    """Also list a ``toy-`` game (from tests) in the lobby."""
    _extra_lobby_games.add(game_id)


def _page(name: str, **context: Any) -> HTMLResponse:
    return HTMLResponse(environment.get_template(name).render(**context))


def create_app(
    database_url: str,
    move_seconds: float = DEFAULT_MOVE_SECONDS,
    computer_workers: int = 2,
    computer_processes: bool = False,
) -> FastAPI:
    """The app on the database at ``database_url`` (migrated at start-up).

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///path``, ``postgresql+psycopg://...``).
        move_seconds: the time limit of one computer move.
        computer_workers: workers that run computer moves.
        computer_processes: run them in worker processes (``limit serve``) rather than threads.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store.open, database_url)
        pool = ComputerPool(
            workers=computer_workers, move_seconds=move_seconds, processes=computer_processes
        )
        hub = GameHub(store, pool)
        app.state.hub = hub
        await hub.resume_all()
        try:
            yield
        finally:
            await hub.close()
            hub.computers.shutdown()
            store.close()

    app = FastAPI(title="limitgames", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

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
        data = json.dumps(catalog()).replace("<", "\\u003c")
        return _page("lobby.html.j2", catalog_json=data, levels=LEVELS)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml")

    @app.get("/api/catalog")
    async def api_catalog() -> list[dict[str, Any]]:
        return catalog()

    @app.post("/api/games")
    async def api_new_game(request: Request, body: NewGame) -> dict[str, Any]:
        hub = hub_of(request)
        try:
            game_id, tokens = await hub.create(body)
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
        id_list = [i for i in ids.split(",") if i][:100] if ids is not None else None
        if status is not None and status not in ("playing", "finished"):
            raise HTTPException(status_code=400, detail="status is 'playing' or 'finished'")
        return await hub.db(hub.store.summaries, id_list, status, 100)

    @app.get("/api/games/{game_id}")
    async def api_game(request: Request, game_id: str) -> dict[str, Any]:
        hub = hub_of(request)
        found = await hub.db(hub.store.summaries, [game_id], None, 1)
        if not found:
            raise HTTPException(status_code=404, detail=f"no game {game_id!r}")
        return found[0]

    async def live_or_404(request: Request, game_id: str) -> LiveGame:
        live = await hub_of(request).get(game_id)
        if live is None:
            raise HTTPException(status_code=404, detail=f"no game {game_id!r}")
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
                f"{k} {v}" for k, v in live.stored.variant.items() if v is not None
            ),
        )

    @app.get("/games/{game_id}/record.json")
    async def record(request: Request, game_id: str) -> Response:
        live = await live_or_404(request, game_id)
        info = get_game(live.stored.game).info
        if not live.state.is_terminal() and not info.perfect_information:
            raise HTTPException(
                status_code=403,
                detail="the record of a game with hidden cards is served once it is over",
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
        finished = live.state.is_terminal()
        return _page(
            "replay.html.j2",
            game_id=game_id,
            title=info.title,
            finished=finished,
            plies=len(live.notations),
        )

    @app.get("/api/games/{game_id}/replay/{ply}")
    async def replay_step(request: Request, game_id: str, ply: int) -> dict[str, Any]:
        live = await live_or_404(request, game_id)
        if not live.state.is_terminal():
            raise HTTPException(
                status_code=409, detail="the game is not finished yet: watch it live"
            )
        total = len(live.notations)
        if not 0 <= ply <= total:
            raise HTTPException(status_code=400, detail=f"ply is 0..{total}")
        try:
            state = await asyncio.to_thread(build_state, live.stored, ply)
        except LimitGamesError as exc:
            raise HTTPException(
                status_code=500, detail=f"the record does not replay: {exc}"
            ) from None
        view = render_view(state, None)
        return {
            "ply": ply,
            "plies": total,
            "moves": list(live.notations),
            "move_seats": list(live.action_seats),
            "names": state.seat_names(),
            "result": result_text(live.state),
            "board": view["board"],
            "side": view["side"],
            "status": view["status"],
        }

    @app.websocket("/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        hub = hub_of(websocket)
        live = await hub.get(game_id)
        if live is None:
            await websocket.send_json({"type": "error", "message": f"no game {game_id!r}"})
            await websocket.close(code=4404)
            return
        send_lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with send_lock:
                await websocket.send_text(json.dumps(message))

        connection = Connection(send=send)
        await hub.attach(live, connection)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    if len(data) > MAX_MESSAGE_BYTES:
                        await send({"type": "error", "message": "message too large"})
                        await websocket.close(code=1009)
                        break
                    await send({"type": "error", "message": "send JSON text frames"})
                    continue
                if len(text) > MAX_MESSAGE_BYTES:
                    await send(
                        {
                            "type": "error",
                            "message": f"message too large (more than {MAX_MESSAGE_BYTES} bytes)",
                        }
                    )
                    await websocket.close(code=1009)
                    break
                await _handle(hub, live, connection, text)
        except WebSocketDisconnect:
            pass
        finally:
            await hub.detach(live, connection)

    return app


async def _handle(hub: GameHub, live: LiveGame, connection: Connection, text: str) -> None:
    """Answer one client message; every failure becomes an ``error`` message to this client only."""
    try:
        message = parse_client_message(text)
        if isinstance(message, Hello):
            await hub.join(live, connection, [(c.seat, c.token) for c in message.seats])
        elif isinstance(message, Act):
            await hub.act(live, connection, message.action, message.ply)
        elif isinstance(message, Undo):
            await hub.undo(live, connection)
        elif isinstance(message, Ping):
            await connection.send({"type": "pong"})
    except (ValueError, RefusedError) as exc:
        await connection.send({"type": "error", "message": str(exc)})
    except Exception:
        log.exception("game %s: unexpected error on a client message", live.id)
        await connection.send({"type": "error", "message": "internal error; the game is unchanged"})


__all__ = ["catalog", "create_app", "offer_in_lobby"]
