"""Every ``wait_for_function`` predicate in the browser tests is a function, never a bare
expression.

The app's pages send ``Content-Security-Policy: script-src 'self'`` (no ``'unsafe-eval'``).
Playwright polls a bare expression such as ``"window.done === true"`` by passing it to
``eval`` inside the page, which that policy forbids: the wait raises ``EvalError`` as soon as
the condition is not already true at the first check, that is, on a busy machine. A function
(``"() => window.done === true"``) is sent as a function and is never ``eval``-ed. This test
reads the browser tests' source, so that a bare expression is caught on a quiet machine too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
FUNCTION = re.compile(r"(async\s+)?(function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")
"""The start of a JavaScript function: ``function``, ``(params) =>`` or ``param =>``."""


def bare_predicates(source: str) -> list[tuple[int, str]]:
    """The (line, text) of each ``wait_for_function`` call in ``source`` whose first argument
    is a string constant that is not a JavaScript function (``=>`` or ``function``)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            continue
        text = node.args[0].value.strip()
        if not FUNCTION.match(text):
            found.append((node.lineno, text))
    return found


def test_every_wait_predicate_is_a_function() -> None:
    offenders = [
        f"{path.name}:{line}: {text}"
        for path in sorted(HERE.glob("*.py"))
        for line, text in bare_predicates(path.read_text())
    ]
    assert not offenders, "bare expressions are eval-ed, which the CSP forbids:\n" + "\n".join(
        offenders
    )


def test_bare_expressions_are_found_in_planted_source() -> None:
    source = (
        "page.wait_for_function('window.n === 1')\n"
        "page.wait_for_function(\"document.querySelector('#me')?.innerText.includes('x')\")\n"
        "page.wait_for_function('() => window.n === 1')\n"
        "page.wait_for_function('([a, b]) => a < b', arg=[1, 2])\n"
        "page.wait_for_function('first => first < 2', arg=1)\n"
        "page.wait_for_function('function () { return true; }')\n"
        "page.wait_for_function('async () => true')\n"
    )
    assert [line for line, _ in bare_predicates(source)] == [1, 2]
