"""The "your turn" list: across all of a person's games, those waiting for them.

``GET /api/your-turn?seats=ID:SEAT,ID:SEAT`` answers ``{"games": [...]}``: of the
seats named (this browser's, from its "My games") and of the seats of the
signed-in account (``seats.account_id``), the unfinished games whose seat to move
is one of them. Whose turn it is is public (any spectator sees it), so no token
is needed; the link to play comes from the browser's own tokens or, for an
account's seat, from the page that seated it. Each entry is ``{"id", "game",
"seat", "name", "clock", "seconds_left", "remind"}``: ``seconds_left`` the time
the seat has left for its turn (``None`` without a clock), ``remind`` whether a
correspondence game's turn is running low (less than
``correspondence.REMIND_SHARE`` of a turn left: the reminder shown in the page,
as the e-mail says). At most :data:`MOST_SEATS` seats are looked at, games
loaded on demand (``GameHub.get``).
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from limitgames.web.clocks import CLOCK_DAYS
from limitgames.web.correspondence import REMIND_SHARE
from limitgames.web.live_game import GAME_ID
from limitgames.web.people import signed_in
from limitgames.web.routing import hub_of
from limitgames.web.schema import STATUS_PLAYING, GameRow, SeatRow
from limitgames.web.views import shown_name

MOST_SEATS = 100
"""The most seats one request looks at."""

router = APIRouter()


def account_seats(engine: Engine, account_id: int) -> list[tuple[str, int]]:
    """``[(game id, seat)]``: the seats ``account_id`` holds in unfinished games."""
    with Session(engine) as session:
        rows = session.execute(
            select(SeatRow.game_id, SeatRow.seat)
            .join(GameRow, GameRow.id == SeatRow.game_id)
            .where(SeatRow.account_id == account_id, GameRow.status == STATUS_PLAYING)
            .limit(MOST_SEATS)
        ).all()
    return [(str(game_id), int(seat)) for game_id, seat in rows]


def named_seats(text: str | None) -> list[tuple[str, int]]:
    """The ``ID:SEAT`` pairs of ``?seats=`` (malformed ones are left out)."""
    pairs: list[tuple[str, int]] = []
    for part in (text or "").split(",")[:MOST_SEATS]:
        game_id, _, seat = part.partition(":")
        if GAME_ID.fullmatch(game_id) and seat.isdigit() and int(seat) < 16:
            pairs.append((game_id, int(seat)))
    return pairs


@router.get("/api/your-turn")
async def api_your_turn(request: Request, seats: str | None = None) -> dict[str, Any]:
    """The games waiting for this browser's seats and the signed-in account's (module docstring)."""
    hub = hub_of(request)
    pairs = named_seats(seats)
    account = await signed_in(request)
    if account is not None:
        pairs += await hub.db(account_seats, hub.store.engine, account.id)
    games: list[dict[str, Any]] = []
    seen: set[tuple[str, int]] = set()
    now = time.monotonic()
    for game_id, seat in pairs[:MOST_SEATS]:
        if (game_id, seat) in seen:
            continue
        seen.add((game_id, seat))
        live = await hub.get(game_id)
        if live is None or live.over or live.error is not None:
            continue
        if live.state.current_player() != seat or seat not in live.human_seats():
            continue
        left = live.clock.left(seat, now) if live.clock is not None else None
        days = live.clock_settings.kind == CLOCK_DAYS
        turn = live.clock_settings.turn_seconds()
        games.append(
            {
                "id": game_id,
                "game": live.stored.game,
                "seat": seat,
                "name": shown_name(live.seat_names()[seat]),
                "clock": live.clock_settings.kind,
                "seconds_left": None if left is None else round(left),
                "remind": days and left is not None and left < REMIND_SHARE * turn,
            }
        )
    games.sort(key=lambda g: (g["seconds_left"] is None, g["seconds_left"] or 0))
    return {"games": games}


__all__ = ["MOST_SEATS", "account_seats", "api_your_turn", "named_seats", "router"]
