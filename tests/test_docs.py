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
from itertools import product
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.core
import typer.exceptions
from typer.testing import CliRunner

from limitgames.cli.app import build_app

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


DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
"""The documents whose ``limit`` commands must be accepted (``docs/`` with its subfolders)."""

INLINE = re.compile(r"`(limit(?: [^`]*)?)`")
"""A ``limit ...`` command in inline code."""

BLOCK_LINE = re.compile(r"^\s*(?:\$ )?(?:\S+=\S+ )*(?:\S*/)?(limit(?: .*)?)$")
"""A line of a code block that runs ``limit`` (maybe after a prompt, variables or a path)."""

GAMES = ("hex", "cards", "world")


def documented_commands(text: str) -> Iterator[tuple[int, str]]:
    """``(line from 1, command text)`` for every ``limit ...`` command of a Markdown ``text``:
    the lines of fenced code blocks (continued with a backslash) and inline code."""
    lines = text.splitlines()
    in_block = False
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            match = BLOCK_LINE.match(line)
            if match is None:
                continue
            start, command = number, match.group(1)
            while command.rstrip().endswith("\\") and number < len(lines):
                command = command.rstrip()[:-1].rstrip() + " " + lines[number].strip()
                number += 1
            yield start, command
        else:
            for match in INLINE.finditer(line):
                yield number, match.group(1)


def command_words(command: str) -> list[list[str]]:
    """The argument lists a documented ``command`` stands for, without the leading ``limit``.

    The shell's comments, redirections and pipes are dropped; ``a|b`` written as one word means
    each of ``a`` and ``b``; ``[--seconds S]`` means the option is written; ``[...]`` and
    ``...`` (more of the same) are dropped; the placeholder ``GAME`` means each game.
    """
    command = re.split(r"\s(?:\||&&|;|>)\s", command)[0]
    words = shlex.split(command.replace("[...]", ""), comments=True)[1:]
    choices: list[list[str]] = []
    for word in words:
        word = word.strip("[]")
        if word in ("", "..."):
            continue
        if word == "GAME":
            choices.append(list(GAMES))
        elif "|" in word and not word.startswith("-"):
            choices.append(word.split("|"))
        else:
            choices.append([word])
    return [list(words) for words in product(*choices)]


def all_documented() -> list[tuple[str, list[str]]]:
    """``("FILE:LINE: command", argument list)`` for every documented command."""
    found = []
    for path in DOC_FILES:
        for line, command in documented_commands(path.read_text(encoding="utf-8")):
            for words in command_words(command):
                found.append((f"{path.relative_to(ROOT)}:{line}: {command}", words))
    return found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Run `limit play hex --size 6` or `limit games`.",
            [(1, "limit play hex --size 6"), (1, "limit games")],
        ),
        (
            "```\n$ limit serve --host 0.0.0.0 \\\n    --workers 2   # two\n```",
            [(2, "limit serve --host 0.0.0.0 --workers 2   # two")],
        ),
        (
            "```\nPYTHONPATH=src .venv/bin/limit bench hex\npython x.py\n```",
            [(2, "limit bench hex")],
        ),
        ("the limit card `limit` and a `limited` word", [(1, "limit")]),
    ],
)
def test_documented_commands_are_found(text: str, expected: list[tuple[int, str]]) -> None:
    """Commands are found in code blocks and inline code (expected values by hand)."""
    assert list(documented_commands(text)) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("limit play hex|cards --help", [["play", "hex", "--help"], ["play", "cards", "--help"]]),
        ("limit perft hex P.json 3 [--divide]", [["perft", "hex", "P.json", "3", "--divide"]]),
        (
            "limit arena GAME -a X [...] -v k=v",
            [["arena", g, "-a", "X", "-v", "k=v"] for g in GAMES],
        ),
        (
            "limit rules world --format toml > mine.toml  # edit",
            [["rules", "world", "--format", "toml"]],
        ),
    ],
)
def test_command_words(command: str, expected: list[list[str]]) -> None:
    """Placeholders and shell syntax are read as a person reads them (by hand)."""
    assert command_words(command) == expected


