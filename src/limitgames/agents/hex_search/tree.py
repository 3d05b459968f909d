"""Monte Carlo tree search of hex compiled with the kernel (movement phase): the tree.

The tree lives in flat arrays (no Python object per node) and a whole search
runs in one compiled call, so an iteration costs a descent, one expansion
and one kernel playout. What it does, by option of :class:`HexSearch`:

- **UCT** (Kocsis and Szepesvári 2006), max-n backups for 2 or 3 players:
  each node stores the sum of every player's result, and the player to move
  picks the child best for itself by UCB1, ``mean + c sqrt(ln N / n)``.
  Results are those of :func:`limitgames.agents.evaluation.outcome_values`:
  1 for the sole winner, 0 for a shared top place, -1 otherwise.
- **Playouts**: uniformly random to the end (:func:`playouts.playout`), or cut
  off after ``depth`` random decisions and scored by the learned evaluation
  (:func:`evaluate`, the compiled twin of
  :func:`limitgames.agents.hex_evaluation.evaluate`); with ``greed`` above 0
  the playout follows the tactical policy of :mod:`limitgames.hex.tactics`
  (captures first, own last freedoms spared) at that share of its decisions.
- **Transposition table**: nodes are keyed by the fields that decide the
  future (those of ``HexState.key()``: tiles, pawns, seat and step to move,
  whether the equaliser binds, quiet turns, eliminations), compared in full.
  With ``table`` on, an expansion that reaches a position already in the
  tree links to its node (the tree becomes a DAG; statistics are shared and
  updates go along the path taken, as in Childs, Brodeur and Kocsis 2008).
- **MCTS-Solver** (Winands, Björnsson and Saito 2008), generalised to
  max-n: a finished game is proven; a node is proven once a child gives its
  mover the sole win, or once all its children are proven (it takes the one
  best for its mover, the first on ties). Proven children are scored by
  their exact value, a proven root ends the search, and the agent plays a
  proven win at once.
- **Prior** (progressive bias, Chaslot et al. 2008): when a node's actions
  are listed, each child is scored by the learned evaluation; the actions
  are tried best first, and UCB gets ``prior_weight * value / (n + 1)``.
- **Tactical order and widening** (progressive widening, Coulom 2007;
  Chaslot et al. 2008): with ``order`` above 0 a node's actions are ranked
  by :func:`limitgames.hex.tactics.action_kinds` (captures, escapes and
  set-ups first; removals that capture or press an enemy group before those
  that endanger an own one), tried in that order, and UCB gets
  ``order * rank / (n + 1)`` (the rank scaled to 0..1). With ``widen`` above
  0 a node visited ``N`` times has only its first ``1 + widen sqrt(N)``
  actions in play, so a wide move step (a hundred moves and more) is not
  tried move by move before the search looks deeper.
- **Contempt**: a finished game that is a draw (or a shared win) may be
  scored ``-contempt`` for the searching player instead of 0, so that it
  plays on for a win rather than settle for a stalemate (hex draws often).
- **Tree reuse**: the arrays are kept between moves; the next search starts
  from the node of the new position if the tree holds it (found through the
  table), with its statistics.

Layout: node ``i`` has ``ints[i] = (visits, first edge, edges, edges
expanded, mover, proven)``, ``floats[i] = (total of player 0..2, proven
value of player 0..2)`` and its key in ``keys[i]``; edge ``e`` has its
kernel action, its child node (``-1`` while untried) and its prior. Players
are kernel players (turn order), not seats.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from limitgames.agents.hex_search.evaluation import evaluate, scored_outcome
from limitgames.hex import kernel, playouts, tactics
from limitgames.hex.bitboard import Bools, Floats, Ints, Mask, Masks, U, rng_below
from limitgames.hex.codec import is_move, move_tiles, removal_tile
from limitgames.hex.solver import _KEY_WORDS, _key, _time_is_up
from limitgames.hex.surface import MAX_TILES

# node integer columns
_VISITS, _FIRST, _COUNT, _EXPANDED, _MOVER, _PROVEN = 0, 1, 2, 3, 4, 5
_NODE_INTS = 6
# node float columns: totals of players 0..2, then proven values of players 0..2
_TOTAL, _EXACT = 0, 3
_NODE_FLOATS = 6
# counters
_NODES, _EDGES, _ROOT, _FULL = 0, 1, 2, 3
# parameters
_C, _PRIOR, _DEPTH, _TABLE, _SOLVER, _CONTEMPT, _ME, _GREED, _ORDER, _WIDEN, _RAVE = range(11)
_PARAMS = 11
_AMAF_KEYS = 128
"""All-moves-as-first keys: a move by the tile it goes to (0..63), a removal by its tile (64..127)."""

_PATH = 1024
_EMPTY = np.int64(-1)


@njit(cache=True)
def _lookup(table: Ints, keys: Masks, key: Masks, h: Mask) -> int:
    """The node holding ``key``, or ``-1 - slot`` of the free slot where it would go."""
    mask = U(table.shape[0] - 1)
    i = np.int64(h & mask)
    while True:
        node = table[i]
        if node < 0:
            return int(-1 - i)
        same = True
        for w in range(_KEY_WORDS):
            if keys[node, w] != key[w]:
                same = False
                break
        if same:
            return int(node)
        i = (i + 1) & np.int64(mask)


@njit(cache=True)
def _new_node(
    s: Masks,
    ints: Ints,
    floats: Floats,
    keys: Masks,
    table: Ints,
    counters: Ints,
    key: Masks,
    slot: int,
    params: Floats,
) -> int:
    """Append a node for position ``s`` (key ``key``; ``slot``: its free table slot or -1)."""
    node = counters[_NODES]
    counters[_NODES] = node + 1
    ints[node, _VISITS] = 0
    ints[node, _FIRST] = -1
    ints[node, _COUNT] = 0
    ints[node, _EXPANDED] = 0
    for j in range(_NODE_FLOATS):
        floats[node, j] = 0.0
    for w in range(_KEY_WORDS):
        keys[node, w] = key[w]
    if slot >= 0:
        table[slot] = node
    if s[kernel.S_STEP] == kernel.OVER_STEP:
        ints[node, _MOVER] = -1
        ints[node, _PROVEN] = 1
        scored_outcome(s, floats[node, _EXACT:], np.int64(params[_ME]), params[_CONTEMPT])
    else:
        ints[node, _MOVER] = np.int64(s[kernel.S_TO_MOVE])
        ints[node, _PROVEN] = 0
    return int(node)


@njit(cache=True)
def _list_actions(
    nb: Masks,
    ring: Ints,
    s: Masks,
    node: int,
    ints: Ints,
    edge_action: Ints,
    edge_child: Ints,
    edge_prior: Floats,
    counters: Ints,
    params: Floats,
    weights: Floats,
    rng: Masks,
    actions: Ints,
    rows: Ints,
    values: Floats,
) -> None:
    """Give ``node`` (position ``s``) its edges: every legal action, tried in random order, or
    best first by the learned evaluation when the prior is on."""
    n = kernel.legal_actions(nb, s, actions)
    first = counters[_EDGES]
    counters[_EDGES] = first + n
    ints[node, _FIRST] = first
    ints[node, _COUNT] = n
    ints[node, _EXPANDED] = 0
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = rng_below(rng, 0, i + 1)
        a = actions[i]
        actions[i] = actions[j]
        actions[j] = a
    mover = np.int64(s[kernel.S_TO_MOVE])
    if params[_ORDER] > 0.0 and params[_PRIOR] <= 0.0:
        kinds = np.empty(n, np.int64)
        tactics.action_kinds(nb, s, actions, n, kinds)
        order = np.argsort(-kinds, kind="mergesort")
        top = max(kinds.max(), 1) if n else 1
        for i in range(n):
            edge_action[first + i] = actions[order[i]]
            edge_prior[first + i] = kinds[order[i]] / top
            edge_child[first + i] = -1
    elif params[_PRIOR] > 0.0:
        priors = np.empty(n, np.float64)
        for i in range(n):
            child = s.copy()
            kernel.play(nb, ring, child, actions[i])
            if child[kernel.S_STEP] == kernel.OVER_STEP:
                scored_outcome(child, values, np.int64(params[_ME]), params[_CONTEMPT])
            else:
                evaluate(nb, child, weights, rows, values)
            priors[i] = values[mover]
        order = np.argsort(-priors, kind="mergesort")
        for i in range(n):
            edge_action[first + i] = actions[order[i]]
            edge_prior[first + i] = priors[order[i]]
            edge_child[first + i] = -1
    else:
        for i in range(n):
            edge_action[first + i] = actions[i]
            edge_prior[first + i] = 0.0
            edge_child[first + i] = -1


@njit(cache=True)
def _amaf_key(action: int) -> int:
    """The all-moves-as-first key of a kernel action (see :data:`_AMAF_KEYS`)."""
    if is_move(action):
        return move_tiles(action)[1]
    return MAX_TILES + removal_tile(action)


@njit(cache=True)
def _update_amaf(
    path: Ints,
    path_action: Ints,
    length: int,
    history: Ints,
    movers: Ints,
    played: int,
    ints: Ints,
    edge_action: Ints,
    edge_amaf: Floats,
    result: Floats,
    seen: Bools,
) -> None:
    """All-moves-as-first backup (Gelly and Silver 2007): at each node of the path, every listed
    edge whose key its mover played at that point or later in the iteration (in the tree or
    the playout) gets the iteration's result for that mover."""
    seen[:, :] = False
    for j in range(played):
        seen[movers[j], _amaf_key(history[j])] = True
    for i in range(length - 2, -1, -1):
        node = path[i]
        mover = ints[node, _MOVER]
        if mover < 0:
            continue
        seen[mover, _amaf_key(path_action[i])] = True
        first = ints[node, _FIRST]
        for e in range(first, first + ints[node, _COUNT]):
            if seen[mover, _amaf_key(edge_action[e])]:
                edge_amaf[e, 0] += 1.0
                edge_amaf[e, 1] += result[mover]


