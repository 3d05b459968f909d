"""The referee of a game at a real table (``limit referee world``, ``world.referee``), positions
at any step of a generation, and the score calculator (``limit score world``).

The score fixtures are the rulebook's own example (seed 004, p23, "Example"): a global
standard of living of 3 + 3 + 2 = 8, population 30 (demographic index 4), 4 crises, 154 $,
4 territories, 4 military in stock, 5 pollution and 8 disruption tokens:
32 + 15 + 20 + 1 - 18 = 50 points.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from limitgames.cli import referee_cmd
from limitgames.core import GameRecord, IllegalActionError, LimitGamesError, PositionError
from limitgames.world.position import position_json, state_from_position, stress_test
from limitgames.world.referee import OutcomeNeeded, Referee
from limitgames.world.scoring import scorecards
from tests.world.scenario import new_state

runner = CliRunner()

SOCIETY = [
    "artificial-intelligence",
    "conscription",
    "graduate-studies",
    "indoctrination",
    "investment-policy",
    "overconsumption",
    "political-reform",
    "surcharge",
    "sustainable-consumption",
    "vegetarianism",
]
"""The society deck at setup: the 10 society cards that are neither starters nor technology
(rulebook card list; the data file's ``kind = "deck"``)."""


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("referee")(referee_cmd.referee_command)
    app.command("score")(referee_cmd.score_command)
    return app


def rulebook_example(renewable: int = 30, industrial: int = 30) -> dict[str, Any]:
    """A 2-nation table at generation 5 whose circle is the rulebook's scoring example.

    Its plants are all at position 1 (production 1 each, no fossil, no pollution) and its
    stocks hold ``renewable`` and ``industrial`` for the stress test. Tokens moved onto
    circle's board are taken from the reserves / LIMIT box, so the box's totals still hold.
    """
    p = position_json(new_state(2, seed=3))
    circle = p["nations"][0]
    circle.update(
        population=7,  # the 7th position of the track: 30
        money=154,
        territory=4,
        pollution=5,
        disruption=8,
        sol="33322",  # A + C + E = 3 + 3 + 2 = 8
        shift_tiles="DE",  # A, B, C reached 3: their tiles moved to the zone
        shift_zone=3,
    )
    circle["plants"] = {"renewable": 1, "industrial": 1, "military": 1}
    circle["stock"] = {"renewable": renewable, "industrial": industrial, "military": 4}
    p["generation"] = 5
    p["crises"] = [["financial"], ["military"], ["environmental"], ["financial"], []]
    p["limit_box"]["money"] -= 154 - 5
    p["limit_box"]["territory"] += 1
    p["pollution_reserve"] -= 5
    p["disruption_reserve"] -= 8
    return p


# --- the score calculator --------------------------------------------------------------------
def test_the_rulebook_example_scores_50_line_by_line() -> None:
    state = stress_test(rulebook_example(), stress_tests=0)
    name, lines, total = scorecards(state)[0]
    assert name == "circle" and total == 50 == state.scores[0]
    assert [(line.part, line.points) for line in lines] == [
        ("happiness", 32),
        ("financial", 15),
        ("territory", 20),
        ("military", 1),
        ("impact", -18),
    ]
    assert lines[0].reckoning == (
        "A + C + E = 3 + 3 + 2 = 8; population 30: demographic index 4; 8 x 4 = 32"
    )
    assert "154 $ / 10 = 15" in lines[1].reckoning


def test_the_money_variant_counts_2_points_per_10_dollars_whatever_the_crises() -> None:
    """p23 "About the score": "money has the same value whatever the state of the world, for
    example 2 VP for 10 $". The example's 154 $ with 4 crises: 15 units x 2 = 30 points (not
    (5 - 4) x 15 = 15), so 32 + 30 + 20 + 1 - 18 = 65."""
    position = rulebook_example()
    position["variant"] = {**position["variant"], "money": "fixed"}
    state = stress_test(position, stress_tests=0)
    _name, lines, total = scorecards(state)[0]
    assert lines[1].points == 30 and total == 65 == state.scores[0]
    assert lines[1].reckoning == (
        "money has the same value whatever the state of the world: 2 per 10 $; "
        "154 $ / 10 = 15; 15 x 2 = 30"
    )
    with pytest.raises(PositionError, match="money"):
        stress_test({**position, "variant": {**position["variant"], "money": "gold"}}, 0)


def test_the_stress_test_runs_before_the_score() -> None:
    # Stress test by hand: supply, population 30 eats 30 renewable (30 held: no shortage);
    # consumption, class C at 3 consumes at its own level, 30 industrial (30 held); production,
    # every plant at 1 yields 1 with no fossil and no pollution: military 4 -> 5, still 1 point.
    state = stress_test(rulebook_example(), stress_tests=1)
    circle = state.nations[0]
    assert (circle.population, circle.stock, circle.pollution) == (7, [1, 1, 5], 5)
    assert state.scores[0] == 50
    # With 10 renewable, population 30 can only be fed at 10 (two levels down, to the 5th
    # position): the demographic index falls from 4 to 2 and happiness from 32 to 8 x 2 = 16.
    # Unrest rises 3 per level (data: renewable_shortage_unrest): 6 + 6 = 12, one step past the track's end (11), so one
    # disruption token (p9): impact -18 -> -19. No plant can lose a level (all at 1).
    short = stress_test(rulebook_example(renewable=10), stress_tests=1)
    circle = short.nations[0]
    assert (circle.population, circle.unrest, circle.disruption) == (5, 11, 9)
    assert short.scores[0] == 16 + 15 + 20 + 1 - 19


def test_score_command_prints_every_line(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(rulebook_example()))
    result = runner.invoke(_app(), ["score", "world", str(path)])
    assert result.exit_code == 0, result.output
    assert "Stress test" in result.output and "population 30 eats 30 renewable" in result.output
    for words in ("Gross domestic happiness", "Financial strength", "Historical impact"):
        assert words in result.output
    assert "circle: 50 points" in result.output
    bad = rulebook_example()
    bad["nations"][0]["sol"] = "23322"
    path.write_text(json.dumps(bad))
    result = runner.invoke(_app(), ["score", "world", str(path)])
    assert result.exit_code == 1
    assert "nations[0].sol: a class may not stand above a higher class" in result.output


# --- positions at any step ---------------------------------------------------------------------
def test_a_position_at_a_later_step_starts_there() -> None:
    p = rulebook_example()
    p["crises"] = [["financial"], [], [], [], []]  # the game goes on
    p["step"] = "supply"
    state = state_from_position(p)
    text = "\n".join(state.log_lines(None))
    assert "at the supply step of generation 5" in text
    assert "Technological advancement" not in text and "circle: Supply:" in text
    assert state.columns[0] == 2  # class C at 3, read from the board
    saved = position_json(state)
    assert saved["step"] == "supply" and saved["columns"] == [3, 1]
    p["columns"] = [9, 1]
    with pytest.raises(PositionError, match=r"columns\[0\]: 9 is above 4"):
        state_from_position(p)
    del p["step"], p["columns"]
    p["crises"][-1] = ["military"]
    with pytest.raises(PositionError, match="no tile yet at its start"):
        state_from_position(p)
    p["step"] = "environmental_crisis"  # after the military crisis tile of this generation
    assert state_from_position(p).crises[4][0] == "military"  # kept; play went on from there
    p["step"] = "lunch"
    with pytest.raises(PositionError, match="step: 'lunch' is not one of technology"):
        state_from_position(p)


# --- the referee --------------------------------------------------------------------------------
def test_the_referee_takes_the_cards_drawn_at_the_table() -> None:
    referee = Referee(2, start_player="square")
    state = referee.state
    assert state.leader == 1 and sorted(state.nations[1].decks["society"]) == SOCIETY
    # class A at 1 at the start: the player aid's first column draws 5 (rulebook p12)
    assert referee.pending_draw() == {
        "label": "square draws",
        "counts": {"society": 5, "military": 5, "production": 5},
    }
    with pytest.raises(OutcomeNeeded, match="square draws 5 from the society deck"):
        referee.apply("deck society")
    assert referee.state.history() == []  # nothing happened
    drawn = ["vegetarianism", "surcharge", "political-reform", "conscription", "overconsumption"]
    referee.tell_cards(["surcharge", "education"])  # a typo: refused, the books unchanged
    with pytest.raises(LimitGamesError, match="2 card"):
        referee.apply("deck society")
    referee.tell_cards(drawn)
    referee.apply("deck society")
    keep = sorted(a[1] for a in referee.state.legal_actions())
    assert keep == sorted(drawn)  # the real cards, not the program's deck order
    referee.apply("keep political-reform")
    square = referee.state.nations[1]
    assert "political-reform" in square.hand
    # the four others went back under the deck: the deck is the setup deck less the kept card
    assert sorted(square.decks["society"]) == sorted(set(SOCIETY) - {"political-reform"})
    with pytest.raises(IllegalActionError):
        referee.apply("keep surcharge")  # circle must choose a deck now
    # undo across the draw (every seat is a person): back to the choice of a card, then the deck
    assert referee.undo() == "keep political-reform"
    assert referee.state.pending[-1].kind == "keep"
    assert referee.undo() == "deck society"
    assert sorted(referee.state.nations[1].decks["society"]) == SOCIETY
    referee.tell_cards(SOCIETY[:5])
    referee.apply("deck society")
    referee.apply("keep graduate-studies")
    replayed = GameRecord.loads(referee.record().dumps()).replay()
    assert "graduate-studies" in replayed.nations[1].hand  # type: ignore[attr-defined]


def test_the_referee_joins_a_game_at_any_step() -> None:
    p = position_json(new_state(2, seed=3))
    p["step"] = "decide_policy"
    referee = Referee(position=p)
    assert referee.state.stage == "decide_policy"
    record = referee.record()
    assert record.start is not None and record.start["variant"]["draws"] == "table"


def test_a_scripted_session_keeps_the_books(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    lines = [
        "deck society",
        "surcharge nonsense",  # asked again: 2 cards for 5, and an unknown card
        "surcharge vegetarianism conscription overconsumption political-reform",
        "keep surcharge",
        "undo",
        "keep vegetarianism",
        "deck military",  # circle
        "quit",
    ]
    result = runner.invoke(
        _app(),
        ["referee", "world", "-v", "players=2", "--record", str(path)],
        input="square\n" + "\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Not possible: 2 given, 5 expected" in result.output
    assert "Taken back: keep surcharge" in result.output
    assert "circle draws 5 from the military deck" in result.output
    record = GameRecord.read(path)
    assert record.actions == ["deck society", "keep vegetarianism"]
    state = record.replay()
    square = state.nations[1]  # type: ignore[attr-defined]
    assert "vegetarianism" in square.hand and "surcharge" not in square.hand
    assert len(square.decks["society"]) == 9


# --- every variant option of limit play world ------------------------------------------------
def test_the_referee_takes_every_option(tmp_path: Path) -> None:
    """Each option of ``limit play world`` becomes the variant parameter of the same name
    (``--alliances no`` is ``off``); readings go into ``overrides``; ``-v`` takes any parameter.
    The game is built with them: no alliance step, money fixed, the readings and the data file's
    value in force."""
    mine = tmp_path / "mine.toml"
    mine.write_text("[scoring]\npollution = -3\n")
    path = tmp_path / "game.json"
    takes = 'military_operation_takes=["fossil:1","renewable:4","industrial:4"]'
    args = ["referee", "world", "-n", "2", "--stress-tests", "2", "--alliances", "no"]
    args += ["--data", str(mine), "--money", "fixed", "--reading", "war_plants=any"]
    args += ["--reading", takes, "-v", "returns=score", "--record", str(path)]
    result = runner.invoke(_app(), args, input="circle\nquit\n")
    assert result.exit_code == 0, result.output
    record = GameRecord.read(path)
    variant = record.variant
    assert (variant["players"], variant["stress_tests"], variant["alliances"]) == (2, 2, "off")
    assert (variant["money"], variant["returns"], variant["draws"]) == ("fixed", "score", "table")
    overrides = json.loads(variant["overrides"])
    assert overrides["readings"] == {
        "war_plants": "any",
        "military_operation_takes": ["fossil:1", "renewable:4", "industrial:4"],
    }
    assert overrides["scoring"] == {"pollution": -3}  # the file, embedded
    state = record.replay()
    assert state.data.money == "fixed" and state.data.scoring["pollution"] == -3  # type: ignore[attr-defined]
    assert state.data.military_operation_takes == [  # type: ignore[attr-defined]
        ("fossil", 1),
        ("renewable", 4),
        ("industrial", 4),
    ]


def test_with_readings_keeps_the_overrides_given() -> None:
    variant = referee_cmd.with_readings(
        {"overrides": '{"readings": {"full_effect": "partial"}}'}, ["war_plants=any"]
    )
    assert json.loads(variant["overrides"]) == {
        "readings": {"full_effect": "partial", "war_plants": "any"}
    }
    assert referee_cmd.with_readings({"money": "fixed"}, []) == {"money": "fixed"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--alliances", "maybe"], "alliances: 'maybe' is not one of auto, on, off"),
        (["--money", "gold"], "money: 'gold' is not one of crises, fixed"),
        (["-v", "colour=red"], "world has no parameter 'colour'"),
        (["--reading", "war_plants"], "is not of the form name=value"),
        (["--alliances", "no", "-v", "alliances=on"], "alliances: given twice"),
    ],
)
def test_a_bad_referee_option_is_refused_in_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(_app(), ["referee", "world", *args], input="")
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("reading", "message"),
    [
        ("solo_star_in_crises=banana", "unknown key readings.solo_star_in_crises"),
        ("war_plants=banana", "'banana' is not one of industrial-or-military, any"),
    ],
)
def test_the_referee_refuses_a_bad_reading(reading: str, message: str) -> None:
    result = runner.invoke(_app(), ["referee", "world", "--reading", reading], input="")
    assert result.exit_code == 1
    assert message in " ".join(result.output.split())


def _random_table_game(referee: Referee, rng: Any, decisions: int) -> list[str]:
    """Play ``decisions`` decisions chosen at random, telling for each draw cards picked at
    random from the nation's real deck (as cards drawn at a table); returns the choice kinds."""
    kinds = []
    for _ in range(decisions):
        state = referee.state
        if state.is_terminal():
            break
        kinds.append(state.pending[-1].kind)
        action = rng.choice(state.legal_actions())
        if state.pending[-1].kind == "deck":
            deck = state.nations[state.pending[-1].seat].decks[action[1]]
            count = referee.pending_draw()["counts"][action[1]]  # type: ignore[index]
            referee.tell_cards(rng.sample(sorted(deck), count))
        referee.apply(action)
    return kinds


def test_the_rulebooks_first_game_four_nations_without_alliances() -> None:
    """The rulebook's advice for a first game: 4 nations, no alliance step. Refereed from cards
    told as drawn at the table (each a random pick of the nation's deck, not the program's deck
    order), a whole generation passes without an alliance choice and the record replays."""
    import random

    referee = Referee(4, variant={"alliances": "off"}, start_player="triangle")
    assert referee.state.n == 4 and not referee.state.alliances_on
    rng = random.Random(4)
    kinds = _random_table_game(referee, rng, 400)
    assert referee.state.generation >= 2 or referee.state.is_terminal()
    assert not set(kinds) & {"alliance", "answer", "fee", "ask", "aid", "break"}
    record = referee.record()
    assert record.variant["alliances"] == "off" and record.variant["draws"] == "table"
    assert record.replay().history() == referee.state.history()


def test_the_cli_referees_four_nations_without_alliances(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    lines = [
        "deck society",
        "surcharge vegetarianism conscription overconsumption political-reform",
        "keep surcharge",
        "quit",
    ]
    result = runner.invoke(
        _app(),
        ["referee", "world", "--players", "4", "--alliances", "no", "--record", str(path)],
        input="square\n" + "\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    record = GameRecord.read(path)
    assert record.variant["players"] == 4 and record.variant["alliances"] == "off"
    assert record.actions == ["deck society", "keep surcharge"]


def test_the_cli_referees_a_solo_game_with_the_money_variant(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        _app(),
        ["referee", "world", "--solo", "--money", "fixed", "--record", str(path)],
        input="circle\ndeck society\nquit\n",
    )
    assert result.exit_code == 0, result.output
    record = GameRecord.read(path)
    assert record.variant["solo"] is True and record.variant["money"] == "fixed"
    assert record.variant["players"] == 2


def test_moves_prints_quantities_in_the_games_words() -> None:
    """A choice with amounts (Market Access: buy / sell N) prints each as ``sell N renewable
    (N 1-...)``, never a Python dict."""
    import io

    from rich.console import Console

    from tests.world.scenario import at_policy

    referee = Referee(2, start_player="circle")
    state = referee.state
    at_policy(state, 0, ["market-access"])
    state.apply_string("play market-access")
    assert state.observation(0)["choice"]["amounts"]
    out = io.StringIO()
    referee_cmd.console = Console(file=out, width=200)
    referee_cmd._show_choice(state)
    text = out.getvalue()
    assert "{" not in text and "'verb'" not in text
    assert "any amount: sell N renewable (N 1-" in text
