"""Standings of a tournament: the mean score of each bot with a confidence interval.

A bot's score is its chips at the end of a run (a tourney); runs are independent, so the
mean of T scores has a Student-t interval ``mean ± t(0.975, T-1) * s / sqrt(T)`` (``s`` the
sample standard deviation). The t quantile is computed here from the regularized incomplete
beta function (a continued fraction, Lentz's method) and bisection, not from a table. With
one run there is no interval (``low``/``high`` are None).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

CONFIDENCE = 0.95


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (0.5 < p < 1) of Student's t with ``df`` degrees of freedom."""
    if not 0.5 < p < 1.0 or df < 1:
        raise ValueError("t_quantile needs 0.5 < p < 1 and df >= 1")
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


@attrs.frozen
class Standing:
    """One bot's line in the standings (``rank`` from 1; scores in chips)."""

    rank: int
    bot: int
    name: str
    mean: float
    low: float | None
    high: float | None
    sd: float | None
    scores: tuple[int, ...]
    hands: int
    faults: int
    broke: int
    disqualified: int

    def to_dict(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["scores"] = list(self.scores)
        return data


def interval(scores: Sequence[int]) -> tuple[float, float | None, float | None, float | None]:
    """``(mean, low, high, sd)`` of the scores: the mean's 95% Student-t interval."""
    n = len(scores)
    mean = sum(scores) / n if n else 0.0
    if n < 2:
        return mean, None, None, None
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    sd = math.sqrt(var)
    half = t_quantile(0.5 + CONFIDENCE / 2.0, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half, sd


def rank(
    names: Sequence[str],
    scores: Sequence[Sequence[int]],
    hands: Sequence[int],
    faults: Sequence[int],
    broke: Sequence[int],
    disqualified: Sequence[int],
) -> list[Standing]:
    """Standings by mean score (ties: the entry order), one line per bot."""
    lines = []
    for bot, name in enumerate(names):
        mean, low, high, sd = interval(scores[bot])
        lines.append((mean, bot, name, low, high, sd))
    lines.sort(key=lambda line: (-line[0], line[1]))
    return [
        Standing(
            rank=i + 1,
            bot=bot,
            name=name,
            mean=mean,
            low=low,
            high=high,
            sd=sd,
            scores=tuple(scores[bot]),
            hands=hands[bot],
            faults=faults[bot],
            broke=broke[bot],
            disqualified=disqualified[bot],
        )
        for i, (mean, bot, name, low, high, sd) in enumerate(lines)
    ]
