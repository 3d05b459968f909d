"""A missing optional dependency names the extra that brings it (the module simulated absent)."""

from __future__ import annotations

import importlib
import sys

import pytest

from limitgames.core import MissingExtraError
from limitgames.core.errors import missing_extra


def _hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``import module`` fail as if it were not installed (``sys.modules[name] = None``)."""
    for name in list(sys.modules):
        if name.split(".")[0] in modules:
            monkeypatch.delitem(sys.modules, name)
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def _forget(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Drop our modules from the import cache so the next import runs them again."""
    for name in modules:
        if name in sys.modules:
            monkeypatch.delitem(sys.modules, name)


@pytest.mark.parametrize(
    ("module", "hidden", "extra"),
    [
        ("limitgames.gym", ("gymnasium",), "gymnasium"),
        ("limitgames.pettingzoo", ("pettingzoo",), "pettingzoo"),
        ("limitgames.pettingzoo", ("gymnasium",), "pettingzoo"),
        ("limitgames.openspiel", ("pyspiel",), "openspiel"),
    ],
)
def test_importing_an_adapter_without_its_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, hidden: tuple[str, ...], extra: str
) -> None:
    _forget(
        monkeypatch,
        module,
        "limitgames.pettingzoo.env",
        "limitgames.pettingzoo.hex_v0",
        "limitgames.pettingzoo.cards_v0",
        "limitgames.pettingzoo.world_v0",
    )
    _hide(monkeypatch, *hidden)
    with pytest.raises(MissingExtraError) as caught:
        importlib.import_module(module)
    message = str(caught.value)
    assert f"pip install 'limitgames[{extra}]'" in message and "\n" not in message
    assert isinstance(caught.value, ImportError) and caught.value.extra == extra


def test_rendering_without_pillow_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from limitgames.core import get_game
    from limitgames.pettingzoo.render import rgb

    state = get_game("hex").new_initial_state(seed=1, size=2)
    _hide(monkeypatch, "PIL")
    with pytest.raises(MissingExtraError, match=r"limitgames\[gymnasium\]"):
        rgb(state)


def test_another_import_failure_is_not_hidden() -> None:
    inner = ModuleNotFoundError("No module named 'somethingelse'", name="somethingelse")
    assert missing_extra(inner, ("gymnasium",), "gymnasium", "limitgames.gym") is inner
    broken = ImportError("cannot import name 'x' from 'gymnasium'", name="gymnasium")
    assert missing_extra(broken, ("gymnasium",), "gymnasium", "limitgames.gym") is broken
