"""How much the mean-shoe approximation of index generation moves a gain: a sampled check.

Run as ``.venv/bin/python benchmarks/count_indices_mixture.py [DECKS] [SAMPLES] [SEED]``
(default 2 decks, 100 samples, seed 18). The generator solves the *mean* shoe at each
true-count reading; the exact quantity is the mean over every shoe that reads it of the
decision's contribution to a round's EV. This deals real shoes (depth uniform to the cut
card, the shoe shuffled by a seeded generator), keeps those that read the target count,
solves each integer shoe exactly and averages, then prints both with the sample's
standard error, per decision and reading, and the crossings each implies.
"""

from __future__ import annotations

import random
import statistics
import sys

from croupier.engine import BlackjackRules
from croupier.engine.counts import true_count
from croupier.plugins.blackjack_solver.count_indices import parse_decision, upcard_gains
from croupier.plugins.blackjack_solver.count_shoes import count_shoes
from croupier.plugins.counts import COUNTS

DECISIONS = ("stand 16 T", "stand 12 4", "double 10 A", "insurance any A")


def sample_shoes(system, decks, reading, samples, rng, penetration):
    tags = system.card_tags()
    deck = list(range(52)) * decks
    cut = int(penetration * len(deck))
    found = []
    while len(found) < samples:
        rng.shuffle(deck)
        n = rng.randrange(cut + 1)
        running = system.irc(decks) + sum(tags[c] for c in deck[:n])
        if int(true_count(running, len(deck) - n, system, decks)) != reading:
            continue
        left = [0] * 10
        for c in deck[n:]:
            left[min(c // 4, 9)] += 1
        if min(left) >= 2:
            found.append(tuple(left))
    return found


def main() -> None:
    decks = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 18
    rng = random.Random(seed)
    hilo = next(c for c in COUNTS if c.name == "hilo")
    rules = BlackjackRules(decks=decks)
    shoes = count_shoes(hilo, decks, penetration=rules.penetration)
    print(f"Hi-Lo, {decks} decks, {samples} sampled shoes per reading, seed {seed}")
    print(f"{'decision':>18} {'TC':>3} {'mean shoe':>11} {'mixture':>11} {'+-SE':>9}")
    for text in DECISIONS:
        d = parse_decision(text)
        for reading in (0, 1, 2, 3, 4):
            mean = upcard_gains(rules, shoes[reading].shoe, d.upcard, [d], per_round=True)[d]
            values = [
                upcard_gains(rules, shoe, d.upcard, [d], per_round=True)[d]
                for shoe in sample_shoes(hilo, decks, reading, samples, rng, rules.penetration)
            ]
            se = statistics.stdev(values) / len(values) ** 0.5
            print(
                f"{text:>18} {reading:>3} {mean:+11.6f} {statistics.fmean(values):+11.6f} {se:9.6f}"
            )


if __name__ == "__main__":
    main()
