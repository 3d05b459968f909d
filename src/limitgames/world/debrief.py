"""The World3 debrief: a game of LIMIT beside World3's trajectories.

The author's intention is to "discuss the games you play and compare them to
reality". :func:`game_rows` replays a world record and measures, at the close of
each generation ``g`` (after its international phase, before any stress test),
the game's world as of the year ``1850 + 30 (g - 1)``:

- population: the sum of the nations' population values (1, 2, 3, 5, 10...);
- pollution: pollution tokens on the nation boards;
- fossil: fossil tokens in play (nations, marketplace, colonization reserve:
  everything but the LIMIT box); fossil burnt (every token that went into the
  LIMIT box: production, Intensive Farming, Offshore Production, and fossil
  lost there) and fossil extracted (every token taken back out of it:
  Extraction, Recycling), counted apart, so the world had the setup's fossil
  plus the extracted, and the share left unburnt lies in 0-1;
- renewable, industrial and military production: the sum of the plants' values
  (what the production step yields, before Intensive Farming);
- crises: the crisis tiles placed in that generation.

:func:`reference_runs` reads the World3 runs shipped in ``world3_reference.json``
(computed by ``scripts/world3_reference.py`` with pyworld3 and pydynamo-w; its
provenance is in the file). :func:`debrief_charts` gives each plot's curves on
fixed axes (the game's axis set by the box, World3's by the quantity, never by
a curve's own peak, and never below 0), with how each game quantity is mapped
to World3's and from which source; :func:`debrief_texts` one paragraph per
plot and :func:`world_account` a short account of the game. Nothing here draws
or writes a file: the terminal and the browser draw the charts (SVG).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from limitgames.core import Chance, GameRecord, LimitGamesError, RecordError, State
from limitgames.translation import N_, current_language
from limitgames.translation import gettext as _
from limitgames.world.data import PLANTS, RESOURCES
from limitgames.world.state import WorldState

FIRST_YEAR = 1850
YEARS_PER_GENERATION = 30


def generation_year(generation: int) -> int:
    """The year a generation stands for: ``1850 + 30 (g - 1)`` (generation 1 is 1850)."""
    return FIRST_YEAR + YEARS_PER_GENERATION * (generation - 1)


@dataclass(frozen=True)
class GenerationRow:
    """The game's world at the close of one generation (see the module docstring).

    Attributes:
        generation: 1-7. year: :func:`generation_year`. population: the nations' population
            values added. pollution: tokens on the nation boards. fossil: tokens in play (not
            in the LIMIT box).
        fossil_setup: the fossil in play at setup. fossil_burnt, fossil_extracted: tokens
            that went into / came out of the LIMIT box since the start (see the module
            docstring).
        fossil_fraction: ``fossil`` over all the fossil the world had, the setup's plus the
            extracted (0-1).
        renewable, industrial, military: the plants' values added (units per generation).
        crises: the tiles placed in this generation.
    """

    generation: int
    year: int
    population: int
    pollution: int
    fossil: int
    fossil_fraction: float
    renewable: int
    industrial: int
    military: int
    crises: tuple[str, ...]
    fossil_setup: int = 0
    fossil_burnt: int = 0
    fossil_extracted: int = 0

    @property
    def fossil_had(self) -> int:
        """All the fossil the world had: the setup's and the extracted."""
        return self.fossil_setup + self.fossil_extracted

    @property
    def burnt_fraction(self) -> float:
        """``fossil_burnt`` over :attr:`fossil_had` (0-1)."""
        return self.fossil_burnt / self.fossil_had if self.fossil_had else 0.0


class FossilFlows(dict[str, int]):
    """The LIMIT box's token counts, counting fossil tokens going in (``burnt``) and out
    (``extracted``) one change at a time (each ``box["fossil"] += k`` of the rules is one
    change, so a step that burns and recycles counts both)."""

    def __init__(self, box: Mapping[str, int]) -> None:
        super().__init__(box)
        self.burnt = 0
        self.extracted = 0

    def __setitem__(self, key: str, value: int) -> None:
        if key == "fossil":
            change = value - self.get("fossil", 0)
            if change > 0:
                self.burnt += change
            else:
                self.extracted -= change
        super().__setitem__(key, value)