def parse_only(words: list[str]) -> str:
    """Parse ``limit WORDS --help`` down to its last command without running anything.

    Returns ``""`` when the help was reached (the command line is accepted), else the reason.
    """
    command: Any = typer.main.get_command(build_app())
    name = "limit"
    args = [*words, "--help"]
    parent: Any = None
    try:
        while True:
            context = command.make_context(name, list(args), parent=parent)
            if not isinstance(command, typer.core.TyperGroup):
                return f"--help was taken as the value of an option of {name!r}"
            rest = [*context._protected_args, *context.args]
            found, sub, args = command.resolve_command(context, rest)
            if sub is None or found is None:
                return f"no command {rest[:1]} in {name!r}"
            command, name, parent = sub, found, context
    except typer.Exit as done:
        return "" if done.exit_code == 0 else f"exit code {done.exit_code}"
    except typer.exceptions.TyperException as error:  # Click's UsageError and its kin
        return str(getattr(error, "format_message", error.__str__)())


def options_taken_as_values(words: list[str]) -> list[str]:
    """The option names of ``limit WORDS`` that its parser takes as another option's value
    (``--players --size 6`` gives ``--size`` to ``--players``), found without running it."""
    command: Any = typer.main.get_command(build_app())
    name, args, parent = "limit", list(words), None
    while True:
        context = command.make_context(name, list(args), parent=parent, resilient_parsing=True)
        if not isinstance(command, typer.core.TyperGroup):
            break
        rest = [*context._protected_args, *context.args]
        if not rest:
            return []
        found, sub, args = command.resolve_command(context, rest)
        command, name, parent = sub, found, context
    names = {n for p in command.params for n in (*p.opts, *p.secondary_opts)}
    raw, _, _ = command.make_parser(context).parse_args(args=list(args))
    taken = []
    for value in raw.values():
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, str) and item.split("=")[0] in names:
                taken.append(item)
    return taken


def test_options_taken_as_values_by_hand() -> None:
    assert options_taken_as_values(["bench", "hex", "--players", "--size", "6"]) == ["--size"]
    assert options_taken_as_values(["bench", "hex", "--players", "3", "--size", "6"]) == []


@pytest.mark.parametrize(
    ("where", "words"), all_documented(), ids=[where for where, _ in all_documented()]
)
def test_every_documented_command_is_accepted(where: str, words: list[str]) -> None:
    """Each ``limit ...`` command of README.md and docs/ is accepted with ``--help`` appended:
    first parsed without running anything (so a doc that leaves an option's value out cannot
    start a server here), then run through Typer's CliRunner, exit 0, its help shown."""
    reason = parse_only(words)
    assert reason == "", f"{where}\n  limit {' '.join(words)} --help: {reason}"
    taken = options_taken_as_values(words)
    assert not taken, f"{where}: {taken} taken as the value of the option before (give it one)"
    result = CliRunner().invoke(build_app(), [*words, "--help"])
    assert result.exit_code == 0, f"{where}\n{result.output}"
    assert "No such option" not in result.output, where
    assert "Usage" in result.output or words == ["--version"], where  # --version answers first


GENERATED = re.compile(
    r"<!-- generated by: limit games --markdown -->\n(.*)<!-- end of generated tables -->",
    re.DOTALL,
)
"""The generated part of ``docs/parameters.md``."""


def test_the_parameter_tables_of_the_docs_are_the_generated_ones() -> None:
    """``docs/parameters.md`` holds what ``limit games --markdown`` prints for the three games
    (in English), so the docs' tables come from the games' one declaration. To update:
    ``limit games --markdown --language en`` between the two markers."""
    from limitgames.cli.app import parameters_markdown
    from limitgames.core import get_game
    from limitgames.translation import using

    with using("en"):
        expected = "\n".join(parameters_markdown(get_game(g).info) for g in GAMES)
    match = GENERATED.search((ROOT / "docs" / "parameters.md").read_text(encoding="utf-8"))
    assert match is not None, "docs/parameters.md lost its markers"
    assert match.group(1) == expected, "docs/parameters.md: run limit games --markdown"
    result = CliRunner().invoke(build_app(), ["games", "--markdown", "--language", "en"])
    assert result.exit_code == 0 and expected in result.output
