"""Statistics of a dealt sequence, generic over any randomizer (pure; no output).

Definitions (also in docs/randomizers.md):

* **frequency**: how often each symbol was dealt, over all pieces.
* **repeat**: a piece equal to the one dealt just before it; the repeat rate is repeats
  divided by the ``pieces - 1`` pairs of neighbours.
* **interval**: for each piece that has an earlier copy, its distance to the latest one
  (1 is an immediate repeat; 7-bag gives 1..13). Intervals of all symbols are pooled. The
  **longest gap** is the most pieces dealt *between* two copies: the longest interval - 1.
  Pieces before a symbol's first copy and after its last are not intervals.
* **percentiles** use the nearest-rank method on the pooled intervals.

Randomizers that roll against a history may also count their failures (all rolls hit the
history); they expose it through :class:`CountsRollFailures`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, runtime_checkable

import attrs

from croupier.engine.randomizers import Randomizer

PERCENTILES = (50, 90, 99)


@runtime_checkable
class CountsRollFailures(Protocol):
    """A randomizer that knows how many deals fell back to the last roll."""

    @property
    def roll_failures(self) -> int: ...


@attrs.frozen
class IntervalStats:
    """The pooled distribution of intervals between two copies of the same symbol."""

    count: int
    mean: float
    variance: float
    percentiles: dict[int, int]
    max: int
    histogram: dict[int, int]

    @property
    def longest_gap(self) -> int:
        """The most pieces dealt between two copies of one symbol (``max - 1``)."""
        return max(self.max - 1, 0)


@attrs.frozen
class RandomizerStats:
    """Everything ``croupier stats`` reports about one dealt sequence."""

    pieces: int
    counts: dict[str, int]
    repeats: int
    intervals: IntervalStats
    roll_failures: int | None = None

    @property
    def repeat_rate(self) -> float:
        return self.repeats / (self.pieces - 1) if self.pieces > 1 else 0.0

    @property
    def roll_failure_rate(self) -> float | None:
        if self.roll_failures is None or not self.pieces:
            return None
        return self.roll_failures / self.pieces

    def frequency(self, symbol: str) -> float:
        return self.counts.get(symbol, 0) / self.pieces if self.pieces else 0.0

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON and the wire."""
        iv = self.intervals
        return {
            "pieces": self.pieces,
            "counts": dict(self.counts),
            "frequencies": {s: self.frequency(s) for s in self.counts},
            "repeats": self.repeats,
            "repeat_rate": self.repeat_rate,
            "interval": {  # no copy seen twice: no interval, so null (JSON has no NaN)
                "count": iv.count,
                "mean": iv.mean if iv.count else None,
                "variance": iv.variance if iv.count else None,
                "percentiles": {str(p): v if iv.count else None for p, v in iv.percentiles.items()},
                "max": iv.max if iv.count else None,
                "longest_gap": iv.longest_gap if iv.count else None,
                "histogram": {str(k): v for k, v in sorted(iv.histogram.items())},
            },
            "roll_failures": self.roll_failures,
            "roll_failure_rate": self.roll_failure_rate,
        }


def interval_stats(histogram: dict[int, int]) -> IntervalStats:
    """Mean, population variance, nearest-rank percentiles and max of an interval histogram."""
    count = sum(histogram.values())
    if not count:
        return IntervalStats(0, math.nan, math.nan, {p: 0 for p in PERCENTILES}, 0, {})
    keys = sorted(histogram)
    total = sum(k * histogram[k] for k in keys)
    mean = total / count
    variance = sum(histogram[k] * (k - mean) ** 2 for k in keys) / count
    percentiles: dict[int, int] = {}
    for p in PERCENTILES:
        rank = max(1, math.ceil(p * count / 100))
        seen = 0
        for k in keys:
            seen += histogram[k]
            if seen >= rank:
                percentiles[p] = k
                break
    return IntervalStats(count, mean, variance, percentiles, keys[-1], dict(histogram))


class StatsAccumulator:
    """Feeds on a sequence in chunks; ``result()`` gives the stats of all of it so far."""

    def __init__(self, symbols: Iterable[str] = ()) -> None:
        self._counts: Counter[str] = Counter({s: 0 for s in symbols})
        self._last: dict[str, int] = {}
        self._hist: Counter[int] = Counter()
        self._n = 0

    def add(self, pieces: Sequence[str]) -> None:
        last, hist = self._last, self._hist
        intervals: list[int] = []
        append = intervals.append
        for i, piece in enumerate(pieces, self._n):
            j = last.get(piece)
            if j is not None:
                append(i - j)
            last[piece] = i
        hist.update(intervals)
        self._counts.update(pieces)
        self._n += len(pieces)

    def result(self, roll_failures: int | None = None) -> RandomizerStats:
        return RandomizerStats(
            pieces=self._n,
            counts=dict(self._counts),
            repeats=self._hist.get(1, 0),
            intervals=interval_stats(dict(self._hist)),
            roll_failures=roll_failures,
        )


def collect_stats(
    randomizer: Randomizer,
    n: int,
    *,
    batch: int = 100_000,
    tick: Callable[[int], None] | None = None,
) -> RandomizerStats:
    """Deal ``n`` pieces from ``randomizer`` in batches and return their stats.

    ``tick(k)`` is called after each batch of ``k`` pieces (for a progress bar).
    """
    if n < 0:
        raise ValueError("n must be non-negative")
    acc = StatsAccumulator(randomizer.symbols)
    done = 0
    while done < n:
        k = min(batch, n - done)
        acc.add(randomizer.deal(k))
        done += k
        if tick is not None:
            tick(k)
    failures = randomizer.roll_failures if isinstance(randomizer, CountsRollFailures) else None
    return acc.result(failures)
