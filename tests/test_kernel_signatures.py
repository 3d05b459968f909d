"""The compiled kernels are typed (``DESIGN.md``, "Quality habits": type hints everywhere,
checked): every function decorated with Numba's ``njit`` (or ``jit``) in ``src/limitgames``
annotates each parameter and its return, and no annotation mentions ``Any``.

Numba ignores the annotations, so they cost nothing at run time; they let mypy check the
callers. The array annotations are the aliases of :mod:`limitgames.hex.bitboard` (``Masks``,
``Ints``, ``Floats``, ``Bools``...). Numba's ``@overload`` and ``@intrinsic`` implementations
take Numba type objects, for which ``Any`` is right; they are not ``njit``-decorated, so they
are not checked here. The check reads the source (``ast``), so it sees a function as written,
not as compiled.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import limitgames

SOURCE = Path(limitgames.__file__).parent
COMPILERS = ("njit", "jit")
"""The Numba decorators whose functions are checked (bare, called, or as ``numba.njit``)."""


def _is_compiled(decorator: ast.expr) -> bool:
    """Whether ``decorator`` is ``njit``, ``njit(...)``, ``numba.njit`` or ``numba.njit(...)``
    (or the same with ``jit``)."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Name):
        return target.id in COMPILERS
    if isinstance(target, ast.Attribute):
        return target.attr in COMPILERS
    return False


def _mentions_any(annotation: ast.expr) -> bool:
    """Whether ``annotation`` is or contains ``Any`` (``typing.Any`` too; string annotations
    are parsed first)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        annotation = ast.parse(annotation.value, mode="eval").body
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id == "Any":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Any":
            return True
    return False


def signature_problems(source: str, where: str) -> Iterator[str]:
    """One line per unannotated or ``Any``-annotated parameter or return of a compiled
    function in ``source`` (a module's text; ``where`` names it in the lines)."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not any(_is_compiled(d) for d in node.decorator_list):
            continue
        args = node.args
        parameters = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        parameters += [a for a in (args.vararg, args.kwarg) if a is not None]
        for parameter in parameters:
            if parameter.annotation is None:
                yield f"{where}:{node.lineno} {node.name}: parameter {parameter.arg} unannotated"
            elif _mentions_any(parameter.annotation):
                yield f"{where}:{node.lineno} {node.name}: parameter {parameter.arg} is Any"
        if node.returns is None:
            yield f"{where}:{node.lineno} {node.name}: return unannotated"
        elif _mentions_any(node.returns):
            yield f"{where}:{node.lineno} {node.name}: return is Any"


def test_compiled_functions_are_typed_without_any() -> None:
    problems = [
        line
        for path in sorted(SOURCE.rglob("*.py"))
        for line in signature_problems(
            path.read_text(encoding="utf-8"), str(path.relative_to(SOURCE.parent))
        )
    ]
    assert not problems, "compiled functions with untyped or Any signatures:\n" + "\n".join(
        problems
    )


def test_the_source_holds_compiled_functions() -> None:
    # the check above would pass vacuously if it recognised no decorator at all
    compiled = sum(
        1
        for path in SOURCE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and any(_is_compiled(d) for d in node.decorator_list)
    )
    assert compiled > 50


PLANTED = """
from typing import Any
import typing
import numba
from numba import njit, jit
from numba.extending import overload

@njit(cache=True)
def typed(s: Masks, n: int) -> Int:
    return n

@njit
def bare_any(s: Any, n: int) -> None:
    pass

@numba.njit(cache=True, parallel=True)
def returns_any(s: Masks) -> typing.Any:
    return s

@jit(nopython=True)
def unannotated(s, *rest: "np.ndarray[Any, Any]"):
    pass

@overload(len)
def implementation(s: Any) -> Any:
    def impl(s: Any) -> Any:
        return 0
    return impl

def plain(s: Any) -> Any:
    return s
"""


def test_a_planted_module_is_reported_by_function_and_parameter() -> None:
    assert list(signature_problems(PLANTED, "planted.py")) == [
        "planted.py:13 bare_any: parameter s is Any",
        "planted.py:17 returns_any: return is Any",
        "planted.py:21 unannotated: parameter s unannotated",
        "planted.py:21 unannotated: parameter rest is Any",
        "planted.py:21 unannotated: return unannotated",
    ]
