"""Ratings: Glicko-2 per game for people with accounts, the leaderboard, a person's history.

Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013) is computed
by the ``glicko2`` package (PyPI; a port of Glickman's own example that
reproduces his worked example, see ``tests/web/test_ratings.py``), with its
system constant tau = 0.5. A new player starts at 1500, deviation 350,
volatility 0.06; a rating whose deviation is above :data:`PROVISIONAL_DEVIATION`
is shown as provisional ("?"), as on Lichess.

What counts: a game marked rated (a rated seek, ``seeks.py``), between two or
more different accounts (every seat a signed-in person), that finished with a
result: by its rules (a seat the computer played for a person who timed out or
left counts as that person's), by resignation, by an agreed draw or on time (a
clock that makes a seat lose when it runs out, ``games.ending`` ``time:N``). A
game abandoned (no action for the server's ``abandon_after``) has no result and
counts for nothing.

Each rated game is one Glicko-2 rating period for its players, as Lichess rates
every game as it ends. A game of more than two is rated as its pairwise
results: each pair of seats is one game won by the seat with the higher return
(1), lost (0) or drawn (0.5) on equal returns, and each player's period holds
their results against every other player, all at the ratings from before the
game (the usual reduction of a ranking to pairwise games, as in Glickman's
example where one player meets three opponents in one period).

Ratings are settled (:meth:`Ratings.settle`) before any of them is read: the
finished, rated games not yet counted, oldest first, each marked counted in the
same transaction as the ratings it changed, so several server processes
count each game once.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from glicko2 import Player
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from limitgames.web.schema import (
    STATUS_ABANDONED,
    STATUS_PLAYING,
    AccountRow,
    GameRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    utc_now,
    utc_text,
)

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
PROVISIONAL_DEVIATION = 110.0
"""A rating with a larger deviation is provisional (Lichess's threshold)."""
RATED_GAMES = ("hex", "cards", "world")
"""The games rated for people."""
SETTLE_BATCH = 50
"""At most this many games are counted by one :meth:`Ratings.settle`."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: ``rating`` and ``deviation`` in rating points, ``volatility``."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        """Whether the deviation is above :data:`PROVISIONAL_DEVIATION`."""
        return self.deviation > PROVISIONAL_DEVIATION


def pairwise_scores(result: list[float]) -> dict[int, list[tuple[int, float]]]:
    """Each seat's pairwise results from one game's returns.

    Args:
        result: the returns, one per seat (``State.returns()``).

    Returns:
        ``{seat: [(opponent seat, score), ...]}``, score 1 (higher return),
        0.5 (equal) or 0 (lower), every other seat once.
    """
    scores: dict[int, list[tuple[int, float]]] = {seat: [] for seat in range(len(result))}
    for a, b in combinations(range(len(result)), 2):
        score = 1.0 if result[a] > result[b] else 0.5 if result[a] == result[b] else 0.0
        scores[a].append((b, score))
        scores[b].append((a, 1.0 - score))
    return scores


def rate_game(before: dict[int, Rating], result: list[float]) -> dict[int, Rating]:
    """The ratings after one game, one Glicko-2 rating period (module docstring).

    Args:
        before: each seat's rating before the game, for every seat of ``result``.
        result: the returns, one per seat.

    Returns:
        Each seat's rating after the game.
    """
    after: dict[int, Rating] = {}
    for seat, results in pairwise_scores(result).items():
        player = Player(before[seat].rating, before[seat].deviation, before[seat].volatility)
        player.update_player(
            [before[o].rating for o, _ in results],
            [before[o].deviation for o, _ in results],
            [score for _, score in results],
        )
        after[seat] = Rating(float(player.rating), float(player.rd), float(player.vol))
    return after


class Ratings:
    """The ratings, the leaderboard and people's histories in one database.

    Every method is one transaction, synchronous (run on the database threads).
    """

    def __init__(self, engine: Engine) -> None:
        self._locking = engine.dialect.name == "postgresql"
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def seat_accounts(
        self, game_id: str, seat_accounts: dict[int, int], rated: bool | None = None
    ) -> None:
        """Give each seat of ``game_id`` its account; with ``rated``, mark the game rated or
        casual (``None``: leave it as it is)."""
        with self._sessions() as session, session.begin():
            for seat, account_id in seat_accounts.items():
                session.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                    .values(account_id=account_id)
                )
            if rated is not None:
                session.execute(update(GameRow).where(GameRow.id == game_id).values(rated=rated))

    def settle(self) -> int:
        """Count every finished rated game not counted yet, oldest first; return how many."""
        counted = 0
        with self._sessions() as session:
            pending = list(
                session.scalars(
                    select(GameRow.id)
                    .where(
                        GameRow.rated.is_(True),
                        GameRow.rating_done.is_(False),
                        GameRow.status != STATUS_PLAYING,
                    )
                    .order_by(GameRow.updated_at, GameRow.id)
                    .limit(SETTLE_BATCH)
                )
            )
        for game_id in pending:
            with self._sessions() as session, session.begin():
                if self._count(session, game_id):
                    counted += 1
        return counted

    def _count(self, session: Session, game_id: str) -> bool:
        claimed = session.execute(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.rating_done.is_(False))
            .values(rating_done=True)
        )
        if getattr(claimed, "rowcount", 0) != 1:
            return False  # another process counted it
        game = session.get(GameRow, game_id)
        if game is None or game.result is None or game.status == STATUS_ABANDONED:
            return False  # abandoned: no result, nothing changes
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)))
        accounts = {s.seat: s.account_id for s in seats}
        if (
            len(accounts) != len(game.result)
            or any(a is None for a in accounts.values())
            or len(set(accounts.values())) < 2
        ):
            return False
        query = select(RatingRow).where(
            RatingRow.game == game.game,
            RatingRow.account_id.in_([a for a in accounts.values() if a is not None]),
        )
        if self._locking:
            query = query.with_for_update()
        rows = {r.account_id: r for r in session.scalars(query)}
        before = {
            seat: (
                Rating(rows[a].rating, rows[a].deviation, rows[a].volatility)
                if a is not None and a in rows
                else Rating()
            )
            for seat, a in accounts.items()
        }
        after = rate_game(before, list(game.result))
        now = utc_now()
        for seat, account_id in accounts.items():
            assert account_id is not None
            new = after[seat]
            row = rows.get(account_id)
            if row is None:
                row = RatingRow(account_id=account_id, game=game.game, games=0)
                session.add(row)
                rows[account_id] = row
            row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
            row.games = (row.games or 0) + 1
            row.updated_at = now
            session.add(
                RatingChangeRow(
                    game_id=game_id,
                    account_id=account_id,
                    before=before[seat].rating,
                    after=new.rating,
                )
            )
        return True

    def ratings_of(self, account_id: int) -> dict[str, dict[str, Any]]:
        """``{game: {"rating", "deviation", "volatility", "games", "provisional"}}`` of a person."""
        with self._sessions() as session:
            rows = session.scalars(select(RatingRow).where(RatingRow.account_id == account_id))
            return {r.game: _rating_json(r) for r in rows}

    def rating_lines(self, account_id: int) -> dict[str, list[float]]:
        """``{game: [rating before the first rated game, after each rated game, ...]}``, oldest
        first: the line of a person's rating graph in each game they were rated in."""
        with self._sessions() as session:
            rows = session.execute(
                select(GameRow.game, RatingChangeRow.before, RatingChangeRow.after)
                .join(GameRow, GameRow.id == RatingChangeRow.game_id)
                .where(RatingChangeRow.account_id == account_id)
                .order_by(GameRow.updated_at, GameRow.id)
            ).all()
        lines: dict[str, list[float]] = {}
        for game, before, after in rows:
            line = lines.setdefault(game, [before])
            line.append(after)
        return lines

    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        """The people rated in ``game``, best first: ``{"name", "rating", "deviation", "games",
        "provisional"}`` (provisional ratings after the others)."""
        with self._sessions() as session:
            rows = session.execute(
                select(RatingRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game)
                .order_by(RatingRow.rating.desc())
            ).all()
        board = [{"name": name, **_rating_json(row)} for row, name in rows]
        board.sort(key=lambda r: (bool(r["provisional"]), -float(r["rating"])))
        return board[:limit]

    def history(self, account_id: int, limit: int = 100) -> list[dict[str, Any]]:
        """The games of a person, newest first.

        Each is ``{"id", "game", "status", "seat", "opponents": [account names, else the
        seats' labels], "result": "win" |
        "loss" | "draw" | None, "ending", "rated", "rating_before", "rating_after", "date"}``;
        ``ending`` is ``"rules"``, ``"resign"``, ``"draw"``, ``"time"``, ``"abandoned"`` or
        ``None`` (being played).
        """
        with self._sessions() as session:
            mine = session.execute(
                select(SeatRow.game_id, SeatRow.seat)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.account_id == account_id)
                .order_by(GameRow.created_at.desc())
                .limit(limit)
            ).all()
            ids = [game_id for game_id, _ in mine]
            if not ids:
                return []
            games = {g.id: g for g in session.scalars(select(GameRow).where(GameRow.id.in_(ids)))}
            seats: dict[str, list[SeatRow]] = {}
            for s in session.scalars(
                select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
            ):
                seats.setdefault(s.game_id, []).append(s)
            accounts = {s.account_id for ss in seats.values() for s in ss if s.account_id}
            names: dict[int, str] = {
                account_id: name
                for account_id, name in session.execute(
                    select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(accounts))
                )
            }
            changes = {
                c.game_id: c
                for c in session.scalars(
                    select(RatingChangeRow).where(
                        RatingChangeRow.account_id == account_id, RatingChangeRow.game_id.in_(ids)
                    )
                )
            }
        return [
            _history_entry(
                games[game_id], seat, seats.get(game_id, []), changes.get(game_id), names
            )
            for game_id, seat in mine
        ]


