"""A tournament run: schedule, resume, play, write records, summary and chart.

Layout of the output directory (``--out``)::

    run.json          the run's settings (game, variant, agents, seed, games)
    games/0000.json   one game record per game (``GameRecord``), written as it ends
    summary.json      standings and per-game results (rewritten at the end)
    results.png       a chart of the standings

Resuming: a run started again on the same directory with the same settings
keeps every finished game whose record matches its task (same agents, seats
and seeds) and plays only the rest. A directory holding another run's
settings is refused rather than mixed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from limitgames.agents import make_agent
from limitgames.arena.backends import run_games
from limitgames.arena.match import GameOutcome, outcome_from_record
from limitgames.arena.schedule import GameTask, make_schedule
from limitgames.arena.standings import Standing, compute_standings
from limitgames.core import GameRecord, LimitGamesError, RecordError, get_game

SUMMARY_FORMAT = "limitgames-arena"
SUMMARY_VERSION = 1


class TournamentError(LimitGamesError):
    """A tournament that cannot run as asked (bad settings, another run in ``--out``)."""


@dataclass
class Tournament:
    """The settings of a run.

    Attributes:
        game: the game id.
        specs: the agents' specs, at least one.
        games: the number of games asked for (rounded up to whole rounds).
        variant: variant parameters as given (checked against the game).
        seed: the run seed; every game and agent seed derives from it.
        out: the output directory, or ``None`` to keep nothing on disk.
        plugins: modules to import first (extra games or agents), in workers too.
    """

    game: str
    specs: list[str]
    games: int
    variant: dict[str, Any] = field(default_factory=dict)
    seed: int = 1
    out: Path | None = None
    plugins: list[str] = field(default_factory=list)

    def resolved_variant(self) -> dict[str, Any]:
        """The full variant (defaults filled in). Raises VariantError for a bad one."""
        return get_game(self.game).info.resolve_variant(self.variant)

    def seats(self) -> int:
        """The number of seats in the variant played."""
        return int(self.resolved_variant()["players"])

    def schedule(self) -> list[GameTask]:
        """Every game of the run (see :mod:`limitgames.arena.schedule`)."""
        return make_schedule(
            self.game,
            self.resolved_variant(),
            self.specs,
            self.seats(),
            self.games,
            self.seed,
            self.plugins,
        )

    def settings(self) -> dict[str, Any]:
        """What ``run.json`` holds: the settings that decide the games."""
        return {
            "game": self.game,
            "variant": self.resolved_variant(),
            "agents": list(self.specs),
            "seed": self.seed,
            "games": len(self.schedule()),
        }

    def check(self) -> None:
        """Validate the game, variant, agent specs and game count.

        Raises:
            LimitGamesError: (UnknownGameError, VariantError, AgentSpecError,
                TournamentError) with a one-line reason.
        """
        import importlib

        for module in self.plugins:
            try:
                importlib.import_module(module)
            except ImportError as exc:
                raise TournamentError(f"cannot import plugin {module!r}: {exc}") from None
        if not self.specs:
            raise TournamentError("give at least one --agent")
        if self.games < 1:
            raise TournamentError(f"--games must be at least 1 (got {self.games})")
        self.resolved_variant()
        for spec in self.specs:
            make_agent(spec, 0, game=self.game)


@dataclass
class TournamentResult:
    """What a run produced."""

    tournament: Tournament
    tasks: list[GameTask]
    outcomes: list[GameOutcome]
    standings: list[Standing]
    resumed: int

    def chart_title(self) -> str:
        """The title of the results chart: the game, the full variant, how many games."""
        t = self.tournament
        return f"limit arena: {t.game} {t.resolved_variant()} - {len(self.outcomes)} games"

    def summary(self) -> dict[str, Any]:
        """The ``summary.json`` content."""
        t = self.tournament
        think: dict[str, list[float]] = {}
        for outcome in self.outcomes:
            for seat, (total, longest) in enumerate(outcome.think):
                spec = t.specs[outcome.seating[seat]]
                entry = think.setdefault(spec, [0.0, 0.0, 0.0])
                entry[0] += total
                entry[1] = max(entry[1], longest)
        decisions = [o.decisions for o in self.outcomes]
        return {
            "format": SUMMARY_FORMAT,
            "version": SUMMARY_VERSION,
            "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            **t.settings(),
            "completed": len(self.outcomes),
            "resumed": self.resumed,
            "schedule": "seat-rotated, one chance seed per round",
            "standings": [s.to_json() for s in self.standings],
            "think_seconds": {
                spec: {"total": round(v[0], 2), "longest": round(v[1], 3)}
                for spec, v in think.items()
            },
            "mean_decisions": round(sum(decisions) / len(decisions), 1) if decisions else 0,
            "terminations": self.terminations(),
            "results": [o.to_json() for o in sorted(self.outcomes, key=lambda o: o.index)],
        }

    def terminations(self) -> dict[str, dict[str, int]]:
        """How the games of each matchup ended: ``{"random vs mcts": {"last_with_pawns": 7,
        "stalemate": 1}}``, the matchup named by its agents in the order given; a game whose
        engine does not say why it ended counts under ``"unknown"``."""
        specs = self.tournament.specs
        counts: dict[str, dict[str, int]] = {}
        for outcome in sorted(self.outcomes, key=lambda o: o.index):
            matchup = " vs ".join(specs[i] for i in sorted(set(outcome.seating)))
            entry = counts.setdefault(matchup, {})
            key = outcome.termination or "unknown"
            entry[key] = entry.get(key, 0) + 1
        return counts


def record_path(out: Path, index: int) -> Path:
    """Where game ``index``'s record goes."""
    return out / "games" / f"{index:04d}.json"


