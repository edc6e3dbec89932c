"""How long exact index generation takes (issue 18's target: a 6-deck Hi-Lo set in < 1 min).

Run as ``.venv/bin/python benchmarks/count_indices.py [DECKS ...]`` (default 1, 2, 6, 8;
``--smoke``: 1, CI's run).
For each shoe (S17, DAS, split to 4, late surrender, 3:2, peek, 75% penetration) it prints:

* ``shoes``: the mean shoe at every true-count reading (the count's DP, :mod:`count_shoes`);
* ``I18+F4``: the 22 decisions of the Illustrious 18 and the Fab 4;
* ``all``: every decision the rules allow (stand, double, split, surrender, insurance);
* ``all, 2 workers``: the same on two processes (the result is the same);
* ``solves``: the (reading, upcard) shoes solved for ``all``;
* ``x chart``: ``all`` over the time of one full basic-strategy solve of the same rules,
  measured in the same run (the peer: the same solver on one shoe);
* ``all`` against the one-minute target.
"""

from __future__ import annotations

import argparse
import time

from croupier.plugins.blackjack.indexsets import published_indices
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import solve_rules
from croupier.plugins.blackjack.solver.count_indices import UPCARD_LABELS, Decision, generate
from croupier.plugins.blackjack.solver.count_shoes import count_shoes
from croupier.plugins.counts import COUNTS

TARGET = 60.0


def main() -> None:
    hilo = next(c for c in COUNTS if c.name == "hilo")
    published = published_indices("hilo-i18") + published_indices("hilo-fab4")
    i18 = [Decision(e.decision, e.hand, UPCARD_LABELS.index(e.upcard)) for e in published]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("decks", nargs="*", type=int, help="shoes of these decks (1 2 6 8)")
    parser.add_argument("--smoke", action="store_true", help="1 deck, as CI runs it")
    args = parser.parse_args()
    if any(d < 1 for d in args.decks):
        parser.error("DECKS must be at least 1")
    decks_list = [1] if args.smoke else args.decks or [1, 2, 6, 8]
    print(
        f"{'decks':>5} {'shoes s':>8} {'I18+F4 s':>9} {'all s':>7} {'2 workers s':>12} "
        f"{'solves':>7} {'x chart':>8}"
    )
    for decks in decks_list:
        rules = BlackjackRules(decks=decks)
        start = time.perf_counter()
        count_shoes(hilo, decks, penetration=rules.penetration)
        shoes = time.perf_counter() - start
        start = time.perf_counter()
        generate(rules, hilo, i18)
        few = time.perf_counter() - start
        start = time.perf_counter()
        found, search = generate(rules, hilo)
        every = time.perf_counter() - start
        start = time.perf_counter()
        again, _ = generate(rules, hilo, workers=2)
        pair = time.perf_counter() - start
        assert again == found
        start = time.perf_counter()
        solve_rules(rules)
        chart = time.perf_counter() - start
        print(
            f"{decks:>5} {shoes:8.2f} {few:9.2f} {every:7.1f} {pair:12.1f} {search.solves:>7} "
            f"{every / chart:8.1f}   target {TARGET:.0f} s ({min(every, pair) / TARGET:.2f}x)"
        )


if __name__ == "__main__":
    main()
