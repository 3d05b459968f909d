"""Text contrast of the hex board's cell names, computed from the colours the page uses.

axe-core does not measure text drawn in SVG, so the cell names on each tile
colour are checked here against WCAG 2.1's formula (relative luminance,
ratio ``(L1 + 0.05) / (L2 + 0.05)``, at least 4.5:1 for AA).
"""

from __future__ import annotations

import re
from pathlib import Path

from limitgames.web.hex_svg import TILE_FILL

STYLE = Path(__file__).resolve().parents[2] / "src/limitgames/web/static/style.css"


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def label_fill(css: str, selector: str) -> str:
    match = re.search(re.escape(selector) + r"\s*\{[^}]*?fill:\s*(#[0-9a-fA-F]{6})", css)
    assert match, f"no fill for {selector} in style.css"
    return match.group(1)


def test_the_formula_on_known_pairs() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48  # the classic just-failing grey


def test_cell_names_reach_4_5_to_1_on_every_tile_colour() -> None:
    css = STYLE.read_text(encoding="utf-8")
    rule = re.search(r"\.hex-board \.cell-name \{[^}]*\}", css)
    assert rule and "opacity" not in rule.group(0), "a translucent label loses contrast"
    ink = label_fill(css, ".hex-board .cell-name")
    on_black = label_fill(css, ".hex-board .tile-black .cell-name")
    for colour, fill in TILE_FILL.items():
        label = on_black if colour == "black" else ink
        assert contrast(label, fill) >= 4.5, (colour, label, fill, contrast(label, fill))
