"""``limit rules GAME --how-to``: the how-to-play page of a game in the terminal.

The page (:mod:`limitgames.howto`) is Markdown written for the browser and the docs; the
terminal shows it with Rich, each diagram as its caption (a terminal draws no SVG) and
each link with where it leads in the repository.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.markdown import Markdown

from limitgames.howto import how_to_play
from limitgames.translation import current_language
from limitgames.translation import gettext as _

_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(\.\./rules/([a-z]+)\.md\)")


def terminal_text(markdown: str) -> str:
    """``markdown`` for a terminal: each image ``![caption](file)`` becomes its caption in
    italics, each link to the full rules names ``docs/rules/GAME.md``."""
    text = _IMAGE.sub(lambda m: f"*{m.group(1)}*", markdown)
    return _LINK.sub(lambda m: f"{m.group(1)} (docs/rules/{m.group(2)}.md)", text)


def print_how_to(console: Console, game: str) -> None:
    """Print the how-to-play page of ``game`` in the current language (English if it has
    none). Raises KeyError for a game without a page."""
    page = how_to_play(game, current_language.get())
    console.print(Markdown(terminal_text(page.markdown)))
    console.print(
        _("In the browser, with its diagrams: /howto/%(game)s in the web app.") % {"game": game},
        highlight=False,
    )
