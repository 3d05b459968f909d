"""The rooms of ``limitgames.web``: no module over 800 lines, no import circle, no private calls.

The import graph is built by grimp (TYPE_CHECKING imports and imports inside
functions count: a circle hidden behind either is still a circle).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")

WEB = Path(__file__).resolve().parents[2] / "src" / "limitgames" / "web"
MOST_LINES = 800

STANDARD_PRIVATE = {"_exit", "_replace", "_asdict"}
"""Underscored names that are public API of the standard library (``os._exit``, namedtuples)."""


def _modules() -> list[Path]:
    return sorted(WEB.glob("*.py"))


def test_no_module_is_over_800_lines() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in _modules()}
    assert len(sizes) > 20  # the package was found
    assert {name: n for name, n in sizes.items() if n > MOST_LINES} == {}


def test_no_import_circle_inside_web() -> None:
    graph = grimp.build_graph("limitgames", cache_dir=None)
    web = {m for m in graph.modules if m.startswith("limitgames.web.")}
    assert "limitgames.web.live" in web and "limitgames.web.clock_service" in web
    circles = sorted(
        (importer, imported)
        for importer in web
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported in web and graph.chain_exists(importer=imported, imported=importer)
    )
    assert circles == []


def test_the_naive_circle_finder_finds_a_circle() -> None:
    # the check above on a graph known to hold one (a -> b -> c -> a), so it can fail
    graph = grimp.ImportGraph()
    for importer, imported in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a")]:
        graph.add_import(importer=importer, imported=imported)
    assert graph.chain_exists(importer="p.c", imported="p.b")


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
    assert {name: calls for name, calls in found.items() if calls} == {}
