"""Fixtures of every test: the words in English unless a test asks for another language; and
pytest-timeout's limit for one test grown with ``LIMIT_TEST_TIME_FACTOR``."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from limitgames.translation import current_language
from tests.deadlines import scaled


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The limit pytest-timeout puts on one test (``timeout`` in pyproject.toml, or the
    ``PYTEST_TIMEOUT`` variable) grows with ``LIMIT_TEST_TIME_FACTOR``, as every wait of the tests
    does (``tests/deadlines.py``): on a machine crowded enough to need a factor of 3, a test
    that takes 200 s quiet must not be stopped at 300 s. A ``--timeout`` given on the command
    line is kept as given. Runs before pytest-timeout reads its settings."""
    if config.getoption("timeout", None) is not None:
        return
    base = os.environ.get("PYTEST_TIMEOUT") or config.getini("timeout")
    if base:
        config.option.timeout = scaled(float(base))


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The terminal follows the locale variables (``limit play --language``): a tester's German
    locale must not change what the tests read, and a test that chose a language (``limit play
    --language de`` run in-process sets it for the process) leaves English behind it."""
    monkeypatch.setenv("LANGUAGE", "en")
    yield
    current_language.set("en")
