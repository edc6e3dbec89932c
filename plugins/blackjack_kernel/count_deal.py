"""The counting kernel's shuffle and true count on their own: the true count after the
first cards of many fully shuffled shoes, for checks against exact enumeration."""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.plugins.blackjack_kernel.count_kernel import decks_left, true_count
from croupier.plugins.blackjack_kernel.kernel import _shuffle


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
