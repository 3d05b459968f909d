"""Tournaments: schedule, determinism across workers and backends, resume, files, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import tests.agents.toy_tricks  # noqa: F401 - registers toy-tricks
from limitgames.arena import (
    Tournament,
    TournamentError,
    make_schedule,
    run_tournament,
    seat_results,
    seatings,
    wilson_interval,
)
from limitgames.arena.standings import elo_ratings
from limitgames.cli import arena_cmd
from limitgames.core import GameRecord

PLUGIN = "tests.agents.toy_tricks"
SPECS = ["ismcts:iterations=40", "random"]


def tricks(out: Path | None = None, games: int = 6, specs: list[str] | None = None) -> Tournament:
    return Tournament(
        game="toy-tricks",
        specs=specs or SPECS,
        games=games,
        variant={"hand": 3},
        seed=7,
        out=out,
        plugins=[PLUGIN],
    )


def test_every_agent_takes_every_seat_equally() -> None:
    for agents, seats in ((2, 2), (3, 2), (2, 3), (3, 3), (4, 2)):
        rotation = seatings(agents, seats)
        for seat in range(seats):
            counts = [sum(1 for s in rotation if s[seat] == a) for a in range(agents)]
            assert len(set(counts)) == 1, (agents, seats, counts)
    tasks = make_schedule("toy-tricks", {}, ["a", "b", "c"], 2, games=7, seed=1)
    assert len(tasks) == 12  # rounded up to whole rounds of 6
    assert tasks[0].seed == tasks[5].seed != tasks[6].seed  # one deal per round
    assert len({t.agent_seeds for t in tasks}) == 12


def test_seat_results_and_intervals() -> None:
    assert seat_results([1.0, -1.0]) == ["win", "loss"]
    assert seat_results([0.0, 0.0]) == ["draw", "draw"]
    assert seat_results([2.0, 2.0, -1.0]) == ["draw", "draw", "loss"]
    low, high = wilson_interval(1.0, 100)
    assert 0.95 < low < 1.0 and high == 1.0
    low, high = wilson_interval(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


def test_results_do_not_depend_on_worker_count(tmp_path: Path) -> None:
    one = run_tournament(tricks(), workers=1)
    two = run_tournament(tricks(tmp_path / "two"), workers=2)
    assert [o.returns for o in one.outcomes] == [o.returns for o in two.outcomes]
    assert [s.to_json() for s in one.standings] == [s.to_json() for s in two.standings]


def test_files_are_written_and_records_replay(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run_tournament(tricks(out), workers=1)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["format"] == "limitgames-arena" and summary["completed"] == 6
    assert [s["spec"] for s in summary["standings"]] == SPECS
    assert sum(s["wins"] + s["draws"] + s["losses"] for s in summary["standings"]) == 12
    assert (out / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for outcome in result.outcomes:
        record = GameRecord.read(out / "games" / f"{outcome.index:04d}.json")
        record.replay()  # every action legal and the stated result true
        assert record.seats == [SPECS[a] for a in outcome.seating]


def test_an_interrupted_run_resumes_without_replaying(tmp_path: Path) -> None:
    out = tmp_path / "run"
    full = run_tournament(tricks(out), workers=1)
    (out / "games" / "0003.json").unlink()
    (out / "games" / "0004.json").write_text("{ torn")
    played: list[int] = []
    resumed = run_tournament(tricks(out), workers=1, on_game=lambda o: played.append(o.index))
    assert sorted(played) == [3, 4] and resumed.resumed == 4
    assert [o.returns for o in resumed.outcomes] == [o.returns for o in full.outcomes]


def test_another_run_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_tournament(tricks(out, games=2), workers=1)
    with pytest.raises(TournamentError, match="another run"):
        run_tournament(tricks(out, games=2, specs=["random", "random"]), workers=1)


def test_elo_orders_the_agents_and_is_finite_for_a_clean_sweep() -> None:
    from limitgames.arena.match import GameOutcome

    outcomes = [
        GameOutcome(
            i,
            (i % 2, 1 - i % 2),
            (1.0, -1.0) if i % 2 == 0 else (-1.0, 1.0),
            1,
            "",
            ((0, 0), (0, 0)),
        )
        for i in range(20)
    ]
    high, low = elo_ratings(2, outcomes)
    assert high > 1700 > 1300 > low and abs(high + low - 3000) < 1e-6


def cli() -> typer.Typer:
    app = typer.Typer()
    arena_cmd.register(app)
    app.command("noop", hidden=True)(lambda: None)
    return app


def test_cli_prints_the_table_and_writes_the_run(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    result = CliRunner().invoke(
        cli(),
        [
            "arena",
            "toy-tricks",
            "--agent",
            "heuristic",
            "--agent",
            "easy",
            "--games",
            "4",
            "--variant",
            "hand=2",
            "--plugin",
            PLUGIN,
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "score" in result.output and "Elo" in result.output
    assert len(list((out / "games").glob("*.json"))) == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "random", "--agent", "nobody"], "unknown agent"),
        (["--agent", "random", "--variant", "hand=9"], "hand"),
        (["--agent", "random", "--backend", "mpi"], "unknown backend"),
        (["--agent", "random", "--ray-address", "x:1"], "needs --backend ray"),
    ],
)
def test_cli_errors_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli(), ["arena", "toy-tricks", "--plugin", PLUGIN, *args])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_chart_of_a_clean_sweep(tmp_path: Path) -> None:
    from limitgames.arena.chart import draw_chart
    from limitgames.arena.match import GameOutcome
    from limitgames.arena.standings import compute_standings
    from limitgames.arena.tournament import TournamentResult

    outcomes = [
        GameOutcome(
            i,
            (i % 2, 1 - i % 2),
            (1.0, -1.0) if i % 2 == 0 else (-1.0, 1.0),
            1,
            "",
            ((0, 0), (0, 0)),
        )
        for i in range(10)
    ]
    t = tricks()
    result = TournamentResult(t, [], outcomes, compute_standings(SPECS, 2, outcomes), 0)
    assert result.standings[0].total.score == 1.0
    path = draw_chart(result.standings, result.chart_title(), tmp_path / "sweep.png")
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_hex_results_do_not_depend_on_worker_count() -> None:
    from limitgames.core import available_games

    if "hex" not in available_games():
        pytest.skip("the hex engine is not available")
    specs = ["mcts:iterations=30", "alphabeta:depth=2", "heuristic"]
    runs = [
        run_tournament(Tournament("hex", specs, games=6, variant={"size": 4}, seed=3), workers=w)
        for w in (1, 2)
    ]
    assert [o.returns for o in runs[0].outcomes] == [o.returns for o in runs[1].outcomes]
    assert [o.record.split('"actions"')[1] for o in runs[0].outcomes] == [
        o.record.split('"actions"')[1] for o in runs[1].outcomes
    ]


def test_the_summary_counts_how_each_matchup_ended(tmp_path: Path) -> None:
    from limitgames.core import available_games

    if "hex" not in available_games():
        pytest.skip("the hex engine is not available")
    out = tmp_path / "run"
    specs = ["random", "heuristic"]
    result = run_tournament(
        Tournament("hex", specs, games=4, variant={"size": 3}, seed=5, out=out), workers=1
    )
    summary = json.loads((out / "summary.json").read_text())
    # one matchup, every game counted once, each under the termination its record states
    # (and the record's replay checks that the rules end it so)
    stated: dict[str, int] = {}
    for outcome in result.outcomes:
        record = GameRecord.read(out / "games" / f"{outcome.index:04d}.json")
        assert record.outcome is not None and outcome.termination == record.outcome["termination"]
        record.replay()
        stated[outcome.termination] = stated.get(outcome.termination, 0) + 1
    assert summary["terminations"] == {"random vs heuristic": stated}
    assert sum(stated.values()) == 4
    assert all(r["termination"] in stated for r in summary["results"])
    # a game whose engine does not say why it ended counts as unknown
    toy = run_tournament(tricks(games=2), workers=1)
    assert toy.summary()["terminations"] == {"ismcts:iterations=40 vs random": {"unknown": 2}}
