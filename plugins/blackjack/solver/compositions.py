"""The compositions a blackjack player can hold, and the chance of a given deal.

Split from :mod:`croupier.plugins.blackjack.solver.analysis` (which imports them from
here): the pure counting behind the solve. :func:`compositions` lists the multisets of
ranks with a hard sum of at most 21 within a shoe and :func:`deal_probability` the
chance of a sequence of cards from the full shoe.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np
import numpy.typing as npt

from croupier.plugins.blackjack.solver.cards import Counts, Shoe
from croupier.plugins.blackjack.solver.hands import INFINITE_PROBS

IntArray = npt.NDArray[np.int64]


def deal_probability(shoe: Shoe | None, cards: tuple[int, ...]) -> float:
    """P(the cards come out in this order) from the full shoe."""
    prob = 1.0
    if shoe is None:
        for r in cards:
            prob *= INFINITE_PROBS[r]
        return prob
    left = list(shoe)
    size = sum(left)
    for r in cards:
        if left[r] <= 0:
            return 0.0
        prob *= left[r] / size
        left[r] -= 1
        size -= 1
    return prob


def compositions(limit: Counts, must: int | None = None) -> Iterator[Counts]:
    """Multisets of ranks within ``limit`` with a hard sum of at most 21 (containing
    ``must`` if given)."""
    tight = [r for r in range(10) if limit[r] < 21 // (r + 1)]
    for c in _all_compositions(must):
        if all(c[r] <= limit[r] for r in tight):
            yield c


@cache
def _all_compositions(must: int | None) -> tuple[Counts, ...]:
    return tuple(_walk_compositions((21,) * 10, must))


def _walk_compositions(limit: Counts, must: int | None) -> Iterator[Counts]:
    counts = [0] * 10

    def walk(start: int, hard: int) -> Iterator[Counts]:
        for r in range(start, 10):
            if hard + r + 1 > 21 or counts[r] >= limit[r]:
                continue
            counts[r] += 1
            if must is None or counts[must] > 0:
                yield tuple(counts)
            yield from walk(r, hard + r + 1)
            counts[r] -= 1

    yield from walk(0, 0)


def pair_counts(rank: int) -> Counts:
    return tuple(1 if r == rank else 0 for r in range(10))
