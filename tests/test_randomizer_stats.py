"""The generic statistics of a dealt sequence, on sequences small enough to check by hand."""

from __future__ import annotations

import math

from croupier.engine.randomizer_stats import StatsAccumulator, collect_stats, interval_stats


def test_definitions_on_a_hand_checked_sequence():
    acc = StatsAccumulator(["A", "B", "C"])
    acc.add(list("AAB"))
    acc.add(list("AB"))  # chunks join seamlessly
    stats = acc.result()
    # A A B A B: intervals A:1,2  B:2 ; one repeat (A A)
    assert stats.pieces == 5
    assert stats.counts == {"A": 3, "B": 2, "C": 0}
    assert stats.repeats == 1
    assert stats.repeat_rate == 0.25
    assert stats.intervals.histogram == {1: 1, 2: 2}
    assert math.isclose(stats.intervals.mean, 5 / 3)
    assert math.isclose(stats.intervals.variance, 2 / 9)
    assert stats.intervals.max == 2
    assert stats.intervals.longest_gap == 1
    assert stats.roll_failures is None


def test_nearest_rank_percentiles():
    iv = interval_stats({1: 50, 2: 40, 10: 9, 99: 1})
    assert iv.percentiles == {50: 1, 90: 2, 99: 10}
    assert iv.max == 99


def test_empty_and_single():
    acc = StatsAccumulator(["X"])
    acc.add(["X"])
    stats = acc.result()
    assert stats.repeat_rate == 0.0
    assert stats.intervals.count == 0
    assert math.isnan(stats.intervals.mean)
    assert stats.as_dict()["interval"]["count"] == 0


class Cycle:
    symbols = ("a", "b", "c")

    def __init__(self) -> None:
        self.i = 0
        self.roll_failures = 7

    def deal(self, n):
        out = [self.symbols[(self.i + k) % 3] for k in range(n)]
        self.i += n
        return out


def test_collect_stats_batches_and_reports_failures():
    ticks: list[int] = []
    stats = collect_stats(Cycle(), 10, batch=4, tick=ticks.append)
    assert ticks == [4, 4, 2]
    assert stats.intervals.histogram == {3: 7}
    assert stats.repeats == 0
    assert stats.roll_failures == 7
    assert stats.roll_failure_rate == 0.7
