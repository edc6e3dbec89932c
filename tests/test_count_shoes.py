"""The mean shoe at each true count, against exact enumeration of every deal.

A fully shuffled shoe deals its first n cards as a uniformly random n-subset: listing
every subset (with suits, so Red 7's sevens count by colour) or every multiset of ranks
weighted by its number of subsets gives the true-count distribution and the mean shoe
left at each reading from first principles.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from croupier.engine.counts import true_count
from croupier.plugins.blackjack.solver.count_shoes import count_shoes
from croupier.plugins.counts import COUNTS

BY_NAME = {c.name: c for c in COUNTS}


def by_subsets(system, depth):
    """Every ``depth``-card subset of one 52-card deck, suits and all."""
    tags = system.card_tags()
    found = {}
    subsets = math.comb(52, depth)
    for dealt in itertools.combinations(range(52), depth):
        running = system.irc(1) + sum(tags[c] for c in dealt)
        reading = int(true_count(running, 52 - depth, system, 1))
        exact = true_count(running, 52 - depth, system, 1, rounding="none")
        left = [4.0] * 9 + [16.0]
        for c in dealt:
            left[min(c // 4, 9)] -= 1
        p, shoe, tc = found.get(reading, (0.0, [0.0] * 10, 0.0))
        found[reading] = (
            p + 1 / subsets,
            [a + b / subsets for a, b in zip(shoe, left, strict=True)],
            tc + exact / subsets,
        )
    return {i: (p, [x / p for x in shoe], tc / p) for i, (p, shoe, tc) in found.items()}


@pytest.mark.parametrize("name", ["hilo", "red7", "halves"])
def test_one_deck_three_cards_dealt(name):
    system = BY_NAME[name]
    exact = by_subsets(system, 3)
    model = count_shoes(system, 1, depths=[3])
    assert set(model) == set(exact)
    for i, (p, shoe, tc) in exact.items():
        assert model[i].probability == pytest.approx(p, rel=1e-12, abs=1e-15)
        assert model[i].shoe == pytest.approx(shoe, rel=1e-12)
        assert model[i].mean_true_count == pytest.approx(tc, rel=1e-12, abs=1e-12)
        assert model[i].cards == pytest.approx(49)


def by_multisets(system, decks, depth):
    """Every multiset of ranks, weighted by its number of subsets (no suits: rank tags)."""
    sizes = [4 * decks] * 9 + [16 * decks]
    subsets = math.comb(52 * decks, depth)
    found = {}

    def walk(rank, left, counts):
        if rank == 10:
            if left:
                return
            ways = math.prod(math.comb(n, k) for n, k in zip(sizes, counts, strict=True))
            running = system.irc(decks) + sum(system.tags[r] * k for r, k in enumerate(counts))
            reading = int(true_count(running, 52 * decks - depth, system, decks))
            p = ways / subsets
            q, shoe = found.get(reading, (0.0, [0.0] * 10))
            found[reading] = (
                q + p,
                [s + p * (n - k) for s, n, k in zip(shoe, sizes, counts, strict=True)],
            )
            return
        for k in range(min(left, sizes[rank]) + 1):
            walk(rank + 1, left - k, [*counts, k])

    walk(0, depth, [])
    return found


def test_two_decks_every_depth_to_six_mixed():
    """Depths 0..6 weighted uniformly, Zen (level 2) and KO (unbalanced), two decks."""
    for name in ("zen", "ko"):
        system = BY_NAME[name]
        depths = range(7)
        mixed = {}
        for depth in depths:
            for i, (p, shoe) in by_multisets(system, 2, depth).items():
                q, s = mixed.get(i, (0.0, [0.0] * 10))
                mixed[i] = (q + p / 7, [a + b / 7 for a, b in zip(s, shoe, strict=True)])
        model = count_shoes(system, 2, depths=depths)
        assert set(model) == set(mixed)
        assert sum(s.probability for s in model.values()) == pytest.approx(1.0, abs=1e-12)
        for i, (p, shoe) in mixed.items():
            assert model[i].probability == pytest.approx(p, rel=1e-11)
            assert model[i].shoe == pytest.approx([x / p for x in shoe], rel=1e-11)


def test_higher_counts_leave_richer_shoes():
    shoes = count_shoes(BY_NAME["hilo"], 2)
    tens = [shoes[i].shoe[9] / shoes[i].cards for i in range(-3, 4)]
    assert tens == sorted(tens)
    assert sum(s.probability for s in shoes.values()) == pytest.approx(1.0, abs=1e-12)
    # the count is balanced: over all readings the mean shoe is the full shoe's proportions
    mean_fives = sum(s.probability * s.shoe[4] / s.cards for s in shoes.values())
    assert mean_fives == pytest.approx(1 / 13, rel=2e-2)


@pytest.mark.parametrize("name", ["hilo", "red7", "halves"])
def test_covariance_of_the_shoes_at_a_reading(name):
    """The exact covariance of the cards left among the shoes that read each count, against
    every deal of 2 and 3 cards from one deck (suits and all), the depths mixed."""
    system = BY_NAME[name]
    found = {}
    for depth in (2, 3):
        subsets = math.comb(52, depth)
        tags = system.card_tags()
        for dealt in itertools.combinations(range(52), depth):
            running = system.irc(1) + sum(tags[c] for c in dealt)
            reading = int(true_count(running, 52 - depth, system, 1))
            left = np.array([4.0] * 9 + [16.0])
            for c in dealt:
                left[min(c // 4, 9)] -= 1
            p = 1 / subsets / 2
            q, m1, m2 = found.get(reading, (0.0, np.zeros(10), np.zeros((10, 10))))
            found[reading] = (q + p, m1 + p * left, m2 + p * np.outer(left, left))
    model = count_shoes(system, 1, depths=[2, 3], covariance=True)
    for i, (q, m1, m2) in found.items():
        mean = m1 / q
        cov = m2 / q - np.outer(mean, mean)
        assert model[i].shoe == pytest.approx(list(mean), rel=1e-11)
        assert np.array(model[i].covariance) == pytest.approx(cov, abs=1e-7)
