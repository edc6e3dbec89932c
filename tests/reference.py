"""Exact reference values for randomizers, derived from first principles (test helper).

Nothing here uses croupier's randomizers: history randomizers are Markov chains on their
history whose transitions come from the literal roll rule, bags are enumerated over the
bag position, memoryless lists are geometric. The tests compare croupier against these.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from fractions import Fraction

import attrs


@attrs.frozen
class Reference:
    repeat: float
    failure: float
    frequencies: dict[int, float]
    interval_mean: float
    interval_variance: float


def roll_probabilities(size: int, blocked: frozenset[int], rolls: int | None) -> list[Fraction]:
    """Next-entry distribution of 'up to `rolls` rolls for an entry outside `blocked`'.

    Literally: roll uniformly; an entry outside the history is dealt; after the last roll
    the rolled entry is dealt anyway. ``rolls=None`` rolls until an entry is outside.
    """
    free = [e for e in range(size) if e not in blocked]
    if rolls is None:
        return [Fraction(1, len(free)) if e not in blocked else Fraction(0) for e in range(size)]
    probs = [Fraction(0)] * size
    reach = Fraction(1)  # probability that every roll so far hit the history
    for k in range(rolls):
        for e in free:
            probs[e] += reach / size
        if k == rolls - 1:
            for e in blocked:
                probs[e] += reach / size
        reach *= Fraction(len(blocked), size)
    return probs


@functools.cache
def _step(size: int, state: tuple[int, ...], rolls: int | None) -> tuple[tuple[int, float], ...]:
    probs = roll_probabilities(size, frozenset(state), rolls)
    return tuple((e, float(p)) for e, p in enumerate(probs) if p)


def _push(state: tuple[int, ...], e: int) -> tuple[int, ...]:
    return (*state[1:], e)


def history_reference(
    size: int, start: tuple[int, ...], first: tuple[int, ...], rolls: int | None
) -> Reference:
    """Stationary statistics of 'size entries with len(start) history and `rolls` rolls'."""
    # distribution of the history after the first piece, then power iteration
    dist: dict[tuple[int, ...], float] = defaultdict(float)
    for f in first:
        dist[_push(start, f)] += 1 / len(first)
    for _ in range(400):
        new: dict[tuple[int, ...], float] = defaultdict(float)
        for state, p in dist.items():
            for e, q in _step(size, state, rolls):
                new[_push(state, e)] += p * q
        delta = sum(abs(new[s] - dist.get(s, 0.0)) for s in new)
        dist = new
        if delta < 1e-14:
            break
    repeat = failure = 0.0
    freq = [0.0] * size
    for state, p in dist.items():
        for e, q in _step(size, state, rolls):
            freq[e] += p * q
            if e == state[-1]:
                repeat += p * q
            if e in state:
                failure += p * q
    mean, variance = _interval_moments(size, dist, rolls, target=0, share=freq[0])
    return Reference(repeat, failure, dict(enumerate(freq)), mean, variance)


def _interval_moments(
    size: int, dist: dict[tuple[int, ...], float], rolls: int | None, target: int, share: float
) -> tuple[float, float]:
    """Mean and variance of the distance from a deal of `target` to its next deal.

    By the symmetry of the pieces, the pooled interval distribution equals `target`'s.
    """
    mass: dict[tuple[int, ...], float] = defaultdict(float)
    for state, p in dist.items():
        for e, q in _step(size, state, rolls):
            if e == target:
                mass[_push(state, e)] += p * q / share
    m1 = m2 = 0.0
    d = 0
    while mass and sum(mass.values()) > 1e-15:
        d += 1
        new: dict[tuple[int, ...], float] = defaultdict(float)
        for state, p in mass.items():
            for e, q in _step(size, state, rolls):
                if e == target:
                    m1 += d * p * q
                    m2 += d * d * p * q
                else:
                    new[_push(state, e)] += p * q
        mass = new
    return m1, m2 - m1 * m1


def bag_reference(size: int) -> tuple[Fraction, dict[int, Fraction]]:
    """Repeat probability and interval distribution of a bag of `size` distinct pieces.

    A piece at position i of one bag next comes at position j of the next bag, i and j
    independent and uniform: the interval is size - i + j.
    """
    intervals: dict[int, Fraction] = defaultdict(Fraction)
    for i in range(size):
        for j in range(size):
            intervals[size - i + j] += Fraction(1, size * size)
    # a repeat needs a bag boundary (1 pair in `size`) and the same piece across it
    return intervals[1], dict(intervals)


def geometric_moments(p: Fraction) -> tuple[Fraction, Fraction]:
    """Mean and variance of the interval of a memoryless piece dealt with probability p."""
    return 1 / p, (1 - p) / (p * p)


def moments(distribution: dict[int, Fraction]) -> tuple[Fraction, Fraction]:
    mean = sum((k * p for k, p in distribution.items()), Fraction(0))
    return mean, sum(((k - mean) ** 2 * p for k, p in distribution.items()), Fraction(0))


def close(a: float, b: float, tol: float) -> bool:
    return math.isclose(a, b, abs_tol=tol)