@njit(cache=True)
def _bring_forward(
    e: int, end: int, edge_action: Ints, edge_prior: Floats, edge_amaf: Floats, params: Floats
) -> None:
    """Swap into slot ``e`` (the next to be tried) the untried edge of ``e..end`` with the best
    all-moves-as-first mean plus tactical bias (untried edges have no child yet)."""
    best = e
    best_score = -np.inf
    bias = params[_ORDER]
    for f in range(e, end):
        n = edge_amaf[f, 0]
        score = bias * edge_prior[f] + (edge_amaf[f, 1] / n if n > 0.0 else 0.0)
        if score > best_score:
            best_score = score
            best = f
    if best != e:
        a = edge_action[e]
        edge_action[e] = edge_action[best]
        edge_action[best] = a
        p = edge_prior[e]
        edge_prior[e] = edge_prior[best]
        edge_prior[best] = p
        for k in range(2):
            x = edge_amaf[e, k]
            edge_amaf[e, k] = edge_amaf[best, k]
            edge_amaf[best, k] = x


@njit(cache=True)
def _select(
    node: int,
    ints: Ints,
    floats: Floats,
    edge_child: Ints,
    edge_prior: Floats,
    edge_amaf: Floats,
    params: Floats,
) -> int:
    """The expanded edge of ``node`` with the best UCB score for its mover (max-n); with RAVE
    the mean is mixed with the edge's all-moves-as-first mean, weight
    ``sqrt(k / (3 n + k))`` (Gelly and Silver 2007)."""
    mover = ints[node, _MOVER]
    first = ints[node, _FIRST]
    log_n = np.log(max(ints[node, _VISITS], 1))
    c = params[_C]
    rave = params[_RAVE]
    prior_weight = params[_PRIOR] if params[_PRIOR] > 0.0 else params[_ORDER]
    best = first
    best_score = -np.inf
    for e in range(first, first + ints[node, _EXPANDED]):
        child = edge_child[e]
        if ints[child, _PROVEN]:
            score = floats[child, _EXACT + mover]
        else:
            n = ints[child, _VISITS]
            if n == 0:
                return e
            mean = floats[child, _TOTAL + mover] / n
            if rave > 0.0 and edge_amaf[e, 0] > 0.0:
                beta = np.sqrt(rave / (3.0 * n + rave))
                mean = (1.0 - beta) * mean + beta * edge_amaf[e, 1] / edge_amaf[e, 0]
            score = mean + c * np.sqrt(log_n / n)
            if prior_weight > 0.0:
                score += prior_weight * edge_prior[e] / (n + 1)
        if score > best_score:
            best_score = score
            best = e
    return int(best)


