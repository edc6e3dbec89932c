"""The counting kernel's true count (numba), and the true count after the first cards of
many shuffled shoes, for checks against exact enumeration.

The count's parameters are a float64 vector (indices below), made by
``count_data.params``; :func:`true_count` is :func:`croupier.engine.counts.true_count`
in exact integer arithmetic, as the engine's (both tested against rational arithmetic).
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
def quotients(n_cards: int, decks: int, p: np.ndarray) -> np.ndarray:
    """By cards remaining ``r`` (``0..n_cards``): ``(k, offset, den)``, integers held as
    floats (exact, and no conversion in the round), such that the true count of running
    count ``rc`` is exactly ``(k * rc - offset) / den``: decks left are
    ``u / k`` (:func:`croupier.engine.counts.deck_units`: ``k`` 52, 2 or 1 by the
    resolution; an empty shoe reads as one card left), and ``offset`` holds the initial
    running count and, for an unbalanced count, the drift of the cards dealt."""
    out = np.empty((n_cards + 1, 3), np.float64)  # integers, exact in floats
    resolution = p[RESOLUTION]
    k = 52 if resolution == 0 else 2 if resolution == 1 else 1
    irc, deck_sum, scale = int(p[IRC]), int(p[DECK_SUM]), int(p[SCALE])
    for r in range(n_cards + 1):
        units = max(r, 1) if k == 52 else max(1, (2 * r * k + 52) // 104)
        offset = k * irc
        if p[BALANCED] == 0:
            offset += deck_sum * (k * decks - units)
        out[r, 0] = k
        out[r, 1] = offset
        out[r, 2] = scale * units
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def exact_value(rc: int, q: np.ndarray, remaining: int) -> float:
    """The true count unrounded: the exact quotient from :func:`quotients` (``q``, by cards
    remaining), one correctly rounded division of exact integers. An integer or a half
    quotient is then exact, and any other lies at least ``1 / (2 den)`` from one, far
    beyond the division's error (the integers are far below 2**53), so :func:`read`
    floors, truncates and rounds it as the fraction. (Decks left as a float, with the
    drift subtracted from it, misread exact integers: KO's +4 as +3 at a fifth of the
    depths.)"""
    at = np.uint64(remaining)
    return float((q[at, 0] * rc - q[at, 1]) / q[at, 2])


@njit(cache=True, nogil=True, error_model="numpy")
def read(value: float, p: np.ndarray) -> float:
    """``value`` floored, truncated, rounded half away from zero, or kept (``p``'s rounding)."""
    rounding = p[ROUNDING]
    if rounding == ROUND_FLOOR:
        return math.floor(value)
    if rounding == ROUND_TRUNCATE:
        return math.trunc(value)
    if rounding == ROUND_HALF:
        return math.copysign(math.floor(abs(value) + 0.5), value)
    return value


@njit(cache=True, nogil=True, error_model="numpy")
def true_count(rc: int, q: np.ndarray, remaining: int, p: np.ndarray) -> float:
    """:func:`croupier.engine.counts.true_count`: :func:`exact_value` read by ``p``'s
    rounding."""
    return read(exact_value(rc, q, remaining), p)


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
    q = quotients(n_cards, decks, p)
    for i in range(shoes):
        for k in range(n_cards):
            shoe[k] = k % 52
        counter = _shuffle(shoe, 0, n_cards, np.uint64(seed), counter)
        rc = int(p[0])
        for k in range(dealt):
            rc += tags[shoe[k]]
        out[i] = true_count(rc, q, n_cards - dealt, p)
    return out
