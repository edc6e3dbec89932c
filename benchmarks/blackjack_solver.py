"""How long the blackjack solver takes to solve a whole rule set: chart and house edges.

Run as ``.venv/bin/python benchmarks/blackjack_solver.py`` (``--smoke``: 1 deck and an
infinite one, once: CI's run). For an infinite deck and for
1, 2, 6 and 8 decks (S17, DAS, split to 4, late surrender, 3:2, peek) it prints:

* ``first``: the first solve in this process (includes compiling the dealer's programs);
* ``best``: the best of three further solves;
* ``dealer``: the best time of the dealer-distribution pass alone (every composition the
  player can hold against every upcard), the floor under any exact composition-dependent
  solver built this way, and ``x floor`` = best / dealer (an infinite deck has one dealer
  distribution per upcard, so no floor worth the name);
* the issue's target and best / target (below 1 meets it).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import UpcardSolver, solve_rules

TARGETS = {None: 0.1, 6: 2.0}
REPEATS = 3


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    smoke = sys.argv[1:] == ["--smoke"]  # a tiny run, as CI makes to see that it still runs
    repeats = 1 if smoke else REPEATS
    print(f"{'decks':>6} {'first s':>8} {'best s':>8} {'dealer s':>9} {'x floor':>8}  target")
    for decks in (None, 1) if smoke else (None, 1, 2, 6, 8):
        rules = BlackjackRules(decks=decks)
        first = timed(lambda rules=rules: solve_rules(rules))
        best = min(timed(lambda rules=rules: solve_rules(rules)) for _ in range(repeats))
        floor = min(
            timed(lambda rules=rules: [UpcardSolver(rules, u, "ev") for u in range(10)])
            for _ in range(repeats)
        )
        edge = solve_rules(rules)
        target = TARGETS.get(decks)
        against = f"{target:.1f} s ({best / target:.2f}x)" if target else "-"
        name = "inf" if decks is None else str(decks)
        ratio = f"{best / floor:8.1f}" if decks is not None else f"{'-':>8}"
        print(
            f"{name:>6} {first:8.3f} {best:8.3f} {floor:9.3f} {ratio}  {against}"
            f"   edge CD {100 * edge.edge_cd:+.4f}% TD {100 * edge.edge_td:+.4f}%"
        )


if __name__ == "__main__":
    main()