@njit(cache=True)
def _try_prove(node: int, ints: Ints, floats: Floats, edge_child: Ints) -> bool:
    """Prove ``node`` if a child gives its mover the sole win or all its children are proven."""
    mover = ints[node, _MOVER]
    first = ints[node, _FIRST]
    if first < 0:
        return False
    best = -1
    best_value = -np.inf
    for e in range(first, first + ints[node, _EXPANDED]):
        child = edge_child[e]
        if not ints[child, _PROVEN]:
            continue
        value = floats[child, _EXACT + mover]
        if value >= 1.0:
            best = child
            best_value = value
            break
        if value > best_value:
            best = child
            best_value = value
    if best < 0:
        return False
    if best_value < 1.0:
        if ints[node, _EXPANDED] < ints[node, _COUNT]:
            return False
        for e in range(first, first + ints[node, _COUNT]):
            if not ints[edge_child[e], _PROVEN]:
                return False
    ints[node, _PROVEN] = 1
    for j in range(3):
        floats[node, _EXACT + j] = floats[best, _EXACT + j]
    return True


@njit(cache=True)
def search(
    nb: Masks,
    ring: Ints,
    root_s: Masks,
    ints: Ints,
    floats: Floats,
    keys: Masks,
    table: Ints,
    edge_action: Ints,
    edge_child: Ints,
    edge_prior: Floats,
    edge_amaf: Floats,
    counters: Ints,
    params: Floats,
    weights: Floats,
    rng: Masks,
    max_iterations: int,
    deadline: float,
) -> int:
    """Run up to ``max_iterations`` iterations from the root node ``counters[2]`` (position
    ``root_s``), or until ``deadline`` (``time.perf_counter()`` seconds; 0: none), the root is
    proven, or the arrays are nearly full (then ``counters[3]`` is set). Returns the
    iterations run."""
    root = counters[_ROOT]
    players = np.int64(root_s[kernel.S_PLAYERS])
    use_table = params[_TABLE] > 0.0
    use_solver = params[_SOLVER] > 0.0
    depth = int(params[_DEPTH])
    greed = params[_GREED]
    widen = params[_WIDEN]
    rave = params[_RAVE] > 0.0
    path_action = np.empty(_PATH, np.int64)
    movers = np.empty(8 * 64, np.int64)
    seen = np.zeros((3, _AMAF_KEYS), np.bool_)
    path = np.empty(_PATH, np.int64)
    result = np.zeros(3, np.float64)
    values = np.zeros(3, np.float64)
    rows = np.zeros((3, 7), np.int64)
    actions = np.empty(kernel.MAX_MOVES, np.int64)
    history = np.empty(8 * 64, np.int64)
    key = np.empty(_KEY_WORDS, np.uint64)
    node_room = ints.shape[0] - 2
    edge_room = edge_action.shape[0] - kernel.MAX_MOVES
    done = 0
    while done < max_iterations:
        if ints[root, _PROVEN]:
            break
        if done > 0 and (done & 31) == 0 and deadline > 0.0 and _time_is_up(deadline):
            break
        if counters[_NODES] >= node_room or counters[_EDGES] >= edge_room:
            counters[_FULL] = 1
            break
        s = root_s.copy()
        node = root
        length = 1
        path[0] = root
        played = 0
        while True:
            if ints[node, _PROVEN]:
                for k in range(3):
                    result[k] = floats[node, _EXACT + k]
                break
            if ints[node, _FIRST] < 0:
                _list_actions(
                    nb, ring, s, node, ints, edge_action, edge_child, edge_prior,
                    counters, params, weights, rng, actions, rows, values,
                )  # fmt: skip
                for e in range(ints[node, _FIRST], ints[node, _FIRST] + ints[node, _COUNT]):
                    edge_amaf[e, 0] = 0.0
                    edge_amaf[e, 1] = 0.0
            expanded = ints[node, _EXPANDED]
            room = ints[node, _COUNT]
            if widen > 0.0:
                room = min(room, 1 + int(widen * np.sqrt(ints[node, _VISITS])))
            if expanded < room:
                e = ints[node, _FIRST] + expanded
                if rave:
                    _bring_forward(e, ints[node, _FIRST] + ints[node, _COUNT], edge_action,
                                   edge_prior, edge_amaf, params)  # fmt: skip
                ints[node, _EXPANDED] = expanded + 1
                path_action[length - 1] = edge_action[e]
                kernel.play(nb, ring, s, edge_action[e])
                h = _key(s, key)
                found = _lookup(table, keys, key, h)
                if use_table and found >= 0:
                    edge_child[e] = found
                    node = found
                    path[length] = node
                    length += 1
                    if length >= _PATH:
                        break
                    continue  # a transposition: carry on down the tree
                child = _new_node(
                    s,
                    ints,
                    floats,
                    keys,
                    table,
                    counters,
                    key,
                    -1 if found >= 0 else -1 - found,
                    params,
                )
                edge_child[e] = child
                path[length] = child
                length += 1
                if ints[child, _PROVEN]:
                    for k in range(3):
                        result[k] = floats[child, _EXACT + k]
                else:
                    if greed > 0.0 or rave:
                        played = tactics.tactical_playout(
                            nb, ring, s, rng, 0, depth, history, movers, greed
                        )
                    else:
                        playouts.playout(nb, ring, s, rng, 0, depth, history)
                    if s[kernel.S_STEP] == kernel.OVER_STEP:
                        scored_outcome(s, result, np.int64(params[_ME]), params[_CONTEMPT])
                    else:
                        evaluate(nb, s, weights, rows, result)
                break
            e = _select(node, ints, floats, edge_child, edge_prior, edge_amaf, params)
            path_action[length - 1] = edge_action[e]
            kernel.play(nb, ring, s, edge_action[e])
            node = edge_child[e]
            path[length] = node
            length += 1
            if length >= _PATH:
                for k in range(3):
                    result[k] = 0.0
                break
        for i in range(length):
            n = path[i]
            ints[n, _VISITS] += 1
            for k in range(players):
                floats[n, _TOTAL + k] += result[k]
        if rave:
            _update_amaf(
                path, path_action, length, history, movers, played, ints, edge_action,
                edge_amaf, result, seen,
            )  # fmt: skip
        if use_solver:
            for i in range(length - 2, -1, -1):
                if not _try_prove(path[i], ints, floats, edge_child):
                    break
        done += 1
    return done


@njit(cache=True)
def _find_or_add_root(
    s: Masks, ints: Ints, floats: Floats, keys: Masks, table: Ints, counters: Ints, params: Floats
) -> int:
    """The node of position ``s`` (added if the tree does not hold it); made the root."""
    key = np.empty(_KEY_WORDS, np.uint64)
    h = _key(s, key)
    found = _lookup(table, keys, key, h)
    if found < 0:
        found = _new_node(s, ints, floats, keys, table, counters, key, -1 - found, params)
    counters[_ROOT] = found
    return found


@njit(cache=True)
def _rebuild_table(keys: Masks, nodes: int, table: Ints) -> None:
    """Insert the first ``nodes`` nodes into the empty ``table`` (after the arrays grew)."""
    key = np.empty(_KEY_WORDS, np.uint64)
    for node in range(nodes):
        h = U(0x9E3779B97F4A7C15)
        for w in range(_KEY_WORDS):
            key[w] = keys[node, w]
            h ^= key[w]
            h *= U(0xBF58476D1CE4E5B9)
            h ^= h >> U(31)
        slot = _lookup(table, keys, key, h)
        if slot < 0:
            table[-1 - slot] = node
