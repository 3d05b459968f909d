"""Tournaments between agents: seat-rotated schedules, process or Ray workers, ratings.

``run_tournament(Tournament(game, specs, games, ...), backend, workers)`` plays
every agent in every seat equally, writes a record per game, a summary and a
chart, and resumes an interrupted run. ``limit arena`` is its command line.
"""

from limitgames.arena.backends import BACKENDS, BackendError, run_games
from limitgames.arena.match import GameOutcome, play_game
from limitgames.arena.schedule import GameTask, derive_seed, make_schedule, seatings
from limitgames.arena.standings import Standing, compute_standings, seat_results, wilson_interval
from limitgames.arena.tournament import (
    Tournament,
    TournamentError,
    TournamentResult,
    run_tournament,
)

__all__ = [
    "BACKENDS",
    "BackendError",
    "GameOutcome",
    "GameTask",
    "Standing",
    "Tournament",
    "TournamentError",
    "TournamentResult",
    "compute_standings",
    "derive_seed",
    "make_schedule",
    "play_game",
    "run_games",
    "run_tournament",
    "seat_results",
    "seatings",
    "wilson_interval",
]
