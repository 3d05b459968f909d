"""``limit agents``: the list with levels, and --bench."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

import tests.core.toy  # noqa: F401 - registers toy-nim
from limitgames.cli import agents_cmd


def cli() -> typer.Typer:
    app = typer.Typer()
    agents_cmd.register(app)
    app.command("noop", hidden=True)(lambda: None)
    return app


def test_agents_lists_every_agent_and_the_levels() -> None:
    result = CliRunner().invoke(cli(), ["agents"])
    assert result.exit_code == 0, result.output
    for name in ("random", "heuristic", "mcts", "ismcts", "alphabeta", "expert"):
        assert name in result.output


def test_agents_bench_reports_iterations_per_second() -> None:
    result = CliRunner().invoke(cli(), ["agents", "--bench", "toy-nim", "--seconds", "0.1"])
    assert result.exit_code == 0, result.output
    assert "per second" in result.output and "mcts" in result.output and "ismcts" in result.output


def test_agents_bench_names_a_bad_game() -> None:
    result = CliRunner().invoke(cli(), ["agents", "--bench", "chess", "--seconds", "0.1"])
    assert result.exit_code == 1 and "unknown game" in result.output
