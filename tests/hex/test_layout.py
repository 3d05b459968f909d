"""The nestorgames layout sampler (``limitgames.hex.layout``) against naive enumerations.

Every expected value below comes from an enumeration written here, independently
of the sampler (plain Python over sets of cells), or from the rulebook: the
513 shapes of 8 cells are the count quoted by the issue that asked for this
sampler. ``rules/hex.md``, "Edition nestorgames", Setup: ``4n`` tiles, ``n`` per
colour, one connected group, every tile adjacent to at least 2 others, no two
tiles of one colour adjacent, and every pawn tile (red, blue; yellow too with
3 players) adjacent to a tile that carries no pawn.

Size 2 is enumerated in full (513 shapes; 219,864 legal layouts with 2 players,
45,036 with 3). Size 3 is not: a plain-Python enumeration (Redelmeier's
method, about 20 s) finds 8,182,213 polyhexes of 12 cells, 133,402 of them
with at least 2 neighbours per cell, but counting the legal colourings of a
shape takes about 50 ms, some two hours in all, far past the slow tier. At size 3 (and 8) the draws are checked against
exact laws that follow from the symmetries of the rule instead (see below).
"""

from __future__ import annotations

import collections
import functools
import math
import operator
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterable

import pytest

from limitgames.hex.layout import (
    COLOURS,
    GROWTH_PULL,
    Layout,
    chain_steps,
    colour_shape,
    draw_layout,
    generate_layout,
    grow_layout,
    layout_problems,
    normalise,
    sample_layout,
)
from tests.deadlines import scaled

Cell = tuple[int, int]
Shape = tuple[Cell, ...]  # cells sorted by (r, q), translated to min q = min r = 0

STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # the six axial neighbours
P_MIN = 0.001  # chi-square tests fail below this p-value (seeds are fixed: deterministic)


# --------------------------------------------------------------------------- enumeration


def _canon(cells: Iterable[Cell]) -> Shape:
    cells = list(cells)
    q0 = min(q for q, _ in cells)
    r0 = min(r for _, r in cells)
    return tuple(sorted(((q - q0, r - r0) for q, r in cells), key=lambda c: (c[1], c[0])))


def _nbrs(cell: Cell) -> list[Cell]:
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in STEPS]


@functools.cache
def polyhexes(m: int) -> frozenset[Shape]:
    """Every connected set of ``m`` cells up to translation, grown cell by cell."""
    level = {_canon([(0, 0)])}
    for _ in range(m - 1):
        nxt = set()
        for shape in level:
            cells = set(shape)
            for cell in shape:
                for nb in _nbrs(cell):
                    if nb not in cells:
                        nxt.add(_canon([*shape, nb]))
        level = nxt
    return frozenset(level)


@functools.cache
def shapes(m: int) -> tuple[Shape, ...]:
    """Polyhexes of ``m`` cells in which every cell has at least 2 neighbours, sorted."""
    out = []
    for shape in polyhexes(m):
        cells = set(shape)
        if all(sum(nb in cells for nb in _nbrs(c)) >= 2 for c in shape):
            out.append(shape)
    return tuple(sorted(out))


def colourings(shape: Shape, n: int, players: int) -> list[tuple[int, ...]]:
    """Every legal colouring of ``shape`` (colour indices in the order of ``shape``)."""
    index = {c: i for i, c in enumerate(shape)}
    adj = [[index[nb] for nb in _nbrs(c) if nb in index] for c in shape]
    out: list[tuple[int, ...]] = []
    colour = [-1] * len(shape)
    left = [n] * 4

    def free(i: int) -> bool:
        return colour[i] >= players or any(colour[j] >= players for j in adj[i])

    def place(i: int) -> None:
        if i == len(shape):
            if all(free(k) for k in range(len(shape))):
                out.append(tuple(colour))
            return
        for c in range(4):
            if left[c] and all(colour[j] != c for j in adj[i]):
                colour[i] = c
                left[c] -= 1
                place(i + 1)
                left[c] += 1
                colour[i] = -1

    place(0)
    return out


@functools.cache
def legal_layouts(n: int, players: int) -> dict[Shape, list[tuple[int, ...]]]:
    """Every legal layout of size ``n``: shape -> its legal colourings (shapes with none left out)."""
    out = {}
    for shape in shapes(4 * n):
        cols = colourings(shape, n, players)
        if cols:
            out[shape] = cols
    return out


