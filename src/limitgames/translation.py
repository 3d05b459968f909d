"""The words players read, in their language: the one place that translates.

Every user-visible string of the browser app and the terminal app goes through
:func:`gettext` (Python, and Jinja2 templates as ``{{ _("...") }}``) or
``t("...")`` (the browser's ``static/translate.js``). The language of the
current request or session is :data:`current_language`.

The catalogues are GNU gettext files, one per language, in
``limitgames/locale/<code>/LC_MESSAGES/messages.po`` (the source, edited by
translators) and ``messages.mo`` (compiled, shipped with the package so that a
plain ``pip install`` needs no build step). ``scripts/translations.sh``
re-extracts the messages with Babel, updates and compiles the catalogues and
lists what is still untranslated. English is the source language: its text
is the message itself and needs no catalogue.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es")
"""The languages offered, as ISO 639-1 codes; the first is the default (and the source)."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
}
"""Each language's name in itself, as the language switch shows it."""

DOMAIN = "messages"
"""The gettext domain of every catalogue."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""Where the catalogues are: ``LOCALE_DIR/<code>/LC_MESSAGES/messages.{po,mo}``."""

current_language: ContextVar[str] = ContextVar("current_language", default=LANGUAGES[0])
"""The language of the request or terminal session being served."""


@functools.cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English, or an unknown code: no translation).

    Read once per process from ``messages.mo``; a missing file falls back to
    English rather than raising.
    """
    if language not in LANGUAGES[1:]:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def gettext(message: str) -> str:
    """``message`` in :data:`current_language` (``message`` itself when untranslated).

    Placeholders are ``%(name)s`` (Python) so translators may reorder them.
    """
    return translations(current_language.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for the count ``n``, translated
    (with the plural rule of the language's catalogue)."""
    return translations(current_language.get()).ngettext(singular, plural, n)


_ = gettext


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (a table of words
    translated where it is shown, with :func:`gettext`); returns ``message``."""
    return message


FRENCH_ELIDING: tuple[str, ...] = ("de", "que", "jusque", "lorsque", "puisque")
"""The French words that lose their ``e`` before a vowel or a mute h (*élision*, as
*d'Ann*, *qu'Ève*; Grevisse, *Le Bon Usage*, § 44-45): the ones our sentences put before a
name."""

ASPIRATED_H: frozenset[str] = frozenset(
    {"hache", "haut", "hasard", "héros", "hibou", "hollande", "hongrie", "honte", "hugues"}
)
"""Words and names whose ``h`` is aspirated: no elision before them (*de Hollande*)."""

_VOWELS = frozenset("aeiouœæ")


def _plain(letter: str) -> str:
    """``letter`` lowercased without its accent (``"É"`` -> ``"e"``)."""
    import unicodedata

    return unicodedata.normalize("NFD", letter.lower())[:1]


def elides_before(word: str) -> bool:
    """Whether a French ``de``/``que`` elides before ``word`` (a name, a noun): it starts
    with a vowel (accents too: *Émile*), or with a mute ``h`` (*Hélène*, *hexagone*; not an
    aspirated one, :data:`ASPIRATED_H`), or with a ``y`` sounded as a vowel (a consonant
    follows: *Yves*; not *Yann*, where the ``y`` is a consonant)."""
    if not word:
        return False
    first = _plain(word[0])
    if first in _VOWELS:
        return True
    if first == "h":
        return word.lower().strip(".,;:!?") not in ASPIRATED_H
    if first == "y":
        return len(word) > 1 and _plain(word[1]) not in _VOWELS and _plain(word[1]) != "y"
    return False


def elide(text: str, names: Iterable[str]) -> str:
    """``text`` with French elision before each of ``names`` in French (:data:`current_language`
    ``"fr"``; any other language: ``text`` itself): ``"la carte de Ann"`` -> ``"la carte
    d'Ann"``, ``"De Émile"`` -> ``"D'Émile"``; ``"de Bob"``, ``"de Yann"`` stay. Only a whole
    word :data:`FRENCH_ELIDING` directly before a whole name changes, so the catalogue's own
    words are never touched."""
    if current_language.get() != "fr":
        return text
    for name in {n for n in names if n and n in text and elides_before(n)}:
        text = _eliding(name).sub(r"\g<2>'" + name.replace("\\", "\\\\"), text)
    return text


@functools.lru_cache(maxsize=256)
def _eliding(name: str) -> re.Pattern[str]:
    """The pattern of an eliding word (:data:`FRENCH_ELIDING`) then ``name``, whole words."""
    stems = "|".join(word[:-1] for word in FRENCH_ELIDING)  # "de" -> "d", "que" -> "qu"
    return re.compile(
        r"(?<![\w'’])((" + stems + r")e) " + re.escape(name) + r"(?!\w)", re.IGNORECASE
    )


def supported(code: str | None) -> str | None:
    """The offered language ``code`` names (``"de-AT"``, ``"fr_CH.UTF-8"`` -> ``de``, ``fr``), or ``None``."""
    if not code:
        return None
    primary = re.split(r"[-_.@]", code.strip().lower(), maxsplit=1)[0]
    return primary if primary in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The offered language a browser prefers most, from its ``Accept-Language`` header.

    Follows RFC 9110, section 12.5.4: ranges are ordered by their ``q``
    weight (default 1, ties keep the header's order), ``q=0`` means "not
    this one"; ``*`` and unknown ranges are skipped. ``None`` when no range
    names an offered language (the caller then uses English).
    """
    if not header:
        return None
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:40]):
        fields = part.strip().split(";")
        weight = 1.0
        for parameter in fields[1:]:
            name, _sep, value = parameter.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        language = supported(fields[0])
        if language is not None and weight > 0:
            weighted.append((-weight, index, language))
    return min(weighted)[2] if weighted else None


