"""``limit debrief``: a seeded world game beside the shipped World3 reference runs."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import typer
from typer.testing import CliRunner

from limitgames.cli import debrief_cmd
from limitgames.core import GameRecord, RecordError
from limitgames.world.debrief import debrief_texts, game_rows, generation_year, reference_runs
from limitgames.world.position import position_json
from limitgames.world.state import WorldState
from tests.script_modules import load_script
from tests.world.scenario import new_state

LEVELS = [1, 2, 3, 5, 10, 20, 30, 50, 100]
"""The level track as printed on the board (rulebook p9), written out by hand."""


def _random_until(
    state: WorldState, generation: int, seed: int, prefer: tuple[str, ...] = ()
) -> None:
    """Play seeded random decisions until ``generation`` begins (or the game ends); the first
    legal action of ``prefer`` (in notation) is taken whenever there is one."""
    rng = random.Random(seed)
    while not state.is_terminal() and state.generation < generation:
        actions = state.legal_actions()
        named = {state.action_to_string(a): a for a in actions} if prefer else {}
        wanted = [named[p] for p in prefer if p in named]
        state.apply(wanted[0] if wanted else actions[rng.randrange(len(actions))])


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
    # the other 2004 scenarios shipped: 2 (more abundant nonrenewable resources) and 9 (the
    # stabilized world), from the same model and source
    for key, chapter in (
        ("scenario2-2004", "chapter 4, scenario 2"),
        ("scenario9-2004", "chapter 7, scenario 9"),
    ):
        other = runs[key]
        assert other.computed and chapter in other.source and other.years == std.years
    from limitgames.world.debrief_charts import WORLD3_AXES

    for run in runs.values():
        for series, (divisor, top, _label) in WORLD3_AXES.items():
            assert max(run.series[series]) / divisor <= top, (run.key, series)


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
    charts = sorted(p.name for p in (tmp_path / "out").glob("*"))
    assert charts == [
        "crises.svg",
        "debrief.md",
        "fossil.svg",
        "industrial.svg",
        "military.svg",
        "pollution.svg",
        "population.svg",
        "renewable.svg",
    ]
    for name in charts[:-1]:
        if name.endswith(".svg"):
            text = (tmp_path / "out" / name).read_text()
            assert text.startswith("<svg ") and text.rstrip().endswith("</svg>")
            root = ElementTree.fromstring(text)  # well-formed XML, an SVG root
            assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = (tmp_path / "out" / "debrief.md").read_text()
    assert text.count("\n## ") == 5 and text.count("](") == 7
    assert f"| {generations} | {generation_year(generations)} |" in text
    assert "7.06 billion in 2027" in result.output
    assert "2004 update, scenario 1, population peaks at 7.70 billion in 2028" in result.output
    assert "3 nations played" in result.output


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


def test_the_charts_speak_the_readers_language() -> None:
    """Every axis label, title and legend entry of the charts is drawn in the current language:
    the German words below are the catalogue's, written out here by hand."""
    from limitgames.translation import using
    from limitgames.web.debrief_svg import chart_svg
    from limitgames.world.debrief import replay_rows
    from limitgames.world.debrief_charts import axis_tops, debrief_charts

    state = new_state(2, seed=4)
    _random_until(state, 99, seed=4)
    rows, replayed = replay_rows(GameRecord.of_state(state))
    with using("de"):
        charts = debrief_charts(rows, reference_runs(), axis_tops(replayed))
        drawn = "".join(chart_svg(c) for group in charts.values() for c in group)
    for words in (
        "Partie: Bevölkerungswerte",
        "World3: Milliarden Menschen",
        "gelegte Krisenplättchen",
        "World3 Standardlauf von 1972",
    ):
        assert words in drawn, words
    for english in (">game<", "game: population values", "crisis tiles placed"):
        assert english not in drawn, english


# --- fixed axes ------------------------------------------------------------------------------
def test_the_axes_are_fixed_by_the_box_not_by_the_game() -> None:
    """Two different games of 3 nations get the same axes. By hand: population and each plant
    up to 100 (the track's top) x 3 nations = 300; pollution up to every pollution token of a
    3-nation game: reserve 6 + 3 x 3 = 15, LIMIT box 21, 36 in all (rulebook setup, p4-5);
    fossil 0-100%; crisis tiles 0-3 a generation. World3: population 0-10 billion, pollution
    index 0-70 (the 2004 scenario 2 peaks at 63.6), resources 0-100%, food and industrial
    output 0-5 trillion (kg, 1968 $) a year; every shipped run's peak lies below its top."""
    from limitgames.world.debrief import replay_rows
    from limitgames.world.debrief_charts import axis_tops, debrief_charts

    tops = []
    for seed in (4, 9):
        state = new_state(3, seed=seed)
        _random_until(state, 99, seed=seed)
        rows, replayed = replay_rows(GameRecord.of_state(state))
        charts = debrief_charts(rows, reference_runs(), axis_tops(replayed))
        tops.append(
            {c.name: (c.game_top, c.world3_top) for group in charts.values() for c in group}
        )
    assert (
        tops[0]
        == tops[1]
        == {
            "population": (300, 10),
            "pollution": (36, 70),
            "fossil": (100, 100),
            "renewable": (300, 5),
            "industrial": (300, 5),
            "military": (300, 0),
            "crises": (3, 0),
        }
    )


