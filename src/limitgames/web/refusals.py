"""The refusals of the live games: a request answered with a one-line reason, nothing changed.

Every service of a live game (``live.py``, ``seats.py``, ``endings.py``,
``chat.py``, ``clock_service.py``...) raises these; the routes turn them into
HTTP statuses (400/409, 429, 503) and the socket into ``error`` messages.
"""

from __future__ import annotations


class RefusedError(Exception):
    """A request the server answers with a one-line reason; nothing was changed."""


class TooManyError(RefusedError):
    """A request refused by a rate limit or a cap (HTTP 429)."""


class ConflictError(RefusedError):
    """Another server process stored a decision of this game first; the game was reloaded."""


class StorageUnavailableError(RefusedError):
    """The database refused (full disk, read-only, unreachable); nothing was changed (HTTP 503)."""


__all__ = ["ConflictError", "RefusedError", "StorageUnavailableError", "TooManyError"]
