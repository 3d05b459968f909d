"""The JSON API: start, list and read games, take open seats, step through replays.

==============================  =================================================
``GET /api/catalog``            the games, their variant parameters, the levels
``POST /api/games``             start a game (:class:`~limitgames.web.messages.NewGame`)
``GET /api/games``              games, newest first (``?status=playing``, ``?ids=a,b``)
``GET /api/games/{id}``         one game's public summary
``GET /api/games/{id}/replay/{ply}``  the spectator's view after ``ply`` actions
``GET /games/{id}/record.json`` the record (games that are over; perfect-information
                                games also during play)
``GET /api/open-games``         games being played with a seat anyone may take
``POST /api/games/{id}/seats/{seat}``  take an open seat (:class:`~limitgames.web.messages.TakeSeat`):
                                its token and link
==============================  =================================================

A signed-in person (``people.py``) who starts a game keeps their account on
the seats they chose to play (``"me"``), and on a seat they take; a guest's
seats carry none, as before.

Errors are one line (``{"detail": "..."}``): 400/422 for a bad request, 404
for an unknown id, 409 for a refused seat or a game not finished, 413 for a
body over ``routing.MAX_BODY_BYTES``, 429 for a rate limit or cap, 503 when
the database refuses.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import ValidationError

from limitgames.core import LimitGamesError, get_game
from limitgames.translation import gettext
from limitgames.web.catalog import catalog
from limitgames.web.live_game import GAME_ID, build_state
from limitgames.web.messages import NewGame, TakeSeat, first_error
from limitgames.web.people import people_of, signed_in
from limitgames.web.refusals import RefusedError, StorageUnavailableError, TooManyError
from limitgames.web.routing import (
    client_address,
    hub_of,
    live_or_404,
    no_game,
    parse_json_body,
    read_body,
)
from limitgames.web.storage import STATUS_PLAYING
from limitgames.web.views import render_view

router = APIRouter()


@router.get("/api/catalog")
async def api_catalog(request: Request) -> list[dict[str, Any]]:
    """The games the lobby offers (:func:`~limitgames.web.catalog.catalog`)."""
    return catalog(hub_of(request).data_files)


@router.post("/api/games")
async def api_new_game(request: Request) -> dict[str, Any]:
    """Start a game: ``{"id", "url", "tokens", "links"}`` (400 refused, 429 too many, 422 malformed)."""
    hub = hub_of(request)
    raw = await read_body(request)
    try:
        body = NewGame.model_validate(parse_json_body(raw))
    except ValidationError as exc:
        raise HTTPException(status_code=422, detail=first_error(exc)) from None
    try:
        game_id, tokens = await hub.create(body, client_address(request))
    except StorageUnavailableError:
        raise
    except TooManyError as exc:
        raise HTTPException(status_code=429, detail=str(exc)) from None
    except RefusedError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    account = await signed_in(request)
    if account is not None:  # the seats the signed-in creator plays carry their account
        mine = {i: account.id for i, c in enumerate(body.seats) if c.kind == "me"}
        await hub.db(people_of(request).ratings.seat_accounts, game_id, mine)
    return {
        "id": game_id,
        "url": f"/games/{game_id}",
        "tokens": {str(seat): token for seat, token in tokens.items()},
        "links": {
            str(seat): f"/games/{game_id}#seat={seat}&token={token}"
            for seat, token in tokens.items()
        },
    }


@router.get("/api/games")
async def api_games(
    request: Request, status: str | None = None, ids: str | None = None
) -> list[dict[str, Any]]:
    """Games, newest first (at most 100): ``status`` one of playing, finished, abandoned;
    ``ids`` a comma-separated list of game ids (others are ignored)."""
    hub = hub_of(request)
    id_list = [i for i in ids.split(",") if GAME_ID.fullmatch(i)][:100] if ids is not None else None
    if status is not None and status not in ("playing", "finished", "abandoned"):
        raise HTTPException(
            status_code=400,
            detail=gettext("status is 'playing', 'finished' or 'abandoned'"),
        )
    return await hub.db(hub.store.summaries, id_list, status, 100)


@router.get("/api/games/{game_id}")
async def api_game(request: Request, game_id: str) -> dict[str, Any]:
    """One game's public summary (404 for an unknown id)."""
    hub = hub_of(request)
    found = (
        await hub.db(hub.store.summaries, [game_id], None, 1) if GAME_ID.fullmatch(game_id) else []
    )
    if not found:
        raise HTTPException(status_code=404, detail=no_game(game_id))
    return found[0]


@router.get("/api/open-games")
async def api_open_games(request: Request) -> list[dict[str, Any]]:
    """Public summaries of the games being played with an open seat, newest first."""
    return await hub_of(request).seats.open_games()


@router.post("/api/games/{game_id}/seats/{seat}")
async def api_take_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    """Take an open seat: ``{"id", "seat", "token", "link"}`` (409 taken or over, 429 too many)."""
    hub = hub_of(request)
    raw = await read_body(request)
    try:
        body = TakeSeat.model_validate(parse_json_body(raw) if raw.strip() else {})
    except ValidationError as exc:
        raise HTTPException(status_code=422, detail=first_error(exc)) from None
    if not hub.seats.take_allowed(client_address(request)):
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
    account = await signed_in(request)
    if account is not None:  # a seat taken by a signed-in person carries their account
        await hub.db(people_of(request).ratings.seat_accounts, game_id, {seat: account.id})
    return {
        "id": game_id,
        "seat": seat,
        "token": token,
        "link": f"/games/{game_id}#seat={seat}&token={token}",
    }


@router.get("/games/{game_id}/record.json")
async def record(request: Request, game_id: str) -> Response:
    """The game's record as a download (403 for a game with hidden cards still being played)."""
    live = await live_or_404(request, game_id)
    info = get_game(live.stored.game).info
    if live.stored.status == STATUS_PLAYING and not info.perfect_information:
        raise HTTPException(
            status_code=403,
            detail=gettext("the record of a game with hidden cards is served once it is over"),
        )
    async with live.lock:
        text = live.stored.record(live.outcome()).dumps()
    return Response(
        text,
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="limit-{live.stored.game}-{game_id}.json"'
        },
    )


@router.get("/api/games/{game_id}/replay/{ply}")
async def replay_step(request: Request, game_id: str, ply: int) -> dict[str, Any]:
    """The spectator's view of a finished game after ``ply`` actions (409 while it is played)."""
    live = await live_or_404(request, game_id)
    if live.stored.status == STATUS_PLAYING:
        raise HTTPException(
            status_code=409, detail=gettext("the game is not finished yet: watch it live")
        )
    total = len(live.notations)
    if not 0 <= ply <= total:
        raise HTTPException(status_code=400, detail=gettext("ply is 0..%(last)d") % {"last": total})
    try:
        state = await asyncio.to_thread(build_state, live.stored, ply, hub_of(request).data_files)
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


__all__ = ["router"]