def _rating_json(row: RatingRow) -> dict[str, Any]:
    rating = Rating(row.rating, row.deviation, row.volatility)
    return {
        "rating": round(row.rating, 2),
        "deviation": round(row.deviation, 2),
        "volatility": row.volatility,
        "games": row.games,
        "provisional": rating.provisional,
    }


def _history_entry(
    game: GameRow,
    seat: int,
    seats: list[SeatRow],
    change: RatingChangeRow | None,
    names: dict[int, str],
) -> dict[str, Any]:
    outcome: str | None = None
    if game.result is not None and seat < len(game.result):
        mine = game.result[seat]
        others = [r for i, r in enumerate(game.result) if i != seat]
        best = max(others) if others else mine
        outcome = "win" if mine > best else "draw" if mine == best else "loss"
    ending: str | None
    if game.status == STATUS_PLAYING:
        ending = None
    elif game.result is None or game.status == STATUS_ABANDONED:
        ending = "abandoned"
    elif game.ending is None:
        ending = "rules"
    else:
        ending = game.ending.split(":")[0]
    return {
        "id": game.id,
        "game": game.game,
        "status": game.status,
        "seat": seat,
        "opponents": [
            names.get(s.account_id, s.label) if s.account_id is not None else s.label
            for s in seats
            if s.seat != seat
        ],
        "result": outcome,
        "ending": ending,
        "rated": bool(game.rated),
        "rating_before": round(change.before, 2) if change is not None else None,
        "rating_after": round(change.after, 2) if change is not None else None,
        "date": utc_text(game.created_at),
    }


__all__ = [
    "PROVISIONAL_DEVIATION",
    "RATED_GAMES",
    "SETTLE_BATCH",
    "START_DEVIATION",
    "START_RATING",
    "START_VOLATILITY",
    "Rating",
    "Ratings",
    "pairwise_scores",
    "rate_game",
]
