"""The tests' own deadlines grow with ``LIMIT_TEST_TIME_FACTOR`` (``tests/deadlines.py``),
pytest-timeout's limit on one test included (``tests/conftest.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
def test_probe(request):
    print("limit:", request.config._env_timeout)
"""


def _limit_seen(tmp_path: Path, factor: str, *arguments: str) -> str:
    """The per-test limit pytest-timeout uses in a child pytest run from the project's root
    with ``LIMIT_TEST_TIME_FACTOR=factor`` and ``tests/conftest.py`` loaded (its ``pyproject.toml``
    says ``timeout = 300``)."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE)
    env = {**os.environ, "LIMIT_TEST_TIME_FACTOR": factor}
    env.pop("PYTEST_TIMEOUT", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-p", "tests.conftest",  # the probe lies outside tests/: load its conftest by name
         "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), "--confcutdir", str(ROOT),
         *arguments, str(probe)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("limit:")]
    assert done.returncode == 0 and lines, done.stdout + done.stderr
    return lines[0].removeprefix("limit:").strip()


@pytest.mark.slow
def test_the_limit_on_one_test_grows_with_the_factor(tmp_path: Path) -> None:
    # pyproject.toml: timeout = 300 (s); factor 3 -> 900 s, factor 1 -> 300 s
    assert _limit_seen(tmp_path, "3") == "900.0"
    assert _limit_seen(tmp_path, "1") == "300.0"


@pytest.mark.slow
def test_a_limit_given_on_the_command_line_is_kept(tmp_path: Path) -> None:
    assert _limit_seen(tmp_path, "3", "--timeout", "7") == "7.0"
