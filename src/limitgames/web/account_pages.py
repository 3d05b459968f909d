"""The pages of people: sign up, sign in, sign out, a person's page, the leaderboards.

==================================  ==================================================
``GET/POST /account/signup``        sign up (name, password, e-mail if one likes),
                                    then signed in
``GET/POST /account/signin``        sign in (rate-limited per address and per name)
``POST /account/signout``           sign out: the session ends (``everywhere=1``: all
                                    of the account's), one's open seeks go
``GET /account/export``             all the server keeps of the signed-in person (JSON)
``POST /account/delete``            delete one's account (``password`` confirms it)
``GET /api/me``                     ``{"name", "csrf"}``: who is signed in (``None``:
                                    a guest) and the CSRF token for the scripts
``GET /people/{name}``              a person's ratings (a graph each) and games, newest
                                    first (``?game=hex``: one game's); ``/api/people/{name}``:
                                    the same as JSON
``GET /leaderboard``                the best rated people of each game
                                    (``/api/leaderboard/{game}``: one game's, JSON)
==================================  ==================================================

The forms are plain HTML forms with a hidden CSRF token (``people.py``). A
refused sign-up says why in one line (name taken, name or password not as
required); a refused sign-in says only that the name or the password is wrong.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from limitgames.core import get_game
from limitgames.translation import gettext
from limitgames.web.accounts import (
    SESSION_KEY,
    Account,
    NameTakenError,
    check_sign_up,
    hash_password,
    needs_rehash,
    password_matches,
)
from limitgames.web.people import csrf_token, people_of, signed_in
from limitgames.web.ratings import RATED_GAMES
from limitgames.web.refusals import RefusedError
from limitgames.web.routing import client_address, hub_of, read_body, render_page, safe_next

router = APIRouter()


def _form(raw: bytes) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(raw.decode("utf-8", "replace")).items()}


def _account_page(
    request: Request, mode: str, error: str = "", name: str = "", status: int = 200
) -> HTMLResponse:
    page = render_page(
        "account.html.j2",
        mode=mode,
        error=error,
        account_name=name,
        csrf=csrf_token(request),
        next=safe_next(request.query_params.get("next")),
    )
    page.status_code = status
    return page


async def _sign_in_as(request: Request, account: Account, next_path: str) -> Response:
    hub = hub_of(request)
    key = await hub.db(people_of(request).accounts.open_session, account)
    request.session.clear()
    request.session[SESSION_KEY] = key
    return RedirectResponse(safe_next(next_path), status_code=303)


@router.get("/account/signup", response_class=HTMLResponse)
async def sign_up_page(request: Request) -> HTMLResponse:
    """The sign-up form."""
    return _account_page(request, "signup")


@router.post("/account/signup", include_in_schema=False)
async def sign_up(request: Request) -> Response:
    """Make an account and sign in (400 refused, 409 name taken: the form again, with why)."""
    form = _form(await read_body(request))
    name = form.get("name", "").strip()
    password = form.get("password", "")
    email = form.get("email", "").strip()
    people = people_of(request)
    try:
        check_sign_up(name, password, email)
        if not people.sign_ups.take(client_address(request)):
            return _account_page(
                request,
                "signup",
                gettext("too many sign-ups from your address: try later"),
                name,
                429,
            )
        hashed = await asyncio.to_thread(hash_password, password)
        account = await hub_of(request).db(people.accounts.create, name, hashed, email)
    except RefusedError as exc:
        status = 409 if isinstance(exc, NameTakenError) else 400
        return _account_page(request, "signup", str(exc), name, status)
    return await _sign_in_as(request, account, form.get("next", "/"))


@router.get("/account/signin", response_class=HTMLResponse)
async def sign_in_page(request: Request) -> HTMLResponse:
    """The sign-in form."""
    return _account_page(request, "signin")


@router.post("/account/signin", include_in_schema=False)
async def sign_in(request: Request) -> Response:
    """Sign in (401 wrong name or password, one message for both; 429 too many attempts)."""
    form = _form(await read_body(request))
    name = form.get("name", "").strip()[:40]
    password = form.get("password", "")[:400]
    people = people_of(request)
    if not (
        people.sign_ins.take(client_address(request))
        and people.sign_ins.take("name:" + name.lower())
    ):
        return _account_page(
            request, "signin", gettext("too many attempts to sign in: wait a minute"), name, 429
        )
    account, hashed = await hub_of(request).db(people.accounts.password_hash, name)
    if not await asyncio.to_thread(password_matches, hashed, password) or account is None:
        return _account_page(request, "signin", gettext("wrong name or password"), name, 401)
    if needs_rehash(hashed):  # made with older parameters: hash it as today
        rehashed = await asyncio.to_thread(hash_password, password)
        await hub_of(request).db(people.accounts.set_password_hash, account, rehashed)
    return await _sign_in_as(request, account, form.get("next", "/"))


@router.post("/account/signout", include_in_schema=False)
async def sign_out(request: Request) -> Response:
    """Sign out: the session ends on the server (with ``everywhere=1`` in the form, every
    session of the account), one's open seeks are withdrawn."""
    form = _form(await read_body(request))
    hub = hub_of(request)
    people = people_of(request)
    account = await signed_in(request)
    key = request.session.get(SESSION_KEY)
    if account is not None:
        await hub.db(people.seeks.withdraw_all, account)
        if form.get("everywhere") == "1":
            await hub.db(people.accounts.end_all_sessions, account)
    if isinstance(key, str):
        await hub.db(people.accounts.end_session, key)
    request.session.clear()
    return RedirectResponse("/", status_code=303)


