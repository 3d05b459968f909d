"""An agent or evaluation module that fails to import fails loudly, naming the module and the
error: an agent is never missing from the list quietly, and a game's evaluation is never
replaced by the neutral one (which would weaken every agent that uses it without a word)."""

from __future__ import annotations

from pathlib import Path

import pytest

from limitgames.agents import base, evaluation, list_agents, make_agent
from limitgames.core import ModuleLoadError


@pytest.fixture
def broken_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The name of a planted module that imports a dependency that is not installed."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "planted_broken_agents.py").write_text("import planted_missing_library\n")
    return "planted_broken_agents"


def test_a_broken_agent_module_fails_every_agent_lookup(
    broken_module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(base, "BUILTIN_AGENT_MODULES", [*base.BUILTIN_AGENT_MODULES, broken_module])
    with pytest.raises(ModuleLoadError) as raised:
        make_agent("random", seed=1)
    assert str(raised.value) == (
        "cannot import planted_broken_agents (the project's agents): "
        "ModuleNotFoundError: No module named 'planted_missing_library'"
    )
    with pytest.raises(ModuleLoadError, match="planted_broken_agents"):
        list_agents()


def test_a_broken_evaluation_module_is_not_taken_for_no_evaluation(
    broken_module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(evaluation.EVALUATION_MODULES, "planted-game", broken_module)
    for lookup in (evaluation.evaluation_for, evaluation.policy_for, evaluation.playout_depth_for):
        with pytest.raises(ModuleLoadError, match="planted_missing_library"):
            lookup("planted-game")


def test_a_game_without_an_evaluation_module_gets_the_neutral_one() -> None:
    assert evaluation.evaluation_for("planted-game-without") is evaluation.neutral_evaluation
    assert evaluation.policy_for("planted-game-without") is None
    assert evaluation.playout_depth_for("planted-game-without", default=7) == 7
