"""Plain-Python loops compiled by numba on first use, for big batches only.

A randomizer's deal loop is written once, as a function of lists or arrays; it runs as
Python for a small batch (importing numba and loading a compiled function costs about half
a second, far more than a few thousand pieces) and compiled for a batch of at least
:data:`COMPILED_FROM` pieces, where it is 10-50 times faster. Same code, same draws, so the
same pieces either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from croupier.engine.draws import UniformDraws

F = TypeVar("F", bound=Callable[..., Any])

COMPILED_FROM = 20_000
"""The batch size from which a randomizer deals through its compiled loop."""

Indices = Sequence[int] | npt.NDArray[Any]
"""Pieces as indices into a randomizer's symbols: a list, or an array from compiled code."""

_compiled: dict[Callable[..., Any], Callable[..., Any]] = {}


def compiled(loop: F) -> F:
    """``loop`` compiled by numba (imported now if it was not), once per process; numba
    caches the machine code on disk, so later processes only load it."""
    fast = _compiled.get(loop)
    if fast is None:
        from numba import njit

        fast = _compiled[loop] = njit(cache=True, nogil=True)(loop)
    return fast  # type: ignore[return-value]


def run_loop(
    loop: Callable[..., tuple[int, int, int]],
    draws: UniformDraws,
    n: int,
    per_piece: float,
    *state: Any,
) -> tuple[Indices, int]:
    """Deal ``n`` pieces by ``loop`` from ``draws``: compiled when ``n`` is big enough.

    ``loop(draws, out, start, n, *state)`` fills ``out[start:end]`` from the draws it is
    given and returns ``(end, draws used, roll failures)``; it may stop early when the
    draws run short (a piece it cannot finish is left for the next call). ``per_piece``
    is about how many draws a piece takes, so the draws peeked are about what is needed.
    Lists in ``state`` are updated in place (as arrays while compiled). Returns the
    pieces (indices, a list or an array) and the roll failures.
    """
    big = n >= COMPILED_FROM
    fn = compiled(loop) if big else loop
    args = [np.array(s, np.int64) if big and isinstance(s, list) else s for s in state]
    out: Any = np.empty(n, np.int64) if big else [0] * n
    dealt = fails = 0
    want = int(n * per_piece) + 8
    while dealt < n:
        ahead = draws.peek(want)[:want]
        end, used, failed = fn(ahead if big else ahead.tolist(), out, dealt, n, *args)
        draws.advance(used)
        fails += failed
        want = int((n - end) * per_piece) + 8 if end > dealt else 2 * want
        dealt = end
    for s, a in zip(state, args, strict=True):
        if a is not s:
            s[:] = a.tolist()
    return out, fails


def symbols_of(symbols: Sequence[str], indices: Indices) -> list[str]:
    """``[symbols[i] for i in indices]``, for a list of indices or an array of them (an
    array of one-letter symbols goes through a string: ``list`` of a str is the fastest
    way Python has to build a list of one-letter strings)."""
    if not isinstance(indices, np.ndarray):
        return list(map(symbols.__getitem__, indices))
    if all(len(s) == 1 and ord(s) < 256 for s in symbols):
        letters = np.frombuffer("".join(symbols).encode("latin-1"), np.uint8)
        return list(letters.take(indices).tobytes().decode("latin-1"))
    return np.array(symbols, dtype=object).take(indices).tolist()  # type: ignore[no-any-return]
