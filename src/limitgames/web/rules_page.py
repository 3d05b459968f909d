"""The rules of each game inside the app: ``GET /rules/{game}``, in the reader's language.

The rule files are copies of ``docs/rules/*.md`` shipped in this package
(``limitgames/web/rules/``; a test checks that they equal the docs):
``{game}.md`` is the English text, the reference; ``{game}.{code}.md`` is its
translation into the language ``code`` of
:data:`limitgames.translation.LANGUAGES` (``hex.de.md``). A client names a
game, never a file: the id must be a registered game with an English rules
file here (:func:`rules_games`), and the language is one of the known codes
(anything else means English), so no part of a file name comes from the
client. Markdown is rendered with markdown-it-py in CommonMark mode with HTML
disabled, so raw HTML in a file is shown as text, never run.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from typing import NamedTuple

from markdown_it import MarkdownIt

from limitgames.core import available_games
from limitgames.translation import LANGUAGES

_RULES: Traversable = resources.files("limitgames.web") / "rules"


class Rules(NamedTuple):
    """The rules of one game as a page shows them."""

    title: str
    """The file's first level-1 heading (else the game id)."""
    html: str
    """The rendered Markdown."""
    language: str
    """The code of the language the text is in (English when no translation exists)."""


def rules_games() -> list[str]:
    """The registered games whose rules this package ships, in registry order."""
    return [g for g in available_games() if (_RULES / f"{g}.md").is_file()]


def rules_file(game: str, language: str) -> tuple[Traversable, str]:
    """``(file, language)``: the rules file of ``game`` in ``language`` and the language it is in.

    English (``{game}.md``) when ``language`` is English, not one of
    :data:`~limitgames.translation.LANGUAGES`, or has no translation of this game.

    Raises:
        KeyError: ``game`` is not in :func:`rules_games`.
    """
    if game not in rules_games():
        raise KeyError(game)
    if language in LANGUAGES[1:]:
        translated = _RULES / f"{game}.{language}.md"
        if translated.is_file():
            return translated, language
    return _RULES / f"{game}.md", LANGUAGES[0]


def render_rules(game: str, language: str = LANGUAGES[0]) -> Rules:
    """The rules of ``game`` (a member of :func:`rules_games`) in ``language``, else in English.

    A translation opens with a link to its English original (``[...](hex.md)``
    beside it in ``docs/rules/``); on the page it points to
    ``/rules/{game}?language=en``. Rendered once per game and known language.

    Raises:
        KeyError: ``game`` is not in :func:`rules_games`.
    """
    if game not in rules_games():
        raise KeyError(game)
    return _render(game, language if language in LANGUAGES else LANGUAGES[0])


@cache
def _render(game: str, language: str) -> Rules:
    path, served = rules_file(game, language)
    text = path.read_text(encoding="utf-8")
    # the copies open with an HTML comment naming their source: not part of the rules
    text = re.sub(r"\A\s*<!--.*?-->\s*", "", text, flags=re.DOTALL)
    text = text.replace(f"]({game}.md)", f"](/rules/{game}?language={LANGUAGES[0]})")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), game)
    return Rules(title, render_markdown(text), served)


def render_markdown(text: str) -> str:
    """HTML of Markdown ``text``: CommonMark with tables, raw HTML shown as text.

    markdown-it-py also refuses ``javascript:`` and other unsafe link targets.
    """
    html: str = _MARKDOWN.render(text)
    return html


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


__all__ = ["Rules", "render_markdown", "render_rules", "rules_file", "rules_games"]