def finished_outcomes(tournament: Tournament, tasks: Sequence[GameTask]) -> dict[int, GameOutcome]:
    """The games of ``tasks`` already finished in ``tournament.out`` (resume).

    Raises:
        TournamentError: if ``out`` holds another run's ``run.json``.
    """
    out = tournament.out
    if out is None:
        return {}
    settings_file = out / "run.json"
    if settings_file.exists():
        try:
            earlier = json.loads(settings_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise TournamentError(f"{settings_file}: cannot read it: {exc}") from None
        current = tournament.settings()
        keys = ("game", "variant", "agents", "seed")
        if any(earlier.get(k) != current[k] for k in keys):
            changed = ", ".join(k for k in keys if earlier.get(k) != current[k])
            raise TournamentError(
                f"{out} holds another run (its {changed} differ); choose another --out"
            )
    done: dict[int, GameOutcome] = {}
    for task in tasks:
        path = record_path(out, task.index)
        if not path.exists():
            continue
        try:
            outcome = outcome_from_record(GameRecord.read(path), task)
        except RecordError:
            outcome = None  # a torn write: play the game again
        if outcome is not None:
            done[task.index] = outcome
    return done


def run_tournament(
    tournament: Tournament,
    backend: str = "process",
    workers: int = 1,
    ray_address: str | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> TournamentResult:
    """Run (or resume) ``tournament`` and write its files.

    Args:
        backend, workers, ray_address: see :func:`limitgames.arena.backends.run_games`.
        on_start: called with (games in the run, games already finished).
        on_game: called after each game that was played now.

    Raises:
        LimitGamesError: bad settings (see :meth:`Tournament.check`), another
            run in ``out``, or a backend that cannot run.
    """
    tournament.check()
    tasks = tournament.schedule()
    done = finished_outcomes(tournament, tasks)
    out = tournament.out
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "run.json").write_text(
            json.dumps(tournament.settings(), indent=1) + "\n", encoding="utf-8"
        )
    if on_start is not None:
        on_start(len(tasks), len(done))
    remaining = [task for task in tasks if task.index not in done]
    outcomes = dict(done)
    for outcome in run_games(remaining, backend, workers, ray_address):
        outcomes[outcome.index] = outcome
        if out is not None:
            path = record_path(out, outcome.index)
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".part")
            partial.write_text(outcome.record, encoding="utf-8")
            partial.replace(path)
        if on_game is not None:
            on_game(outcome)
    ordered = [outcomes[i] for i in sorted(outcomes)]
    result = TournamentResult(
        tournament=tournament,
        tasks=tasks,
        outcomes=ordered,
        standings=compute_standings(tournament.specs, tournament.seats(), ordered),
        resumed=len(done),
    )
    if out is not None:
        (out / "summary.json").write_text(
            json.dumps(result.summary(), indent=1) + "\n", encoding="utf-8"
        )
        import importlib.util

        if importlib.util.find_spec("matplotlib") is not None:  # the chart needs limitgames[charts]
            from limitgames.arena.chart import draw_chart

            draw_chart(result.standings, result.chart_title(), out / "results.png")
    return result
