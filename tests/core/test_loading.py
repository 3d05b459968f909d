"""An engine that fails to import fails loudly: never "no such game", never left out of the list.

Each test plants a game module on a temporary path: one that imports a dependency that is not
installed, one whose own module is missing, and one that raises another error while importing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from limitgames.core import ModuleLoadError, available_games, get_game, registry


@pytest.fixture
def planted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory on ``sys.path`` for planted modules."""
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_an_engine_with_a_missing_dependency_names_its_module_and_the_error(
    planted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (planted / "planted_engine_a.py").write_text("import planted_no_such_dependency\n")
    monkeypatch.setitem(registry.BUILTIN_GAMES, "planted-a", "planted_engine_a")
    with pytest.raises(ModuleLoadError) as raised:
        get_game("planted-a")
    message = str(raised.value)
    assert "planted_engine_a" in message and "'planted-a'" in message
    assert "ModuleNotFoundError: No module named 'planted_no_such_dependency'" in message
    assert "\n" not in message
    assert isinstance(raised.value.__cause__, ModuleNotFoundError)
    # the list of games does not shrink quietly: it fails the same way
    with pytest.raises(ModuleLoadError, match="planted_engine_a"):
        available_games()


def test_an_engine_whose_own_module_is_missing_is_not_an_unknown_game(
    planted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry.BUILTIN_GAMES, "planted-b", "planted_engine_b_is_not_there")
    with pytest.raises(ModuleLoadError, match="cannot import planted_engine_b_is_not_there"):
        get_game("planted-b")


def test_another_error_while_importing_an_engine_comes_through_as_it_is(
    planted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (planted / "planted_engine_c.py").write_text("raise RuntimeError('planted failure')\n")
    monkeypatch.setitem(registry.BUILTIN_GAMES, "planted-c", "planted_engine_c")
    with pytest.raises(RuntimeError, match="planted failure"):
        get_game("planted-c")


def test_the_built_in_games_load() -> None:
    assert available_games()[:3] == ["hex", "cards", "world"]


def test_loading_errors_cross_a_process_boundary() -> None:
    """A pool worker sends its exception back pickled; an error that cannot be rebuilt from
    its pickle hangs ``multiprocessing.Pool`` instead of failing it."""
    import pickle

    from limitgames.core.errors import MissingExtraError

    cause = ModuleNotFoundError("No module named 'numba'", name="numba")
    error = ModuleLoadError("limitgames.hex", cause, "the game 'hex'")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is ModuleLoadError and str(again) == str(error)
    assert again.module == "limitgames.hex" and again.what == "the game 'hex'"
    assert isinstance(again.cause, ModuleNotFoundError) and again.cause.name == "numba"
    missing = MissingExtraError("gymnasium", "gymnasium", "limitgames.gym")
    back = pickle.loads(pickle.dumps(missing))
    assert type(back) is MissingExtraError and str(back) == str(missing)
    assert back.extra == "gymnasium" and back.name == "gymnasium"
