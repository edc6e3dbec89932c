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


@njit(cache=True, nogil=True)
def end_shoe(
    acc: np.ndarray, at_start: np.ndarray, shoe_sq: np.ndarray, totals: np.ndarray
) -> None:
    """A shoe's batch. ``acc`` holds the kernel's seven running totals by bucket (rounds,
    flat net, its square, played, ramp net, its square, bet) and ``at_start`` what they were
    when the shoe began, so the shoe's own ``N, F, P, R`` are differences (nothing is added
    per round: a shoe's work is done once, at its end). Add their squares and products to
    ``shoe_sq`` (six by bucket, ``SHOE_FIELDS``) and the whole shoe's to ``totals``
    (``TOTAL_FIELDS``); the shoe's end is the next one's start."""
    played = ramp = 0
    for b in range(len(acc) // 7):
        n = acc[b * 7] - at_start[b * 7]
        if n == 0:
            continue
        f = acc[b * 7 + 1] - at_start[b * 7 + 1]
        p = acc[b * 7 + 3] - at_start[b * 7 + 3]
        r = acc[b * 7 + 4] - at_start[b * 7 + 4]
        shoe_sq[b * 6] += n * n
        shoe_sq[b * 6 + 1] += f * f
        shoe_sq[b * 6 + 2] += f * n
        shoe_sq[b * 6 + 3] += p * p
        shoe_sq[b * 6 + 4] += r * r
        shoe_sq[b * 6 + 5] += r * p
        played += p
        ramp += r
    for k in range(len(acc)):
        at_start[k] = acc[k]
    totals[0] += 1
    totals[1] += played * played
    totals[2] += ramp * ramp
    totals[3] += ramp * played
