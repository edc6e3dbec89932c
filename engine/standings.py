"""Standings of a tournament: the mean score of each bot with a confidence interval, ties
and the bots it cannot yet separate.

A bot's score is its chips at the end of a run (a tourney); runs are independent, so the
mean of T scores has a Student-t interval ``mean ± t(0.975, T-1) * s / sqrt(T)`` (``s`` the
sample standard deviation). The t quantile is computed here from the regularized incomplete
beta function (a continued fraction, Lentz's method) and bisection, not from a table. With
one run there is no interval (``low``/``high`` are None).

Equal means are a tie: the bots share the rank (``1=``, competition ranking: two bots tied
first, the next is third) and are listed by name, never by the order they were entered in.
Two bots are *separated* when the 95% Student-t interval of their paired differences (run
by run: both played every run, so the run's luck largely cancels) excludes zero; each
standing names the bots it is not yet separated from. With one run nothing is separated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

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
    """One bot's line in the standings (``rank`` from 1, shared by tied bots; scores in
    chips; ``unseparated``: the names of the bots whose difference from this one is not yet
    significant at 95%)."""

    rank: int
    bot: int
    name: str
    mean: float
    low: float | None
    high: float | None
    sd: float | None
    scores: tuple[float, ...]
    hands: int
    faults: int
    broke: int
    disqualified: int
    tied: bool = False
    unseparated: tuple[str, ...] = ()
    skill: dict[str, Any] | None = attrs.field(default=None, eq=False)
    """The bot's scorecard (:meth:`~croupier.engine.scoring.Scorecard.to_dict`) when the
    tournament is scored, else None (and left out of :meth:`to_dict`)."""

    @property
    def place(self) -> str:
        """The rank as shown: ``2`` or, tied, ``2=``."""
        return f"{self.rank}=" if self.tied else str(self.rank)

    def to_dict(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["scores"] = list(self.scores)
        data["unseparated"] = list(self.unseparated)
        if self.skill is None:
            del data["skill"]
        return data

    def facts(self) -> dict[str, Any]:
        """What the bot did, without what is derived from the others (rank, ties,
        separation): what a replay must reproduce whatever the ranking rules."""
        data = self.to_dict()
        for derived in ("rank", "tied", "unseparated", "skill"):
            data.pop(derived, None)
        return data


def interval(scores: Sequence[float]) -> tuple[float, float | None, float | None, float | None]:
    """``(mean, low, high, sd)`` of the scores: the mean's 95% Student-t interval."""
    n = len(scores)
    mean = sum(scores) / n if n else 0.0
    if n < 2:
        return mean, None, None, None
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    sd = math.sqrt(var)
    half = t_quantile(0.5 + CONFIDENCE / 2.0, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half, sd


def separated(scores: Sequence[Sequence[float]]) -> np.ndarray:
    """``[i, j]`` true when bots ``i`` and ``j`` are told apart at 95%: the Student-t
    interval of their paired differences (one per run) excludes zero. Computed from the
    runs' covariance matrix at once (``var(a - b) = var a + var b - 2 cov(a, b)``), so a
    hundred bots over ten thousand runs take milliseconds, not a Python loop per pair."""
    n = len(scores)
    runs = {len(s) for s in scores}
    if n == 0 or len(runs) != 1 or (t := runs.pop()) < 2:
        return np.zeros((n, n), dtype=bool)
    x = np.asarray(scores, dtype=np.float64)
    means = x.mean(axis=1)
    cov = np.atleast_2d(np.cov(x))
    var = np.diag(cov)
    diff_var = np.maximum(var[:, None] + var[None, :] - 2.0 * cov, 0.0)
    diff = np.abs(means[:, None] - means[None, :])
    half = t_quantile(0.5 + CONFIDENCE / 2.0, t - 1) * np.sqrt(diff_var / t)
    # a difference with no spread (every run the same gap) is separated when it is not 0;
    # the tolerance keeps float rounding of equal sums from separating a tie
    result: np.ndarray = diff > half + 1e-9 * (1.0 + np.abs(means[:, None]))
    return result


def rank(
    names: Sequence[str],
    scores: Sequence[Sequence[float]],
    hands: Sequence[int],
    faults: Sequence[int],
    broke: Sequence[int],
    disqualified: Sequence[int],
) -> list[Standing]:
    """Standings by mean score, one line per bot: equal means share a rank (listed by
    name), and each line names the bots it is not yet separated from."""
    stats = [interval(scores[bot]) for bot in range(len(names))]
    apart = separated(scores)
    order = sorted(range(len(names)), key=lambda b: (-stats[b][0], names[b], b))
    lines = []
    for bot in order:
        mean, low, high, sd = stats[bot]
        above = sum(stats[o][0] > mean for o in range(len(names)))
        # means of as many scores (integers, or means of as many) are equal exactly when
        # their sums are
        tied = any(o != bot and stats[o][0] == mean for o in range(len(names)))
        lines.append(
            Standing(
                rank=above + 1,
                bot=bot,
                name=names[bot],
                mean=mean,
                low=low,
                high=high,
                sd=sd,
                scores=tuple(scores[bot]),
                hands=hands[bot],
                faults=faults[bot],
                broke=broke[bot],
                disqualified=disqualified[bot],
                tied=tied,
                unseparated=tuple(names[o] for o in order if o != bot and not apart[bot, o]),
            )
        )
    return lines
