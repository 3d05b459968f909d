"""The people of a server: accounts, ratings and seeks, their cookies and their CSRF protection.

:func:`install` adds to an app what signed-in people need:

- Starlette's ``SessionMiddleware``: a session cookie (``limit_session``,
  HttpOnly, SameSite=Lax, two weeks) signed with the server's secret
  (:func:`~limitgames.web.accounts.server_secret`); it holds only the key of a
  session kept in the database (``accounts.py``), so signing out ends it on
  the server;
- CSRF protection by ``asgi-csrf`` (Simon Willison's ASGI middleware): the
  double-submit pattern with a signed token, in a cookie (``csrftoken``) and in
  the form (a hidden ``csrftoken`` field) or the ``x-csrftoken`` header (the
  lobby's scripts), compared by the middleware before the request reaches a
  route. It guards every path under :data:`PROTECTED_PREFIXES` (the account
  forms and the seeks: what acts with a signed-in person's authority), and the
  sign-up and sign-in forms even from a browser with no cookie at all. The
  guests' API (``POST /api/games`` and the rest) carries no account, so it is
  not guarded by this token (as before).

:func:`signed_in` tells a route which account, if any, sent a request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from asgi_csrf import asgi_csrf
from fastapi import FastAPI, Request, WebSocket
from sqlalchemy.engine import Engine
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from limitgames.translation import gettext, using
from limitgames.web.accounts import SESSION_KEY, Account, Accounts
from limitgames.web.limits import AddressBuckets
from limitgames.web.ratings import Ratings
from limitgames.web.routing import LANGUAGE_COOKIE, client_language, hub_of
from limitgames.web.seek_store import Seeks

SESSION_COOKIE = "limit_session"
SESSION_SECONDS = 14 * 24 * 3600
"""How long a session cookie is kept by the browser (the session itself ends at sign-out)."""
PROTECTED_PREFIXES = ("/account/", "/api/seeks")
"""Every POST under these paths needs the CSRF token."""
ALWAYS_PROTECTED = frozenset({"/account/signup", "/account/signin", "/account/signout"})
"""Checked even without any cookie (so nobody can sign a browser into another's account)."""
CSRF_COOKIE = "csrftoken"
SIGN_INS_PER_MINUTE = 10
"""Attempts to sign in allowed per minute from one address, and for one name (bursts of as many)."""
SIGN_UPS_PER_HOUR = 10
"""Accounts one address may make in an hour."""


@dataclass
class People:
    """The accounts, ratings and seeks of one server process (on its database)."""

    accounts: Accounts
    ratings: Ratings
    seeks: Seeks
    sign_ins: AddressBuckets = field(
        default_factory=lambda: AddressBuckets(SIGN_INS_PER_MINUTE / 60.0, SIGN_INS_PER_MINUTE)
    )
    """Sign-in attempts, by address and by ``"name:" + name``."""
    sign_ups: AddressBuckets = field(
        default_factory=lambda: AddressBuckets(SIGN_UPS_PER_HOUR / 3600.0, SIGN_UPS_PER_HOUR)
    )

    @classmethod
    def on(cls, engine: Engine) -> People:
        """The people stored in the database of ``engine``."""
        return cls(Accounts(engine), Ratings(engine), Seeks(engine))


def _cookie(scope: Scope, name: str) -> str | None:
    for key, value in scope.get("headers", []):
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _, v = part.strip().partition("=")
                if k == name:
                    return str(v)
    return None


async def _csrf_refused(scope: Scope, send: Send, message_id: Any) -> None:
    """The one-line 403 answer to a POST whose CSRF token is missing or wrong."""
    accept = next(
        (v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"accept-language"), None
    )
    with using(client_language(_cookie(scope, LANGUAGE_COOKIE), accept)):
        detail = gettext("this form has expired or did not come from this site: reload the page")
    body = json.dumps({"detail": detail}).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class CsrfMiddleware:
    """``asgi-csrf`` on the paths under :data:`PROTECTED_PREFIXES` (module docstring)."""

    def __init__(self, app: ASGIApp, secret: str) -> None:
        self._guarded = asgi_csrf(
            app,
            signing_secret=secret,
            always_protect=set(ALWAYS_PROTECTED),
            skip_if_scope=lambda scope: not scope["path"].startswith(PROTECTED_PREFIXES),
            send_csrf_failed=_csrf_refused,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._guarded(scope, receive, send)


def install(app: FastAPI, secret: str) -> None:
    """Add the session cookie and the CSRF protection (module docstring) to ``app``."""
    app.add_middleware(CsrfMiddleware, secret=secret)
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret,
        session_cookie=SESSION_COOKIE,
        max_age=SESSION_SECONDS,
        same_site="lax",
        https_only=False,
    )


def people_of(request: Request | WebSocket) -> People:
    """The people of the app serving ``request`` (made at start-up, ``app.create_app``)."""
    people: People = request.app.state.people
    return people


def csrf_token(request: Request) -> str:
    """The CSRF token to put in a form (``<input name="csrftoken">``) or an ``x-csrftoken`` header."""
    token: str = request.scope[CSRF_COOKIE]()
    return token


async def signed_in(request: Request | WebSocket) -> Account | None:
    """The account of the session that sent ``request``, or ``None`` (a guest, or signed out)."""
    key = request.session.get(SESSION_KEY)
    if not isinstance(key, str) or not key:
        return None
    return await hub_of(request).db(people_of(request).accounts.session_account, key)


__all__ = [
    "ALWAYS_PROTECTED",
    "CSRF_COOKIE",
    "PROTECTED_PREFIXES",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "SIGN_INS_PER_MINUTE",
    "SIGN_UPS_PER_HOUR",
    "CsrfMiddleware",
    "People",
    "csrf_token",
    "install",
    "people_of",
    "signed_in",
]
