"""The Blackjack language's deal loops for big batches, compiled by numba
(:func:`croupier.engine.loops.compiled`) from these plain functions.

Each reads exactly the draws (or bytes) its randomizer's Python path reads, in the same
order (see :mod:`.randomizers`), so a seed deals the same pieces whatever the batches; the
tests compare the two paths. A loop that may run short of draws in the middle of a piece
or bag leaves that piece for the next call (see :func:`~croupier.engine.loops.run_loop`).
"""

from __future__ import annotations

from typing import Any

Ints = Any
"""A list of ints in Python, an integer array when compiled."""


def decode_bags(draws: Ints, out: Ints, size: int, count: int) -> None:
    """One bag per draw ``u`` (in ``[0, size!)``): Fisher-Yates from the last position
    down over ``0..size-1`` (swap ``i`` with ``u % (i + 1)``, then ``u //= i + 1``); its
    first ``count`` entries go to ``out``, bag after bag."""
    bag = [0] * size
    j = 0
    for t in range(len(draws)):
        for i in range(size):
            bag[i] = i
        v = int(draws[t])
        for i in range(size - 1, 0, -1):
            k = v % (i + 1)
            v = v // (i + 1)
            bag[i], bag[k] = bag[k], bag[i]
        for i in range(count):
            out[j] = bag[i]
            j += 1


def sample_bags(
    buf: Ints, out: Ints, start: int, bags: int, work: Ints, ranges: Ints, widths: Ints
) -> tuple[int, int]:
    """Bags by partial Fisher-Yates on ``work`` (which persists from bag to bag), reading
    ``buf`` as ``Stream.randbelow`` reads the stream: per swap ``i`` a try of ``widths[i]``
    little-endian bytes masked to the bits of ``ranges[i] - 1``, rejected at
    ``ranges[i]`` or above. Bag ``start`` on, into ``out`` (``len(ranges)`` entries a
    bag). Returns (the bags done, bytes used): a bag the bytes run out in is undone."""
    count = len(ranges)
    size = len(work)
    saved = [0] * size
    p = 0
    m = len(buf)
    for b in range(start, bags):
        for i in range(size):
            saved[i] = work[i]
        q = p
        for i in range(count):
            span = ranges[i]
            if span == 1:
                continue  # randbelow(1) is 0 and reads nothing
            nbytes = widths[i]
            mask = 1
            while mask < span:
                mask <<= 1
            mask -= 1
            while True:
                if q + nbytes > m:
                    for t in range(size):
                        work[t] = saved[t]
                    return b, p
                r = 0
                for t in range(nbytes):
                    r |= int(buf[q + t]) << (8 * t)
                q += nbytes
                r &= mask
                if r < span:
                    break
            j = i + r
            work[i], work[j] = work[j], work[i]
        for i in range(count):
            out[b * count + i] = work[i]
        p = q
    return bags, p


def deal_history(
    draws: Ints,
    out: Ints,
    start: int,
    n: int,
    history: Ints,
    length: Ints,
    blocked: Ints,
    free: Ints,
    fallback: Ints,
    rolls: int,
) -> tuple[int, int, int]:
    """``list with N history [M rolls]`` (:class:`.randomizers.HistoryRandomizer`) into
    ``out[start:n]``. ``history`` holds the last entries (``length[0]`` of them; ``-1``
    blocks nothing), ``blocked`` is scratch, one slot per entry; ``free[b]`` and
    ``fallback[b]`` are :func:`.randomizers.roll_weights` for ``b`` distinct entries
    blocked. With rolls, one draw a piece picks the entry from the exact table; without,
    draws are skipped while they hit the history. Returns (end, draws used, failures)."""
    size = len(blocked)
    cap = len(history)
    m = len(draws)
    used = 0
    fails = 0
    j = start
    filled = length[0]
    while j < n:
        b = 0
        for t in range(filled):
            e = history[t]
            if e >= 0 and blocked[e] == 0:
                blocked[e] = 1
                b += 1
        k = used
        e = -1
        failed = 0
        if rolls:
            if k < m:
                u = int(draws[k])
                k += 1
                ok = free[b] * (size - b)
                if u < ok:
                    q = u // free[b]
                    flag = 0
                else:
                    failed = 1
                    q = (u - ok) // fallback[b]
                    flag = 1
                for x in range(size):
                    if blocked[x] == flag:
                        if q == 0:
                            e = x
                            break
                        q -= 1
        else:
            while k < m:
                x = int(draws[k])
                k += 1
                if blocked[x] == 0:
                    e = x
                    break
        for t in range(filled):
            if history[t] >= 0:
                blocked[history[t]] = 0
        if e < 0:  # the draws ran out in this piece
            break
        out[j] = e
        j += 1
        used = k
        fails += failed
        if cap:
            if filled < cap:
                history[filled] = e
                filled += 1
            else:
                for t in range(cap - 1):
                    history[t] = history[t + 1]
                history[cap - 1] = e
    length[0] = filled
    return j, used, fails
