"""The kernel's bound on a client that stops acknowledging: ``TCP_USER_TIMEOUT`` on the listeners.

uvicorn closes a WebSocket whose pong does not come (``game_socket.socket_options``),
but its transport waits for what it still has to send before it lets the
connection go; a client that vanished (network gone) or stopped reading
with its window full never takes it, and the connection stayed for many
minutes (the kernel's retransmissions), still holding memory. Linux's
``TCP_USER_TIMEOUT`` (RFC 5482; ``man 7 tcp``) makes the kernel drop a
connection whose sent data stays unacknowledged, or untransmitted because
the peer's window is zero, for that long. It is set on this process's
listening TCP sockets, which uvicorn creates after the app starts, so it
is done when the first WebSocket comes to a port (:func:`bound_once`); the
connections accepted from then on inherit it.
"""

from __future__ import annotations

import contextlib
import os
import socket

UNACKNOWLEDGED_SECONDS = 5.0
"""The longest a connection's sent data may stay unacknowledged before the kernel drops it."""

_ports_done: set[int] = set()


def bound_unacknowledged_time(port: int, seconds: float = UNACKNOWLEDGED_SECONDS) -> int:
    """Set ``TCP_USER_TIMEOUT`` (``seconds``) on this process's TCP sockets listening on ``port``.

    Returns how many were set; 0 where the option does not exist (not
    Linux) or no file descriptor can be listed (no ``/proc/self/fd``).
    """
    option = getattr(socket, "TCP_USER_TIMEOUT", None)
    if option is None or not os.path.isdir("/proc/self/fd"):
        return 0
    count = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            copy = os.dup(int(name))
        except (OSError, ValueError):
            continue  # closed meanwhile (the listing's own descriptor among them)
        try:
            probe = socket.socket(fileno=copy)
        except OSError:
            os.close(copy)  # not a socket
            continue
        with probe, contextlib.suppress(OSError):
            if probe.type != socket.SOCK_STREAM or probe.family not in (
                socket.AF_INET,
                socket.AF_INET6,
            ):
                continue
            if probe.getsockname()[1] != port:
                continue
            if not probe.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
                continue
            probe.setsockopt(socket.IPPROTO_TCP, option, int(seconds * 1000))
            count += 1
    return count


def bound_once(port: int | None) -> None:
    """:func:`bound_unacknowledged_time` for ``port`` (the port a connection came to), the
    first time it is called for that port in this process; ``None`` (no port known): nothing."""
    if port is None or port in _ports_done:
        return
    _ports_done.add(port)
    bound_unacknowledged_time(port)


__all__ = ["UNACKNOWLEDGED_SECONDS", "bound_once", "bound_unacknowledged_time"]
