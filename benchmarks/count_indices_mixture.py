"""How much the mean-shoe approximation of index generation moves a gain: a sampled check.

Run as ``.venv/bin/python benchmarks/count_indices_mixture.py [DECKS] [SAMPLES] [SEED]
[DECISIONS] [READINGS]`` (default 2 decks, 100 samples, seed 18, four decisions, readings
0..4; decisions as ``"stand 16 T,insurance any A"``, readings as ``0,2``;
``--smoke``: a tiny run, CI's).

The generator solves the *mean* shoe at each true-count reading; the exact quantity is the
mean, over every shoe that reads it, of the decision's contribution to a round's EV. This
deals real shoes (depth uniform to the cut card, a shuffle from a seeded generator), keeps
those that read the target count (and hold two of every rank, as the generator asks),
solves each integer shoe exactly and prints:

* ``mean shoe``: the generator's gain (per round);
* ``mixture``: the sample mean of the shoes' gains, with its standard error;
* ``2nd order``: the generator's ``--second-order`` gain (the mean shoe's, corrected by
  the exact covariance of the shoes at that reading);
* ``regression``: the regression estimator of the same mean: the sample mean corrected by
  the fitted linear effect of the samples' composition being off the exact mean shoe
  (which is known). It removes the spread that is linear in the composition, leaving the
  curvature, the quantity in question, with a far smaller standard error.
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

from croupier.engine.counts import true_count
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.count_indices import (
    parse_decision,
    spread_gains,
    upcard_gains,
)
from croupier.plugins.blackjack.solver.count_shoes import count_shoes
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


def regression(drawn, values, mean_shoe):
    """The intercept at the exact mean shoe of a least-squares fit of the values on the
    samples' counts, and its standard error."""
    x = np.array(drawn, dtype=float) - np.array(mean_shoe)
    design = np.hstack([np.ones((len(x), 1)), x])
    y = np.array(values)
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    resid = y - design @ coef
    dof = max(len(y) - design.shape[1], 1)
    cov = np.linalg.pinv(design.T @ design) * (resid @ resid / dof)
    return float(coef[0]), float(np.sqrt(cov[0, 0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("decks", nargs="?", type=int, default=2)
    parser.add_argument("samples", nargs="?", type=int, default=100, help="shoes a reading")
    parser.add_argument("seed", nargs="?", type=int, default=18)
    parser.add_argument("decisions", nargs="?", help='e.g. "stand 16 T,insurance any A"')
    parser.add_argument("readings", nargs="?", help="true counts, e.g. 0,2 (default 0..4)")
    parser.add_argument("--smoke", action="store_true", help="a tiny run, as CI makes")
    args = parser.parse_args()
    if args.smoke:  # a tiny run, as CI makes to see that it still runs
        args = parser.parse_args(["1", "4", "18", DECISIONS[0], "0,1"])
    if args.decks < 1 or args.samples < 2:
        parser.error("DECKS must be at least 1 and SAMPLES at least 2")
    decks, samples, seed = args.decks, args.samples, args.seed
    decisions = args.decisions.split(",") if args.decisions else DECISIONS
    try:
        readings = [int(x) for x in args.readings.split(",")] if args.readings else range(5)
    except ValueError:
        parser.error(f"READINGS are whole numbers separated by commas, not {args.readings!r}")
    rng = random.Random(seed)
    hilo = next(c for c in COUNTS if c.name == "hilo")
    rules = BlackjackRules(decks=decks)
    shoes = count_shoes(hilo, decks, penetration=rules.penetration, covariance=True)
    print(f"Hi-Lo, {decks} decks, {samples} sampled shoes per reading, seed {seed}")
    print(
        f"{'decision':>18} {'TC':>3} {'mean shoe':>11} {'mixture':>11} {'+-SE':>9}"
        f" {'regression':>11} {'+-SE':>9} {'2nd order':>11}"
    )
    for text in decisions:
        d = parse_decision(text)
        for reading in readings:
            mean = upcard_gains(rules, shoes[reading].shoe, d.upcard, [d], per_round=True)[d]
            drawn = sample_shoes(hilo, decks, reading, samples, rng, rules.penetration)
            values = [upcard_gains(rules, s, d.upcard, [d], per_round=True)[d] for s in drawn]
            se = statistics.stdev(values) / len(values) ** 0.5
            fit, fit_se = regression(drawn, values, shoes[reading].shoe)
            at = shoes[reading]
            assert at.covariance is not None
            second = spread_gains(rules, at.shoe, at.covariance, d.upcard, [d], per_round=True)[d]
            print(
                f"{text:>18} {reading:>3} {mean:+11.6f} {statistics.fmean(values):+11.6f} "
                f"{se:9.6f} {fit:+11.6f} {fit_se:9.6f} {second:+11.6f}"
            )


if __name__ == "__main__":
    main()
