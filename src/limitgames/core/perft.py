"""perft: count the decision sequences of a given length, to check move generation.

As defined for every game of the project (``rules/hex.md``, "Interfaces"):
the number of sequences of exactly ``depth`` decisions from a position; a
terminal position before ``depth`` contributes 0; skipped steps are not
decisions.
"""

from __future__ import annotations

from limitgames.core.protocol import Action, State


def perft(state: State, depth: int) -> int:
    """The perft count of ``state`` at ``depth`` (``depth >= 0``; depth 0 counts 1 unless terminal)."""
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
        total += perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> list[tuple[Action, int]]:
    """perft split by first action: ``[(action, count), ...]`` in legal-action order (depth >= 1)."""
    if depth < 1:
        raise ValueError("divide needs depth at least 1")
    result = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        result.append((action, perft(child, depth - 1)))
    return result
