"""The house's structure (``DESIGN.md``, "Layers"): imports point down only, no import circle,
no module over 800 lines.

The import graph is grimp's (every ``import`` statement of ``src/limitgames``, including
those inside functions and under ``TYPE_CHECKING``: a circle of annotations is still a
circle a reader has to untangle). Each failure lists every offending module, circle or
import, so that one run shows all of them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import grimp
import pytest

import limitgames

SOURCE = Path(limitgames.__file__).parent
MAX_LINES = 800
"""The most lines a module may have (``STYLE.md``: modules of 200-800 lines, one concern each)."""

ENGINES = ("hex", "cards", "world")
"""The rules engines: they import only ``core`` (and ``translation``), never each other."""
BASE = ("core", "translation")
"""What everything may import: the protocol, and the words (both standard library only)."""
ABOVE_AGENTS = ("arena", "openspiel", "equilibrium", "pettingzoo", "gym", "cli", "web", "testing")
"""Tournaments, research adapters, interfaces and the conformance suite: above the agents."""


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("limitgames", include_external_packages=True)


def circles(graph: grimp.ImportGraph, modules: Iterable[str]) -> list[list[str]]:
    """The import circles among ``modules``: each strongly connected set of two or more modules
    (Tarjan's algorithm), sorted; a module importing itself is not a circle."""
    nodes = set(modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # iterative, so that a long chain does not hit the recursion limit
        work: list[tuple[str, Iterator[str]]] = []

        def enter(v: str) -> None:
            index[v] = low[v] = len(index)
            stack.append(v)
            on_stack.add(v)
            targets = sorted(graph.find_modules_directly_imported_by(v) & nodes)
            work.append((v, iter(targets)))

        enter(start)
        while work:
            v, targets = work[-1]
            for w in targets:
                if w not in index:
                    enter(w)
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for module in sorted(nodes):
        if module not in index:
            visit(module)
    return sorted(found)


def describe_circle(graph: grimp.ImportGraph, circle: list[str]) -> str:
    """One line: the circle's modules and, for each, what it imports inside the circle."""
    members = set(circle)
    parts = [
        f"{m} -> {', '.join(sorted(graph.find_modules_directly_imported_by(m) & members))}"
        for m in circle
    ]
    return f"circle of {len(circle)}: " + "; ".join(parts)


def own_modules(graph: grimp.ImportGraph) -> list[str]:
    return sorted(m for m in graph.modules if m == "limitgames" or m.startswith("limitgames."))


def area(module: str) -> str:
    """The first name under ``limitgames`` (``limitgames.world.state`` -> ``world``), or the
    top-level package of a module from elsewhere (``numpy``)."""
    parts = module.split(".")
    if parts[0] != "limitgames":
        return parts[0]
    return parts[1] if len(parts) > 1 else ""


def layer_violations(graph: grimp.ImportGraph) -> list[str]:
    """Every import that points the wrong way (``DESIGN.md``, "Layers"), one line each."""
    bad: list[str] = []
    for module in own_modules(graph):
        here = area(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            there = area(imported)
            own = imported.startswith("limitgames")
            if here in BASE:
                if own and there not in BASE:
                    bad.append(
                        f"{module} imports {imported} (core imports only the standard library)"
                    )
                elif not own and there not in sys.stdlib_module_names:
                    bad.append(f"{module} imports {there} (core imports only the standard library)")
            elif here in ENGINES:
                if own and there not in (*BASE, here):
                    bad.append(f"{module} imports {imported} (a rules engine imports only core)")
            elif here == "agents" and own and there in ABOVE_AGENTS:
                bad.append(f"{module} imports {imported} (agents see only the protocol)")
    return bad


def long_modules(root: Path) -> list[str]:
    """Every module under ``root`` over :data:`MAX_LINES` lines, with its length."""
    out = []
    for path in sorted(root.rglob("*.py")):
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MAX_LINES:
            out.append(f"{path.relative_to(root.parent)}: {count} lines")
    return out


def test_no_import_circle(graph: grimp.ImportGraph) -> None:
    found = circles(graph, own_modules(graph))
    assert not found, "import circles:\n" + "\n".join(describe_circle(graph, c) for c in found)


def test_imports_point_down_only(graph: grimp.ImportGraph) -> None:
    bad = layer_violations(graph)
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def test_no_module_over_800_lines() -> None:
    long = long_modules(SOURCE)
    assert not long, f"modules over {MAX_LINES} lines:\n" + "\n".join(long)


# --- the checks themselves find what they look for ---------------------------------------------
def planted_graph() -> grimp.ImportGraph:
    """A made-up project: a three-module circle in ``world``, a two-module one in ``arena``, a
    chain without a circle, and imports against every layer rule."""
    graph = grimp.ImportGraph()
    for importer, imported in [
        ("limitgames.world.state", "limitgames.world.observe"),
        ("limitgames.world.observe", "limitgames.world.solo"),
        ("limitgames.world.solo", "limitgames.world.state"),
        ("limitgames.arena.chart", "limitgames.arena.tournament"),
        ("limitgames.arena.tournament", "limitgames.arena.chart"),
        ("limitgames.cards.game", "limitgames.cards.rules"),
        ("limitgames.cards.rules", "limitgames.core.protocol"),
        ("limitgames.hex.state", "limitgames.agents.mcts"),
        ("limitgames.hex.state", "limitgames.cards.rules"),
        ("limitgames.agents.mcts", "limitgames.web.live"),
        ("limitgames.agents.mcts", "limitgames.hex.state"),
        ("limitgames.core.protocol", "limitgames.world.state"),
        ("limitgames.core.protocol", "json"),
        ("limitgames.core.record", "numpy"),
        ("limitgames.web.live", "limitgames.agents.mcts"),
    ]:
        graph.add_import(importer=importer, imported=imported)
    return graph


def test_circles_are_found_in_a_planted_graph() -> None:
    graph = planted_graph()
    # by hand: world state -> observe -> solo -> state; chart <-> tournament; hex -> agents ->
    # hex and agents -> web -> agents make one circle of three; the cards chain and core ->
    # world do not close
    assert circles(graph, own_modules(graph)) == [
        ["limitgames.agents.mcts", "limitgames.hex.state", "limitgames.web.live"],
        ["limitgames.arena.chart", "limitgames.arena.tournament"],
        ["limitgames.world.observe", "limitgames.world.solo", "limitgames.world.state"],
    ]


def test_layer_violations_are_found_in_a_planted_graph() -> None:
    bad = layer_violations(planted_graph())
    assert bad == [
        "limitgames.agents.mcts imports limitgames.web.live (agents see only the protocol)",
        "limitgames.core.protocol imports limitgames.world.state (core imports only the standard library)",
        "limitgames.core.record imports numpy (core imports only the standard library)",
        "limitgames.hex.state imports limitgames.agents.mcts (a rules engine imports only core)",
        "limitgames.hex.state imports limitgames.cards.rules (a rules engine imports only core)",
    ]


def test_long_modules_are_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "short.py").write_text("x = 1\n" * MAX_LINES)
    (package / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert long_modules(package) == [f"pkg/long.py: {MAX_LINES + 1} lines"]
