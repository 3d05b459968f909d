"""The debrief's charts as data: each curve of :mod:`limitgames.world.debrief` on fixed axes.

The game's axis is set by the box (what the whole table could hold: the top of the level
track for every nation, every pollution token of the game, 100% of the fossil), World3's by
the quantity (:data:`WORLD3_AXES`), never by a curve's own peak, and both start at 0, so a
game with no pollution draws a flat line at the bottom of a positive axis. Each chart says
how the game's quantity is mapped to World3's and from which source. Nothing here draws: the
terminal and the browser draw these charts as SVG (``limitgames.web.debrief_svg``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.debrief import (
    CRISIS_WORDS,
    SERIES_WORDS,
    GenerationRow,
    ReferenceRun,
)
from limitgames.world.position import token_totals
from limitgames.world.state import WorldState

__all__ = ["LAST_YEAR", "WORLD3_AXES", "Chart", "Curve", "axis_tops", "debrief_charts"]

# --- the charts' curves on fixed axes ----------------------------------------------------------
LAST_YEAR = 2100
"""The charts' time axis runs from :data:`FIRST_YEAR` to this year (World3's horizon)."""

WORLD3_AXES: dict[str, tuple[float, float, str]] = {
    "population": (1e9, 10.0, N_("World3: billion people")),
    "pollution_index": (1.0, 70.0, N_("World3: pollution index (1970 = 1)")),
    "resources_fraction": (0.01, 100.0, N_("World3: resources left, per cent")),
    "food": (1e12, 5.0, N_("World3: trillion kg of food a year")),
    "industrial_output": (1e12, 5.0, N_("World3: trillion 1968 $ a year")),
}
"""Each World3 series drawn: ``(divisor, axis top, axis label)``. The tops are fixed above
every shipped run's peak (``world3_reference.json``: population 7.06, 7.70, 8.40 and 8.01
billion; pollution index 11.0, 10.8, 63.6 (the 2004 scenario 2's pollution crisis) and 10.0;
food at most 4.02 trillion kg; industrial output at most 3.93 trillion $), whatever the
game."""


@dataclass(frozen=True)
class Curve:
    """One drawn series: ``label``, ``points`` as ``(year, value)`` in its axis' unit, and
    ``style`` (``game``, a World3 run key, or ``financial`` / ``environmental`` / ``military``
    for the crisis bars)."""

    label: str
    points: tuple[tuple[float, float], ...]
    style: str


@dataclass(frozen=True)
class Chart:
    """One chart of a plot, on fixed axes: years :data:`FIRST_YEAR`-:data:`LAST_YEAR`; the
    game's axis from 0 to ``game_top`` (set by the box: what the whole table could hold), the
    World3 axis from 0 to ``world3_top`` (:data:`WORLD3_AXES`; no World3 axis when
    ``world3_label`` is empty). ``bars``: the game's curves are stacked bars (crisis tiles);
    ``marks``: World3 years marked by a vertical line, with their label. ``mapping``: how the
    game's quantity is mapped to World3's, and from which source."""

    name: str
    title: str
    game_label: str
    game_top: float
    game: tuple[Curve, ...]
    world3_label: str
    world3_top: float
    world3: tuple[Curve, ...]
    mapping: str
    bars: bool = False
    marks: tuple[tuple[int, str], ...] = ()


def axis_tops(state: WorldState) -> dict[str, float]:
    """The game's fixed axis tops for a table like ``state``'s: ``population`` and each plant
    (the top of the level track for every nation, 100 each), ``pollution`` (every pollution
    token of the game, :func:`~limitgames.world.position.token_totals`), ``fossil`` (100%),
    ``crises`` (3: one tile of each kind per generation)."""
    data = state.data
    nations = len(state.nations)
    top = float(data.level(len(data.level_values)) * nations)
    return {
        "population": top,
        "renewable": top,
        "industrial": top,
        "military": top,
        "pollution": float(token_totals(data, state.n)["pollution"]),
        "fossil": 100.0,
        "crises": 3.0,
    }


def debrief_charts(
    rows: Sequence[GenerationRow], runs: Mapping[str, ReferenceRun], tops: Mapping[str, float]
) -> dict[str, tuple[Chart, ...]]:
    """The charts of each plot of :func:`debrief_texts` (by plot name), their curves taken from
    ``rows`` and the computed ``runs``, on the fixed axes of ``tops`` (:func:`axis_tops`) and
    :data:`WORLD3_AXES`; labels in the current language."""
    drawn = [r for r in runs.values() if r.computed]
    source = "; ".join(f"World3 {_(r.name)}: {r.source}" for r in drawn)

    def game(attr: str, scale: float = 1.0) -> tuple[Curve, ...]:
        points = tuple((float(r.year), getattr(r, attr) * scale) for r in rows)
        return (Curve(_("game"), points, "game"),)

    def world3(series: str) -> tuple[Curve, ...]:
        divisor = WORLD3_AXES[series][0]
        return tuple(
            Curve(
                f"World3 {_(run.name)}",
                tuple(
                    (float(y), v / divisor)
                    for y, v in zip(run.years, run.series[series], strict=True)
                ),
                run.key,
            )
            for run in drawn
            if series in run.series
        )

    def chart(name: str, title: str, label: str, attr: str, series: str, mapping: str) -> Chart:
        scale = 100.0 if attr == "fossil_fraction" else 1.0
        return Chart(
            name=name,
            title=title,
            game_label=label,
            game_top=tops["fossil" if attr == "fossil_fraction" else attr],
            game=game(attr, scale),
            world3_label=_(WORLD3_AXES[series][2]) if series else "",
            world3_top=WORLD3_AXES[series][1] if series else 0.0,
            world3=world3(series) if series else (),
            mapping=mapping + (" " + _("Sources: %(source)s.") % {"source": source}),
        )

    population = chart(
        "population",
        _("Population"),
        _("game: population values"),
        "population",
        "population",
        _(
            "Game: the nations' population values added (1, 2, 3, 5, 10... as on the track), "
            "axis up to the track's top for every nation; World3: total population (pop)."
        ),
    )
    pollution = chart(
        "pollution",
        _("Pollution"),
        _("game: pollution tokens"),
        "pollution",
        "pollution_index",
        _(
            "Game: pollution tokens on the nation boards, axis up to every pollution token of "
            "the game; World3: persistent pollution index (ppolx, 1970 = 1)."
        ),
    )
    fossil = chart(
        "fossil",
        _("Fossil and nonrenewable resources"),
        _("game: fossil left, per cent"),
        "fossil_fraction",
        "resources_fraction",
        _(
            "Game: fossil in play over all the fossil the world had (the setup's and the "
            "extracted); World3: nonrenewable resources left, as a share of the 1900 stock (nrfr)."
        ),
    )
    renewable = chart(
        "renewable",
        _("renewable"),
        _("game: plant values"),
        "renewable",
        "food",
        _("Game: the renewable plants' values added; World3: food production (f)."),
    )
    industrial = chart(
        "industrial",
        _("industrial"),
        _("game: plant values"),
        "industrial",
        "industrial_output",
        _("Game: the industrial plants' values added; World3: industrial output (io)."),
    )
    military = chart(
        "military",
        _("military (no World3 counterpart)"),
        _("game: plant values"),
        "military",
        "",
        _("Game: the military plants' values added; World3 has no military sector."),
    )
    kinds = ("financial", "environmental", "military")
    std = runs["standard-1972"]
    crises = Chart(
        name="crises",
        title=_("Crises"),
        game_label=_("crisis tiles placed"),
        game_top=tops["crises"],
        game=tuple(
            Curve(
                _("game: %(kind)s") % {"kind": _(CRISIS_WORDS[kind])},
                tuple((float(r.year), float(r.crises.count(kind))) for r in rows),
                kind,
            )
            for kind in kinds
        ),
        world3_label="",
        world3_top=0.0,
        world3=(),
        mapping=_(
            "Game: the crisis tiles placed in each generation; World3 has no crisis events: "
            "the standard run's population and pollution peaks are marked."
        ),
        bars=True,
        marks=tuple(
            (
                std.peak(series)[0],
                _("World3 peak of %(series)s") % {"series": _(SERIES_WORDS[series])},
            )
            for series in ("population", "pollution_index")
        ),
    )
    return {
        "population": (population,),
        "pollution": (pollution,),
        "fossil": (fossil,),
        "production": (renewable, industrial, military),
        "crises": (crises,),
    }
