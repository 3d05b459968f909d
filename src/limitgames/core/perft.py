"""perft: count the decision sequences of a given length, to check move generation.

As defined for every game of the project (``rules/hex.md``, "Interfaces"):
the number of sequences of exactly ``depth`` decisions from a position; a
terminal position before ``depth`` contributes 0; skipped steps are not
decisions.
"""

from __future__ import annotations

from limitgames.core.protocol import Action, State


def perft(state: State, depth: int) -> int:
    """The perft count of ``state`` at ``depth`` (``depth >= 0``; depth 0 counts 1 unless terminal).

    An engine may count faster itself: a state with a ``fast_perft(depth)``
    method that returns an int is asked first (``None``: not here). The
    protocol-only count is :func:`plain_perft`, against which fast counts are
    tested.

    Raises:
        ValueError: ``depth`` is negative.
    """
    if depth < 0:
        raise ValueError("depth must be at least 0")
    fast = getattr(state, "fast_perft", None)
    if fast is not None:
        count = fast(depth)
        if count is not None:
            return int(count)
    return plain_perft(state, depth)


def plain_perft(state: State, depth: int) -> int:
    """:func:`perft` through the protocol only (``legal_actions``, ``clone``, ``apply``)."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    if state.is_terminal():
        return 0
    if depth == 0:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply(action)
        total += plain_perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> list[tuple[Action, int]]:
    """perft split by first action: ``[(action, count), ...]`` in legal-action order (depth >= 1).

    The counts add up to ``perft(state, depth)``. At depth 1 every action counts 1, one that
    ends the game too (it is a whole sequence of one decision); deeper, an action that ends
    the game counts 0 (the game is over before ``depth``).

    Raises:
        ValueError: ``depth`` is below 1.
    """
    if depth < 1:
        raise ValueError("divide needs depth at least 1")
    if state.is_terminal():
        return []
    result = []
    for action in state.legal_actions():
        if depth == 1:
            result.append((action, 1))
            continue
        child = state.clone()
        child.apply(action)
        result.append((action, perft(child, depth - 1)))
    return result
