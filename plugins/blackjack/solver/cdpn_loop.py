"""One CDPN term's best play, compiled: the dynamic programme of :mod:`.cdpn`.

A term ``X(a, b)`` / ``N(a, b)`` of a split is valued by a walk over the split hand's
compositions carrying, per plain shoe ``j`` (the shoe less ``2 + a + j`` pair cards), the
weight ``c_j`` x P(the hand's cards in that shoe) (see :mod:`.cdpn`). :func:`term_value`
walks them with an explicit stack (numba's cached recursive functions crash when loaded
back) in the very order of the plain-Python recursion (``_TermProblem``: second cards in
rank order, then each hand's stand, its hit over the next card depth first, its double),
with the same floating-point operations, so the values are identical to the last bit:
a composition's memoised value is the one first computed, from the same weights.

Every shoe's stand values come from the split's shared stand rows (:func:`.recursion.
stand_at`), one :data:`~.recursion.ShoeState` per plain shoe that differ only in their
``own`` row (``owns[j]``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.plugins.blackjack.solver.dealer import FlatProgram
from croupier.plugins.blackjack.solver.recursion import SIZE, Tables, stand_at

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
ByteArray = npt.NDArray[np.uint8]
STACK = 32  # frames: a hand grows by a card a frame (at most 21 cards)


@njit(cache=True, nogil=True)
def _busts(
    hard: int, j_count: int, w: FloatArray, left: FloatArray, size: FloatArray,
    live: ByteArray, hole: int,
) -> float:  # fmt: skip  # pragma: no cover - compiled
    """Every card that busts a hand of ``hard``: the bet lost (no dealer blackjack under
    the peek), weighed over the live shoes (``_TermProblem._busts``)."""
    low = 21 - hard
    if low > 9:
        return 0.0
    total = 0.0
    for j in range(j_count):
        if not live[j]:
            continue
        busting = 0.0
        for k in range(low, 10):
            busting += left[j, k]
        if busting == 0:
            continue
        if hole < 0:
            total -= w[j] * busting / size[j]
        else:
            holes = left[j, hole]
            kept = busting * (size[j] - 1 - holes) + (holes if hole >= low else 0.0)
            total -= w[j] * kept / (size[j] * (size[j] - 1))
    return total


@njit(cache=True, nogil=True)
def term_value(
    first: int,
    rank: int,
    comps: Tables,
    flat: FlatProgram,
    lefts: FloatArray,
    rows: FloatArray,
    known_rows: ByteArray,
    slot_of: IntArray,
    owns: IntArray,
    coefficients: FloatArray,
    own_card: bool,
    objective: int,
    hole: int,
    stand_only: bool,
    doubling: int,
) -> float:  # pragma: no cover - compiled
    """The term's best value: the second card (a non-pair card when ``own_card``), then
    the best of stand, hit and play on, and (where ``doubling`` allows: 0 any two cards,
    9 or 10 hard 9 or 10 to 11, -1 never) double, over the plain shoes ``j`` (own rows
    ``owns[j]`` of the shared stand rows) weighed by ``coefficients[j]``."""
    hard, ace, counts, child = comps
    jn = coefficients.shape[0]
    values = np.empty(SIZE)
    known = np.zeros(SIZE, dtype=np.uint8)
    f_hand = np.empty(STACK, dtype=np.int64)
    f_rank = np.empty(STACK, dtype=np.int64)
    f_phase = np.empty(STACK, dtype=np.int64)  # 0: enter, 1: hitting
    f_acc = np.empty(STACK)
    f_stand = np.empty(STACK)
    f_w = np.empty((STACK, jn))
    f_left = np.empty((STACK, jn, 10))
    f_size = np.empty((STACK, jn))
    f_live = np.zeros((STACK, jn), dtype=np.uint8)
    # the second card's probabilities in each plain shoe (``ev.draws``)
    probs = np.zeros((jn, 10))
    for j in range(jn):
        base = lefts[owns[j, 0]]
        size = 0.0
        for r in range(10):
            size += base[r] - counts[first, r]
        for r in range(10):
            n = base[r] - counts[first, r]
            if n > 0:
                probs[j, r] = n / size
        if own_card:
            other = 0.0
            for r in range(10):
                if r != rank:
                    other += probs[j, r]
            for r in range(10):
                probs[j, r] = 0.0 if r == rank or other <= 0 else probs[j, r] / other
    total = 0.0
    for second in range(10):
        c = child[first, second]
        any_live = False
        for j in range(jn):
            live = coefficients[j] != 0 and probs[j, second] != 0
            f_live[0, j] = live
            if live:
                any_live = True
                f_w[0, j] = coefficients[j] * probs[j, second]
                base = lefts[owns[j, 0]]
                size = 0.0
                for r in range(10):
                    f_left[0, j, r] = base[r] - counts[c, r]
                    size += f_left[0, j, r]
                f_size[0, j] = size
        if not any_live:
            continue
        f_hand[0], f_phase[0] = c, 0
        depth = 1
        result = 0.0
        while depth > 0:
            top = depth - 1
            h = f_hand[top]
            points = hard[h]
            soft = False
            if ace[h] and points + 10 <= 21:
                points += 10
                soft = True
            if f_phase[top] == 0:  # enter: the stand, then hit (or stop)
                stand = 0.0
                for j in range(jn):
                    if f_live[top, j]:
                        shoe = (lefts, rows, known_rows, slot_of, owns[j])
                        stand += f_w[top, j] * stand_at(h, comps, flat, shoe, objective)
                if points >= 21 or (top == 0 and stand_only):
                    if top == 0:
                        result = stand
                    else:
                        values[h] = stand
                        known[h] = 1
                    depth -= 1
                    continue
                f_stand[top] = stand
                f_acc[top] = _busts(
                    hard[h], jn, f_w[top], f_left[top], f_size[top], f_live[top], hole
                )
                f_rank[top] = 0
                f_phase[top] = 1
            acc = f_acc[top]
            r = f_rank[top]
            pushed = False
            while r < min(10, 21 - hard[h]):
                c = child[h, r]
                if known[c]:
                    acc += values[c]
                    r += 1
                    continue
                d = depth
                any_live = False
                for j in range(jn):
                    live = f_live[top, j] != 0 and f_left[top, j, r] > 0
                    f_live[d, j] = live
                    if live:
                        any_live = True
                        f_w[d, j] = f_w[top, j] * f_left[top, j, r] / f_size[top, j]
                        for k in range(10):
                            f_left[d, j, k] = f_left[top, j, k]
                        f_left[d, j, r] -= 1
                        f_size[d, j] = f_size[top, j] - 1
                if not any_live:
                    r += 1
                    continue
                f_acc[top] = acc  # value the child, then come back to this card
                f_rank[top] = r
                f_hand[d], f_phase[d] = c, 0
                depth += 1
                pushed = True
                break
            if pushed:
                continue
            stand = f_stand[top]
            best = acc if acc > stand else stand
            if top > 0:
                values[h] = best
                known[h] = 1
                depth -= 1
                continue
            if doubling == 0 or (doubling > 0 and not soft and doubling <= points <= 11):
                doubled = _busts(hard[h], jn, f_w[0], f_left[0], f_size[0], f_live[0], hole)
                for r in range(min(10, 21 - hard[h])):
                    c = child[h, r]
                    inner = 0.0
                    drawn = False
                    for j in range(jn):
                        if f_live[0, j] and f_left[0, j, r] > 0:
                            drawn = True
                            weight = f_w[0, j] * f_left[0, j, r] / f_size[0, j]
                            shoe = (lefts, rows, known_rows, slot_of, owns[j])
                            inner += weight * stand_at(c, comps, flat, shoe, objective)
                    if drawn:
                        doubled += inner
                doubled = 2.0 * doubled
                best = doubled if doubled > best else best
            result = best
            depth -= 1
        total += result
    return total
