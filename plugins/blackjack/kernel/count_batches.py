"""Per-shoe batch sums for the counting kernel's intervals.

The rounds of one shoe are correlated (they share its composition, hence its counts and its
results), while shoes are independent: each is shuffled afresh from a full pack, and a chunk
starts with a shuffle. So the counting kernel keeps each shoe's sums as a batch: per
true-count bucket, the shoe's rounds dealt ``N``, flat net ``F``, rounds played ``P`` and
ramp net ``R``, each the difference of the kernel's running total since the shoe began (so
nothing is added per round). When the shoe is reshuffled (and at a chunk's end, for its
last shoe dealt in part) :func:`end_shoe` adds the squares and products ``N*N, F*F, F*N,
P*P, R*R, R*P`` to the bucket's totals (``SHOE_FIELDS``), counts the batch, and adds the
whole shoe's ``P*P, R*R, R*P`` (``TOTAL_FIELDS``, for the overall EV). These are integers,
summed over chunks and processes like every kernel total; :mod:`croupier.engine.batch_means`
makes the intervals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SHOE_FIELDS = (
    "rounds_shoe_sq",
    "flat_shoe_sq",
    "flat_shoe_x",
    "played_shoe_sq",
    "ramp_shoe_sq",
    "ramp_shoe_x",
)
"""Per bucket, over shoes: ``N*N, F*F, F*N, P*P, R*R, R*P`` of each shoe's sums."""
TOTAL_FIELDS = ("shoes", "shoe_played_sq", "shoe_ramp_sq", "shoe_ramp_x")
"""The batches (shoes), and over shoes the whole shoe's ``P*P, R*R, R*P``."""


BUCKETS = 26  # the counting kernel's true-count buckets (TC_LOW..TC_HIGH)
SHOE_SQ = BUCKETS * 7  # batches[:SHOE_SQ]: the running totals when this shoe began
TOTALS = SHOE_SQ + BUCKETS * len(SHOE_FIELDS)  # batches[SHOE_SQ:TOTALS]: SHOE_FIELDS by bucket
BATCH_SIZE = TOTALS + len(TOTAL_FIELDS)  # batches[TOTALS:]: TOTAL_FIELDS


@njit(cache=True, nogil=True)
def end_shoe(acc: np.ndarray, batches: np.ndarray) -> None:
    """The shoe that ends is a batch, if any round was dealt from it. ``acc`` holds the
    kernel's seven running totals by bucket (rounds, flat net, its square, played, ramp net,
    its square, bet) and ``batches[:SHOE_SQ]`` what they were when the shoe began, so the
    shoe's own ``N, F, P, R`` are differences (nothing is added per round). Their squares
    and products go to ``batches[SHOE_SQ:TOTALS]`` (six by bucket, ``SHOE_FIELDS``) and the
    whole shoe's to ``batches[TOTALS:]`` (``TOTAL_FIELDS``); the shoe's end is the next
    one's start. One array keeps the kernel's loop as it was (no more live state)."""
    played = ramp = dealt = 0
    for b in range(BUCKETS):
        n = acc[b * 7] - batches[b * 7]
        if n == 0:
            continue  # a bucket no round read is as it was
        f = acc[b * 7 + 1] - batches[b * 7 + 1]
        p = acc[b * 7 + 3] - batches[b * 7 + 3]
        r = acc[b * 7 + 4] - batches[b * 7 + 4]
        at = SHOE_SQ + b * 6
        batches[at] += n * n
        batches[at + 1] += f * f
        batches[at + 2] += f * n
        batches[at + 3] += p * p
        batches[at + 4] += r * r
        batches[at + 5] += r * p
        played += p
        ramp += r
        dealt += n
        for k in range(b * 7, b * 7 + 7):
            batches[k] = acc[k]
    if dealt == 0:  # the chunk's first shuffle: no shoe has ended
        return
    batches[TOTALS] += 1
    batches[TOTALS + 1] += played * played
    batches[TOTALS + 2] += ramp * ramp
    batches[TOTALS + 3] += ramp * played
