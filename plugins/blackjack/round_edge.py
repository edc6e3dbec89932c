"""The exact edge of a blackjack round from the shoe left: what a bet made into it earns.

A bet is made before the round's cards are dealt, so its exact value is the stake times the
player's expectation per chip of one hand dealt from the unseen cards and played
composition-dependently at its best (splits included, naturals paid, the dealer's peek as
the rules have it): the sum over upcards and two-card hands that :func:`solve_rules`
(:mod:`croupier.plugins.blackjack.solver.analysis`) makes for a full shoe, here for any
shoe. The oracle scores a bet with it: its loss is nil (how much to stake is the bot's
money management, not a mistake of play), but its ``edge`` lets a report show whether a
bot's bets followed the edge (a counter's do; a flat bettor's do not). It is a whole
solve per shoe (seconds for a single deck), so it is cached per shoe: every seat of a
round bets into the same one.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import attrs

from croupier.engine import Valuation
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.plugins.blackjack.solver.analysis import UpcardSolver, is_natural, two_card_hand
from croupier.plugins.blackjack.solver.cards import Counts


@lru_cache(maxsize=8)
def round_edge(rules: BlackjackRules, shoe: Counts) -> float:
    """The player's exact expectation per chip bet on one hand dealt from ``shoe`` (the
    counts of the unseen cards by rank index), played at its best."""
    total = 0.0
    floats = tuple(float(n) for n in shoe)
    for upcard in range(10):
        if shoe[upcard] <= 0:
            continue
        solver = UpcardSolver(rules, upcard, "ev", shoe=floats)
        for c1, c2, p in solver.hands():
            hand = two_card_hand(c1, c2, solver.main.finite)
            if is_natural(c1, c2):
                total += p * solver.natural_value(hand)
                continue
            values = solver.action_values(c1, c2)
            total += p * solver.main.round_value(max(values.values()), hand)
    return total


@attrs.frozen
class BetQuestion:
    """A bet as plain data: the rules, the unseen cards, the chips staked."""

    rules: dict[str, Any]
    shoe: Counts
    amount: int


def value_bet(q: BetQuestion) -> Valuation:
    rules = rules_from_options(BlackjackRules(), dict(q.rules))
    edge = round_edge(rules, q.shoe)
    return Valuation({"bet": q.amount * edge}, "bet", staked=q.amount, edge=edge)
