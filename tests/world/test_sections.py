"""Every section of seed 004 (the LIMIT rulebook) is named in a scenario test.

:data:`SECTIONS` lists the rulebook's sections that state rules, with their titles as printed
(the setup, how to play, solo mode and the card descriptions; the glossary, the author's
intention and "How do I explain the game?" state none). A section is *named* when its title is
in the docstring of a test in ``tests/world`` or, in snake case, in a test's name
(``test_shortage_of_renewable_resources``). The sections no other test named are played here,
with the expected numbers reasoned from the rulebook beside them. ``docs/world.md`` ("The
rulebook, section by section") says for each rule whether it is built, built differently, or
reconstructed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from limitgames.world import international, social
from limitgames.world.data import CLASSES
from limitgames.world.scoring import score_nation
from limitgames.world.state import STAGES
from tests.world.scenario import new_state, play, public_lines, set_board

SECTIONS: tuple[str, ...] = (
    # 02 Components, 03 Setup (pp 4-10)
    "Components",
    "Marketplace Board and shared elements",
    "Price of resources",
    "Resources stock on the marketplace and nations boards",
    "Pollution reserve",
    "Disruption reserve",
    "Colonization reserve",
    "Pollution",
    "Disruption",
    "Nation board",
    "Levels",
    "Production plant",
    "Personal fossil resources stock",
    "Standard of living",
    "Social unrest",
    "Politics cards",
    "Leadership tile",
    # 04 How to play: political phase (pp 12-13)
    "Technological Advancement",
    "New Policy",
    "Political Action Capacity",
    "Decide Policy",
    "Card details",
    "Instant effect cards",
    "Permanent effect cards",
    # social phase (pp 14-19)
    "Supply",
    "Shortage of renewable resources",
    "Conserving renewable resources",
    "Consumption of industrial resources",
    "Shortage of industrial resources",
    "Population growth",
    "Lower mortality rate",
    "Lower birth rate",
    "Economic Growth",
    "Taxation",
    "World Bank empty",
    "Production",
    "Shortage of fossil resources",
    "Public order",
    "Uprising",
    "Shortage of military resources",
    "Growth",
    "Boom",
    "Class struggle",
    # international phase (pp 19-22)
    "Cold War",
    "Global Crises",
    "Financial Crisis",
    "Environmental Crisis",
    "Military Crisis",
    "Alliance",
    "Military alliance",
    "Economic alliance",
    "Demilitarization",
    "Effect of Alliances",
    "Refusing to help an ally",
    "End of a generation",
    # end of the game (p23)
    "End of the game",
    "Stress Test",
    "Calculating points",
    "Gross domestic happiness",
    "Financial strength",
    "Territory",
    "Military power",
    "Historical impact",
    # 05 Solo mode (p24)
    "Solo mode",
    # card descriptions (pp 25-31)
    "Transactions",
    "War",
    "Public Expenditure",
    "Education",
    "Investment Policy",
    "Graduate Studies",
    "Indoctrination",
    "Vegetarianism",
    "Overconsumption",
    "Sustainable Consumption",
    "Surcharge",
    "Political Reform",
    "Conscription",
    "Artificial Intelligence",
    "Industrialization",
    "Robotization",
    "Policy Planning",
    "Extraction",
    "Urbanization",
    "Overproduction",
    "Craftsmanship",
    "Recycling",
    "Green Production",
    "Intensive Farming",
    "Cleaning the Planet",
    "Offshore Production",
    "Soft Power",
    "Market Access",
    "Speculation",
    "Stock Exchange",
    "Humanitarian Aid",
    "Political Interference",
    "Development of Tourism",
    "Mass Destruction",
    "Annexation of Territory",
    "Military Operation",
    "Colonization",
    "Terrorism",
    "Police Repression",
)
"""The rulebook's sections that state rules, titles as printed in seed 004."""

HERE = Path(__file__).parent
SEED = Path("/work/shared/seeds")


