"""The world game's words in any language: log lines that keep their template and values.

The engine writes its log in English (the rulebook's words, seed 004). Each line with
values is a :class:`Phrase`: a ``str`` whose value is the English line, byte for byte,
that also remembers its gettext template (``"sells %(count)d %(goods)s"``) and values,
so that :func:`render` can draw it again in the reader's language
(:data:`limitgames.translation.current_language`) when the log is read. String values
are game words (resources, plants, classes, decks, alliance kinds, card names) and are
translated too; numbers and nation names are not. A plain ``str`` line is translated as
a whole. Nothing here changes a rule or what a seat may see: the log keeps its lines and
their privacy, only the words change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from limitgames.translation import N_, gettext


class Phrase(str):
    """An English log line (the ``str`` value) with its template and values.

    ``Phrase(template, values)``: the English text is ``template % values``. Adding a
    ``Phrase`` to a ``str`` (either side) or joining with :func:`joined` gives a ``Phrase``
    too, so composed lines stay translatable. Raises ``KeyError``/``TypeError`` when the
    values do not fill the template (a programming error).
    """

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, values: Mapping[str, object] | None = None) -> Phrase:
        filled = dict(values or {})
        english = template % filled if filled else template
        self = super().__new__(cls, english)
        self.template = template
        self.values = filled
        return self

    def __getnewargs__(self) -> tuple[str, dict[str, object]]:  # type: ignore[override]
        return (self.template, self.values)

    def __add__(self, other: str) -> Phrase:
        return Phrase("%(a)s%(b)s", {"a": self, "b": other})

    def __radd__(self, other: str) -> Phrase:
        return Phrase("%(a)s%(b)s", {"a": other, "b": self})


def phrase(template: str, **values: object) -> Phrase:
    """A log line from a template marked with ``N_`` and its values (see :class:`Phrase`)."""
    return Phrase(template, values)


def joined(separator: str, parts: Iterable[str]) -> str:
    """``separator.join(parts)`` that keeps the parts translatable (a :class:`Phrase`
    when any part is one)."""
    items = list(parts)
    if not any(isinstance(p, Phrase) for p in items):
        return separator.join(items)
    template = separator.replace("%", "%%").join(f"%({i})s" for i in range(len(items)))
    return Phrase(template, {str(i): p for i, p in enumerate(items)})


def render(text: str) -> str:
    """``text`` in the current language: a :class:`Phrase` from its translated template with
    its values rendered in turn, a plain ``str`` translated as a whole. In English (or with
    no translation) this is ``text`` itself."""
    if isinstance(text, Phrase):
        translated = gettext(text.template) if text.template else text.template
        if not text.values:
            return translated
        values = {k: render(v) if isinstance(v, str) else v for k, v in text.values.items()}
        return translated % values
    return gettext(text) if text else text


GAME_WORDS: tuple[str, ...] = (
    # resources and plants (data.RESOURCES, data.PLANTS)
    N_("renewable"),
    N_("industrial"),
    N_("military"),
    N_("fossil"),
    # decks (data.DECKS) and alliance kinds (state.ALLIANCE_KINDS)
    N_("society"),
    N_("production"),
    N_("economic"),
    # transactions and price moves
    N_("buy"),
    N_("sell"),
    N_("up"),
    N_("down"),
)
"""The game's words that come into log lines as values, marked for the catalogue."""

__all__ = ["GAME_WORDS", "Phrase", "joined", "phrase", "render"]