def as_layout(shape: Shape, colouring: tuple[int, ...]) -> Layout:
    return {cell: COLOURS[c] for cell, c in zip(shape, colouring, strict=True)}


# --------------------------------------------------------------------------- chi-square


def _upper_gamma_regularised(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a) (series below a + 1, continued fraction above)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        while term > total * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = x + 1 - a
    c = 1e300
    d = 1 / b
    h = d
    i = 0
    while True:
        i += 1
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def test_chi_square_p_value_matches_known_values() -> None:
    # chi2 with 1 df at 3.841 and 10 df at 18.307: p = 0.05; 2 df: p = exp(-x/2)
    assert _upper_gamma_regularised(0.5, 3.841459 / 2) == pytest.approx(0.05, abs=1e-6)
    assert _upper_gamma_regularised(5.0, 18.307038 / 2) == pytest.approx(0.05, abs=1e-6)
    assert _upper_gamma_regularised(1.0, 7.3) == pytest.approx(math.exp(-7.3), rel=1e-12)
    # integer a: Q(a, x) = P(Poisson(x) < a), summed directly
    for a, x in ((250, 200.0), (250, 260.0), (40, 55.5)):
        poisson = sum(math.exp(-x + k * math.log(x) - math.lgamma(k + 1)) for k in range(a))
        assert _upper_gamma_regularised(float(a), x) == pytest.approx(poisson, rel=1e-9)


def chi_square(
    observed: dict[object, int], weights: dict[object, float]
) -> tuple[float, int, float]:
    """Pearson's test of ``observed`` counts against probabilities ``weights`` (normalised here).

    Categories are pooled, from the least expected up, until each pool expects
    at least 5. A category observed but of weight 0 makes the statistic infinite.
    Returns ``(statistic, degrees of freedom, p-value)``.
    """
    total = sum(observed.values())
    wsum = sum(weights.values())
    if any(k not in weights or weights[k] == 0 for k in observed if observed[k]):
        return math.inf, 0, 0.0
    cats = sorted(weights, key=lambda k: weights[k])
    pools: list[tuple[float, float]] = []
    o = e = 0.0
    for k in cats:
        o += observed.get(k, 0)
        e += total * weights[k] / wsum
        if e >= 5:
            pools.append((o, e))
            o = e = 0.0
    if e:
        last_o, last_e = pools.pop()
        pools.append((last_o + o, last_e + e))
    stat = sum((o - e) ** 2 / e for o, e in pools)
    df = len(pools) - 1
    return stat, df, _upper_gamma_regularised(df / 2, stat / 2)


def uniformity_p_values(
    draw: Callable[[random.Random], Layout], n: int, players: int, count: int, seed: int
) -> tuple[float, float]:
    """p-values of two chi-square tests of ``count`` draws against the uniform law on legal layouts.

    1. the shape (expected: proportional to its number of legal colourings);
    2. the colours of the first and last cell of the layout (in row, then q order),
       pooled over all shapes.
    """
    legal = legal_layouts(n, players)
    rng = random.Random(seed)
    by_shape: collections.Counter[object] = collections.Counter()
    by_ends: collections.Counter[object] = collections.Counter()
    for _ in range(count):
        layout = draw(rng)
        cells = tuple(layout)
        by_shape[cells] += 1
        by_ends[(layout[cells[0]], layout[cells[-1]])] += 1
    w_shape = {s: float(len(c)) for s, c in legal.items()}
    w_ends: collections.Counter[object] = collections.Counter()
    for cols in legal.values():
        for c in cols:
            w_ends[(COLOURS[c[0]], COLOURS[c[-1]])] += 1
    return chi_square(by_shape, w_shape)[2], chi_square(by_ends, dict(w_ends))[2]


# --------------------------------------------------------------------------- size 2


def test_size_2_enumeration() -> None:
    assert len(polyhexes(8)) == 16689  # fixed octahexes (OEIS A001207)
    assert len(shapes(8)) == 513  # the count of shapes with the 2-neighbour rule
    two, three = legal_layouts(2, 2), legal_layouts(2, 3)
    assert len(two) == 513 and len(three) == 510
    assert sum(map(len, two.values())) == 219_864
    assert sum(map(len, three.values())) == 45_036
    # the enumeration agrees with layout_problems on a sample (legal and illegal)
    rng = random.Random(0)
    for shape in rng.sample(sorted(two), 20):
        for c in two[shape][:3]:
            assert layout_problems(as_layout(shape, c), 2, 2) == []
        bad = tuple(sorted(two[shape][0][:2])) + two[shape][0][2:]
        if bad not in two[shape]:
            assert layout_problems(as_layout(shape, bad), 2, 2) != []


