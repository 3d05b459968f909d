"""Fixtures of every test: the words in English unless a test asks for another language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from limitgames.translation import current_language


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The terminal follows the locale variables (``limit play --language``): a tester's German
    locale must not change what the tests read, and a test that chose a language (``limit play
    --language de`` run in-process sets it for the process) leaves English behind it."""
    monkeypatch.setenv("LANGUAGE", "en")
    yield
    current_language.set("en")
