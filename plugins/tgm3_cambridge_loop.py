"""``tgm3-cambridge``'s deal loop, run in Python for small batches and compiled by numba
(:func:`croupier.engine.compiled`) for big ones, as :mod:`croupier.plugins.tgm_loops`'
are. Membership in the history is spelled out as comparisons: compiled, they stay in
registers."""

from __future__ import annotations

from typing import Any

Ints = Any
"""A list of ints in Python, an integer array when compiled."""


def deal_cambridge(
    slots: Ints,
    out: Ints,
    start: int,
    n: int,
    pool: Ints,
    history: Ints,
    droughts: Ints,
    latest_first: Ints,
    extra: Ints,
) -> tuple[int, int, int]:
    """``tgm3-cambridge`` (:class:`croupier.plugins.tgm3_cambridge.Tgm3Cambridge`'s
    ``_next`` after the first piece) into ``out[start:n]``, its pool, history and drought
    counters updated in place and ``extra[0]`` counting the deals of the extra pick; a
    piece is begun only with 12 slots in hand. Returns (end, slots used, roll failures)."""
    m = len(slots)
    used = 0
    fails = 0
    j = start
    h0, h1, h2, h3 = history[0], history[1], history[2], history[3]
    while j < n and m - used >= 12:
        rerolled = False
        rejected = 0
        i = 0
        piece = 0
        while rejected < 6:
            i = int(slots[used])
            used += 1
            piece = int(pool[i])
            if piece != h0 and piece != h1 and piece != h2 and piece != h3:
                break
            rerolled = True
            best = latest_first[0]
            for p in latest_first:
                if droughts[p] > droughts[best]:
                    best = p
            pool[i] = best
            i = int(slots[used])  # the extra pick: dealt unchecked after the last rejection
            used += 1
            piece = int(pool[i])
            rejected += 1
        if rejected == 6:
            extra[0] += 1
            if piece == h0 or piece == h1 or piece == h2 or piece == h3:  # noqa: SIM109
                fails += 1
        high = droughts[0]
        for p in range(len(droughts)):
            high = max(high, droughts[p])
        h0, h1, h2, h3 = h1, h2, h3, piece
        for p in range(len(droughts)):
            droughts[p] += 1
        droughts[piece] = 0
        now = 0
        for p in range(len(droughts)):
            now = max(now, droughts[p])
        if not rerolled or now > high:
            best = latest_first[0]
            for p in latest_first:
                if droughts[p] > droughts[best]:
                    best = p
            pool[i] = best
        out[j] = piece
        j += 1
    history[0], history[1], history[2], history[3] = h0, h1, h2, h3
    return j, used, fails
