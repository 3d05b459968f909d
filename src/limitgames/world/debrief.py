"""The World3 debrief: a game of LIMIT beside World3's trajectories.

The author's intention is to "discuss the games you play and compare them to
reality". :func:`game_rows` replays a world record and measures, at the close of
each generation ``g`` (after its international phase, before any stress test),
the game's world as of the year ``1850 + 30 (g - 1)``:

- population: the sum of the nations' population values (1, 2, 3, 5, 10...);
- pollution: pollution tokens on the nation boards;
- fossil: fossil tokens still to be burnt (nations, marketplace, colonization
  reserve: everything but the LIMIT box, where burnt fossil goes), also as a
  fraction of the setup's stock;
- renewable, industrial and military production: the sum of the plants' values
  (what the production step yields, before Intensive Farming);
- crises: the crisis tiles placed in that generation.

:func:`reference_runs` reads the World3 runs shipped in ``world3_reference.json``
(computed by ``scripts/world3_reference.py`` with pyworld3; its provenance is in
the file). :func:`write_debrief` draws one PNG per theme with matplotlib (the
``charts`` extra) and writes one short paragraph per plot to ``debrief.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from limitgames.core import Chance, GameRecord, LimitGamesError, RecordError, State
from limitgames.translation import N_, current_language
from limitgames.translation import gettext as _
from limitgames.world.data import PLANTS, RESOURCES
from limitgames.world.position import token_totals
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
            values added. pollution: tokens on the nation boards. fossil: tokens not yet burnt.
        fossil_fraction: ``fossil`` over the setup's fossil (0-1, may exceed 1 after Recycling).
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


def world_row(state: WorldState, generation: int) -> GenerationRow:
    """Measure ``state``'s table as the close of ``generation`` (see :class:`GenerationRow`)."""
    data = state.data
    nations = state.nations
    fossil = (
        sum(n.fossil for n in nations)
        + state.market_stock[RESOURCES.index("fossil")]
        + state.colonization[1]
    )
    setup_fossil = token_totals(data, state.n)["fossil"] - data.setup["limit_box_fossil"]
    production = [sum(data.level(n.plants[i]) for n in nations) for i in range(len(PLANTS))]
    crises = state.crises[generation - 1] if generation <= len(state.crises) else []
    return GenerationRow(
        generation=generation,
        year=generation_year(generation),
        population=sum(data.level(n.population) for n in nations),
        pollution=sum(n.pollution for n in nations),
        fossil=fossil,
        fossil_fraction=fossil / setup_fossil if setup_fossil else 0.0,
        renewable=production[0],
        industrial=production[1],
        military=production[2],
        crises=tuple(crises),
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
    if record.game != "world":
        raise RecordError(f"the debrief is for world games, not {record.game!r}", "field 'game'")
    state = _start_without_stress_test(record)
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
            rows.append(world_row(_board_at_opening(state), generation))
            generation = state.generation
    if state.is_terminal():
        rows.append(world_row(state, generation))
    return rows


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
    """The shipped World3 runs by key (``standard-1972``, ``scenario1-2004``).

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
    """A written plot: its file name (PNG), title and paragraph."""

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

RUN_NAMES: tuple[str, ...] = (N_("1972 standard run"), N_("2004 update, scenario 1"))
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
        "Fossil resources: %(left)s of the setup's fossil was left unburnt in %(year)d "
        "(%(tokens)d tokens). In World3, %(w_2000)s of the 1900 nonrenewable stock remains in "
        "2000 and %(w_2100)s in 2100: in the standard run, depletion is what ends growth."
    ) % {
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
        Plot("population.png", _("Population"), pop_text),
        Plot("pollution.png", _("Pollution"), pol_text),
        Plot("fossil.png", _("Fossil and nonrenewable resources"), res_text),
        Plot("production.png", _("Production"), prod_text),
        Plot("crises.png", _("Crises"), crisis_text),
    ]


def write_debrief(
    record: GameRecord, out_dir: Path, runs: Mapping[str, ReferenceRun] | None = None
) -> list[tuple[Path, Plot]]:
    """Replay ``record``, draw the debrief's PNGs into ``out_dir`` and write ``debrief.md``
    (each plot's title, image and paragraph). Returns each PNG's path with its plot.

    Raises:
        RecordError: the record does not replay. ValueError: it completed no generation.
        LimitGamesError: matplotlib is missing (the ``charts`` extra).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise LimitGamesError(
            "the debrief draws with matplotlib: pip install 'limitgames[charts]'"
        ) from None
    rows = game_rows(record)
    runs = dict(runs) if runs is not None else reference_runs()
    plots = debrief_texts(rows, runs)
    out_dir.mkdir(parents=True, exist_ok=True)
    drawn = [r for r in runs.values() if r.computed]
    years = [r.year for r in rows]
    styles = {"standard-1972": "-", "scenario1-2004": "--"}
    written: list[tuple[Path, Plot]] = []

    def world3(ax: Any, series: str, scale: float = 1.0, label: str = "") -> None:
        for run in drawn:
            if series in run.series:
                ax.plot(
                    run.years,
                    [v * scale for v in run.series[series]],
                    styles.get(run.key, ":"),
                    color="tab:gray",
                    label=f"World3 {_(run.name)}{label}",
                )

    def finish(fig: Any, axes: Sequence[Any], plot: Plot) -> None:
        for ax in axes:
            ax.set_xlim(FIRST_YEAR - 5, 2105)
            ax.grid(alpha=0.3)
        handles, labels = [], []
        for ax in fig.axes:
            h, lab = ax.get_legend_handles_labels()
            handles += h
            labels += lab
        fig.legend(handles, labels, loc="lower center", ncol=2, fontsize="small")
        fig.suptitle(plot.title)
        fig.tight_layout(rect=(0, 0.12, 1, 0.95))
        path = out_dir / plot.name
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append((path, plot))

    by_name = {p.name: p for p in plots}
    # population
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(years, [r.population for r in rows], "o-", color="tab:blue", label=_("game"))
    ax.set_ylabel(_("game: population values"))
    right = ax.twinx()
    world3(right, "population", 1e-9)
    right.set_ylabel(_("World3: billion people"))
    finish(fig, [ax], by_name["population.png"])
    # pollution
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(years, [r.pollution for r in rows], "o-", color="tab:brown", label=_("game"))
    ax.set_ylabel(_("game: pollution tokens"))
    right = ax.twinx()
    world3(right, "pollution_index")
    right.set_ylabel(_("World3: pollution index (1970 = 1)"))
    finish(fig, [ax], by_name["pollution.png"])
    # fossil: both are fractions of the starting stock, one axis
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(years, [r.fossil_fraction for r in rows], "o-", color="tab:olive", label=_("game"))
    world3(ax, "resources_fraction")
    ax.set_ylabel(_("fraction of the starting stock"))
    ax.set_ylim(bottom=0)
    finish(fig, [ax], by_name["fossil.png"])
    # production: one panel per plant
    fig, axes = plt.subplots(1, 3, figsize=(12, 4.5))
    pairs = (
        ("renewable", "food", 1e-12, "Tkg food"),
        ("industrial", "industrial_output", 1e-12, "T$"),
    )
    for ax, (plant, series, scale, unit) in zip(axes, pairs, strict=False):
        ax.plot(
            years,
            [getattr(r, plant) for r in rows],
            "o-",
            label=_("game: %(plant)s") % {"plant": _(plant)},
        )
        ax.set_title(_(plant))
        right = ax.twinx()
        world3(right, series, scale, f" ({_(SERIES_WORDS[series])})")
        right.set_ylabel(_("World3: %(unit)s a year") % {"unit": unit})
    axes[2].plot(
        years,
        [r.military for r in rows],
        "o-",
        color="tab:red",
        label=_("game: %(plant)s") % {"plant": _("military")},
    )
    axes[2].set_title(_("military (no World3 counterpart)"))
    axes[0].set_ylabel(_("game: plant values"))
    finish(fig, list(axes), by_name["production.png"])
    # crises
    fig, ax = plt.subplots(figsize=(8, 4.5))
    kinds = ("financial", "environmental", "military")
    bottom = [0] * len(rows)
    for kind, color in zip(kinds, ("tab:green", "tab:olive", "tab:red"), strict=True):
        counts = [r.crises.count(kind) for r in rows]
        label = _("game: %(kind)s") % {"kind": _(CRISIS_WORDS[kind])}
        ax.bar(years, counts, width=18, bottom=bottom, color=color, label=label)
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    std = runs["standard-1972"]
    for series, style in (("population", "-"), ("pollution_index", "--")):
        year, _height = std.peak(series)
        ax.axvline(
            year,
            color="tab:gray",
            linestyle=style,
            label=_("World3 peak of %(series)s") % {"series": _(SERIES_WORDS[series])},
        )
    ax.set_ylabel(_("crisis tiles placed"))
    ax.set_ylim(0, 3.5)
    finish(fig, [ax], by_name["crises.png"])

    lines = ["# " + _("Debrief: the game beside World3"), ""]
    lines.append(
        _(
            "Generation g stands for the year 1850 + 30 (g - 1); the game is measured at the "
            "close of each generation."
        )
        + " "
        + _provenance_line(runs)
    )
    lines.append("")
    headings = [
        _("generation"),
        _("year"),
        _("population"),
        _("pollution"),
        _("fossil"),
        _("renewable"),
        _("industrial"),
        _("military"),
        _("crises"),
    ]
    lines.append("| " + " | ".join(headings) + " |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        lines.append(
            f"| {r.generation} | {r.year} | {r.population} | {r.pollution} | {r.fossil} "
            f"({r.fossil_fraction:.0%}) | {r.renewable} | {r.industrial} | {r.military} | "
            f"{', '.join(_(CRISIS_WORDS.get(c, c)) for c in r.crises) or '-'} |"
        )
    for path, plot in written:
        lines += ["", f"## {plot.title}", "", f"![{plot.title}]({path.name})", "", plot.text]
    (out_dir / "debrief.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


def _provenance_line(runs: Mapping[str, ReferenceRun]) -> str:
    parts = []
    for run in runs.values():
        if run.computed:
            parts.append(f"World3 {_(run.name)}: {run.source}.")
        else:
            parts.append(
                _("The %(run)s is not drawn (%(reason)s; source: %(source)s).")
                % {"run": _(run.name), "reason": run.reason, "source": run.source}
            )
    return " ".join(parts)
