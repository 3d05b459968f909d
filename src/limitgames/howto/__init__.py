"""How to play each game, for people: a short page per game and language, with diagrams.

The pages are copies of ``docs/howto/{game}.md`` (English, the reference) and
``docs/howto/{game}.{code}.md`` (German, French, Spanish) shipped in this package; a test
checks that they equal the docs. Their diagrams (``img/*.svg`` in the docs) are drawn by
``scripts/howto_diagrams.py`` from a real game and the rules, and the web app serves
copies under ``/static/howto/``. The complete rules as played stay in ``docs/rules/``.

A caller names a game id and a language code, never a file: the game must be one of
:func:`howto_games`, and a language that is not one of
:data:`limitgames.translation.LANGUAGES` means English.
"""

from __future__ import annotations

from importlib import resources
from typing import NamedTuple

from limitgames.translation import LANGUAGES

_PAGES = resources.files("limitgames.howto")


class HowTo(NamedTuple):
    """One how-to-play page as written."""

    title: str
    """The page's first level-1 heading."""
    markdown: str
    """The page's Markdown; links and images are relative to ``docs/howto/``."""
    language: str
    """The code of the language the text is in (English when no translation exists)."""


def howto_games() -> list[str]:
    """The game ids that have a how-to-play page, in the registry's order."""
    from limitgames.core import available_games

    return [g for g in available_games() if (_PAGES / f"{g}.md").is_file()]


def how_to_play(game: str, language: str = LANGUAGES[0]) -> HowTo:
    """The how-to-play page of ``game`` in ``language``, else in English.

    Raises:
        KeyError: ``game`` has no page (:func:`howto_games`).
    """
    if game not in howto_games():
        raise KeyError(game)
    served = language if language in LANGUAGES[1:] else LANGUAGES[0]
    page = _PAGES / (f"{game}.md" if served == LANGUAGES[0] else f"{game}.{served}.md")
    if not page.is_file():
        served, page = LANGUAGES[0], _PAGES / f"{game}.md"
    text = page.read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), game)
    return HowTo(title, text, served)


__all__ = ["HowTo", "how_to_play", "howto_games"]
