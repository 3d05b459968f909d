"""The rules of each game inside the app: ``GET /rules/{game}``.

The rule files are copies of ``docs/rules/*.md`` shipped in this package
(``limitgames/web/rules/``; a test checks that they equal the docs). A
client names a game, never a file: the id must be a registered game with a
rules file here (:func:`rules_games`). Markdown is rendered with
markdown-it-py in CommonMark mode with HTML disabled, so raw HTML in a file
is shown as text, never run.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from markdown_it import MarkdownIt

from limitgames.core import available_games

_RULES = resources.files("limitgames.web") / "rules"


def rules_games() -> list[str]:
    """The registered games whose rules this package ships, in registry order."""
    return [g for g in available_games() if (_RULES / f"{g}.md").is_file()]


@cache
def render_rules(game: str) -> tuple[str, str]:
    """``(title, HTML)`` of the rules of ``game`` (a member of :func:`rules_games`).

    The title is the file's first level-1 heading (else the game id).

    Raises:
        KeyError: ``game`` is not in :func:`rules_games`.
    """
    if game not in rules_games():
        raise KeyError(game)
    text = (_RULES / f"{game}.md").read_text(encoding="utf-8")
    # the copies open with an HTML comment naming their source: not part of the rules
    text = re.sub(r"\A\s*<!--.*?-->\s*", "", text, flags=re.DOTALL)
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), game)
    return title, render_markdown(text)


def render_markdown(text: str) -> str:
    """HTML of Markdown ``text``: CommonMark with tables, raw HTML shown as text.

    markdown-it-py also refuses ``javascript:`` and other unsafe link targets.
    """
    html: str = _MARKDOWN.render(text)
    return html


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


__all__ = ["render_markdown", "render_rules", "rules_games"]