class _UnionFind:
    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, x: int) -> int:
        p = self.parent
        while p[x] != x:
            p[x] = p[p[x]]
            x = p[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


@pytest.mark.slow  # enumerates every legal layout of size 2 (53 s under load)
@pytest.mark.parametrize("players", [2, 3])
def test_chain_moves_connect_every_legal_layout_of_size_2(players: int) -> None:
    """Irreducibility, checked: even without ever leaving the legal layouts, the
    chain's jumps (a tile to any cell next to the others) and colour swaps
    connect all legal layouts of size 2."""
    legal = legal_layouts(2, players)
    layouts = [(shape, c) for shape, cols in legal.items() for c in cols]
    ident = {(shape, c): k for k, (shape, c) in enumerate(layouts)}
    uf = _UnionFind(len(layouts))
    # jumps: two layouts are one jump apart iff they agree once one tile of the same
    # colour is lifted from each (up to translation): group them by what stays
    first: dict[object, int] = {}
    for shape, cols in legal.items():
        for i in range(len(shape)):
            rest = _canon(cell for t, cell in enumerate(shape) if t != i)
            index = {cell: t for t, cell in enumerate(shape)}
            q0 = min(cell[0] for t, cell in enumerate(shape) if t != i)
            r0 = min(cell[1] for t, cell in enumerate(shape) if t != i)
            order = [index[(q + q0, r + r0)] for q, r in rest]
            colours_of_rest = operator.itemgetter(*order)
            for c in cols:
                k = ident[(shape, c)]
                other = first.setdefault((rest, c[i], colours_of_rest(c)), k)
                if other != k:
                    uf.union(other, k)
    # jumps alone leave several classes (241 with 2 players, 20 with 3): swaps are needed
    sizes = collections.Counter(uf.find(k) for k in range(len(layouts)))
    assert len(sizes) > 1
    # swaps: from every layout outside the largest class, try every colour swap
    biggest = sizes.most_common(1)[0][0]
    for k, (shape, c) in enumerate(layouts):
        if uf.find(k) == biggest:
            continue
        for i in range(len(c)):
            for j in range(i + 1, len(c)):
                if c[i] != c[j]:
                    s = list(c)
                    s[i], s[j] = s[j], s[i]
                    other = ident.get((shape, tuple(s)))
                    if other is not None:
                        uf.union(other, k)
    assert len({uf.find(k) for k in range(len(layouts))}) == 1


@pytest.mark.parametrize("players", [2, 3])
def test_size_2_draws_are_uniform(players: int) -> None:
    p_shape, p_ends = uniformity_p_values(
        lambda rng: generate_layout(2, players, rng), 2, players, 25_000, seed=2024
    )
    assert p_shape > P_MIN and p_ends > P_MIN, (p_shape, p_ends)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_size_2_draws_are_uniform_in_detail(players: int) -> None:
    """200,000 draws against the exact law of (shape, colour of the first cell, of the last cell)."""
    legal = legal_layouts(2, players)
    weights: collections.Counter[object] = collections.Counter()
    for shape, cols in legal.items():
        for c in cols:
            weights[(shape, c[0], c[-1])] += 1
    rng = random.Random(99)
    seen: collections.Counter[object] = collections.Counter()
    for _ in range(200_000):
        layout = generate_layout(2, players, rng)
        cells = tuple(layout)
        seen[(cells, COLOURS.index(layout[cells[0]]), COLOURS.index(layout[cells[-1]]))] += 1
    stat, df, p = chi_square(seen, dict(weights))
    assert p > P_MIN, (stat, df, p)


@pytest.mark.parametrize("players", [2, 3])
def test_the_uniformity_check_catches_a_biased_sampler(players: int) -> None:
    """The same check on the chain run for too few steps (a start that has not mixed) fails."""
    p_shape, p_ends = uniformity_p_values(
        lambda rng: sample_layout(2, players, rng, 20), 2, players, 25_000, seed=2024
    )
    assert min(p_shape, p_ends) < 1e-9, (p_shape, p_ends)


# --------------------------------------------------------------------------- symmetries, any size
#
# Expected values by hand: the rule is the same after a rotation of the grid by
# 60 degrees, (q, r) -> (-r, q + r), which turns the three axes of adjacency
# (along (1, 0), (0, 1) and (1, -1)) into one another in a cycle, and after
# exchanging red and blue (both carry pawns), yellow and black with 2 players
# (both pawn-free), red, blue and yellow with 3 players. Each maps legal
# layouts one-to-one onto legal layouts, so under the uniform law the axis
# with the most adjacent pairs is each axis with probability 1/3 (layouts with
# a tie left out), and the first tile (in row, then q order) is red as often
# as blue, and so on. These tests catch a chain that favours a direction or a
# colour (a wrong sign in a move, say); they cannot see slow mixing.


def _axis_with_most_pairs(layout: Layout) -> int | None:
    counts = [0, 0, 0]
    for q, r in layout:
        for axis, (dq, dr) in enumerate(((1, 0), (0, 1), (1, -1))):
            counts[axis] += (q + dq, r + dr) in layout
    best = max(counts)
    return counts.index(best) if counts.count(best) == 1 else None


@pytest.mark.parametrize(
    ("n", "players", "count"), [(3, 2, 6000), (3, 3, 6000), (8, 2, 1500), (8, 3, 1000)]
)
def test_draws_respect_the_symmetries_of_the_rule(n: int, players: int, count: int) -> None:
    rng = random.Random(77)
    axes: collections.Counter[int] = collections.Counter()
    first: collections.Counter[str] = collections.Counter()
    for _ in range(count):
        layout = generate_layout(n, players, rng)
        axis = _axis_with_most_pairs(layout)
        if axis is not None:
            axes[axis] += 1
        first[next(iter(layout.values()))] += 1
    assert chi_square(axes, {0: 1.0, 1: 1.0, 2: 1.0})[2] > P_MIN, axes
    groups = [("red", "blue"), ("yellow", "black")] if players == 2 else [("red", "blue", "yellow")]
    for group in groups:
        sub = {c: first[c] for c in group}
        assert chi_square(sub, dict.fromkeys(group, 1.0))[2] > P_MIN, first


# --------------------------------------------------------------------------- every size


@pytest.mark.parametrize("players", [2, 3])
def test_every_draw_is_legal_at_every_size(players: int) -> None:
    rng = random.Random(players)
    for n in range(2, 17):
        for _ in range(3 if n <= 8 else 1):
            layout = generate_layout(n, players, rng)
            assert layout_problems(layout, n, players) == [], (n, layout)
            assert layout == normalise(layout)
            assert list(layout) == sorted(layout, key=lambda c: (c[1], c[0]))
            assert min(q for q, _ in layout) == 0 and min(r for _, r in layout) == 0


def test_draws_are_reproducible() -> None:
    for players in (2, 3):
        a = [generate_layout(6, players, random.Random(s)) for s in range(5)]
        b = [generate_layout(6, players, random.Random(s)) for s in range(5)]
        assert a == b
        assert len({tuple(x.items()) for x in a}) == 5


def test_bad_arguments_are_refused() -> None:
    rng = random.Random(1)
    for n, players in ((1, 2), (17, 2), (8, 1), (8, 4)):
        with pytest.raises(ValueError):
            generate_layout(n, players, rng)
    with pytest.raises(ValueError):
        sample_layout(4, 2, rng, 0)
    assert chain_steps(8, 2) > 0 and chain_steps(8, 3) > 0


def test_the_chain_runs_without_numba_and_agrees_with_the_compiled_one() -> None:
    code = (
        "import random, json\n"
        "from numba import config\n"
        "assert config.DISABLE_JIT\n"
        "from limitgames.hex.layout import generate_layout, layout_problems\n"
        "lay = generate_layout(2, 3, random.Random(7))\n"
        "assert layout_problems(lay, 2, 3) == []\n"
        "print(json.dumps(sorted([q, r, c] for (q, r), c in lay.items())))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    src = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    env["PYTHONPATH"] = os.pathsep.join([os.path.abspath(src), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=scaled(240)
    )
    assert done.returncode == 0, done.stderr
    compiled = generate_layout(2, 3, random.Random(7))
    assert done.stdout.strip() == str(sorted([q, r, c] for (q, r), c in compiled.items())).replace(
        "'", '"'
    )


# --------------------------------------------------------------------------- the grown law


def growth_law(m: int, pull: float) -> dict[Shape, float]:
    """The exact law of :func:`grow_layout`'s shapes before the 2-neighbour check, computed
    naively: every set of cells grown from (0, 0), with the probability of each way to grow
    it (a touching cell is chosen with weight ``exp(pull * tiles it touches)``), summed by
    shape up to translation."""
    weight = [math.exp(pull * k) for k in range(7)]
    level: dict[frozenset[Cell], float] = {frozenset([(0, 0)]): 1.0}
    for _ in range(m - 1):
        grown: dict[frozenset[Cell], float] = collections.defaultdict(float)
        for cells, p in level.items():
            touching: collections.Counter[Cell] = collections.Counter(
                nb for c in cells for nb in _nbrs(c) if nb not in cells
            )
            total = sum(weight[k] for k in touching.values())
            for cell, k in touching.items():
                grown[cells | {cell}] += p * weight[k] / total
        level = grown
    law: dict[Shape, float] = collections.defaultdict(float)
    for cells, p in level.items():
        law[_canon(cells)] += p
    return law


@pytest.mark.slow  # enumerates the grown layouts of size 2 (52-74 s under load)
@pytest.mark.parametrize("players", [2, 3])
def test_size_2_grown_shapes_follow_the_growth_law(players: int) -> None:
    """Shapes of 8,000 grown layouts against the exact growth law conditioned on the shapes
    that have a legal colouring (the sampler grows again otherwise); and every such shape
    has a positive chance (the rules page: no layout may be impossible)."""
    legal = legal_layouts(2, players)
    law = {shape: p for shape, p in growth_law(8, GROWTH_PULL).items() if shape in legal}
    assert set(law) == set(legal) and min(law.values()) > 0
    rng = random.Random(77)
    counts: collections.Counter[object] = collections.Counter(
        tuple(grow_layout(2, players, rng)) for _ in range(8000)
    )
    assert chi_square(counts, dict(law))[2] > P_MIN
    # the same test tells another growth law apart (pull 0: any touching cell alike)
    flat = {shape: p for shape, p in growth_law(8, 0.0).items() if shape in legal}
    assert chi_square(counts, flat)[2] < P_MIN


@pytest.mark.parametrize("players", [2, 3])
def test_every_legal_colouring_of_a_shape_can_be_dealt(players: int) -> None:
    """On the six size-2 shapes with the fewest legal colourings (24 to 144), 40 deals per
    colouring find every legal colouring of the enumeration and nothing else."""
    legal = legal_layouts(2, players)
    rng = random.Random(5)
    for shape in sorted(legal, key=lambda s: (len(legal[s]), s))[:6]:
        expected = set(legal[shape])
        seen = set()
        for _ in range(40 * len(expected)):
            dealt = colour_shape(list(shape), 2, players, rng)
            assert dealt is not None
            seen.add(tuple(COLOURS.index(dealt[cell]) for cell in shape))
        assert seen == expected, shape


def test_grown_layouts_are_compact_and_uniform_ones_thin() -> None:
    """What the law is for: at size 8 grown layouts have far more touching pairs of tiles
    than uniform ones (a hexagon of 37 cells has 90; a straight line of 32 has 31)."""

    def pairs(layout: Layout) -> int:
        return sum(nb in layout for cell in layout for nb in _nbrs(cell)) // 2

    rng = random.Random(3)
    grown = sum(pairs(grow_layout(8, 2, rng)) for _ in range(100)) / 100
    uniform = sum(pairs(generate_layout(8, 2, rng)) for _ in range(100)) / 100
    assert grown > 65 > 50 > uniform


@pytest.mark.parametrize("players", [2, 3])
def test_every_grown_layout_is_legal_and_reproducible(players: int) -> None:
    for n in range(2, 17):
        rng = random.Random(n)
        for _ in range(5):
            layout = grow_layout(n, players, rng)
            assert layout_problems(layout, n, players) == []
            assert layout == normalise(layout)
    assert grow_layout(8, players, random.Random(9)) == grow_layout(8, players, random.Random(9))
    assert draw_layout("grown", 8, players, random.Random(9)) == grow_layout(
        8, players, random.Random(9)
    )
    assert draw_layout("uniform", 8, players, random.Random(9)) == generate_layout(
        8, players, random.Random(9)
    )


def test_bad_layout_laws_and_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="layout must be one of grown, uniform"):
        draw_layout("square", 8, 2, random.Random(1))
    with pytest.raises(ValueError, match="size must be"):
        grow_layout(1, 2, random.Random(1))
    with pytest.raises(ValueError, match="players must be"):
        grow_layout(8, 4, random.Random(1))
