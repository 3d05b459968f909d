"""The debrief's charts drawn as inline SVG (no plotting library: the browser shows them as they
are, and ``limit debrief`` writes them as ``.svg`` files).

:func:`chart_svg` draws one :class:`~limitgames.world.debrief_charts.Chart` on its fixed axes:
years 1850-2100 across, the game's axis on the left from 0 to its top, World3's on the right
from 0 to its top; the game as dots joined by a line (or stacked bars for crisis tiles), each
World3 run as its own line (the 1972 standard run solid grey, the 2004 scenarios dashed),
World3's
marked years as dotted vertical lines, and a legend below. Every text is escaped; the chart
carries a ``<title>`` and a ``<desc>`` (its mapping) for screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from limitgames.world.debrief import FIRST_YEAR
from limitgames.world.debrief_charts import LAST_YEAR, Chart, Curve

WIDTH, HEIGHT = 640, 340
"""The drawing's size in SVG units (it scales to the page's width)."""
LEFT, RIGHT, TOP, BOTTOM = 56, 56, 16, 96
"""Margins: the axes' labels on both sides, the legend below."""
TICKS = 5
"""Intervals on each value axis (0, 1/5 ... the top)."""

GAME_COLOURS = {
    "game": "#1f77b4",
    "financial": "#2ca02c",
    "environmental": "#bcbd22",
    "military": "#d62728",
}
WORLD3_DASHES = {
    "standard-1972": "",
    "scenario1-2004": "6 4",
    "scenario2-2004": "2 2",
    "scenario9-2004": "10 3 2 3",
}
MARK_DASHES = ("2 3", "8 3")
"""The dashes of World3's marked years, in order (population peak, pollution peak)."""
WORLD3_COLOURS = {
    "standard-1972": "#555",
    "scenario1-2004": "#777",
    "scenario2-2004": "#9467bd",
    "scenario9-2004": "#17becf",
}


def _x(year: float) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + span * (year - FIRST_YEAR) / (LAST_YEAR - FIRST_YEAR)


def _y(value: float, top: float) -> float:
    span = HEIGHT - TOP - BOTTOM
    share = min(max(value / top, 0.0), 1.0) if top > 0 else 0.0
    return HEIGHT - BOTTOM - span * share


def _number(value: float) -> str:
    return f"{value:g}"


def _points(curve: Curve, top: float) -> str:
    return " ".join(f"{_x(x):.1f},{_y(v, top):.1f}" for x, v in curve.points)


def tick_values(top: float) -> list[float]:
    """The labelled values of an axis from 0 to ``top``: :data:`TICKS` intervals, or one per
    unit for a count of at most :data:`TICKS` (crisis tiles: 0, 1, 2, 3)."""
    steps = int(top) if top == int(top) and 1 <= top <= TICKS else TICKS
    return [top * k / steps for k in range(steps + 1)]


