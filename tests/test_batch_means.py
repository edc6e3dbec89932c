"""Batch-means intervals (engine/batch_means.py) on cases whose right answer is known.

A synthetic shoe-like sequence: batches of a random number of rounds, every round of a batch
sharing the batch's random effect (as rounds of a shoe share its composition), the true mean
known. Over many seeded replications the batch interval must cover the true mean about 95% of
the time and its variance must match the estimator's spread across replications, while the
interval that takes rounds as independent covers far less. With independent rounds the two
agree. The formula from the five sums is checked against the direct sum over batches.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from croupier.engine.batch_means import BatchSums, naive_variance

MU = 300  # the true mean of a round, in integer units (as chips)


def sums(ys: list[np.ndarray]) -> tuple[BatchSums, int, int]:
    """Batch sums of integer rounds, and the total and the sum of squares of all rounds."""
    y = [int(b.sum()) for b in ys]
    n = [len(b) for b in ys]
    batch = BatchSums(
        sum(y),
        sum(n),
        sum(v * v for v in y),
        sum(v * m for v, m in zip(y, n, strict=True)),
        sum(m * m for m in n),
        len(ys),
    )
    return batch, sum(y), sum(int((b.astype(np.int64) ** 2).sum()) for b in ys)


def shoes(rng: np.random.Generator, batches: int, shared_sd: float) -> list[np.ndarray]:
    """Batches of 5..60 rounds; a round is MU + the batch's effect + its own, sd 100 each
    round and ``shared_sd`` for the batch, rounded to integers."""
    out = []
    for _ in range(batches):
        m = int(rng.integers(5, 61))
        shared = rng.normal(0, shared_sd)
        out.append(np.rint(MU + shared + rng.normal(0, 100, m)).astype(np.int64))
    return out


def test_the_formula_is_the_sum_over_batches():
    ys = [np.array([3, -1, 4]), np.array([1, -5]), np.array([9, 2, -6, 5]), np.array([3])]
    batch, _, _ = sums(ys)
    r = batch.y / batch.n
    direct = sum((b.sum() - r * len(b)) ** 2 for b in ys) / batch.n**2 * 4 / 3
    assert batch.variance() == pytest.approx(direct, rel=1e-12)
    low, high = batch.interval() or (0, 0)
    assert (low + high) / 2 == pytest.approx(r) and high - low == pytest.approx(
        2 * 1.96 * math.sqrt(direct)
    )
    assert BatchSums(5, 2, 25, 10, 4, 1).interval() is None  # one batch: no interval


def test_correlated_rounds_are_covered_by_batches_and_not_as_independent():
    """Shared sd 50 against 100 a round: intraclass correlation 0.2, about 33 rounds a
    batch, so the mean's variance is about 1 + 32 * 0.2 = 7 times the independent one."""
    rng = np.random.default_rng(18)
    reps, covered, naive_covered, estimates, variances = 400, 0, 0, [], []
    for _ in range(reps):
        batch, total, squares = sums(shoes(rng, 200, 50.0))
        low, high = batch.interval() or (0, 0)
        covered += low <= MU <= high
        var = naive_variance(total, squares, batch.n) or 0.0
        naive_covered += abs(batch.y / batch.n - MU) <= 1.96 * math.sqrt(var)
        estimates.append(batch.y / batch.n)
        variances.append(batch.variance())
    # 400 replications: a coverage of 95% is seen within +-2.2% (two binomial SDs)
    assert 0.925 <= covered / reps <= 0.975
    assert naive_covered / reps < 0.65
    # the batch variance is the estimator's own spread across replications
    assert np.mean(variances) == pytest.approx(np.var(estimates, ddof=1), rel=0.15)


def test_independent_rounds_give_the_naive_interval():
    rng = np.random.default_rng(5)
    batch, total, squares = sums(shoes(rng, 4000, 0.0))
    naive = naive_variance(total, squares, batch.n)
    assert naive is not None and batch.variance() == pytest.approx(naive, rel=0.06)
