"""Effects of removal per rank, and the depletion self-test any combinatorial analyser can run.

* :func:`chart_ev`: the exact EV per round of playing a fixed chart from any shoe (counts,
  before the deal), splits played by the chart too.
* :func:`effects_of_removal`: for each rank, the change in that EV when one card of the
  rank leaves the full shoe (the EoRs of betting correlation and playing efficiency).
* :func:`depletion_average`: the chart's EV averaged over every shoe left after ``depth``
  unseen cards are dealt away, each weighted by its exact probability. A fixed strategy's
  expectation cannot depend on cards burnt unseen, so this equals the full-shoe EV
  exactly: a self-test of the whole analyser (at depth 1 it says the EoRs, weighted by
  the shoe's counts, sum to zero).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb

from croupier.engine import CroupierError
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import (
    ChartPlayer,
    UpcardSolver,
    check_rules,
    solve_rules,
)
from croupier.plugins.blackjack.solver.cards import RANKS, Counts, full_shoe
from croupier.plugins.blackjack.solver.chart import Chart

__all__ = ["chart_ev", "depletion_average", "effects_of_removal"]


def chart_ev(rules: BlackjackRules, chart: Chart, shoe: Counts) -> float:
    """The player's exact EV per round (initial bets) playing ``chart`` from ``shoe``."""
    check_rules(rules)
    return sum(
        ChartPlayer(chart, UpcardSolver(rules, u, "ev", shoe=shoe)).round_total()
        for u in range(10)
        if shoe[u] > 0
    )


def _finite_shoe(rules: BlackjackRules) -> Counts:
    if rules.decks is None:
        raise CroupierError("effects of removal need a finite shoe (not --decks inf)")
    return full_shoe(rules.decks)


def effects_of_removal(rules: BlackjackRules, chart: Chart | None = None) -> dict[str, float]:
    """``{rank: EV(shoe minus one card of it) - EV(full shoe)}`` for the chart (default: the
    rules' own basic-strategy chart), as fractions of the initial bet; ``T`` is one
    ten-valued card."""
    shoe = _finite_shoe(rules)
    if chart is None:
        chart = solve_rules(rules).chart
    full = chart_ev(rules, chart, shoe)
    out = {}
    for r in range(10):
        removed = tuple(n - (i == r) for i, n in enumerate(shoe))
        out[RANKS[r]] = chart_ev(rules, chart, removed) - full
    return out


def depletion_average(
    rules: BlackjackRules, chart: Chart, depth: int, shoe: Counts | None = None
) -> float:
    """The chart's EV averaged over every shoe left after ``depth`` unseen cards leave
    ``shoe`` (default: the full shoe), weighted by the multivariate hypergeometric law."""
    if shoe is None:
        shoe = _finite_shoe(rules)
    size = sum(shoe)
    if not 0 <= depth < size:
        raise CroupierError(f"a depth is 0..{size - 1} cards, not {depth}")
    total = 0.0
    for gone in combinations_with_replacement(range(10), depth):
        taken = [gone.count(r) for r in range(10)]
        ways = 1
        for r in range(10):
            ways *= comb(shoe[r], taken[r])
        if ways == 0:
            continue
        left = tuple(n - t for n, t in zip(shoe, taken, strict=True))
        total += ways / comb(size, depth) * chart_ev(rules, chart, left)
    return total