def test_a_game_without_pollution_has_no_negative_axis() -> None:
    """A chart whose game curve is all 0 draws it on the bottom line of an axis from 0 to the
    box's top (ticks 0, 7.2 ... 36), never below 0."""
    import re

    from limitgames.web.debrief_svg import BOTTOM, HEIGHT, chart_svg
    from limitgames.world.debrief_charts import Chart, Curve

    flat = Curve("game", ((1850.0, 0.0), (1880.0, 0.0), (1910.0, 0.0)), "game")
    chart = Chart("pollution", "Pollution", "tokens", 36.0, (flat,), "index", 12.0, (), "m")
    drawn = chart_svg(chart)
    ticks = [float(t) for t in re.findall(r'class="game-tick">([^<]+)<', drawn)]
    assert ticks == [0, 7.2, 14.4, 21.6, 28.8, 36]
    assert set(re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', drawn)) == {
        f"{HEIGHT - BOTTOM:.1f}"
    }


# --- fossil accounting -----------------------------------------------------------------------
EXTRACTION = ("play extraction", "keep extraction", "deck production")
"""Draw from the production deck, keep Extraction, play it whenever possible."""


def test_fossil_shares_lie_in_0_100_when_extraction_brings_fossil_back() -> None:
    """A seeded 3-nation game where Extraction is played whenever it can be. Each token in play
    came from the setup or from the LIMIT box, and each burnt token went into the box, so at
    every generation's close: in play = setup + extracted - burnt; the shares of what the world
    had (setup + extracted) burnt and left unburnt lie in 0-1 and add up to 1."""
    from limitgames.world.debrief import replay_rows

    state = new_state(3, seed=6)
    _random_until(state, 99, seed=6, prefer=EXTRACTION)
    record = GameRecord.of_state(state)
    assert "play extraction" in record.actions
    rows, _replayed = replay_rows(record)
    assert rows[-1].fossil_extracted >= 2  # one Extraction: 2 fossil from the LIMIT box
    setup = rows[0].fossil_setup
    # 3 nations x 8 fossil, the marketplace's 3, the colonization reserve's 2 + 2 x 3 (p4-5)
    assert setup == 3 * 8 + 3 + 2 + 2 * 3
    for row in rows:
        assert row.fossil_setup == setup
        assert row.fossil == setup + row.fossil_extracted - row.fossil_burnt
        assert 0 <= row.fossil_fraction <= 1 and 0 <= row.burnt_fraction <= 1
        assert row.fossil_fraction + row.burnt_fraction == pytest.approx(1)
    last = rows[-1]
    paragraph = debrief_texts(rows, reference_runs())[2].text
    assert f"{last.fossil_extracted} extracted from the LIMIT box" in paragraph
    assert f"({last.fossil_fraction:.0%})" in paragraph


def test_the_account_tells_what_this_world_did() -> None:
    from limitgames.world.debrief import replay_rows, world_account

    state = new_state(3, seed=6)
    _random_until(state, 99, seed=6, prefer=EXTRACTION)
    rows, replayed = replay_rows(GameRecord.of_state(state))
    text = world_account(rows, replayed)
    last = rows[-1]
    assert text.startswith(f"3 nations played {last.generation} generation(s), 1850-{last.year}.")
    assert f"They burnt {last.fossil_burnt} fossil and extracted {last.fossil_extracted}" in text
    assert "Extraction (" in text or "The cards played most" in text
    placed = sum(len(c) for c in state.crises)
    if placed >= 4:
        assert f"{placed} crisis tiles were placed, and it ends once 4 are" in text


# --- the World3 reference curves against a pyworld3 run ---------------------------------------
@pytest.mark.slow
def test_the_shipped_standard_run_is_a_pyworld3_run_within_1_percent() -> None:
    """Run World3 (1972) with pyworld3 as ``scripts/world3_reference.py`` does, and compare
    every shipped series, year by year, within 1% of the run's value (of the series' peak
    where the value is near 0)."""
    pytest.importorskip("pyworld3")

    script = load_script("scripts/world3_reference.py")
    run, _provenance = script.standard_run()
    shipped = reference_runs()["standard-1972"]
    assert tuple(run["years"]) == shipped.years
    for name, values in shipped.series.items():
        fresh = run["series"][name]["values"]
        peak = max(abs(v) for v in fresh)
        for year, mine, theirs in zip(shipped.years, values, fresh, strict=True):
            assert abs(mine - theirs) <= 0.01 * max(abs(theirs), 0.01 * peak), (name, year)
