"""Long seeded runs agree with exact values derived from first principles (tests/reference.py)."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction

import pytest
from reference import (
    bag_reference,
    geometric_moments,
    history_reference,
    moments,
    roll_probabilities,
)

from croupier.engine import Stream
from croupier.engine.randomizer_stats import collect_stats
from croupier.plugins.blackjack_spec import compile_spec

TETS = "I,J,L,O,S,T,Z"
PIECES = TETS.split(",")
IDX = {p: i for i, p in enumerate(PIECES)}
N = 300_000


def run(manager, spec: str, n: int = N, seed: int = 7):
    return collect_stats(manager.randomizer(spec, Stream(seed)), n)


def test_memoryless_matches_the_geometric_law(manager):
    mean, variance = geometric_moments(Fraction(1, 7))
    assert (mean, variance) == (7, 42)
    stats = run(manager, "memoryless")
    assert abs(stats.repeat_rate - 1 / 7) < 0.003
    assert abs(stats.intervals.mean - 7) < 0.05
    assert abs(stats.intervals.variance - 42) < 1.0
    assert all(abs(stats.frequency(p) - 1 / 7) < 0.003 for p in PIECES)


def test_seven_bag_matches_enumeration_over_bag_positions(manager):
    repeat, intervals = bag_reference(7)
    assert repeat == Fraction(1, 49)
    assert moments(intervals) == (7, 8)
    assert max(intervals) - 1 == 12  # longest gap
    stats = run(manager, "7-bag")
    assert abs(stats.repeat_rate - 1 / 49) < 0.001
    assert abs(stats.intervals.variance - 8) < 0.1
    assert stats.intervals.max == 13
    assert stats.intervals.longest_gap == 12
    for k, p in intervals.items():
        assert abs(stats.intervals.histogram[k] / stats.intervals.count - float(p)) < 0.003


def _chi_square(counts: Counter, expected: dict, total: int) -> float:
    return sum((counts.get(k, 0) - total * p) ** 2 / (total * p) for k, p in expected.items())


def _pairs(pieces):
    return Counter(itertools.pairwise(pieces))


UNIFORM_PAIRS = {(a, b): 1 / 49 for a in PIECES for b in PIECES}
CRITICAL_48 = 95.0  # chi-square with 48 degrees of freedom, p ~ 1e-4


@pytest.mark.parametrize(
    "spec",
    [
        TETS,
        f"1 bag of {TETS}",
        f"{TETS} with 0 history",
        f"{TETS} with 7 history 1 rolls",
    ],
)
def test_wiki_equivalences_to_memoryless(spec):
    pieces = compile_spec(spec)(Stream(3)).deal(100_000)
    assert _chi_square(_pairs(pieces), UNIFORM_PAIRS, len(pieces) - 1) < CRITICAL_48


def test_the_equivalence_check_can_fail():
    pieces = compile_spec(f"bag of {TETS}")(Stream(3)).deal(100_000)
    assert _chi_square(_pairs(pieces), UNIFORM_PAIRS, len(pieces) - 1) > 10 * CRITICAL_48


def test_bag_of_list_is_len_bag_of_list():
    assert compile_spec(f"bag of {TETS}")(Stream(5)).deal(700) == compile_spec(f"7 bag of {TETS}")(
        Stream(5)
    ).deal(700)


TGM = {
    "tgm1": ("Z,Z,Z,Z", 4),
    "tgm2": ("Z,S,Z,S", 6),
    "tgm-ideal": ("Z,Z,Z,Z", None),
}


@functools.cache
def tgm_reference(name: str):
    start, rolls = TGM[name]
    first = tuple(IDX[p] for p in "IJLT")
    return history_reference(7, tuple(IDX[p] for p in start.split(",")), first, rolls)


@pytest.mark.parametrize(
    ("name", "spec"),
    [("tgm1", "tgm1"), ("tgm1", "tgm1-spec"), ("tgm2", "tgm2"), ("tgm2", "tgm2-spec"),
     ("tgm-ideal", "tgm-ideal")],
)  # fmt: skip
def test_tgm_runs_match_the_exact_markov_chain(manager, name, spec):
    ref = tgm_reference(name)
    stats = run(manager, spec)
    assert abs(stats.roll_failure_rate - ref.failure) < 0.003
    assert abs(stats.repeat_rate - ref.repeat) < 0.002
    assert abs(stats.intervals.mean - ref.interval_mean) < 0.02
    assert abs(stats.intervals.variance - ref.interval_variance) < 0.015 * ref.interval_variance
    assert all(abs(stats.frequency(p) - ref.frequencies[IDX[p]]) < 0.003 for p in PIECES)


def test_tgm2_failure_rate_is_about_three_and_a_half_percent():
    """(4/7)**6 = 3.48% with 4 distinct pieces in the history; the stationary rate is lower
    because a failure leaves a duplicate in the history."""
    ref = tgm_reference("tgm2")
    assert 0.0333 < ref.failure < 0.0335
    # cross-check of the chain: with infinite rolls the interval is 4 + Geometric(1/3)
    ideal = tgm_reference("tgm-ideal")
    assert ideal.interval_variance == pytest.approx(6, abs=1e-9)
    assert ideal.repeat == ideal.failure == 0
    assert float(Fraction(4, 7) ** 6) == pytest.approx(0.034815, abs=1e-6)


@pytest.mark.parametrize(("name", "spec"), [("tgm1", "tgm1-spec"), ("tgm2", "tgm2-spec")])
def test_tgm_preset_and_plugin_start_the_same_way(manager, name, spec):
    """The first two pieces (first-piece rule, initial history) have the same law."""
    start, rolls = TGM[name]
    history = [IDX[p] for p in start.split(",")]
    expected: dict[tuple[str, str], float] = {}
    for f in "IJLT":
        h = frozenset([*history[1:], IDX[f]])
        for e, p in enumerate(roll_probabilities(7, h, rolls)):
            if p:
                expected[(f, PIECES[e])] = float(p) / 4
    for randomizer in (name, spec):
        counts = Counter(
            tuple(manager.randomizer(randomizer, Stream(s)).deal(2)) for s in range(3000)
        )
        assert set(counts) <= set(expected)
        assert _chi_square(counts, expected, 3000) < 3 * len(expected) + 30


def test_tgm3_is_balanced_and_pool_stays_35(manager):
    r = manager.randomizer("tgm3", Stream(2))
    stats = collect_stats(r, 200_000)
    assert all(abs(stats.frequency(p) - 1 / 7) < 0.003 for p in PIECES)
    assert stats.repeat_rate < 0.015
    assert 0 < stats.roll_failure_rate < 0.05
    assert len(r.pool) == 35
    assert sorted(r.drought) == list(range(7))


def test_tgm3_quirk_rerolls_rewrite_the_pool(manager):
    """A rejected roll writes the most droughted piece into its slot (the documented quirk)."""
    r = manager.randomizer("tgm3", Stream(0))
    before = list(r.pool)
    r.deal(1)  # the first piece touches neither pool nor drought order
    assert r.pool == before
    changed = 0
    for _ in range(200):
        pool = list(r.pool)
        drought0 = r.drought[0]
        r.deal(1)
        diff = [i for i in range(35) if pool[i] != r.pool[i]]
        changed += len(diff) > 1
        assert all(r.pool[i] in (drought0, r.drought[0]) for i in diff)
    assert changed > 0
