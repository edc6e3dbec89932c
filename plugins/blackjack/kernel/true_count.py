"""The counting kernel's true count (numba), and the true count after the first cards of
many shuffled shoes, for checks against exact enumeration.

The count's parameters are a float64 vector (indices below), made by
``count_data.params``; :func:`true_count` is :func:`croupier.engine.counts.true_count`
operation for operation, so the kernel's readings are the engine's (tested).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.kernel import _shuffle

# the count's parameters (float64 vector)
IRC, DECK_SUM, SCALE, BALANCED, ROUNDING, RESOLUTION = range(6)
WONG_IN, WONG_OUT, HAS_WONG_IN, HAS_WONG_OUT, INS_INDEX, INS_DIR, HAS_INS = range(6, 13)
SPOTS_TC, SPOTS_N, HAS_SPOTS = range(13, 16)
PARAMS_LEN = 16
ROUND_FLOOR, ROUND_TRUNCATE, ROUND_HALF, ROUND_NONE = range(4)


@njit(cache=True, nogil=True, error_model="numpy")
def decks_left(remaining: int, p: np.ndarray) -> float:
    """The player's estimate of the decks left (:func:`croupier.engine.counts.decks_remaining`)."""
    exact = max(remaining, 1) / 52
    if p[RESOLUTION] == 0:
        return exact
    unit = 0.5 if p[RESOLUTION] == 1 else 1.0
    return max(unit, math.floor(exact / unit + 0.5) * unit)


@njit(cache=True, nogil=True, error_model="numpy")
def true_count(rc: int, left: float, decks: int, p: np.ndarray) -> float:
    """:func:`croupier.engine.counts.true_count`, operation for operation, with ``left``
    from :func:`decks_left` (a table of it by cards remaining saves a division a call)."""
    relative = float(rc - int(p[IRC]))
    if p[BALANCED] == 0:
        relative -= p[DECK_SUM] * (decks - left)
    if p[SCALE] != 1.0:  # x / 1.0 is x: skipped, bit for bit the same
        relative = relative / p[SCALE]
    value = relative / left
    rounding = p[ROUNDING]
    if rounding == ROUND_FLOOR:
        return math.floor(value)
    if rounding == ROUND_TRUNCATE:
        return math.trunc(value)
    if rounding == ROUND_HALF:
        return math.copysign(math.floor(abs(value) + 0.5), value)
    return value


@njit(cache=True, nogil=True, error_model="numpy")
def dealt_true_counts(
    decks: int, dealt: int, shoes: int, seed: np.uint64, p: np.ndarray, tags: np.ndarray
) -> np.ndarray:
    """The true count (as the counting kernel reads it) after the first ``dealt`` cards of
    each of ``shoes`` shuffles of ``decks`` decks, one generator keyed by ``seed`` for all
    (each shuffle from the shoe in the engine's order, as the kernel's)."""
    n_cards = decks * 52
    shoe = np.empty(n_cards, np.int8)
    out = np.empty(shoes, np.float64)
    counter = np.uint64(0)
    left = decks_left(n_cards - dealt, p)
    for i in range(shoes):
        for k in range(n_cards):
            shoe[k] = k % 52
        counter = _shuffle(shoe, 0, n_cards, np.uint64(seed), counter)
        rc = int(p[0])
        for k in range(dealt):
            rc += tags[shoe[k]]
        out[i] = true_count(rc, left, decks, p)
    return out