@router.get("/account/export")
async def export_account(request: Request) -> Response:
    """Everything the server keeps of the signed-in person, as a JSON download: the account
    (no password hash), the signed-in sessions, the ratings and every game with the links of
    its record (401 signed out)."""
    account = await signed_in(request)
    if account is None:
        raise HTTPException(status_code=401, detail=gettext("sign in first"))
    hub = hub_of(request)
    people = people_of(request)
    await hub.db(people.ratings.settle)
    games = await hub.db(people.ratings.history, account.id, 10_000)
    for game in games:
        game["record"] = f"/games/{game['id']}/record.json"
    exported = {
        "account": await hub.db(people.accounts.profile, account),
        "sessions": await hub.db(people.accounts.sessions_of, account),
        "ratings": await hub.db(people.ratings.ratings_of, account.id),
        "games": games,
    }
    return Response(
        json.dumps(exported, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="limit-{account.name}.json"'},
    )


@router.post("/account/delete", include_in_schema=False)
async def delete_account(request: Request) -> Response:
    """Delete the signed-in person's account, their password confirming it (``Accounts.delete``):
    401 signed out or a wrong password, 409 while one of their games is being played."""
    form = _form(await read_body(request))
    account = await signed_in(request)
    if account is None:
        raise HTTPException(status_code=401, detail=gettext("sign in first"))
    hub = hub_of(request)
    people = people_of(request)
    if not people.sign_ins.take("name:" + account.name.lower()):
        raise HTTPException(
            status_code=429, detail=gettext("too many attempts to sign in: wait a minute")
        )
    _, hashed = await hub.db(people.accounts.password_hash, account.name)
    if not await asyncio.to_thread(password_matches, hashed, form.get("password", "")[:400]):
        raise HTTPException(status_code=401, detail=gettext("wrong name or password"))
    if not await hub.db(people.accounts.delete, account):
        raise HTTPException(
            status_code=409,
            detail=gettext("finish or resign your games being played first"),
        )
    request.session.clear()
    return RedirectResponse("/", status_code=303)


@router.get("/api/me")
async def api_me(request: Request) -> dict[str, Any]:
    """``{"name": the signed-in person's name or None, "csrf": the CSRF token}``."""
    account = await signed_in(request)
    return {"name": account.name if account is not None else None, "csrf": csrf_token(request)}


def _title(game: str) -> str:
    """A game's title with its id: the three are all called Limit."""
    return f"{get_game(game).info.title} ({game})"


GRAPH_WIDTH, GRAPH_HEIGHT, GRAPH_MARGIN, GRAPH_LABELS = 320, 120, 6, 40
"""The rating graph's size, inner margin and the width of its labels on the left, in SVG
user units (CSS pixels)."""


def rating_graph(line: list[float]) -> str:
    """An SVG line of a person's rating in one game (``Ratings.rating_lines``): the ratings
    left to right, one step a game, the lowest at the bottom; the highest and lowest written
    on the left."""
    low, high = min(line), max(line)
    span = max(high - low, 1.0)
    step = (GRAPH_WIDTH - GRAPH_LABELS - GRAPH_MARGIN) / max(len(line) - 1, 1)
    inner = GRAPH_HEIGHT - 2 * GRAPH_MARGIN
    points = " ".join(
        f"{GRAPH_LABELS + i * step:.1f},{GRAPH_MARGIN + (high - r) / span * inner:.1f}"
        for i, r in enumerate(line)
    )
    label = GRAPH_LABELS - 4
    return (
        f'<svg class="rating-graph" viewBox="0 0 {GRAPH_WIDTH} {GRAPH_HEIGHT}" '
        f'width="{GRAPH_WIDTH}" height="{GRAPH_HEIGHT}" role="img" '
        f'aria-label="{low:.0f}-{high:.0f}">'
        f'<polyline points="{points}" fill="none" stroke="currentColor" stroke-width="2"/>'
        f'<text x="{label}" y="14" text-anchor="end" font-size="12">{high:.0f}</text>'
        f'<text x="{label}" y="{GRAPH_HEIGHT - 4}" text-anchor="end" font-size="12">'
        f"{low:.0f}</text></svg>"
    )


async def _person(request: Request, name: str) -> dict[str, Any]:
    hub = hub_of(request)
    people = people_of(request)
    account = await hub.db(people.accounts.by_name, name[:40])
    if account is None:
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise HTTPException(
            status_code=404, detail=gettext("nobody called %(name)r") % {"name": shown}
        )
    await hub.db(people.ratings.settle)
    return {
        "id": account.id,
        "name": account.name,
        "ratings": await hub.db(people.ratings.ratings_of, account.id),
        "games": await hub.db(people.ratings.history, account.id),
    }


@router.get("/api/people/{name}")
async def api_person(request: Request, name: str) -> dict[str, Any]:
    """A person's ratings (``ratings.Ratings.ratings_of``) and games (``history``), 404 unknown."""
    return await _person(request, name)


@router.get("/people/{name}", response_class=HTMLResponse)
async def person_page(request: Request, name: str) -> HTMLResponse:
    """A person's page: their rating in each game and their games, newest first."""
    person = await _person(request, name)
    game = request.query_params.get("game")
    shown_games = [g for g in person["games"] if game in (None, "", g["game"])]
    lines = await hub_of(request).db(people_of(request).ratings.rating_lines, person["id"])
    me = await signed_in(request)
    mine = me is not None and me.name == person["name"]
    sessions = await hub_of(request).db(people_of(request).accounts.sessions_of, me) if mine else []
    titles = {g: _title(g) for g in RATED_GAMES}
    return render_page(
        "person.html.j2",
        person=person,
        games=shown_games,
        chosen=game or "",
        graphs={g: rating_graph(line) for g, line in lines.items()},
        titles=titles,
        mine=mine,
        sessions=sessions,
        csrf=csrf_token(request),
    )


@router.get("/api/leaderboard/{game}")
async def api_leaderboard(request: Request, game: str) -> list[dict[str, Any]]:
    """The people rated in ``game``, best first (404 for a game that is not rated)."""
    if game not in RATED_GAMES:
        raise HTTPException(
            status_code=404, detail=gettext("only hex, cards and world games are rated")
        )
    hub = hub_of(request)
    people = people_of(request)
    await hub.db(people.ratings.settle)
    return await hub.db(people.ratings.leaderboard, game)


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard_page(request: Request) -> HTMLResponse:
    """The leaderboard of each rated game."""
    hub = hub_of(request)
    people = people_of(request)
    await hub.db(people.ratings.settle)
    boards = [
        (game, _title(game), await hub.db(people.ratings.leaderboard, game)) for game in RATED_GAMES
    ]
    return render_page("leaderboard.html.j2", boards=boards)


__all__ = [
    "GRAPH_HEIGHT",
    "GRAPH_LABELS",
    "GRAPH_MARGIN",
    "GRAPH_WIDTH",
    "rating_graph",
    "router",
]
