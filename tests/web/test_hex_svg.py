"""The hex board's SVG (``web/hex_svg.py``): one group per tile with what the page's script
reads, and every text escaped. Expected values come from the observation (the engine's
position JSON), not from the drawing."""

from __future__ import annotations

import random
import re
from xml.etree import ElementTree

from limitgames.core import get_game
from limitgames.web import hex_svg

SVG = "{http://www.w3.org/2000/svg}"


def _position(seed: int, plies: int) -> dict:
    state = get_game("hex").new_initial_state(seed=seed, size=4, players=3)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state.observation(0)


def test_every_tile_is_one_group_with_its_cell_and_pawn() -> None:
    for seed, plies in ((1, 0), (2, 7), (3, 20)):
        observation = _position(seed, plies)
        board, _side = hex_svg.draw(observation, ["red", "blue", "yellow"], 0)
        root = ElementTree.fromstring(board)  # well-formed XML
        groups = {
            g.get("data-cell"): g for g in root.iter(SVG + "g") if "tile" in g.get("class", "")
        }
        expected = {t["name"]: t for t in observation["tiles"]}
        assert set(groups) == set(expected)
        for name, tile in expected.items():
            pawn = tile["pawn"]
            assert groups[name].get("data-pawn") == ("" if pawn is None else str(pawn))
            circles = [c for c in groups[name].iter(SVG + "circle") if "pawn" in c.get("class", "")]
            assert len(circles) == (0 if pawn is None else 1)


def test_names_are_escaped() -> None:
    observation = _position(5, 3)
    hostile = '<script>alert("x")</script>'
    board, _side = hex_svg.draw(observation, [hostile, hostile, hostile], 0)
    assert "<script>" not in board
    ElementTree.fromstring(board)
    marks = {"from": hostile, "to": None, "removed": None, "gone": [[9, 9, hostile]]}
    board, _side = hex_svg.draw(observation, ["red", "blue", "yellow"], 0, marks)
    assert "<script>" not in board and re.search(r"&lt;script&gt;", board)
    ElementTree.fromstring(board)
