"""Drawing Browne's Limit (``hex``) as SVG from its observation (the position JSON).

The position (``rules/hex.md``, "Interfaces"): ``tiles`` is a list of
``{"q", "r", "colour", "pawn", "name"}`` in axial coordinates; ``colour`` is
red/blue/yellow/black or ``None`` (2008 edition); ``pawn`` is the owner's seat
or ``None``. Tiles are pointy-top hexagons centred at
``x = s*sqrt(3)*(q + r/2)``, ``y = s*1.5*r``. Every tile is a ``<g>`` with
``data-cell`` (its name) and ``data-pawn`` (the owner seat or ``""``), which the
page's script uses to highlight reachable tiles and animate removals; this
module decides nothing about the rules.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from markupsafe import Markup, escape

from limitgames.translation import N_, gettext
from limitgames.web.views import environment, shown_name

TILE_SIZE = 30.0
"""The circumradius of a drawn tile (SVG units)."""

DISPLAY_SCALE = 1.8
"""Screen pixels per SVG unit at most: tiles keep their size as the surface shrinks."""

TILE_FILL: dict[str | None, str] = {
    "red": "#e9a3a0",
    "blue": "#a3bde9",
    "yellow": "#f2df8c",
    "black": "#6b6b6b",
    None: "#d9cfb8",
}
"""Tile colours: light shades, so pawns of the same colour stand out."""

PAWN_FILL: dict[str, str] = {
    "red": "#b3201b",
    "blue": "#1d4fb0",
    "yellow": "#d9a800",
    "white": "#f7f7f7",
    "black": "#1b1b1b",
}
"""Pawn (ball) colours by seat name."""

STEP_WORDS: dict[str, str] = {
    "move": N_("move a pawn"),
    "remove": N_("remove an empty tile with a free edge"),
    "place": N_("place tiles and a ball"),
    "tile": N_("place a tile"),
    "second-tile": N_("place a second tile"),
    "ball": N_("place a ball on one of the two new tiles"),
    "ball-any": N_("place a ball on an empty tile"),
    "over": "",
}


@functools.lru_cache(maxsize=16)
def _corners(x: float, y: float, size: float) -> str:
    points = []
    for k in range(6):
        angle = math.radians(60 * k + 30)
        points.append(f"{x + size * math.cos(angle):.1f},{y + size * math.sin(angle):.1f}")
    return " ".join(points)


def _centre(q: int, r: int, size: float) -> tuple[float, float]:
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


def _removed_cells(
    observation: dict[str, Any], marks: dict[str, Any]
) -> list[tuple[int, int, str]]:
    """The cells of the tiles that left the table with the last decision, and of the last
    removed tile: ``(q, r, name)``, named in the engine's frame."""
    cells = {(int(q), int(r)): str(name) for q, r, name in marks.get("gone") or []}
    frame_data = observation.get("frame")
    removed = marks.get("removed")
    if removed and isinstance(frame_data, list) and len(frame_data) == 2:
        from limitgames.hex.notation import Frame

        cells.setdefault(Frame(int(frame_data[0]), int(frame_data[1])).cell(str(removed)), removed)
    taken = {(int(t["q"]), int(t["r"])) for t in observation.get("tiles") or []}
    return [(q, r, name) for (q, r), name in cells.items() if (q, r) not in taken]


