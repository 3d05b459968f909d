"""What the routers share: the hub of a request, a game or 404, bodies, addresses, languages, pages.

Errors are one line (``{"detail": "..."}``): a body over :data:`MAX_BODY_BYTES`
is refused with 413, JSON that is not JSON (``NaN`` and ``Infinity`` included)
with 422, an unknown game id with 404 (naming the id, cut to 40 characters).
"""

from __future__ import annotations

import json
import math
from contextvars import ContextVar
from typing import Any

from fastapi import HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse

from limitgames.translation import (
    LANGUAGE_NAMES,
    LANGUAGES,
    current_language,
    from_accept_language,
    gettext,
)
from limitgames.web.live import GameHub
from limitgames.web.live_game import LiveGame
from limitgames.web.views import environment

MAX_BODY_BYTES = 16384
"""The largest request body accepted (``POST /api/games``), in bytes."""


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


LANGUAGE_COOKIE = "limit_language"
"""The cookie that remembers the language chosen with the switch (a code of ``LANGUAGES``)."""

LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600

page_path: ContextVar[str] = ContextVar("page_path", default="/")
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


def render_page(name: str, **context: Any) -> HTMLResponse:
    """The page of template ``name`` in the language of the request, with its language switch."""
    language = current_language.get()
    return HTMLResponse(
        environment.get_template(name).render(
            language=language,
            languages=[(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
            here=page_path.get(),
            **context,
        ),
        headers={"Content-Language": language, "Vary": "Accept-Language, Cookie"},
    )


def hub_of(request: Request | WebSocket) -> GameHub:
    """The games of the app serving ``request`` (made at start-up, ``app.create_app``)."""
    hub: GameHub = request.app.state.hub
    return hub


async def live_or_404(request: Request, game_id: str) -> LiveGame:
    """The live game ``game_id``.

    Raises:
        HTTPException: 404 naming the id when there is no such game.
        StorageUnavailableError: the database refused.
    """
    live = await hub_of(request).get(game_id)
    if live is None:
        raise HTTPException(status_code=404, detail=no_game(game_id))
    return live


async def read_body(request: Request) -> bytes:
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


def client_address(request: Request | WebSocket) -> str:
    """The client's network address (behind a proxy: what uvicorn's ``--forwarded-allow-ips`` trusts)."""
    return request.client.host if request.client is not None else "unknown"


def no_game(game_id: str) -> str:
    """The one-line answer for an unknown game id (shown cut to 40 characters)."""
    shown = game_id if len(game_id) <= 40 else game_id[:40] + "..."
    return gettext("no game %(id)r") % {"id": shown}


__all__ = [
    "LANGUAGE_COOKIE",
    "LANGUAGE_COOKIE_SECONDS",
    "MAX_BODY_BYTES",
    "client_address",
    "client_language",
    "hub_of",
    "live_or_404",
    "no_game",
    "page_path",
    "parse_json_body",
    "read_body",
    "render_page",
    "safe_next",
]
