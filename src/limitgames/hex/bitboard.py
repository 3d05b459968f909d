"""64-bit tile masks and the kernel's random numbers, for Numba-compiled code.

Every set of tiles of a hex game is one ``uint64`` word: the tiles are
numbered 0..63 (a size-16 game has 64 tiles). The functions here are the
primitives the kernel (:mod:`limitgames.hex.kernel`) and the layout chain
(:mod:`limitgames.hex.layout`) build on:

- :func:`popcount` and :func:`lowest_index` compile to one instruction each
  (LLVM ``ctpop`` / ``cttz``) inside ``@njit`` code, and run as plain Python
  (``int.bit_count``) when Numba's JIT is off (``NUMBA_DISABLE_JIT=1``);
- :func:`rng_next` / :func:`rng_below` are a xorshift64 generator whose whole
  state is one ``uint64`` in an array slot, so every game of a batch has its
  own reproducible stream whatever thread plays it.

All masks are ``np.uint64``; constants are written ``U(...)`` so that no
arithmetic mixes signed and unsigned integers (which Numba would turn into
floats).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeAlias

import llvmlite.ir as llvm_ir
import numba
import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

# The types compiled code passes (annotations only: Numba infers its own from the values)
Mask: TypeAlias = np.uint64
"""A set of tiles: one ``uint64``, bit ``t`` for tile ``t``."""
Masks: TypeAlias = npt.NDArray[np.uint64]
"""``uint64`` arrays: tile masks (``nb``, the neighbour table; ``comps``), the kernel state
vector ``s`` and the xorshift64 states ``rng``."""
Ints: TypeAlias = npt.NDArray[np.int64]
"""``int64`` arrays: actions, tile indices, the cyclic neighbour table ``ring``, counts."""
Floats: TypeAlias = npt.NDArray[np.float64]
"""``float64`` arrays: returns, values, weights."""
Bools: TypeAlias = npt.NDArray[np.bool_]
"""``bool`` arrays: legal-action masks, done and accepted flags."""
Int: TypeAlias = int | np.int64
"""An integer as compiled code passes it: a Python ``int`` or a NumPy ``int64`` (an array
element or a cast like ``np.int64(s[S_PLAYERS])``)."""


def _cache_directory(*folders: Path) -> Path:
    """Where the compiled hex code is kept: the user's cache, in a folder named after the
    sources of this package (and of ``folders``: see :func:`numba_cache_including`).

    Numba checks only the file of each cached function, not the files of the
    functions it calls (a kernel change would leave the batch entry points
    stale), so the cache is keyed by every source file of ``limitgames.hex``:
    any change compiles afresh. ``NUMBA_CACHE_DIR`` set by the user wins.
    """
    digest = hashlib.sha256()
    for folder in (Path(__file__).parent, *folders):
        for source in sorted(folder.glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return home / "limitgames" / "numba" / digest.hexdigest()[:16]


@contextmanager
def numba_cache_including(folder: Path) -> Iterator[None]:
    """Within the block, functions compiled with ``cache=True`` are cached in a folder keyed by
    the hex sources and those of ``folder`` (a package of compiled code built on the kernel,
    such as the agents' compiled search), so that a change to either compiles afresh.
    Import that package's modules inside the block, and the hex modules they use before it.
    ``NUMBA_CACHE_DIR`` set by the user wins."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        yield
        return
    before = numba.config.CACHE_DIR  # type: ignore[attr-defined]
    numba.config.CACHE_DIR = str(_cache_directory(folder))  # type: ignore[attr-defined]
    try:
        yield
    finally:
        numba.config.CACHE_DIR = before  # type: ignore[attr-defined]


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(_cache_directory())  # type: ignore[attr-defined]

U = np.uint64
"""The mask type; ``U(1)`` is the one-bit mask of tile 0."""

ZERO = U(0)
ONE = U(1)


def popcount(mask: Mask | int) -> int:
    """The number of tiles in ``mask`` (set bits of a ``uint64``)."""
    return int(mask).bit_count()


def lowest_index(mask: Mask | int) -> int:
    """The index of the lowest tile of ``mask`` (``mask`` must not be 0)."""
    m = int(mask)
    return (m & -m).bit_length() - 1


def _unary_intrinsic(name: str) -> Any:
    @intrinsic
    def call(typingctx: Any, x: Any) -> Any:
        sig = types.uint64(types.uint64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            i64 = llvm_ir.IntType(64)
            if name == "llvm.cttz.i64":
                fnty = llvm_ir.FunctionType(i64, [i64, llvm_ir.IntType(1)])
                fn = cgutils.get_or_insert_function(builder.module, fnty, name)  # type: ignore[no-untyped-call]
                return builder.call(fn, [args[0], llvm_ir.Constant(llvm_ir.IntType(1), 0)])
            fnty = llvm_ir.FunctionType(i64, [i64])
            fn = cgutils.get_or_insert_function(builder.module, fnty, name)  # type: ignore[no-untyped-call]
            return builder.call(fn, [args[0]])

        return sig, codegen

    return call


_ctpop = _unary_intrinsic("llvm.ctpop.i64")
_cttz = _unary_intrinsic("llvm.cttz.i64")


@overload(popcount, inline="always")
def _popcount_compiled(mask: Any) -> Any:
    def impl(mask: Any) -> Any:
        return np.int64(_ctpop(np.uint64(mask)))

    return impl


@overload(lowest_index, inline="always")
def _lowest_index_compiled(mask: Any) -> Any:
    def impl(mask: Any) -> Any:
        return np.int64(_cttz(np.uint64(mask)))

    return impl


@njit(cache=True, inline="always")
def bit(index: Int) -> Mask:
    """The one-tile mask of tile ``index`` (0..63)."""
    return ONE << U(index)


@njit(cache=True, inline="always")
def nth_index(mask: Mask, k: Int) -> int:
    """The index of the ``k``-th lowest tile of ``mask`` (0-based; ``k < popcount(mask)``)."""
    m = mask
    for _ in range(k):
        m &= m - ONE
    return lowest_index(m)


@njit(cache=True, inline="always")
def rng_next(rng: Masks, slot: Int) -> Mask:
    """Advance the xorshift64 state ``rng[slot]`` (a nonzero ``uint64``) and return the new word."""
    x = rng[slot]
    x ^= x << U(13)
    x ^= x >> U(7)
    x ^= x << U(17)
    rng[slot] = x
    return U(x)


@njit(cache=True, inline="always")
def rng_below(rng: Masks, slot: Int, n: Int) -> Int:
    """A random integer in ``[0, n)`` (``0 < n < 2**32``) from ``rng[slot]``.

    Takes the top 32 bits of the next word, scaled by ``n`` (bias below
    ``n / 2**32``, far below anything a test or a game can see).
    """
    x = rng_next(rng, slot) >> U(32)
    return np.int64((x * U(n)) >> U(32))


@njit(cache=True, inline="always")
def rng_uniform(rng: Masks) -> float:
    """A random float in ``[0, 1)`` with 53 random bits, from ``rng[0]``."""
    return float(rng_next(rng, 0) >> U(11)) * (1.0 / 9007199254740992.0)


def seed_word(seed: int) -> Mask:
    """A nonzero xorshift64 state from any integer seed (splitmix64 finaliser, in Python)."""
    z = (seed + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return U(z or 0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def lowest_bit(mask: Mask) -> Mask:
    """The one-tile mask of the lowest tile of ``mask`` (0 if ``mask`` is 0)."""
    return mask & (~mask + ONE)