def fossil_in_play(state: WorldState) -> int:
    """Fossil tokens in play: the nations', the marketplace's, the colonization reserve's and,
    in solo mode, the star nation's (everything but the LIMIT box)."""
    star = state.star.fossil if state.star is not None else 0
    return (
        sum(n.fossil for n in state.nations)
        + state.market_stock[RESOURCES.index("fossil")]
        + state.colonization[1]
        + star
    )


def world_row(
    state: WorldState,
    generation: int,
    *,
    setup: int | None = None,
    burnt: int = 0,
    extracted: int = 0,
) -> GenerationRow:
    """Measure ``state``'s table as the close of ``generation`` (see :class:`GenerationRow`);
    ``setup``, ``burnt`` and ``extracted`` are the fossil counts since the start (``setup``
    by default: what is in play now plus ``burnt`` minus ``extracted``)."""
    data = state.data
    nations = state.nations
    fossil = fossil_in_play(state)
    had_at_setup = setup if setup is not None else fossil + burnt - extracted
    had = had_at_setup + extracted
    production = [sum(data.level(n.plants[i]) for n in nations) for i in range(len(PLANTS))]
    crises = state.crises[generation - 1] if generation <= len(state.crises) else []
    return GenerationRow(
        generation=generation,
        year=generation_year(generation),
        population=sum(data.level(n.population) for n in nations),
        pollution=sum(n.pollution for n in nations),
        fossil=fossil,
        fossil_fraction=min(1.0, fossil / had) if had else 0.0,
        renewable=production[0],
        industrial=production[1],
        military=production[2],
        crises=tuple(crises),
        fossil_setup=had_at_setup,
        fossil_burnt=burnt,
        fossil_extracted=extracted,
    )


def game_rows(record: GameRecord) -> list[GenerationRow]:
    """Replay a world record and measure each generation it completed (in order).

    The record is replayed with no stress test, so the last generation is measured as it
    closed (the stress test's decisions, if any, are not needed). A generation still in
    progress when an unfinished record stops is left out.

    Raises:
        RecordError: the record is not a world game, or an action does not replay
            (naming it and the rule).
    """
    return list(replay_rows(record)[0])


def replay_rows(record: GameRecord) -> tuple[list[GenerationRow], WorldState]:
    """:func:`game_rows` and the replayed game (stopped before any stress test), whose log
    :func:`world_account` reads. Raises RecordError (see :func:`game_rows`)."""
    if record.game != "world":
        raise RecordError(f"the debrief is for world games, not {record.game!r}", "field 'game'")
    state = _start_without_stress_test(record)
    flows = FossilFlows(state.limit_box)
    state.limit_box = flows
    setup = fossil_in_play(state)
    rows: list[GenerationRow] = []
    generation = state.generation
    for index, text in enumerate(record.actions):
        if state.is_terminal():
            break  # the rest are decisions of the stress test
        try:
            state.apply_string(text)
        except LimitGamesError as exc:
            raise RecordError(str(exc), record.where(index)) from None
        if state.generation != generation:
            board = _board_at_opening(state)
            rows.append(
                world_row(
                    board, generation, setup=setup, burnt=flows.burnt, extracted=flows.extracted
                )
            )
            generation = state.generation
    if state.is_terminal():
        rows.append(
            world_row(state, generation, setup=setup, burnt=flows.burnt, extracted=flows.extracted)
        )
    return rows, state


def _start_without_stress_test(record: GameRecord) -> WorldState:
    from limitgames.world.game import WorldGame
    from limitgames.world.position import state_from_position

    variant = {**record.variant, "stress_tests": 0}
    state: State
    try:
        if record.start is not None:
            start = dict(record.start)
            start["variant"] = {**dict(start.get("variant") or {}), "stress_tests": 0}
            told = Chance(seed=record.seed, replay=record.chance) if record.chance else None
            state = state_from_position(start, chance=told)  # cards told in a refereed game
        else:
            state = WorldGame().new_initial_state(
                chance=Chance(seed=record.seed, replay=record.chance), **variant
            )
    except RecordError:
        raise
    except LimitGamesError as exc:
        raise RecordError(
            str(exc), "field 'start'" if record.start else "field 'variant'"
        ) from None
    assert isinstance(state, WorldState)
    return state


