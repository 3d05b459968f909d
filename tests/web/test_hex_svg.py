"""The hex board's SVG (``web/hex_svg.py``): one group per tile with what the page's script
reads, and every text escaped. Expected values come from the observation (the engine's
position JSON), not from the drawing, and from the Jinja2 template the board was drawn with
until session 5 (``hex_board_reference.svg.j2`` beside this file: the naive version of the
f-string writer, compared byte for byte over seeded games and Hypothesis cases)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import FileSystemLoader

from limitgames.core import get_game
from limitgames.translation import using
from limitgames.web import hex_svg
from limitgames.web.hex_narration import last_marks
from limitgames.web.views import environment

REFERENCE = environment.overlay(loader=FileSystemLoader(Path(__file__).parent))
"""The app's Jinja2 environment (autoescape, ``_()``) reading the reference template here."""

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


def _both(
    monkeypatch: pytest.MonkeyPatch, observation: dict, names: list[str], marks: Any
) -> tuple[str, str]:
    """The board from the f-string writer and from the reference template, same inputs."""
    fast, _side = hex_svg.draw(observation, names, 0, marks)
    template = REFERENCE.get_template("hex_board_reference.svg.j2")

    def reference(tiles: Any, ghosts: Any, removed: Any, **values: Any) -> str:
        return template.render(tiles=tiles, ghosts=ghosts, removed=removed, **values)

    with monkeypatch.context() as patch:
        patch.setattr(hex_svg, "_board_svg", reference)
        naive, _side = hex_svg.draw(observation, names, 0, marks)
    return fast, naive


@pytest.mark.parametrize("variant", [{"size": 8}, {"size": 4, "players": 3}, {"edition": "2008"}])
def test_the_writer_draws_what_the_template_drew_over_seeded_games(
    monkeypatch: pytest.MonkeyPatch, variant: dict[str, Any]
) -> None:
    for seed in range(3):
        state = get_game("hex").new_initial_state(seed=seed, **variant)
        rng = random.Random(seed)
        while not state.is_terminal():
            for language in ("en", "de"):
                with using(language):
                    fast, naive = _both(
                        monkeypatch, state.observation(0), state.seat_names(), last_marks(state)
                    )
                    assert fast == naive
            state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(st.text(max_size=12), min_size=3, max_size=3),
    moved=st.text(max_size=8),
    gone=st.text(max_size=8),
    plies=st.integers(min_value=0, max_value=12),
)
def test_the_writer_escapes_as_the_template_did(
    names: list[str], moved: str, gone: str, plies: int
) -> None:
    observation = _position(7, plies)
    marks = {"from": moved, "to": gone, "removed": None, "gone": [[40, 40, gone]]}
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, naive = _both(monkeypatch, observation, names, marks)
    assert fast == naive