def chart_svg(chart: Chart) -> str:
    """One chart as an ``<svg>`` element (a string), on the fixed axes the chart gives."""
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="debrief-chart" data-chart="{escape(chart.name)}" role="img" '
        f'data-game-top="{_number(chart.game_top)}" '
        f'data-world3-top="{_number(chart.world3_top)}">',
        f"<title>{escape(chart.title)}</title>",
        f"<desc>{escape(chart.mapping)}</desc>",
    ]
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    out.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{right - LEFT}" height="{bottom - TOP}" '
        'fill="none" stroke="#888"/>'
    )
    for year in range(FIRST_YEAR, LAST_YEAR + 1, 50):
        x = _x(year)
        out.append(
            f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" stroke="#888"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{bottom + 16}" font-size="11" text-anchor="middle">{year}</text>'
        )
    for value in tick_values(chart.game_top):
        y = _y(value, chart.game_top)
        out.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{LEFT - 4}" y="{y + 4:.1f}" font-size="11" text-anchor="end" '
            f'class="game-tick">{_number(value)}</text>'
        )
    out.append(
        f'<text x="12" y="{(TOP + bottom) / 2:.1f}" font-size="10" text-anchor="middle" '
        f'transform="rotate(-90 12 {(TOP + bottom) / 2:.1f})">{escape(chart.game_label)}</text>'
    )
    if chart.world3_label:
        for value in tick_values(chart.world3_top):
            y = _y(value, chart.world3_top)
            out.append(
                f'<text x="{right + 4}" y="{y + 4:.1f}" font-size="11" class="world3-tick">'
                f"{_number(value)}</text>"
            )
        mid = (TOP + bottom) / 2
        out.append(
            f'<text x="{WIDTH - 8}" y="{mid:.1f}" font-size="10" text-anchor="middle" '
            f'transform="rotate(90 {WIDTH - 8} {mid:.1f})">{escape(chart.world3_label)}</text>'
        )
    for curve in chart.world3:
        dash = WORLD3_DASHES.get(curve.style, "2 2")
        out.append(
            f'<polyline points="{_points(curve, chart.world3_top)}" fill="none" '
            f'stroke="{WORLD3_COLOURS.get(curve.style, "#777")}" '
            f'stroke-width="1.5" stroke-dasharray="{dash}" class="world3" '
            f'data-run="{escape(curve.style)}"/>'
        )
    for k, (year, _label) in enumerate(chart.marks):
        x = _x(year)
        out.append(
            f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{bottom}" stroke="#777" '
            f'stroke-dasharray="{MARK_DASHES[k % len(MARK_DASHES)]}" class="mark"/>'
        )
    if chart.bars:
        out += _bars(chart.game, chart.game_top)
    else:
        for curve in chart.game:
            colour = GAME_COLOURS.get(curve.style, "#1f77b4")
            out.append(
                f'<polyline points="{_points(curve, chart.game_top)}" fill="none" '
                f'stroke="{colour}" stroke-width="2" class="game"/>'
            )
            for x, v in curve.points:
                out.append(
                    f'<circle cx="{_x(x):.1f}" cy="{_y(v, chart.game_top):.1f}" r="3" '
                    f'fill="{colour}"/>'
                )
    out += _legend(chart)
    out.append("</svg>")
    return "".join(out)


def _bars(curves: Sequence[Curve], top: float) -> list[str]:
    out = []
    width = _x(FIRST_YEAR + 18) - _x(FIRST_YEAR)
    base: dict[float, float] = {}
    for curve in curves:
        colour = GAME_COLOURS.get(curve.style, "#1f77b4")
        for x, v in curve.points:
            if v <= 0:
                continue
            below = base.get(x, 0.0)
            y_top, y_bottom = _y(below + v, top), _y(below, top)
            out.append(
                f'<rect x="{_x(x) - width / 2:.1f}" y="{y_top:.1f}" width="{width:.1f}" '
                f'height="{y_bottom - y_top:.1f}" fill="{colour}" class="bar"/>'
            )
            base[x] = below + v
    return out


def _legend(chart: Chart) -> list[str]:
    entries: list[tuple[str, str, str]] = [
        (c.label, GAME_COLOURS.get(c.style, "#1f77b4"), "") for c in chart.game
    ]
    entries += [
        (c.label, WORLD3_COLOURS.get(c.style, "#777"), WORLD3_DASHES.get(c.style, "2 2"))
        for c in chart.world3
    ]
    entries += [
        (label, "#777", MARK_DASHES[k % len(MARK_DASHES)])
        for k, (_year, label) in enumerate(chart.marks)
    ]
    out = []
    for k, (label, colour, dash) in enumerate(entries):
        column, row = k % 2, k // 2
        x = LEFT + column * (WIDTH - LEFT - RIGHT) / 2
        y = HEIGHT - BOTTOM + 34 + 16 * row
        out.append(
            f'<line x1="{x:.1f}" y1="{y - 4}" x2="{x + 22:.1f}" y2="{y - 4}" stroke="{colour}" '
            f'stroke-width="2" stroke-dasharray="{dash}"/>'
            f'<text x="{x + 28:.1f}" y="{y}" font-size="11" class="legend">{escape(label)}</text>'
        )
    return out