def draw(
    observation: dict[str, Any],
    names: list[str],
    seat: int | None,
    marks: dict[str, Any] | None = None,
) -> tuple[str, str]:
    """The board SVG and the side panel HTML for a position.

    ``marks`` (from :func:`limitgames.web.hex_narration.last_marks`) marks the
    last move's two tiles (classes ``last-from``, ``last-to``) and outlines the
    last removed tiles (``removed-mark``). Returns ``(board_html, side_html)``.
    """
    tiles = observation.get("tiles") or []
    marks = marks or {}
    size = TILE_SIZE
    drawn: list[dict[str, Any]] = []
    ghosts: list[dict[str, Any]] = []
    removed: list[dict[str, Any]] = []
    xs: list[float] = []
    ys: list[float] = []
    for tile in tiles:
        q, r = int(tile["q"]), int(tile["r"])
        x, y = _centre(q, r, size)
        xs.append(x)
        ys.append(y)
        pawn = tile.get("pawn")
        owner = names[pawn] if isinstance(pawn, int) and 0 <= pawn < len(names) else None
        name = str(tile.get("name") or f"{q},{r}")
        last = "last-from" if name == marks.get("from") else ""
        last = "last-to" if name == marks.get("to") else last
        drawn.append(
            {
                "last": last,
                "name": name,
                "x": x,
                "y": y,
                "points": _corners(0.0, 0.0, size * 0.96),
                "fill": TILE_FILL.get(tile.get("colour"), TILE_FILL[None]),
                "colour": tile.get("colour") or "plain",
                "pawn": pawn if isinstance(pawn, int) else "",
                "pawn_fill": PAWN_FILL.get(owner or "", "#444") if owner else None,
                "owner": shown_name(owner) if owner else "",
                "pawn_stroke": "#3b3527" if owner == "white" else "#fff",
            }
        )
    for q, r, name in _placement_cells(observation):
        x, y = _centre(q, r, size)
        xs.append(x)
        ys.append(y)
        ghosts.append({"name": name, "x": x, "y": y, "points": _corners(0.0, 0.0, size * 0.96)})
    for q, r, name in _removed_cells(observation, marks):
        x, y = _centre(q, r, size)
        xs.append(x)
        ys.append(y)
        removed.append({"name": name, "x": x, "y": y, "points": _corners(0.0, 0.0, size * 0.9)})
    if drawn or ghosts:
        margin = size * 1.2
        min_x, max_x = min(xs) - margin, max(xs) + margin
        min_y, max_y = min(ys) - margin, max(ys) + margin
    else:
        min_x, min_y, max_x, max_y = -100.0, -100.0, 100.0, 100.0
    board = _board_svg(
        drawn,
        ghosts,
        removed,
        cross=size * 0.35,
        view_box=f"{min_x:.1f} {min_y:.1f} {max_x - min_x:.1f} {max_y - min_y:.1f}",
        width=f"{(max_x - min_x) * DISPLAY_SCALE:.0f}",
        height=f"{(max_y - min_y) * DISPLAY_SCALE:.0f}",
        pawn_radius=size * 0.5,
    )
    counts: dict[int, int] = {}
    for tile in tiles:
        pawn = tile.get("pawn")
        if isinstance(pawn, int):
            counts[pawn] = counts.get(pawn, 0) + 1
    side = environment.get_template("hex_side.html.j2").render(
        observation=observation,
        names=names,
        counts=counts,
        colours=PAWN_FILL,
        tiles=len(tiles),
        piece_heading=gettext("balls")
        if observation.get("edition") == "2008"
        else gettext("pawns"),
    )
    return board, side