def _board_at_opening(state: WorldState) -> WorldState:
    """A copy of ``state`` with the boards as they were at its generation's opening (the
    close of the previous one), before technological advancement and the first choices."""
    nations, g = state.opening
    board = state.clone()
    board.nations = [n.copy() for n in nations]
    board.market_stock = list(g["market_stock"])
    board.colonization = list(g["colonization"])
    board.crises = [list(c) for c in g["crises"]]
    return board


# --- the World3 reference runs --------------------------------------------------------------
@dataclass(frozen=True)
class ReferenceRun:
    """One World3 run as shipped: ``years`` and, by name, ``series`` values (their units in
    ``units``); ``computed`` is False when the file only says where the figures come from."""

    key: str
    name: str
    computed: bool
    years: tuple[int, ...]
    series: Mapping[str, tuple[float, ...]]
    units: Mapping[str, str]
    source: str
    reason: str

    def value(self, name: str, year: int) -> float | None:
        """The series value in ``year`` (``None`` outside the run)."""
        if year not in self.years:
            return None
        return self.series[name][self.years.index(year)]

    def peak(self, name: str) -> tuple[int, float]:
        """The year and value of the series' maximum (on the shipped yearly values)."""
        values = self.series[name]
        i = max(range(len(values)), key=values.__getitem__)
        return self.years[i], values[i]


def reference_runs(path: Path | None = None) -> dict[str, ReferenceRun]:
    """The shipped World3 runs by key (``standard-1972``, ``scenario1-2004``,
    ``scenario2-2004``, ``scenario9-2004``).

    Raises:
        LimitGamesError: the file cannot be read or lacks a field.
    """
    try:
        if path is None:
            text = resources.files("limitgames.world").joinpath("world3_reference.json").read_text()
        else:
            text = path.read_text(encoding="utf-8")
        raw = json.loads(text)
        runs = {}
        for key, run in raw["runs"].items():
            series = run.get("series", {})
            prov = run.get("provenance", {})
            parts = [str(run["source"])] if run.get("source") else []
            if prov:
                parts.append(
                    f"{prov['package']} {prov['version']} ({prov['model']}), "
                    f"computed {prov['computed']}"
                )
            source = "; ".join(parts)
            runs[key] = ReferenceRun(
                key=key,
                name=run["name"],
                computed=bool(run["computed"]),
                years=tuple(int(y) for y in run.get("years", [])),
                series={k: tuple(float(x) for x in s["values"]) for k, s in series.items()},
                units={k: str(s["unit"]) for k, s in series.items()},
                source=source,
                reason=str(run.get("reason", "")),
            )
        return runs
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LimitGamesError(f"the World3 reference file is unreadable: {exc}") from None


# --- plots and text --------------------------------------------------------------------------
@dataclass(frozen=True)
class Plot:
    """A written plot: its name (``population``...: a file name without extension), title and
    paragraph."""

    name: str
    title: str
    text: str


CRISIS_WORDS: dict[str, str] = {
    "financial": N_("financial crisis"),
    "environmental": N_("environmental crisis"),
    "military": N_("military crisis"),
}
"""The crisis tiles' names as the debrief writes them (translated where shown)."""

SERIES_WORDS: dict[str, str] = {
    "population": N_("population"),
    "pollution_index": N_("pollution index"),
    "food": N_("food"),
    "industrial_output": N_("industrial output"),
}
"""World3's series as the plots name them (translated where shown)."""

RUN_NAMES: tuple[str, ...] = (
    N_("1972 standard run"),
    N_("2004 update, scenario 1"),
    N_("2004 update, scenario 2"),
    N_("2004 update, scenario 9"),
)
"""The names of the reference runs in ``world3_reference.json`` (translated where shown)."""


