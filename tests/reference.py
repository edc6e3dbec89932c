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
import numpy as np


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
    chain = _Chain(size, rolls, [_push(start, f) for f in first])
    # distribution of the history after the first piece, then power iteration
    dist = np.zeros(len(chain.states))
    for f in first:
        dist[chain.index[_push(start, f)]] += 1 / len(first)
    for _ in range(400):
        new = chain.forward(chain.expand(dist))
        delta = float(np.abs(new - dist).sum())
        dist = new
        if delta < 1e-14:
            break
    flow = chain.expand(dist)  # the probability of each transition
    repeat = float(flow[chain.repeats].sum())
    failure = float(flow[chain.fails].sum())
    freq = np.bincount(chain.entry, weights=flow, minlength=size)
    mean, variance = _interval_moments(chain, dist, target=0, share=float(freq[0]))
    return Reference(repeat, failure, dict(enumerate(freq.tolist())), mean, variance)


class _Chain:
    """The history's Markov chain over the states reachable from `initial`, as arrays of
    its transitions (from, to, the entry dealt, its probability): power iteration is then
    a weighted count over them (the dictionaries this replaced took seconds a reference)."""

    def __init__(self, size: int, rolls: int | None, initial: list[tuple[int, ...]]) -> None:
        self.index: dict[tuple[int, ...], int] = {}
        self.states: list[tuple[int, ...]] = []
        edges: list[tuple[int, tuple[int, ...], int, float]] = []
        todo = list(dict.fromkeys(initial))
        for state in todo:
            self.index[state] = len(self.states)
            self.states.append(state)
        while todo:
            state = todo.pop()
            for e, q in _step(size, state, rolls):
                nxt = _push(state, e)
                if nxt not in self.index:
                    self.index[nxt] = len(self.states)
                    self.states.append(nxt)
                    todo.append(nxt)
                edges.append((self.index[state], nxt, e, q))
        self.src = np.array([s for s, _, _, _ in edges], dtype=np.int64)
        self.dst = np.array([self.index[n] for _, n, _, _ in edges], dtype=np.int64)
        self.entry = np.array([e for _, _, e, _ in edges], dtype=np.int64)
        self.q = np.array([q for _, _, _, q in edges])
        self.repeats = np.array([e == self.states[s][-1] for s, _, e, _ in edges], dtype=bool)
        self.fails = np.array([e in self.states[s] for s, _, e, _ in edges], dtype=bool)

    def forward(self, weights: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
        """Where each state's mass goes: `weights` per transition (of `keep` only)."""
        dst = self.dst if keep is None else self.dst[keep]
        w = weights if keep is None else weights[keep]
        return np.bincount(dst, weights=w, minlength=len(self.states))

    def expand(self, mass: np.ndarray) -> np.ndarray:
        return mass[self.src] * self.q


def _interval_moments(
    chain: _Chain, dist: np.ndarray, target: int, share: float
) -> tuple[float, float]:
    """Mean and variance of the distance from a deal of `target` to its next deal.

    By the symmetry of the pieces, the pooled interval distribution equals `target`'s.
    """
    hit = chain.entry == target
    mass = chain.forward(chain.expand(dist) / share, hit)
    m1 = m2 = 0.0
    d = 0
    while mass.sum() > 1e-15:
        d += 1
        flow = chain.expand(mass)
        arrived = float(flow[hit].sum())
        m1 += d * arrived
        m2 += d * d * arrived
        mass = chain.forward(flow, ~hit)
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
