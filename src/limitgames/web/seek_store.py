"""The seeks stored: open, taken, matched; who may take one; the variant a seek plays.

The routes and the life of a seek are in :mod:`limitgames.web.seeks`.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import sessionmaker

from limitgames.core import LimitGamesError, get_game
from limitgames.translation import gettext
from limitgames.web.accounts import ONLINE_SECONDS, Account
from limitgames.web.messages import ClockChoice
from limitgames.web.ratings import RATED_GAMES
from limitgames.web.refusals import RefusedError, TooManyError
from limitgames.web.schema import (
    AccountRow,
    AccountSessionRow,
    RatingRow,
    SeekRow,
    utc_now,
    utc_text,
)

SEEK_OPEN = "open"
SEEK_TAKEN = "taken"
"""Accepted: the game is being made."""
SEEK_MATCHED = "matched"
"""The game is made; its author has not fetched their link yet."""
OPEN_SEEKS_PER_PERSON = 3
"""How many open seeks one person may have at once."""


MOST_RATING = 4000
"""The highest bound of a seek's rating range."""


class SeekRequest(BaseModel):
    """A seek: the game, its variant, the clock (as ``POST /api/games`` takes them), rated or
    not, and the rating range of who may accept it (``rating_min``, ``rating_max``: the
    accepter's Glicko-2 rating in the seek's game, 1500 for a person not yet rated in it;
    either may be left out)."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(min_length=1, max_length=32)
    variant: dict[str, Any] = Field(default_factory=dict, max_length=20)
    clock: ClockChoice = Field(default_factory=ClockChoice)
    rated: bool = False
    rating_min: int | None = Field(default=None, ge=0, le=MOST_RATING)
    rating_max: int | None = Field(default=None, ge=0, le=MOST_RATING)

    @model_validator(mode="after")
    def _range_in_order(self) -> SeekRequest:
        if (
            self.rating_min is not None
            and self.rating_max is not None
            and self.rating_min > self.rating_max
        ):
            raise ValueError(gettext("the rating range goes from the lower to the higher rating"))
        return self


def range_refusal(rating: float, low: int | None, high: int | None) -> str | None:
    """Why a person rated ``rating`` may not accept a seek for ``low``-``high``, or ``None``."""
    if (low is None or rating >= low) and (high is None or rating <= high):
        return None
    return gettext(
        "your rating in this game (%(rating)d) is outside the seek's range %(low)s-%(high)s"
    ) % {
        "rating": round(rating),
        "low": "" if low is None else low,
        "high": "" if high is None else high,
    }


class Seeks:
    """The seeks in one database; every method is one transaction (run on the database threads)."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def post(self, account: Account, request: SeekRequest, variant: dict[str, Any]) -> str:
        """Store an open seek of ``account``; return its id.

        Raises:
            TooManyError: the person has :data:`OPEN_SEEKS_PER_PERSON` open seeks.
        """
        with self._sessions() as session, session.begin():
            count = session.scalar(
                select(func.count())
                .select_from(SeekRow)
                .where(SeekRow.account_id == account.id, SeekRow.status == SEEK_OPEN)
            )
            if int(count or 0) >= OPEN_SEEKS_PER_PERSON:
                raise TooManyError(
                    gettext("you have %(most)d open seeks: withdraw one first")
                    % {"most": OPEN_SEEKS_PER_PERSON}
                )
            seek_id = secrets.token_urlsafe(9)
            session.add(
                SeekRow(
                    id=seek_id,
                    account_id=account.id,
                    game=request.game,
                    variant=variant,
                    clock=request.clock.model_dump(exclude_none=True),
                    rated=request.rated,
                    rating_min=request.rating_min,
                    rating_max=request.rating_max,
                    status=SEEK_OPEN,
                    created_at=utc_now(),
                )
            )
        return seek_id

    def open_seeks(self) -> list[dict[str, Any]]:
        """The open seeks, oldest first, after withdrawing those of people no longer online.

        Each is ``{"id", "author", "game", "variant", "clock", "rated", "rating_min",
        "rating_max", "rating", "created_at"}`` (``rating``: the author's in that game, ``None``
        when unrated; ``rating_min``/``rating_max``: who may accept, ``None`` no bound).
        """
        since = utc_now() - timedelta(seconds=ONLINE_SECONDS)
        with self._sessions() as session, session.begin():
            present = select(AccountSessionRow.account_id).where(
                AccountSessionRow.last_seen >= since
            )
            session.execute(
                delete(SeekRow).where(
                    SeekRow.status == SEEK_OPEN, SeekRow.account_id.not_in(present)
                )
            )
            rows = session.execute(
                select(SeekRow, AccountRow.name, RatingRow.rating)
                .join(AccountRow, AccountRow.id == SeekRow.account_id)
                .outerjoin(
                    RatingRow,
                    (RatingRow.account_id == SeekRow.account_id) & (RatingRow.game == SeekRow.game),
                )
                .where(SeekRow.status == SEEK_OPEN)
                .order_by(SeekRow.created_at)
            ).all()
        return [
            {
                "id": seek.id,
                "author": name,
                "game": seek.game,
                "variant": seek.variant,
                "clock": seek.clock,
                "rated": seek.rated,
                "rating_min": seek.rating_min,
                "rating_max": seek.rating_max,
                "rating": round(rating) if rating is not None else None,
                "created_at": utc_text(seek.created_at),
            }
            for seek, name, rating in rows
        ]

    def bounds(self, seek_id: str) -> tuple[str, int | None, int | None] | None:
        """``(game, rating_min, rating_max)`` of the open seek ``seek_id``, or ``None``."""
        with self._sessions() as session:
            seek = session.get(SeekRow, seek_id)
            if seek is None or seek.status != SEEK_OPEN:
                return None
            return seek.game, seek.rating_min, seek.rating_max

    def take(self, seek_id: str, account: Account) -> SeekRow | None:
        """Take the open seek ``seek_id`` for ``account`` (not its author): one conditional
        update, so of two accepting at once one gets it. ``None``: not open, or one's own."""
        with self._sessions() as session, session.begin():
            changed = session.execute(
                update(SeekRow)
                .where(
                    SeekRow.id == seek_id,
                    SeekRow.status == SEEK_OPEN,
                    SeekRow.account_id != account.id,
                )
                .values(status=SEEK_TAKEN)
            )
            if getattr(changed, "rowcount", 0) != 1:
                return None
            return session.get(SeekRow, seek_id)

    def matched(self, seek_id: str, game_id: str, author_link: str) -> None:
        """The game of the taken seek ``seek_id`` is made; keep the author's link for them."""
        with self._sessions() as session, session.begin():
            session.execute(
                update(SeekRow)
                .where(SeekRow.id == seek_id)
                .values(status=SEEK_MATCHED, game_id=game_id, author_link=author_link)
            )

    def withdraw(self, seek_id: str, account: Account | None = None) -> bool:
        """Delete the seek ``seek_id`` (only ``account``'s, when given); ``False`` if none was."""
        with self._sessions() as session, session.begin():
            query = delete(SeekRow).where(SeekRow.id == seek_id)
            if account is not None:
                query = query.where(SeekRow.account_id == account.id, SeekRow.status == SEEK_OPEN)
            return getattr(session.execute(query), "rowcount", 0) == 1

    def withdraw_all(self, account: Account) -> None:
        """Delete every open seek of ``account`` (it signs out)."""
        with self._sessions() as session, session.begin():
            session.execute(
                delete(SeekRow).where(SeekRow.account_id == account.id, SeekRow.status == SEEK_OPEN)
            )

    def deliver(self, account: Account) -> list[dict[str, str]]:
        """The games made from ``account``'s accepted seeks, ``[{"seek", "game_id", "link"}]``;
        each is given once (its seek is then deleted, and the link with it)."""
        with self._sessions() as session, session.begin():
            rows = list(
                session.scalars(
                    select(SeekRow).where(
                        SeekRow.account_id == account.id, SeekRow.status == SEEK_MATCHED
                    )
                )
            )
            for row in rows:
                session.delete(row)
            return [
                {"seek": r.id, "game_id": r.game_id or "", "link": r.author_link or ""}
                for r in rows
            ]


def seek_variant(request: SeekRequest) -> dict[str, Any]:
    """The variant of a seek, checked: the game's own, for two players.

    Raises:
        RefusedError: an unknown game, a bad variant, a game two cannot play, a rated seek
            for a game that is not rated.
    """
    try:
        info = get_game(request.game).info
        variant = dict(request.variant)
        if any(p.name == "players" for p in info.parameters):
            variant["players"] = 2
        info.resolve_variant(variant)
    except LimitGamesError as exc:
        raise RefusedError(str(exc)) from None
    if not info.min_players <= 2 <= info.max_players:
        raise RefusedError(gettext("a seek is for two people, and this game is not"))
    if request.rated and request.game not in RATED_GAMES:
        raise RefusedError(gettext("only hex, cards and world games are rated"))
    return variant


__all__ = [
    "OPEN_SEEKS_PER_PERSON",
    "SEEK_MATCHED",
    "SEEK_OPEN",
    "SEEK_TAKEN",
    "SeekRequest",
    "Seeks",
    "seek_variant",
]