def from_environment(environment: Mapping[str, str]) -> str | None:
    """The offered language the POSIX locale variables ask for, or ``None``.

    As GNU gettext reads them: ``LANGUAGE`` (a colon-separated list of
    preferences, first offered one wins), then ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` (the first one set decides; ``C`` and ``POSIX`` mean English).
    """
    for preference in environment.get("LANGUAGE", "").split(":"):
        language = supported(preference)
        if language is not None:
            return language
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environment.get(variable, "")
        if value:
            return "en" if value in ("C", "POSIX") else supported(value)
    return None


@contextmanager
def using(language: str) -> Iterator[str]:
    """Translate into ``language`` (an unknown code: English) inside the ``with`` block."""
    code = language if language in LANGUAGES else LANGUAGES[0]
    token = current_language.set(code)
    try:
        yield code
    finally:
        current_language.reset(token)


@functools.cache
def browser_catalogue(language: str) -> str:
    """``window.LIMIT_CATALOGUE = {...};``: the messages of ``language`` for ``translate.js``.

    Every translated singular message of the catalogue, as JSON (``<``
    escaped); English and unknown codes give ``{}`` (the page shows its own
    words).
    """
    catalogue: dict[str, str] = {}
    messages = getattr(translations(language), "_catalog", {})
    for key, value in messages.items():
        if isinstance(key, str) and key and value:
            catalogue[key] = value
    text = json.dumps(catalogue, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    return f"window.LIMIT_CATALOGUE = {text};\n"


class Phrase(str):
    """An English message or log line (the ``str`` value) with its template and values,
    translated when it is read (:func:`render`), not when it is made.

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


__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "Phrase",
    "browser_catalogue",
    "current_language",
    "elide",
    "elides_before",
    "from_accept_language",
    "from_environment",
    "gettext",
    "joined",
    "ngettext",
    "phrase",
    "render",
    "supported",
    "translations",
    "using",
]
