"""Loading the project's scripts and examples (files outside the package) as modules in tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
"""The checkout's root directory."""


def load_script(relative: str) -> ModuleType:
    """The script at ``ROOT / relative`` (e.g. ``"scripts/translations.py"``), executed as a
    module named by its file's stem and registered in ``sys.modules`` under that name, since
    a script's dataclasses look their module up there.

    Raises:
        FileNotFoundError: no such script.
    """
    path = ROOT / relative
    if not path.is_file():
        raise FileNotFoundError(f"no script {relative!r} in {ROOT}")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module