def _snake(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_")


def _named_in_tests() -> tuple[str, str]:
    """All test docstrings and all test names of ``tests/world`` (this module's index aside)."""
    docs: list[str] = []
    names: list[str] = []
    for path in sorted(HERE.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                if node.name == "test_every_section_is_named_in_a_scenario_test":
                    continue
                names.append(node.name)
                docs.append(" ".join((ast.get_docstring(node) or "").split()))
    return "\n".join(docs).lower(), "\n".join(names)


def test_every_section_is_named_in_a_scenario_test() -> None:
    docs, names = _named_in_tests()
    missing = [s for s in SECTIONS if s.lower() not in docs and _snake(s) not in names]
    assert missing == []


def test_the_section_titles_are_the_rulebooks() -> None:
    """Each title of :data:`SECTIONS` is printed in seed 004 (when the seed is at hand)."""
    seeds = sorted(SEED.glob("004_*.txt")) if SEED.is_dir() else []
    if not seeds:
        pytest.skip("seed 004 is not on this machine")
    text = seeds[0].read_text(encoding="utf-8").lower()
    assert [s for s in SECTIONS if s.lower() not in text] == []


# --- setup ----------------------------------------------------------------------------------
def test_the_leadership_tile_goes_to_a_random_start_player() -> None:
    """Setup, "Leadership tile": "Decide randomly who will be the starting player. They receive
    the leadership tile"; the generation then starts with that nation (p11)."""
    leaders = {new_state(3, seed=seed).leader for seed in range(30)}
    assert leaders == {0, 1, 2}  # 30 seeds: each of 3 nations drawn (chance 3 x (2/3)^30 ~ 1e-5)


def test_levels_move_the_population_one_value_at_a_time() -> None:
    """Nation board, "Levels": "when you have a population of 10, increasing the population by 1
    means moving up to 20 population, and decreasing the population by 1 means moving down to
    5"; 10 is the 5th value of 1, 2, 3, 5, 10, 20, 30, 50, 100."""
    state = new_state(2)
    n = set_board(state.nations[0], population=5)
    assert state.population_value(n) == 10
    social.population_growth(state, n, 0)  # class C at 1: +1 level
    assert state.population_value(n) == 20
    n.population = 5
    n.stock[0] = 0
    n.plants = [1, 1, 1]
    social.supply(state, n, 0)  # 10 to feed, 0 renewable: every level unfed, down to position 1
    assert n.population == 1 and state.population_value(n) == 1


def test_production_plant_renewable_stops_at_the_last_territory() -> None:
    """Nation board, "Production plant": "The [renewable] production plant cube may not go
    further than the last available territory"; industrial and military use fossil from the
    4th position on (p6)."""
    state = new_state(2)
    n = set_board(state.nations[0], renewable=4, industrial=3, territory=4, fossil=0)
    social.economic_growth(state, n, 0)  # class C at 1: renewable +1, but 4 territories
    assert n.plants[0] == 4
    stock = n.stock[1]
    social.produce(state, n, 1, "Production")  # position 3: no fossil needed, produces 3
    assert n.stock[1] == stock + 3 and n.unrest == 6


def test_standard_of_living_order_rule_and_demographic_shift() -> None:
    """Nation board, "Standard of living" (p9): a higher class always rises before the classes
    below it (with A at 2 and B-E at 1, a raise goes to A or B, never to C), and the first time a
    class reaches 3 its demographic shift tile goes to the zone (not a second time)."""
    state = new_state(2)
    n = set_board(state.nations[0], unrest=5, sol="21111")
    social.public_order(state, n, 0)  # growth with class C at 1: +1 standard of living
    state.flush_deferred()
    state.advance()
    assert sorted(state.legal_actions()) == [("raise", "A"), ("raise", "B")]
    play(state, "raise A")
    assert n.sol == [3, 1, 1, 1, 1]
    assert n.shift_zone == 1 and n.shift_tiles[0] is False  # A reached 3 for the first time
    n.sol = [3, 3, 2, 1, 1]
    n.shift_zone, n.shift_tiles = 0, [True] * len(CLASSES)
    n.raise_class(2, 3)  # C 2 -> 3 for the first time: its tile to the zone
    n.lower_class(2)
    n.raise_class(2, 3)  # C reaches 3 again: its tile is already gone
    assert n.sol == [3, 3, 3, 1, 1] and n.shift_zone == 1


def test_social_unrest_past_the_ends() -> None:
    """Nation board, "Social unrest" (p9): at the far right, each increase not made takes one
    disruption token from the reserve card; at the far left a decrease has no effect."""
    state = new_state(2)
    n = set_board(state.nations[0], unrest=10)
    reserve = state.disruption_reserve
    state.change_unrest(n, 3, "test")  # 10 -> 11, two steps not made
    assert n.unrest == 11 and n.disruption == 2 and state.disruption_reserve == reserve - 2
    n.unrest = 2
    state.change_unrest(n, -5, "test")
    assert n.unrest == 1 and n.disruption == 2


def test_pollution_and_disruption_beyond_the_reserves_come_from_the_limit_box() -> None:
    """Setup, "Pollution" and "Disruption" (p7): tokens needed beyond the reserve card come
    from the LIMIT box (excess pollution)."""
    state = new_state(2)
    n = state.nations[0]
    state.pollution_reserve, state.disruption_reserve = 1, 1
    box_p, box_d = state.limit_box["pollution"], state.limit_box["disruption"]
    state.gain_pollution(n, 3)  # 1 from the card, 2 excess from the box
    state.gain_disruption(n, 4)  # 1 from the card, 3 from the box
    assert (state.pollution_reserve, state.limit_box["pollution"]) == (0, box_p - 2)
    assert (state.disruption_reserve, state.limit_box["disruption"]) == (0, box_d - 3)
    assert (n.pollution, n.disruption) == (3, 4)


# --- social phase ---------------------------------------------------------------------------
def test_conserving_renewable_resources() -> None:
    """Social phase, "2 Conserving renewable resources" (p15): once the population is supplied,
    a renewable stock over 10 loses its surplus; 10 or less, nothing happens."""
    state = new_state(2)
    a = set_board(state.nations[0], population=2, stock_renewable=16)
    b = set_board(state.nations[1], population=2, stock_renewable=9)
    for n in (a, b):
        social.supply(state, n, 0)  # population 2 eats 2: 14 and 7
        social.conserve(state, n, 0)
    assert (a.stock[0], b.stock[0]) == (10, 7)
    assert STAGES.index("conserve") == STAGES.index("supply") + 1


@pytest.mark.parametrize(
    ("sol", "column", "left"),
    [
        ("11111", 0, 30),  # class C at 1: nothing happens
        ("22211", 1, 25),  # at 2: 1 per population of the level below (10 -> 5)
        ("33311", 2, 20),  # at 3: 1 per population (10)
        ("44411", 3, 10),  # at 4: 1 per population of the level above (10 -> 20)
    ],
)
def test_consumption_of_industrial_resources_by_class_c(sol: str, column: int, left: int) -> None:
    """Social phase, "3 Consumption of industrial resources" (p15), population 10 and 30
    industrial, by class C's standard of living."""
    state = new_state(2)
    n = set_board(state.nations[0], population=5, stock_industrial=30, sol=sol, unrest=5)
    social.consumption(state, n, column)
    assert n.stock[1] == left and n.unrest == 5


# --- international phase --------------------------------------------------------------------
def test_global_crises_in_order_a_financial_crisis_may_lead_to_a_military_crisis() -> None:
    """International phase, "2 Global Crises" (p19): financial, then environmental, then
    military; "a financial crisis may lead to a military crisis". By hand, 2 nations,
    population 2 each, a financial tile on generation 1 and 2 disruption left on the reserve:

    - financial: each loses 1 $ x 1 tile x population 2: 40 -> 38 and 10 -> 8; the richest
      (nation 0) takes the last 2 disruption: the reserve is empty;
    - environmental: the pollution reserve still has tokens: no crisis;
    - military: the reserve is empty, so a military tile is placed; each spends 1 military per
      population one level lower (1): 5 -> 4 and 3 -> 2, returns 1 disruption (nation 0: 2 -> 1,
      the reserve 0 -> 1); the nation with the most military (nation 0) loses a military plant
      level (2 -> 1). All classes are at 1, so no standard of living can fall.
    """
    state = new_state(2)
    state.crises = [["financial"]]
    state.disruption_reserve = 2
    a = set_board(state.nations[0], money=40, stock_military=5, military=2)
    b = set_board(state.nations[1], money=10, stock_military=3, military=1)
    state.stage = "financial_crisis"
    state.stage_index = STAGES.index("financial_crisis")
    state.cursor = 0
    state.pending = []
    state.advance()
    assert state.crises[0] == ["financial", "military"]
    assert (a.money, b.money) == (38, 8)
    assert (a.stock[2], b.stock[2]) == (4, 2)
    assert (a.disruption, b.disruption, state.disruption_reserve) == (1, 0, 1)
    assert (a.plants[2], b.plants[2]) == (1, 1)
    text = public_lines(state)
    assert text.index("Financial crisis") < text.index("Military crisis")
    assert state.generation == 2  # the generation ended: the next one waits for a decision


def test_end_of_a_generation_passes_the_leadership_tile_left() -> None:
    """International phase, "4 End of a generation" (p22): the generation tile is turned and
    the leadership tile passes to the nation on the left (the next in turn order)."""
    state = new_state(3)
    state.leader = 2
    state.stage = "end_generation"
    international.end_generation(state)
    assert (state.generation, state.leader, state.stage) == (2, 0, "technology")
    assert len(state.crises) == 2  # a new generation tile


@pytest.mark.parametrize(
    ("generation", "crises", "over"),
    [
        (7, [[]] * 7, True),  # the 7th generation ends the game
        (3, [["financial"], ["environmental", "military"], ["financial"]], True),  # 4 crises
        (6, [["financial"], [], ["military"], [], [], ["environmental"]], False),  # 3 crises
    ],
)
def test_end_of_the_game_after_the_7th_generation_or_4_crises(
    generation: int, crises: list[list[str]], over: bool
) -> None:
    """Seed 004, "End of the game" (pp 22-23): "The game is over at the end of a generation,
    either the 7th, or after 4 crises have taken place"; then the stress test, then the
    points."""
    state = new_state(2)
    state.generation = generation
    state.crises = [list(c) for c in crises]
    international.end_generation(state)
    if over:
        assert state.stage == "stress_start" and state.generation == generation
    else:
        assert state.stage == "technology" and state.generation == generation + 1


# --- the points -----------------------------------------------------------------------------
@pytest.mark.parametrize(("crises", "financial"), [(3, 30), (5, 0), (6, 0)])
def test_financial_strength_and_military_power(crises: int, financial: int) -> None:
    """Seed 004, "Calculating points" (p23): "Financial strength": 5 - crises points per 10 $,
    nothing if that is 0 or less; "Military power": 1 point per 3 military (rounded down);
    "Gross domestic happiness", "Territory" and "Historical impact" as printed. By hand:
    classes 3,3,2,1,1 give A + C + E = 6, population 10 has index 2: 12; 154 $ is 15 tens; 4
    territories 20; 8 military 2; 1 pollution -2 and 3 disruption -3."""
    state = new_state(2)
    n = set_board(
        state.nations[0],
        sol="33211",
        population=5,
        money=154,
        territory=4,
        stock_military=8,
        pollution=1,
        disruption=3,
    )
    parts = score_nation(state.data, n, crises)
    assert parts["happiness"] == 12 and parts["financial"] == financial
    assert parts["territory"] == 20 and parts["military"] == 2 and parts["impact"] == -5
    assert parts["total"] == 12 + financial + 20 + 2 - 5
