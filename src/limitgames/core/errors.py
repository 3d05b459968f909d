"""The errors of the game protocol.

Three different things can be wrong with a player's input, after
python-chess: text that is not notation at all (:class:`NotationError`), an
action that is well formed but not allowed here (:class:`IllegalActionError`),
and a stored record or position that does not hold together
(:class:`RecordError`, :class:`PositionError`). Every error carries a message
a person can read without a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def N_(message: str) -> str:
    """Mark ``message`` for the translation catalogues (Babel extracts every ``N_``) and return
    it unchanged: ``core`` holds English only, and a surface translates such a message where it
    shows it (:meth:`VariantError.translated`)."""
    return message


class LimitGamesError(Exception):
    """Base class of every error raised on purpose by limitgames."""


class NotationError(LimitGamesError, ValueError):
    """Text that cannot be read as an action of this game.

    Attributes:
        text: the text that was given.
        reason: why it is not notation (one line).
    """

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"cannot read {text!r}: {reason}")


class IllegalActionError(LimitGamesError, ValueError):
    """An action that is not legal in the current state; the state is unchanged.

    Attributes:
        action: the action that was refused (in notation where known).
        reason: the rule it breaks, in words (one line).
    """

    def __init__(self, action: object, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action}: {reason}")


class VariantError(LimitGamesError, ValueError):
    """An unknown variant parameter or a value out of its range.

    Attributes:
        template: the English message with ``%(name)s`` placeholders (marked ``N_`` for the
            catalogues), or ``None`` when the message was written whole.
        values: what fills the template.
    """

    def __init__(
        self, message: str, template: str | None = None, values: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.template = template
        self.values = dict(values or {})

    @classmethod
    def because(cls, template: str, **values: Any) -> VariantError:
        """The error whose message is ``template % values`` (keep both for translation)."""
        return cls(template % values, template, values)

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The message through ``gettext`` (a surface's translation of the template), or as it
        is when it has no template."""
        if self.template is None:
            return str(self)
        return gettext(self.template) % self.values


class PositionError(LimitGamesError, ValueError):
    """A position (JSON) that is malformed; the message is one line."""


class RecordError(LimitGamesError, ValueError):
    """A game record that is malformed or does not replay.

    Attributes:
        where: where the record is wrong (``"line 3"``, ``"action 12 (c4-d5)"``,
            ``"field 'variant'"``), or ``None`` when it is the whole record.
        reason: what is wrong there (one line).
    """

    def __init__(self, reason: str, where: str | None = None) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}" if where else reason)


class ModuleLoadError(LimitGamesError):
    """A module of the project's own games or agents failed to import.

    Such a failure is never taken for "no such game" or "no such agent": the message names
    the module and the error (``cannot import limitgames.hex (the game 'hex'):
    ModuleNotFoundError: No module named 'numba'``), and the import error is its cause.

    Attributes:
        module: the module's dotted name. cause: the import error.
    """

    def __init__(self, module: str, cause: BaseException, what: str = "") -> None:
        self.module = module
        self.cause = cause
        self.what = what
        about = f" ({what})" if what else ""
        super().__init__(f"cannot import {module}{about}: {type(cause).__name__}: {cause}")

    def __reduce__(self) -> tuple[type[ModuleLoadError], tuple[str, BaseException, str]]:
        # rebuilt from its own arguments when it crosses a process boundary (a worker of a
        # multiprocessing pool): the default rebuilds it from the message alone and fails
        return (type(self), (self.module, self.cause, self.what))


class MissingExtraError(LimitGamesError, ModuleNotFoundError):
    """A module of limitgames needs a package of an optional extra that is not installed.

    A ``ModuleNotFoundError``, so ``except ImportError`` still catches it; its message names
    the extra to install (``pip install 'limitgames[gymnasium]'``).

    Attributes:
        extra: the extra that brings the package (``gymnasium``, ``pettingzoo``, ``openspiel``).
        name: the missing module (as ``ModuleNotFoundError`` names it).
    """

    def __init__(self, module: str, extra: str, needed_by: str) -> None:
        super().__init__(
            f"{needed_by} needs {module}, which is not installed: "
            f"pip install 'limitgames[{extra}]'",
            name=module,
        )
        self.extra = extra
        self.needed_by = needed_by

    def __reduce__(self) -> tuple[type[MissingExtraError], tuple[str, str, str]]:
        # rebuilt from its own arguments in another process (see ModuleLoadError.__reduce__)
        return (type(self), (str(self.name), self.extra, self.needed_by))


def missing_extra(
    error: ImportError, packages: tuple[str, ...], extra: str, needed_by: str
) -> ImportError:
    """The error to raise for ``error``, caught while importing the extra ``extra``'s packages
    for ``needed_by``: a :class:`MissingExtraError` when the missing module is one of
    ``packages`` (or inside one of them), else ``error`` itself (a failure of its own inside an
    installed package is not hidden). Use as
    ``except ImportError as exc: raise missing_extra(exc, ("gymnasium",), "gymnasium", "limitgames.gym") from exc``."""
    name = getattr(error, "name", None) or ""
    if isinstance(error, ModuleNotFoundError) and name.split(".")[0] in packages:
        return MissingExtraError(name.split(".")[0], extra, needed_by)
    return error
