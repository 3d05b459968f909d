"""The world game's words in any language: log lines that keep their template and values.

The engine writes its log in English (the rulebook's words, seed 004). Each line with
values is a :class:`Phrase`: a ``str`` whose value is the English line, byte for byte,
that also remembers its gettext template (``"sells %(count)d %(goods)s"``) and values,
so that :func:`render` can draw it again in the reader's language
(:data:`limitgames.translation.current_language`) when the log is read. String values
are game words (resources, plants, classes, decks, alliance kinds, card names) and are
translated too; numbers and nation names are not. A plain ``str`` line is translated as
a whole. Nothing here changes a rule or what a seat may see: the log keeps its lines and
their privacy, only the words change. (:class:`Phrase` and :func:`render` live in
:mod:`limitgames.translation`, which the server's own messages use too.)
"""

from __future__ import annotations

from limitgames.translation import N_, Phrase, joined, phrase, render

__all__ = ["GAME_WORDS", "Phrase", "joined", "phrase", "render"]


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
