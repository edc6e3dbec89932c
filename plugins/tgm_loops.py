"""The TGM randomizers' deal loops, run in Python for small batches and compiled by numba
(:func:`croupier.engine.compiled`) for batches of ``COMPILED_FROM`` pieces or more.

They are plain functions of lists or arrays (the same code either way), so a seed deals
the same pieces whatever the batches. Each deals pieces from the draws it is given until
``n`` are dealt or the draws may run out in the middle of a piece; it then returns what it
dealt and how many draws it used, and the caller peeks more (a piece that ran out is dealt
again from the start, so nothing is half-used). Membership in the history is spelled out
as comparisons: compiled, they stay in registers.
"""

from __future__ import annotations

from typing import Any

Ints = Any
"""A list of ints in Python, an integer array when compiled."""


def deal_history(
    draws: Ints, out: Ints, start: int, n: int, history: Ints, rolls: int
) -> tuple[int, int, int]:
    """TGM1/TGM2 (``rolls`` rolls, or until a piece outside the history when ``rolls`` is
    0) into ``out[start:n]``; ``history`` (4 pieces, oldest first) is updated in place.
    Returns (the end of what was dealt, draws used, roll failures)."""
    h0, h1, h2, h3 = history[0], history[1], history[2], history[3]
    m = len(draws)
    used = 0
    fails = 0
    j = start
    while j < n:
        k = used
        p = -1
        failed = 0
        tries = 0
        while True:
            if k >= m:
                history[0], history[1], history[2], history[3] = h0, h1, h2, h3
                return j, used, fails
            p = int(draws[k])
            k += 1
            tries += 1
            if p != h0 and p != h1 and p != h2 and p != h3:
                break
            if rolls and tries == rolls:
                failed = 1
                break
        out[j] = p
        j += 1
        used = k
        fails += failed
        h0, h1, h2, h3 = h1, h2, h3, p
    history[0], history[1], history[2], history[3] = h0, h1, h2, h3
    return j, used, fails


def deal_tgm3(
    slots: Ints, out: Ints, start: int, n: int, pool: Ints, drought: Ints, history: Ints
) -> tuple[int, int, int]:
    """TGM3 (:class:`croupier.plugins.tgm.Tgm3`) into ``out[start:n]``, its pool, drought
    order and history updated in place; a piece is begun only with 6 slots in hand (a
    rejected roll rewrites the pool). Returns (end, slots used, roll failures)."""
    m = len(slots)
    used = 0
    fails = 0
    j = start
    h0, h1, h2, h3 = history[0], history[1], history[2], history[3]
    while j < n and m - used >= 6:
        i = 0
        p = 0
        for attempt in range(6):
            i = int(slots[used])
            used += 1
            p = int(pool[i])
            if p != h0 and p != h1 and p != h2 and p != h3:
                break
            if attempt == 5:
                fails += 1
                break
            pool[i] = drought[0]
        at = 0
        while drought[at] != p:
            at += 1
        while at < 6:
            drought[at] = drought[at + 1]
            at += 1
        drought[6] = p
        pool[i] = drought[0]
        h0, h1, h2, h3 = h1, h2, h3, p
        out[j] = p
        j += 1
    history[0], history[1], history[2], history[3] = h0, h1, h2, h3
    return j, used, fails
