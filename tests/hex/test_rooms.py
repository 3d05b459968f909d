"""The hex engine's rooms: readable sizes, no import circle, nothing from above.

Checked on the import graph (grimp) and on the files themselves, not on
behaviour: a module of hex or of the agents' compiled search over 800 lines,
an import circle inside ``limitgames.hex``, or the rules engine reaching up
into the agents is a failure here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")

SOURCES = Path(__file__).resolve().parents[2] / "src" / "limitgames"
MOST_LINES = 800


@pytest.fixture(scope="module")
def graph() -> object:
    return grimp.build_graph("limitgames", include_external_packages=False, cache_dir=None)


@pytest.mark.parametrize("folder", ["hex", "agents/hex_search"])
def test_no_module_is_over_800_lines(folder: str) -> None:
    sizes = {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for path in (SOURCES / folder).glob("*.py")
    }
    assert sizes, folder
    assert {name: n for name, n in sizes.items() if n > MOST_LINES} == {}


@pytest.mark.parametrize("package", ["limitgames.hex", "limitgames.agents.hex_search"])
def test_no_import_circle_inside_the_package(graph: object, package: str) -> None:
    modules = sorted(m for m in graph.modules if m.startswith(package + "."))  # type: ignore[attr-defined]
    assert len(modules) > 2, package
    circles = [
        (a, b)
        for i, a in enumerate(modules)
        for b in modules[i + 1 :]
        if graph.chain_exists(a, b) and graph.chain_exists(b, a)  # type: ignore[attr-defined]
    ]
    assert circles == []


def test_the_rules_engine_imports_no_agent(graph: object) -> None:
    chains = graph.find_shortest_chains(  # type: ignore[attr-defined]
        importer="limitgames.hex", imported="limitgames.agents"
    )
    assert chains == set()


def test_the_circle_check_finds_a_circle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: two modules that import each other are a circle."""
    package = tmp_path / "circle_demo"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from circle_demo import b\n")
    (package / "b.py").write_text("def f() -> None:\n    from circle_demo import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    demo = grimp.build_graph("circle_demo", cache_dir=None)
    assert demo.chain_exists("circle_demo.a", "circle_demo.b")
    assert demo.chain_exists("circle_demo.b", "circle_demo.a")
