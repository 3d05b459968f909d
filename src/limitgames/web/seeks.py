"""Seeks: a signed-in person offers a game in the lobby, another accepts it, both are seated.

==================================  ==================================================
``GET /api/seeks``                  the open seeks, who is online, and (for its author)
                                    the link of a seek that was accepted
``POST /api/seeks``                 post a seek (:class:`SeekRequest`)
``POST /api/seeks/{id}/accept``     accept one: the game is made with both seated;
                                    answers the accepter's link
``POST /api/seeks/{id}/withdraw``   its author takes it back
==================================  ==================================================

A seek may carry a rating range (``rating_min``, ``rating_max``): only a person
whose rating in the seek's game (1500, Glicko-2's start, when not yet rated) lies
within it may accept it. A seek is for two people (a variant's ``players`` is set to 2): the author
plays seat 1, the accepter seat 2, each seat carrying its account. A rated seek
makes a rated game (``ratings.py``); only hex, cards and world are rated. A
seek ends when it is accepted, withdrawn by its author, when its author signs
out, or when its author has not been seen for ``accounts.ONLINE_SECONDS`` (the
lobby asks every few seconds while it is open, :mod:`accounts` notes each
signed-in request). The author's lobby learns that its seek was accepted from
its live feed (``WS /lobby/ws``, :mod:`limitgames.web.lobby_feed`) or
``GET /api/seeks`` (the link with the author's seat token, given once and then
forgotten). Every POST needs the CSRF token (header ``x-csrftoken``, see
``people.py``) and a signed-in session (401 without).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import ValidationError

from limitgames.translation import gettext
from limitgames.web.accounts import Account
from limitgames.web.messages import NewGame, first_error
from limitgames.web.people import people_of, signed_in
from limitgames.web.ratings import START_RATING
from limitgames.web.refusals import RefusedError, StorageUnavailableError, TooManyError
from limitgames.web.routing import client_address, hub_of, parse_json_body, read_body
from limitgames.web.seek_store import SeekRequest, range_refusal, seek_variant

router = APIRouter()


async def _signed_in_or_401(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise HTTPException(status_code=401, detail=gettext("sign in first"))
    return account


@router.get("/api/seeks")
async def api_seeks(request: Request) -> dict[str, Any]:
    """``{"seeks": [...], "online": [names], "me": name or None, "matched": [...]}``
    (``matched``: the author's accepted seeks, once)."""
    hub = hub_of(request)
    people = people_of(request)
    account = await signed_in(request)
    seeks = await hub.db(people.seeks.open_seeks)
    online = await hub.db(people.accounts.online)
    matched = await hub.db(people.seeks.deliver, account) if account is not None else []
    return {
        "seeks": seeks,
        "online": online,
        "me": account.name if account is not None else None,
        "matched": matched,
    }


@router.post("/api/seeks")
async def api_post_seek(request: Request) -> dict[str, Any]:
    """Post a seek: ``{"id"}`` (401 not signed in, 400 refused, 422 malformed, 429 too many)."""
    account = await _signed_in_or_401(request)
    raw = await read_body(request)
    try:
        body = SeekRequest.model_validate(parse_json_body(raw))
    except ValidationError as exc:
        raise HTTPException(status_code=422, detail=first_error(exc)) from None
    try:
        variant = seek_variant(body)
    except RefusedError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    hub = hub_of(request)
    try:
        seek_id = await hub.db(people_of(request).seeks.post, account, body, variant)
    except TooManyError as exc:
        raise HTTPException(status_code=429, detail=str(exc)) from None
    hub.viewers.lobby.touch()
    return {"id": seek_id}


@router.post("/api/seeks/{seek_id}/withdraw")
async def api_withdraw_seek(request: Request, seek_id: str) -> dict[str, Any]:
    """Withdraw one's own open seek (404 when there is none such)."""
    account = await _signed_in_or_401(request)
    if not await hub_of(request).db(people_of(request).seeks.withdraw, seek_id[:16], account):
        raise HTTPException(status_code=404, detail=gettext("you have no such open seek"))
    hub_of(request).viewers.lobby.touch()
    return {"id": seek_id}


@router.post("/api/seeks/{seek_id}/accept")
async def api_accept_seek(request: Request, seek_id: str) -> dict[str, Any]:
    """Accept an open seek: the game is made with its author and the accepter seated.

    Answers ``{"id", "url", "seat", "link"}``, the accepter's seat and link (409 the seek is
    gone or one's own, 403 the accepter's rating is outside the seek's range, 400 the game
    was refused, 429 too many games from this address).
    """
    account = await _signed_in_or_401(request)
    hub = hub_of(request)
    people = people_of(request)
    bounds = await hub.db(people.seeks.bounds, seek_id[:16])
    if bounds is not None and (bounds[1] is not None or bounds[2] is not None):
        ratings = await hub.db(people.ratings.ratings_of, account.id)
        rating = float(ratings.get(bounds[0], {}).get("rating", START_RATING))
        refused = range_refusal(rating, bounds[1], bounds[2])
        if refused is not None:
            raise HTTPException(status_code=403, detail=refused)
    seek = await hub.db(people.seeks.take, seek_id[:16], account)
    if seek is None:
        raise HTTPException(
            status_code=409, detail=gettext("this seek is no longer open (or it is yours)")
        )
    author = await hub.db(people.accounts.name_of, seek.account_id)
    try:
        body = NewGame.model_validate(
            {
                "game": seek.game,
                "variant": seek.variant,
                "seats": [
                    {"kind": "friend", "name": author or "?"},
                    {"kind": "friend", "name": account.name},
                ],
                "clock": seek.clock,
            }
        )
        game_id, tokens = await hub.create(body, client_address(request))
    except (ValidationError, RefusedError, TooManyError, StorageUnavailableError) as exc:
        await hub.db(people.seeks.withdraw, seek.id)
        hub.viewers.lobby.touch()
        if isinstance(exc, StorageUnavailableError):
            raise
        status = 429 if isinstance(exc, TooManyError) else 400
        detail = first_error(exc) if isinstance(exc, ValidationError) else str(exc)
        raise HTTPException(status_code=status, detail=detail) from None
    await hub.db(
        people.ratings.seat_accounts, game_id, {0: seek.account_id, 1: account.id}, seek.rated
    )
    links = {seat: f"/games/{game_id}#seat={seat}&token={token}" for seat, token in tokens.items()}
    await hub.db(people.seeks.matched, seek.id, game_id, links[0])
    hub.viewers.lobby.touch()  # gone from every lobby; its author's feed brings the link
    return {"id": game_id, "url": f"/games/{game_id}", "seat": 1, "link": links[1]}


__all__ = ["router"]
