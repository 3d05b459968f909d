"""The words players read, in their language: the one place that translates.

Every user-visible string of the browser app and the terminal app goes through
:func:`gettext` (Python, and Jinja2 templates as ``{{ _("...") }}``) or
``t("...")`` (the browser's ``static/translate.js``). The language of the
current request or session is :data:`current_language`.

Today only English exists and :func:`gettext` returns its argument; the
catalogues (Babel and gettext, issue 13 deliver 4) plug in here without
changing any caller.
"""

from __future__ import annotations

from contextvars import ContextVar

LANGUAGES: tuple[str, ...] = ("en",)
"""The languages offered, as ISO 639-1 codes; the first is the default."""

current_language: ContextVar[str] = ContextVar("current_language", default=LANGUAGES[0])
"""The language of the request or terminal session being served."""


def gettext(message: str) -> str:
    """``message`` in :data:`current_language` (``message`` itself when untranslated).

    Placeholders are ``%(name)s`` (Python) so translators may reorder them.
    """
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for the count ``n``, translated."""
    return gettext(singular) if n == 1 else gettext(plural)


_ = gettext
