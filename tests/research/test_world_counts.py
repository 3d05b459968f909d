"""The world sizes table of docs/research.md: the script's output, the environments' spaces."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.script_modules import load_script

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    return load_script("scripts/world_encoding_table.py")


def test_the_docs_hold_the_scripts_table() -> None:
    script = _script()
    assert script.block() in (ROOT / "docs" / "research.md").read_text(encoding="utf-8"), (
        "docs/research.md's world table is stale: run scripts/world_encoding_table.py --write"
    )


def test_the_action_count_is_the_sum_of_the_blocks() -> None:
    # the blocks of limitgames.world.encoding's table, counted by hand for c cards:
    # deck 3, five card verbs 5c, four words, three amount verbs 3 x 256, plants 3 x 3,
    # classes 2 x 5, targets 6, take 3, buy/sell 2 x 256 x 4, price 8, take military 1,
    # alliance words 5, offer/exclude 2 x 2 x 6, leave 2, pay/aid 2 x 256, fund c, star 1
    from limitgames.world.data import variant_data

    c = len(variant_data({"data": None}).cards)
    expected = 3 + 5 * c + 4 + 768 + 9 + 10 + 6 + 3 + 2048 + 8 + 1 + 5 + 24 + 2 + 512 + c + 1
    assert all(actions == expected for _, actions, _, _, _ in _script().rows())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_environments_have_the_tables_sizes(players: int) -> None:
    pytest.importorskip("pettingzoo")
    from limitgames.gym import LimitVsAgentEnv
    from limitgames.pettingzoo import world_v0

    row = next(r for r in _script().rows() if r[0] == players)
    _, actions, floats, _, _ = row
    env = LimitVsAgentEnv("world", players=players)
    assert env.action_space.n == actions
    assert env.observation_space["observation"].shape == (floats,)  # type: ignore[index]
    aec = world_v0.raw_env(players=players)
    assert aec.action_space("player_0").n == actions
    assert aec.observation_space("player_0")["observation"].shape == (floats,)
