"""``limit debrief``: a seeded world game beside the shipped World3 reference runs."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from limitgames.cli import debrief_cmd
from limitgames.core import GameRecord, RecordError
from limitgames.world.debrief import game_rows, generation_year, reference_runs
from limitgames.world.position import position_json
from limitgames.world.state import WorldState
from tests.world.scenario import new_state

pytest.importorskip("matplotlib")

LEVELS = [1, 2, 3, 5, 10, 20, 30, 50, 100]
"""The level track as printed on the board (rulebook p9), written out by hand."""


def _random_until(state: WorldState, generation: int, seed: int) -> None:
    """Play seeded random decisions until ``generation`` begins (or the game ends)."""
    rng = random.Random(seed)
    while not state.is_terminal() and state.generation < generation:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("debrief")(debrief_cmd.debrief_command)
    app.command("other")(lambda: None)  # two commands: typer keeps the command name
    return app


def test_the_shipped_standard_run_has_the_published_landmarks() -> None:
    # Meadows et al.'s standard run (and the issue): population peaks at about 7.06 billion in
    # 2027, the persistent pollution index at about 11 in 2034.
    runs = reference_runs()
    std = runs["standard-1972"]
    assert std.computed and std.years[0] == 1900 and std.years[-1] == 2100
    year, peak = std.peak("population")
    assert year == 2027 and abs(peak / 7.06e9 - 1) < 0.01
    year, peak = std.peak("pollution_index")
    assert year in (2034, 2035) and abs(peak - 11.0) < 0.2
    assert std.value("population", 1900) == pytest.approx(1.6e9)  # World3's initial population
    assert "pyworld3" in std.source
    # The 2004 update's scenario 1 (World3-03), computed with pydynamo-w, against the figures of
    # an independent port (PyWorld3-03: population peak 7.728 billion in 2028.5, pollution
    # index peak 10.99 in 2037.5; see scripts/world3_reference.py).
    scenario = runs["scenario1-2004"]
    assert scenario.computed and "30-Year Update" in scenario.source
    assert "pydynamo-w" in scenario.source
    year, peak = scenario.peak("population")
    assert abs(year - 2028.5) <= 2 and abs(peak / 7.728e9 - 1) < 0.01
    year, peak = scenario.peak("pollution_index")
    assert abs(year - 2037.5) <= 2 and abs(peak / 10.99 - 1) < 0.02
    assert scenario.years == std.years


def test_rows_measure_each_closed_generation() -> None:
    state = new_state(3, seed=11)
    _random_until(state, 3, seed=5)
    assert state.generation == 3 and not state.is_terminal()
    # The position at the start of generation 3 is the table at the close of generation 2.
    board = position_json(state)
    record = GameRecord.of_state(state)
    rows = game_rows(record)
    assert [(r.generation, r.year) for r in rows] == [(1, 1850), (2, 1880)]
    last = rows[-1]
    nations = board["nations"]
    assert last.population == sum(LEVELS[n["population"] - 1] for n in nations)
    assert last.pollution == sum(n["pollution"] for n in nations)
    for plant in ("renewable", "industrial", "military"):
        assert getattr(last, plant) == sum(LEVELS[n["plants"][plant] - 1] for n in nations)
    fossil = (
        sum(n["fossil"] for n in nations)
        + board["market"]["fossil"]["stock"]
        + board["colonization"]["fossil"]
    )
    # setup for 3 nations: 8 each, 3 on the marketplace, 2 + 2 x 3 on the colonization reserve
    assert last.fossil == fossil and last.fossil_fraction == pytest.approx(fossil / 35)
    assert list(last.crises) == board["crises"][1]


def test_generation_years() -> None:
    assert [generation_year(g) for g in (1, 5, 7)] == [1850, 1970, 2030]


def test_debrief_command_draws_a_seeded_game(tmp_path: Path) -> None:
    state = new_state(3, seed=4)
    _random_until(state, 99, seed=4)
    assert state.is_terminal()
    path = GameRecord.of_state(state).write(tmp_path / "game.json")
    generations = len(state.crises)
    result = CliRunner().invoke(_app(), ["debrief", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    pngs = sorted(p.name for p in (tmp_path / "out").glob("*.png"))
    assert pngs == ["crises.png", "fossil.png", "pollution.png", "population.png", "production.png"]
    for name in pngs:
        assert (tmp_path / "out" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (tmp_path / "out" / "debrief.md").read_text()
    assert text.count("\n## ") == 5 and text.count("](") == 5
    assert f"| {generations} | {generation_year(generations)} |" in text
    assert "7.06 billion in 2027" in result.output
    assert "2004 update, scenario 1, population peaks at 7.70 billion in 2028" in result.output


def test_bad_records_are_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "hex", "variant": {}, "actions": []}')
    result = CliRunner().invoke(_app(), ["debrief", str(bad)])
    assert result.exit_code == 1 and "for world games" in result.output
    with pytest.raises(RecordError):
        game_rows(GameRecord(game="hex", variant={}, seats=[]))


def test_a_refereed_game_from_a_position_is_measured_with_the_cards_told() -> None:
    from limitgames.world.referee import Referee

    referee = Referee(position=position_json(new_state(2, seed=3)), ask=_first_cards)
    rng = random.Random(2)
    while referee.state.generation < 2:
        actions = referee.state.legal_actions()
        referee.apply(actions[rng.randrange(len(actions))])
    record = referee.record()
    assert any(c["kind"] == "cards" for c in record.chance)
    rows = game_rows(record)
    assert [r.generation for r in rows] == [1]
    assert rows[0].population == sum(
        LEVELS[n["population"] - 1] for n in position_json(referee.state)["nations"]
    )


def _first_cards(kind: str, request: Any) -> Any:
    """A table where each draw takes the alphabetically first cards of the deck."""
    return list(request["options"][: request["count"]])


def test_the_plots_speak_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every axis label, title and legend entry of the plots is drawn in the current language:
    the German words below are the catalogue's, written out here by hand."""
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from limitgames.translation import using
    from limitgames.world.debrief import write_debrief

    seen: list[str] = []

    def spy(name: str, cls: Any) -> None:
        original = getattr(cls, name)

        def record(self: Any, *args: Any, **kwargs: Any) -> Any:
            seen.extend(str(a) for a in args if isinstance(a, str))
            if isinstance(kwargs.get("label"), str):
                seen.append(kwargs["label"])
            return original(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, record)

    for name in ("set_ylabel", "set_title", "plot", "bar", "axvline"):
        spy(name, Axes)
    spy("suptitle", Figure)
    state = new_state(2, seed=4)
    _random_until(state, 99, seed=4)
    with using("de"):
        write_debrief(GameRecord.of_state(state), tmp_path)
    labels = {s for s in seen if any(c.isalpha() for c in s) and s not in {"o-", "-", "--", ":"}}
    assert {
        "Partie: Bevölkerungswerte",
        "World3: Milliarden Menschen",
        "gelegte Krisenplättchen",
    } <= labels
    assert "World3 Standardlauf von 1972" in labels
    english = {"game", "game: population values", "crisis tiles placed", "World3 1972 standard run"}
    assert not labels & english, labels & english
