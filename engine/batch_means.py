"""Intervals for a mean over correlated rounds, from independent batches (batch means).

A simulation that deals rounds from a shoe until its cut card gives rounds that are
correlated (they share the shoe's composition), so an interval that treats them as
independent, ``mean +- 1.96 SD / sqrt(rounds)``, is too narrow. Shoes are independent: each
is shuffled afresh. Take each shoe as a batch ``s`` with ``y_s``, the sum of the results
of its rounds that count (one true count's, say), and ``n_s``, how many they are; the
estimate is the ratio ``r = sum y_s / sum n_s``, and its variance over ``B`` batches is the
ratio estimator's (cluster sampling; the delta method)::

    Var(r) = B / (B - 1) * sum (y_s - r n_s)**2 / (sum n_s)**2

which needs only ``sum y_s``, ``sum n_s``, ``sum y_s**2``, ``sum y_s n_s`` and ``sum n_s**2``
over batches (``sum (y_s - r n_s)**2 = Syy - 2 r Syn + r**2 Snn``, computed here in exact
integer arithmetic). It is right whatever the correlation within a batch, as the number of
batches grows; with independent rounds it agrees with the naive interval. The interval
is ``r +- 1.96 sqrt(Var(r))`` (normal approximation over batches).
"""

from __future__ import annotations

import math
from fractions import Fraction

import attrs

Z95 = 1.96


@attrs.frozen
class BatchSums:
    """Sums over independent batches: ``y`` and ``n`` the totals, ``yy``, ``yn`` and ``nn``
    the sums of each batch's ``y_s**2``, ``y_s * n_s`` and ``n_s**2``, ``batches`` how many."""

    y: int
    n: int
    yy: int
    yn: int
    nn: int
    batches: int

    def variance(self) -> float | None:
        """``Var(r)`` of the ratio ``r = y / n`` (None with fewer than two batches)."""
        if self.batches < 2 or self.n == 0:
            return None
        # sum (y_s - r n_s)**2 * n**2, exactly: Syy n^2 - 2 y n Syn + y^2 Snn
        spread = Fraction(self.yy * self.n**2 - 2 * self.y * self.n * self.yn + self.y**2 * self.nn)
        var = spread / self.n**4 * Fraction(self.batches, self.batches - 1)
        return float(max(var, Fraction(0)))

    def interval(self, z: float = Z95) -> list[float] | None:
        """``[r - z se, r + z se]`` (95% by default), or None without two batches."""
        var = self.variance()
        if var is None:
            return None
        r = self.y / self.n
        half = z * math.sqrt(var)
        return [r - half, r + half]


def naive_variance(total: int, squares: int, n: int) -> float | None:
    """The variance of a mean of ``n`` results taken as independent: ``s**2 / n``."""
    if n < 2:
        return None
    mean = Fraction(total, n)
    var = (Fraction(squares, n) - mean * mean) * Fraction(n, n - 1)
    return float(max(var, Fraction(0)) / n)