def _board_svg(
    tiles: list[dict[str, Any]],
    ghosts: list[dict[str, Any]],
    removed: list[dict[str, Any]],
    *,
    cross: float,
    view_box: str,
    width: str,
    height: str,
    pawn_radius: float,
) -> str:
    """The board's ``<svg>`` element: one ``<g>`` per tile, placement cell and removed tile.

    Written out with f-strings rather than a template: the page is drawn for
    every connection after every action, and the template cost about 4 ms a
    board (``benchmarks/bench_web_load.py``). Every text that is not a number
    is escaped.
    """
    label = 1.68 * pawn_radius
    surface = escape(gettext("the surface"))
    out = [
        f'<svg class="board hex-board" xmlns="http://www.w3.org/2000/svg" viewBox="{escape(view_box)}"'
        f' width="{escape(width)}" height="{escape(height)}" role="group"'
        f' aria-label="{surface}">\n'
    ]
    for g in ghosts:
        name = escape(g["name"])
        out.append(
            f'  <g class="tile ghost" data-cell="{name}" data-pawn=""'
            f' transform="translate({g["x"]:.1f},{g["y"]:.1f})">\n'
            f'    <polygon points="{escape(g["points"])}" fill="#efe7d3" stroke="#b9ad92"'
            ' stroke-width="1" stroke-dasharray="3 3"/>\n'
            f'    <text class="cell-name" y="{label}" text-anchor="middle">{name}</text>\n'
            "  </g>\n"
        )
    for m in removed:
        name = escape(m["name"])
        title = Markup(escape(gettext("%(cell)s: removed by the last removal"))) % {
            "cell": m["name"]
        }
        out.append(
            f'  <g class="removed-mark" data-removed="{name}"'
            f' transform="translate({m["x"]:.1f},{m["y"]:.1f})">\n'
            f'    <polygon points="{escape(m["points"])}"/>\n'
            f'    <path d="M{-cross},{-cross}L{cross},{cross}M{cross},{-cross}L{-cross},{cross}"/>\n'
            f"    <title>{title}</title>\n"
            "  </g>\n"
        )
    for t in tiles:
        name = escape(t["name"])
        last = f" {escape(t['last'])}" if t["last"] else ""
        out.append(
            f'  <g class="tile tile-{escape(t["colour"])}{last}" data-cell="{name}"'
            f' data-pawn="{escape(t["pawn"])}" transform="translate({t["x"]:.1f},{t["y"]:.1f})">\n'
            f'    <polygon points="{escape(t["points"])}" fill="{escape(t["fill"])}"'
            ' stroke="#5b513d" stroke-width="1.5"/>\n'
            f'    <text class="cell-name" y="{label}" text-anchor="middle">{name}</text>\n'
        )
        if t["last"]:
            said = (
                gettext("the last move started here")
                if t["last"] == "last-from"
                else gettext("the last move ended here")
            )
            out.append(
                f'    <circle class="last-ring" r="{pawn_radius * 1.12}"><title>{escape(said)}'
                "</title></circle>\n"
            )
        if t["pawn_fill"]:
            title = Markup(escape(gettext("%(owner)s pawn on %(cell)s"))) % {
                "owner": t["owner"],
                "cell": t["name"],
            }
            out.append(
                f'    <circle class="pawn pawn-{escape(t["owner"])}" data-owner="{escape(t["pawn"])}"'
                f' r="{pawn_radius}" fill="{escape(t["pawn_fill"])}"'
                f' stroke="{escape(t["pawn_stroke"])}" stroke-width="3"><title>{title}</title></circle>\n'
            )
        out.append("  </g>\n")
    out.append("</svg>")
    return "".join(out)


NEIGHBOURS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
"""The six axial directions (``rules/hex.md``, "Surface")."""


def _placement_cells(observation: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Empty cells next to the surface (or the centre cell of an empty table), named.

    Drawn faintly in the 2008 edition's tile steps so a tile can be placed by
    a click; the page shows only those whose ``+name`` is a legal action. The
    names come from the engine's own notation (its frame), nothing is decided here.
    """
    frame_data = observation.get("frame")
    if observation.get("edition") != "2008" or "tile" not in str(observation.get("step")):
        return []
    if not (isinstance(frame_data, list) and len(frame_data) == 2):
        return []
    from limitgames.hex.notation import Frame

    frame = Frame(int(frame_data[0]), int(frame_data[1]))
    taken = {(int(t["q"]), int(t["r"])) for t in observation.get("tiles") or []}
    if not taken:
        return [(0, 0, frame.name((0, 0)))]
    cells = sorted({(q + dq, r + dr) for q, r in taken for dq, dr in NEIGHBOURS} - taken)
    return [(q, r, frame.name((q, r))) for q, r in cells]


def status(observation: dict[str, Any], names: list[str]) -> str:
    """The step to take, in words (``move a pawn``), with the turn number."""
    step = observation.get("step")
    words = STEP_WORDS.get(str(step), str(step) if step else "")
    words = gettext(words) if words else ""
    turn = observation.get("turn")
    if words and turn:
        return gettext("%(step)s (turn %(turn)s)") % {"step": words, "turn": turn}
    return words
