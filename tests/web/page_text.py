"""The text a reader meets in a page: what the language tests read of HTML."""

from __future__ import annotations

from html.parser import HTMLParser

SEEN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
"""The attributes whose values are read (or read aloud) to a person."""


class PageText(HTMLParser):
    """The pieces of text a reader meets in HTML, in order: text nodes and the values of
    :data:`SEEN_ATTRIBUTES` (scripts and styles left out)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in SEEN_ATTRIBUTES and value:
                self.pieces.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.pieces.append(data)


def page_pieces(html: str) -> list[str]:
    """The pieces of text of ``html`` a reader meets, in order (:class:`PageText`)."""
    parser = PageText()
    parser.feed(html)
    return parser.pieces
