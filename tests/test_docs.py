"""The docs describe the product as it is.

- No line of ``README.md``, ``docs/`` or ``src/`` tells how the product was built ("session 8",
  "this session", "issue 10"): that history belongs in ``git log``.
- Every ``limit ...`` command shown in ``README.md`` and ``docs/*.md`` (code blocks and inline
  code) is accepted as written: run with ``--help`` appended, in-process, through Typer's
  ``CliRunner``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HISTORY = re.compile(
    r"\b(?:sessions?|issues?)[\s-]+#?\d+"  # session 8, sessions 3-5, session-6, issue 10
    r"|\b(?:this|that|last|next|previous|earlier|later|other)\s+(?:sessions?|issues?)\b"
    r"|\bissues?\s+(?:asks?|asked|names?|wants?)\b"  # the issue asks for
    r"|\bissue\s+#",
    re.IGNORECASE,
)
"""Words that speak of how the product was made; matched across line breaks."""

TEXT_SUFFIXES = {".md", ".py", ".html", ".js", ".css", ".toml", ".txt", ".j2", ".cfg"}
"""The files of ``src/`` read as text (the translation catalogues are checked through the
English strings of the source they are extracted from)."""


def history_files() -> Iterator[Path]:
    """``README.md``, every file of ``docs/`` and the text files of ``src/``."""
    yield ROOT / "README.md"
    for top in ("docs", "src"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and path.suffix in TEXT_SUFFIXES:
                yield path


def history_lines(text: str) -> list[tuple[int, str]]:
    """``(line number from 1, matched words)`` for every mention of sessions or issues in
    ``text``; a mention split over two lines counts on the line where it starts."""
    return [
        (text.count("\n", 0, match.start()) + 1, " ".join(match.group().split()))
        for match in HISTORY.finditer(text)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("measured in session 8", [(1, "session 8")]),
        ("before\nsession\n6 it was", [(2, "session 6")]),
        ("the final code of this session:", [(1, "this session")]),
        ("(issue 11, item 7)", [(1, "issue 11")]),
        ("(sessions 3-5)", [(1, "sessions 3")]),
        ("the session-6 expert", [(1, "session-6")]),
        ("The issue asks for 20 games", [(1, "issue asks")]),
        ("during other\nsessions' benchmarks", [(1, "other sessions")]),
        # the product's own words stay allowed
        ("in the session's language (the terminal session)", []),
        ("TerminalSession runs 8 games; open issues on GitHub", []),
    ],
)
def test_history_pattern(text: str, expected: list[tuple[int, str]]) -> None:
    """The pattern finds what it should and leaves the product's words alone (by hand)."""
    assert history_lines(text) == expected


def test_no_history_in_readme_docs_or_source() -> None:
    """No line of README.md, docs/ or src/ speaks of sessions or issues."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {words}"
        for path in history_files()
        for line, words in history_lines(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not found, "history in the docs (describe the product as it is):\n" + "\n".join(found)