def _decimal(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals, written with a decimal comma in German, French and
    Spanish (a point in English)."""
    text = f"{value:.{digits}f}"
    return text if current_language.get() == "en" else text.replace(".", ",")


def _peak(rows: Sequence[GenerationRow], attr: str) -> GenerationRow:
    return max(rows, key=lambda r: (getattr(r, attr), -r.generation))


def _missing_runs(runs: Mapping[str, ReferenceRun]) -> str:
    absent = [r for r in runs.values() if not r.computed]
    return " ".join(
        _("The %(run)s is not drawn: %(reason)s (source: %(source)s).")
        % {"run": _(r.name), "reason": r.reason, "source": r.source}
        for r in absent
    )


def debrief_texts(rows: Sequence[GenerationRow], runs: Mapping[str, ReferenceRun]) -> list[Plot]:
    """The plots of a debrief with their paragraphs (numbers from ``rows`` and ``runs``).

    Raises:
        ValueError: ``rows`` is empty (the record completed no generation).
    """
    if not rows:
        raise ValueError("the record completed no generation: nothing to compare")
    std = runs["standard-1972"]
    last = rows[-1]
    span = _("%(first)d-%(last)d (generations 1-%(generation)d)") % {
        "first": rows[0].year,
        "last": last.year,
        "generation": last.generation,
    }
    pop = _peak(rows, "population")
    w_pop_year, w_pop = std.peak("population")
    if pop.population == last.population:
        pop_end = _("the game's population was at its highest in its last generation (%(year)d).")
    elif pop.year < w_pop_year:
        pop_end = _("the game's peaked %(years)d years before World3's.")
    else:
        pop_end = _("the game's peaked %(years)d years after World3's.")
    pop_text = (
        _(
            "Population over %(span)s: the nations together reached %(peak)d (population values "
            "added) in %(year)d, generation %(generation)d, and ended at %(last)d. World3's "
            "%(run)s grows from 1.6 billion in 1900 to a peak of %(billions)s billion in "
            "%(w_year)d, then declines as food and services per person fall; "
        )
        % {
            "span": span,
            "peak": pop.population,
            "year": pop.year,
            "generation": pop.generation,
            "last": last.population,
            "run": _(std.name),
            "billions": _decimal(w_pop / 1e9, 2),
            "w_year": w_pop_year,
        }
    ) + pop_end % {"year": last.year, "years": abs(pop.year - w_pop_year)}
    pol = _peak(rows, "pollution")
    w_pol_year, w_pol = std.peak("pollution_index")
    pol_text = _(
        "Pollution: the nations held %(peak)d pollution tokens at most (%(year)d) and %(last)d "
        "at the end. World3's persistent pollution index (1970 = 1) peaks at %(index)s in "
        "%(w_year)d, some years after the population, because pollution outlives the industry "
        "that made it."
    ) % {
        "peak": pol.pollution,
        "year": pol.year,
        "last": last.pollution,
        "index": _decimal(w_pol, 1),
        "w_year": w_pol_year,
    }
    w_res_2000 = std.value("resources_fraction", 2000)
    res_text = _(
        "Fossil resources: the world had %(had)d fossil (%(setup)d at setup, %(extracted)d "
        "extracted from the LIMIT box); %(burnt)d were burnt (%(burnt_share)s) and %(tokens)d "
        "were left unburnt in %(year)d (%(left)s). In World3, %(w_2000)s of the 1900 "
        "nonrenewable stock remains in 2000 and %(w_2100)s in 2100: in the standard run, "
        "depletion is what ends growth."
    ) % {
        "had": last.fossil_had,
        "setup": last.fossil_setup,
        "extracted": last.fossil_extracted,
        "burnt": last.fossil_burnt,
        "burnt_share": f"{last.burnt_fraction:.0%}",
        "left": f"{last.fossil_fraction:.0%}",
        "year": last.year,
        "tokens": last.fossil,
        "w_2000": f"{(w_res_2000 or 0):.0%}",
        "w_2100": f"{(std.value('resources_fraction', 2100) or 0):.0%}",
    }
    ind = _peak(rows, "industrial")
    w_io_year, w_io = std.peak("industrial_output")
    w_f_year, _food = std.peak("food")
    prod_text = _(
        "Production: industrial plants yielded %(industrial)d at most (%(year)d), renewable "
        "%(renewable)d at most, military %(military)d at most. World3's industrial output peaks "
        "in %(w_year)d (%(trillions)s trillion 1968 $ a year) and its food in %(food_year)d; "
        "World3 has no military sector, so the game's military plants have no counterpart."
    ) % {
        "industrial": ind.industrial,
        "year": ind.year,
        "renewable": _peak(rows, "renewable").renewable,
        "military": _peak(rows, "military").military,
        "w_year": w_io_year,
        "trillions": _decimal(w_io / 1e12, 2),
        "food_year": w_f_year,
    }
    tiles = [(r.year, t) for r in rows for t in r.crises]
    if tiles:
        placed = _("Crises: %(count)d crisis tile(s) in the game: %(tiles)s.") % {
            "count": len(tiles),
            "tiles": ", ".join(
                _("%(kind)s in %(year)d") % {"kind": _(CRISIS_WORDS.get(kind, kind)), "year": year}
                for year, kind in tiles
            ),
        }
    else:
        placed = _("Crises: %(count)d crisis tile(s) in the game, none placed.") % {"count": 0}
    crisis_text = (
        placed
        + " "
        + _(
            "World3 has no crisis events; its turning points are the population peak "
            "(%(population)d) and the pollution peak (%(pollution)d), marked on the plot."
        )
        % {"population": w_pop_year, "pollution": w_pol_year}
    )
    for run in runs.values():
        if run.computed and run.key != std.key:
            year, value = run.peak("population")
            pop_text += " " + _(
                "In the %(run)s, population peaks at %(billions)s billion in %(year)d."
            ) % {"run": _(run.name), "billions": _decimal(value / 1e9, 2), "year": year}
            year, value = run.peak("pollution_index")
            pol_text += " " + _("In the %(run)s, the index peaks at %(index)s in %(year)d.") % {
                "run": _(run.name),
                "index": _decimal(value, 1),
                "year": year,
            }
    missing = _missing_runs(runs)
    if missing:
        pop_text += " " + missing
    return [
        Plot("population", _("Population"), pop_text),
        Plot("pollution", _("Pollution"), pol_text),
        Plot("fossil", _("Fossil and nonrenewable resources"), res_text),
        Plot("production", _("Production"), prod_text),
        Plot("crises", _("Crises"), crisis_text),
    ]


# --- what this world did ---------------------------------------------------------------------
def world_account(rows: Sequence[GenerationRow], state: WorldState) -> str:
    """A short account of the game, in the current language: how long the world lasted and
    why it ended (the log's last line of the international phase), how its population went,
    the fossil it burnt and extracted, the pollution, the crises and the cards most played
    (from the replayed game ``state`` of :func:`replay_rows`).

    Raises:
        ValueError: ``rows`` is empty.
    """
    if not rows:
        raise ValueError("the record completed no generation: nothing to tell")
    first, last = rows[0], rows[-1]
    peak = _peak(rows, "population")
    parts = [
        _(
            "%(nations)d nations played %(generations)d generation(s), %(first)d-%(last)d. "
            "Their population went from %(start)d to %(end)d (population values added; at most "
            "%(peak)d, in %(year)d)."
        )
        % {
            "nations": len(state.nations),
            "generations": last.generation,
            "first": first.year,
            "last": last.year,
            "start": first.population,
            "end": last.population,
            "peak": peak.population,
            "year": peak.year,
        },
        _(
            "They burnt %(burnt)d fossil and extracted %(extracted)d from the LIMIT box; "
            "pollution on their boards reached %(pollution)d token(s)."
        )
        % {
            "burnt": last.fossil_burnt,
            "extracted": last.fossil_extracted,
            "pollution": _peak(rows, "pollution").pollution,
        },
    ]
    tiles = [(r.year, t) for r in rows for t in r.crises]
    crises = len(tiles)
    if crises >= state.data.end["crises"]:
        parts.append(
            _(
                "The game ended after generation %(generation)d: %(count)d crisis tiles were "
                "placed, and it ends once %(limit)d are."
            )
            % {"generation": last.generation, "count": crises, "limit": state.data.end["crises"]}
        )
    else:
        parts.append(
            _("%(count)d crisis tile(s) were placed; the world lasted to the end.")
            % {"count": crises}
        )
    played: dict[str, int] = {}
    for action in state.history():
        if isinstance(action, tuple) and len(action) == 2 and action[0] == "play":
            played[str(action[1])] = played.get(str(action[1]), 0) + 1
    if played:
        top = sorted(played.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        parts.append(
            _("The cards played most: %(cards)s.")
            % {
                "cards": ", ".join(
                    f"{state.data.cards[c].name} ({n})" if c in state.data.cards else f"{c} ({n})"
                    for c, n in top
                )
            }
        )
    return " ".join(parts)
