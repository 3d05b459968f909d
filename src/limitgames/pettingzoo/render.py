"""Pictures of a position as RGB arrays, drawn with Pillow (no SVG rasteriser needed).

``hex``: the tiles as pointy-top hexagons (centre ``x = s*sqrt(3)*(q + r/2)``,
``y = s*1.5*r``, the geometry of :mod:`limitgames.web.hex_svg`), tile colours
light, pawns as discs in their seat's colour. ``cards`` and ``world``: the
spectator's observation as text. Rendering decides nothing about the rules.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

TILE_FILL: dict[str | None, tuple[int, int, int]] = {
    "red": (233, 163, 160),
    "blue": (163, 189, 233),
    "yellow": (242, 223, 140),
    "black": (107, 107, 107),
    None: (217, 207, 184),
}
PAWN_FILL: dict[str, tuple[int, int, int]] = {
    "red": (179, 32, 27),
    "blue": (29, 79, 176),
    "yellow": (217, 168, 0),
    "white": (247, 247, 247),
    "black": (27, 27, 27),
}


def _pillow() -> tuple[Any, Any]:
    """Pillow's ``Image`` and ``ImageDraw``. Raises MissingExtraError naming the extra."""
    from limitgames.core.errors import missing_extra

    try:
        from PIL import Image, ImageDraw
    except ImportError as error:
        raise missing_extra(error, ("PIL",), "gymnasium", "rgb_array rendering") from error
    return Image, ImageDraw


def hex_rgb(state: Any, tile_size: float = 18.0) -> np.ndarray[Any, Any]:
    """``uint8[H, W, 3]``: the hex position (spectator's view)."""
    Image, ImageDraw = _pillow()

    tiles = state.tiles()
    names = state.seat_names()
    centres = [
        (tile_size * math.sqrt(3) * (q + r / 2), tile_size * 1.5 * r) for (q, r), _, _ in tiles
    ] or [(0.0, 0.0)]
    margin = tile_size * 1.5
    x0 = min(x for x, _ in centres) - margin
    y0 = min(y for _, y in centres) - margin
    width = int(max(x for x, _ in centres) - x0 + margin) + 1
    height = int(max(y for _, y in centres) - y0 + margin) + 1
    image = Image.new("RGB", (max(width, 32), max(height, 32)), (250, 247, 240))
    draw = ImageDraw.Draw(image)
    for ((_, _), colour, owner), (x, y) in zip(tiles, centres, strict=False):
        cx, cy = x - x0, y - y0
        corners = [
            (
                cx + tile_size * math.cos(math.radians(60 * k + 30)),
                cy + tile_size * math.sin(math.radians(60 * k + 30)),
            )
            for k in range(6)
        ]
        draw.polygon(corners, fill=TILE_FILL.get(colour, TILE_FILL[None]), outline=(90, 80, 60))
        if owner is not None:
            r = tile_size * 0.5
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r),
                fill=PAWN_FILL.get(names[owner], (68, 68, 68)),
                outline=(255, 255, 255),
            )
    return np.asarray(image, dtype=np.uint8)


def text_rgb(lines: list[str], width: int = 640) -> np.ndarray[Any, Any]:
    """``uint8[H, W, 3]``: ``lines`` of text, black on white (Pillow's built-in font)."""
    Image, ImageDraw = _pillow()

    wrapped: list[str] = []
    per_line = max(20, width // 6)
    for line in lines:
        while len(line) > per_line:
            wrapped.append(line[:per_line])
            line = "  " + line[per_line:]
        wrapped.append(line)
    image = Image.new("RGB", (width, 12 * len(wrapped) + 8), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(wrapped):
        draw.text((4, 4 + 12 * i), line, fill=(0, 0, 0))
    return np.asarray(image, dtype=np.uint8)


def observation_lines(state: Any) -> list[str]:
    """The spectator's observation as ``key: value`` lines (nested values as compact JSON)."""
    obs = state.observation(None)
    lines = [f"{state.game_id}: to move {state.current_player()}"]
    for key, value in obs.items():
        if key in ("rounds", "frame"):
            continue
        lines.append(f"{key}: {json.dumps(value, separators=(',', ':'))}")
    return lines


def rgb(state: Any) -> np.ndarray[Any, Any]:
    """The picture of any of the three games."""
    if state.game_id == "hex":
        return hex_rgb(state)
    return text_rgb(observation_lines(state))
