"""Hex's compiled Monte Carlo tree search, with the agents (its rules are the hex kernel's).

- :mod:`~limitgames.agents.hex_search.evaluation`: the learned evaluation and the
  results of finished games, compiled (the one implementation every hex agent uses);
- :mod:`~limitgames.agents.hex_search.tree`: the tree in flat arrays and one
  compiled call per search (UCT, transposition table, MCTS-Solver, prior, tactical
  order and widening, RAVE, contempt, tree reuse);
- :mod:`~limitgames.agents.hex_search.search`: :class:`HexSearch`, the object that
  keeps the tree between moves, and its :class:`SearchReport`.

The ``hexmcts`` agent (:mod:`limitgames.agents.hex_mcts`) plays with it. The
compiled code is cached with the hex kernel's (:mod:`limitgames.hex.bitboard`),
in a folder keyed by the sources of both packages.
"""

from pathlib import Path

import limitgames.hex.kernel
import limitgames.hex.solver
import limitgames.hex.tactics  # noqa: F401 - compiled first, into the kernel's own cache
from limitgames.hex.bitboard import numba_cache_including

with numba_cache_including(Path(__file__).parent):
    from limitgames.agents.hex_search.evaluation import EVALUATION_SIZE, evaluate, outcome
    from limitgames.agents.hex_search.search import (
        REUSE_NODES,
        ChildReport,
        HexSearch,
        SearchReport,
    )

__all__ = [
    "EVALUATION_SIZE",
    "REUSE_NODES",
    "ChildReport",
    "HexSearch",
    "SearchReport",
    "evaluate",
    "outcome",
]
