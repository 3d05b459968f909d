"""The pages: lobby, game, replay, World3 debrief, rules, how to play, and the language switch.

==============================  =================================================
``GET /``                       the lobby (pick a game, fill the seats, start)
``POST /language``              the language switch (a cookie), back to the page
``GET /catalogue/{lang}.js``    the browser's translation catalogue
``GET /games/{id}``             the game page (the seat comes from the link's
                                ``#seat=N&token=T`` fragment, never sent to the server
                                in a URL)
``GET /games/{id}/replay``      step through a finished game
``GET /games/{id}/debrief``     a finished world game beside World3 (plots and words)
``GET /rules/{game}``           the rules of a game, in the page's language
``GET /howto/{game}``           how to play a game, for people, with diagrams
==============================  =================================================
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from limitgames.core import LimitGamesError, get_game
from limitgames.howto import how_to_play, howto_games
from limitgames.translation import (
    LANGUAGES,
    browser_catalogue,
    current_language,
    gettext,
    supported,
)
from limitgames.web.catalog import catalog, variant_words
from limitgames.web.computer import LEVELS
from limitgames.web.routing import (
    LANGUAGE_COOKIE,
    LANGUAGE_COOKIE_SECONDS,
    hub_of,
    live_or_404,
    read_body,
    render_page,
    safe_next,
)
from limitgames.web.rules_page import render_markdown, render_rules, rules_games
from limitgames.web.storage import STATUS_PLAYING
from limitgames.web.world_html import debrief as world_debrief

FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<polygon points="16,1 29,8.5 29,23.5 16,31 3,23.5 3,8.5" fill="#8c3b1f"/>'
    '<circle cx="16" cy="16" r="7" fill="#f6f1e4"/></svg>'
)


DEBRIEFS_KEPT = 16
"""How many World3 debriefs (``GET /games/{id}/debrief``) a server keeps drawn."""


@dataclass
class Debriefs:
    """The World3 debriefs an app keeps drawn: ``{(game id, language): drawing}``, the newest last."""

    drawn: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while drawing: matplotlib draws one figure at a time."""

    def keep(self, key: tuple[str, str], drawing: dict[str, Any]) -> None:
        """Keep ``drawing``, forgetting the oldest beyond :data:`DEBRIEFS_KEPT`."""
        self.drawn[key] = drawing
        while len(self.drawn) > DEBRIEFS_KEPT:
            self.drawn.pop(next(iter(self.drawn)))


router = APIRouter()


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The lobby: pick a game, fill the seats, start (the catalogue is in the page)."""
    hub = hub_of(request)
    # "<" escaped so that no text can close the <script> element holding the JSON
    data = json.dumps(catalog(hub.data_files)).replace("<", "\\u003c")
    rules = [(g, get_game(g).info.title) for g in rules_games()]
    away = f"{hub.limits.zombie_after / 60:g}"
    return render_page(
        "lobby.html.j2", catalog_json=data, levels=LEVELS, rules=rules, away_default=away
    )


@router.post("/language", include_in_schema=False)
async def choose_language(request: Request) -> Response:
    """The language switch: remember the chosen language in a cookie and go back."""
    form = parse_qs((await read_body(request)).decode("utf-8", "replace"))
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


@router.get("/catalogue/{language}.js", include_in_schema=False)
async def language_catalogue(language: str) -> Response:
    """The browser's catalogue (``window.LIMIT_CATALOGUE``) of one of ``LANGUAGES``;
    any other name gets English's (empty)."""
    code = language if language in LANGUAGES else LANGUAGES[0]
    return Response(
        browser_catalogue(code),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "public, max-age=3600"},
    )


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    """The site's icon (:data:`FAVICON`)."""
    return Response(FAVICON, media_type="image/svg+xml")


@router.get("/rules/{game}", response_class=HTMLResponse)
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
    return render_page(
        "rules.html.j2",
        title=rules.title,
        body=rules.html,
        game=game,
        rules_language=rules.language,
        untranslated=rules.language != wanted,
    )


@router.get("/howto/{game}", response_class=HTMLResponse)
async def howto_page(game: str, language: str | None = None) -> HTMLResponse:
    """How to play ``game`` (:mod:`limitgames.howto`) in the page's language (``?language=en``:
    the English page; a code not offered is ignored), else in English with a note. Its
    diagrams are the package's copies under ``/static/howto/``; its link to the full rules
    leads to ``/rules/{game}``."""
    if game not in howto_games():
        shown = game if len(game) <= 40 else game[:40] + "..."
        raise HTTPException(
            status_code=404,
            detail=gettext("no how-to-play page for the game %(game)r") % {"game": shown},
        )
    wanted = language if language in LANGUAGES else current_language.get()
    page = how_to_play(game, wanted)
    text = page.markdown.replace("](img/", "](/static/howto/")
    text = text.replace(f"](../rules/{game}.md)", f"](/rules/{game})")
    return render_page(
        "howto.html.j2",
        title=page.title,
        body=render_markdown(text),
        game=game,
        howto_language=page.language,
        untranslated=page.language != wanted,
    )


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    """The page of a game (its script opens the WebSocket; the seat comes from the link's fragment)."""
    live = await live_or_404(request, game_id)
    info = get_game(live.stored.game).info
    return render_page(
        "game.html.j2",
        game_id=game_id,
        game=live.stored.game,
        title=info.title,
        variant_text=variant_words(live.stored.game, live.stored.variant),
    )


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str) -> HTMLResponse:
    """The page that steps through a finished game."""
    live = await live_or_404(request, game_id)
    info = get_game(live.stored.game).info
    finished = live.stored.status != STATUS_PLAYING
    return render_page(
        "replay.html.j2",
        game_id=game_id,
        title=info.title,
        finished=finished,
        plies=len(live.notations),
    )


@router.get("/games/{game_id}/debrief", response_class=HTMLResponse)
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
    debriefs: Debriefs = request.app.state.debriefs
    key = (game_id, current_language.get())  # the plots' words are in the reader's language
    found = debriefs.drawn.get(key)
    if found is None:
        async with debriefs.lock:  # matplotlib draws one figure at a time
            found = debriefs.drawn.get(key)
            if found is None:
                async with live.lock:
                    record = live.stored.record(live.outcome())
                try:
                    found = await asyncio.to_thread(world_debrief, record)
                except (LimitGamesError, ValueError) as exc:
                    raise HTTPException(
                        status_code=409,
                        detail=gettext("no debrief for this game: %(reason)s") % {"reason": exc},
                    ) from None
                debriefs.keep(key, found)
    return render_page("world_debrief.html.j2", game_id=game_id, **found)


__all__ = ["DEBRIEFS_KEPT", "FAVICON", "Debriefs", "router"]
