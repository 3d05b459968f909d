"""The services of ``limitgames.web`` meet only through public interfaces: no private calls.

(No module over 800 lines and no import circle, here as everywhere, are
checked by ``tests/test_structure.py``.)
"""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "limitgames" / "web"

STANDARD_PRIVATE = {"_exit", "_replace", "_asdict"}
"""Underscored names that are public API of the standard library (``os._exit``, namedtuples)."""


def _modules() -> list[Path]:
    return sorted(WEB.glob("*.py"))


def private_calls(source: str) -> list[str]:
    """``x._name`` where ``x`` is not ``self`` or ``cls`` (a private member used across objects),
    and ``from m import _name`` (a private name used across modules)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found += [
                (node.lineno, f"import of {alias.name} (line {node.lineno})")
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or name.startswith("__") or name in STANDARD_PRIVATE:
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        found.append((node.lineno, f"{ast.unparse(node)} (line {node.lineno})"))
    return [text for _line, text in sorted(found)]


def test_private_calls_are_found() -> None:
    source = "self._ok()\nself.hub._changed(1)\nhub._loading\nos._exit(0)\nfrom m import _f, g\n"
    assert private_calls(source) == [
        "self.hub._changed (line 2)",
        "hub._loading (line 3)",
        "import of _f (line 5)",
    ]


def test_no_private_calls_across_objects() -> None:
    found = {p.name: private_calls(p.read_text(encoding="utf-8")) for p in _modules()}
    assert len(found) > 20  # the package was found
    assert {name: calls for name, calls in found.items() if calls} == {}
