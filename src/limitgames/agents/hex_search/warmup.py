"""Compile hex's kernel and the agents' compiled search once, so that no game pays for it.

``scripts/compile_hex.py`` (run by ``scripts/setup.sh``) calls :func:`compile_search`: it runs
:func:`limitgames.hex.warmup.compile_kernel` (every kernel entry point), then
every code path of the compiled search (:mod:`limitgames.agents.hex_search`), for 2 and 3
players, with and without a time cap, and the growth of its arrays in a long search, and the
learned evaluation as the Python agents call it, and the compiled parts of ``puct`` (its
edge selection and its mixed-value playouts).
"""

from __future__ import annotations

import time

import numpy as np

from limitgames.agents.hex_search import EVALUATION_SIZE, HexSearch
from limitgames.agents.hex_search.evaluation import learned_values
from limitgames.agents.puct import playout_returns, puct_select
from limitgames.hex.bitboard import seed_word
from limitgames.hex.warmup import compile_kernel, tiny_position


def compile_search() -> float:
    """Compile (or load from Numba's cache) the kernel and the search; return seconds."""
    start = time.perf_counter()
    compile_kernel()
    weights = np.zeros(EVALUATION_SIZE)
    weights[11] = 1.0  # (a nonzero scale)
    for players in (2, 3):
        nb, ring, s = tiny_position(players)
        # every option that takes another code path: random playouts to the end with the
        # tactical policy; cut-off playouts and the prior; the tactical order with widening and
        # RAVE; each by work alone and by work with a time cap (the levels)
        searches = (
            HexSearch(evaluation=weights, contempt=0.1, greed=1.0),
            HexSearch(evaluation=weights, contempt=0.1, depth=4, prior=0.5),
            HexSearch(evaluation=weights, greed=0.5, order=1.0, widen=2.0, rave=300.0),
        )
        for search in searches:
            search.search(nb, ring, s.copy(), iterations=20)
            search.search(nb, ring, s.copy(), iterations=20, seconds=60.0)
        # the arrays doubling under a long search (expert's first move): the table rebuilt
        searches[0]._grow()
        learned_values(
            np.zeros((players, 7), dtype=np.int64), players, 0, False, weights, np.zeros(players)
        )
        playout_returns(
            nb, ring, s[None, :].copy(), np.array([seed_word(1)], np.uint64), 1.0, np.zeros((1, 3))
        )
    edges = np.ones(3)
    puct_select(edges, edges, edges / 3, 0.0, 1.5)
    return time.perf_counter() - start
