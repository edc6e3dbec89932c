"""Exact values of a player's hand against one upcard: stand, hit, double, surrender.

An :class:`Evaluator` holds one upcard and one shoe (a *context*: the shoe after removing
the upcard and any other known cards, such as the pair cards of a split). A hand is a
:class:`Hand` (hard sum, has an ace, and for a finite shoe its rank counts); every value
is composition-dependent in a finite shoe, because the hand's cards leave the shoe.

Values are in units of the initial bet and *unnormalised* under the peek: they are
E[win · 1{dealer has no blackjack}], so that comparing two actions compares their EVs
conditioned on no blackjack, and ``value / mass`` is that conditional EV. (Treating the
hole card as the last card dealt is exact by exchangeability; the player's draws then
come from the unconditioned shoe.) Without the peek values are plain EVs and a dealer
blackjack takes every bet on the table.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np
import numpy.typing as npt

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import dealer, recursion
from croupier.plugins.blackjack.solver.cards import ACE, TEN, Counts, Shoe, total
from croupier.plugins.blackjack.solver.hand import Hand
from croupier.plugins.blackjack.solver.hit_rules import ByTotals, HitRule, OptimalIn
from croupier.plugins.blackjack.solver.play_python import hit_coded, play_coded
from croupier.plugins.blackjack.solver.stand import (
    OBJECTIVE_CODES,
    Objective,
    in_chips,
    stand_value,
)
from croupier.plugins.blackjack.solver.stand_rows import StandRows

FloatArray = npt.NDArray[np.float64]
INFINITE_PROBS = (1 / 13,) * 9 + (4 / 13,)


@cache
def infinite_distribution(upcard: int, hits_soft_17: bool, mode: dealer.BjMode) -> list[float]:
    """The dealer's outcomes from an infinite deck (cached: it never changes)."""
    return dealer.distribution(upcard, hits_soft_17, mode, INFINITE_PROBS)


def bj_mode(rules: BlackjackRules, objective: Objective) -> dealer.BjMode:
    """What a dealer's two-card 21 is for this objective and rules (see dealer.py)."""
    if objective != "ev":  # no blackjack bonus: the dealer's two-card 21 is an ordinary 21
        return "plain"
    return "peek" if rules.peek else "nopeek"


class Evaluator:
    """Values of hands against ``upcard`` from a shoe with ``extra`` known cards removed.

    ``shoe`` is the full shoe's counts (or None for an infinite deck); ``extra`` the counts
    of known cards other than the upcard and the hand (e.g. the other card of a split pair).
    ``stands`` shares stand rows between the evaluators of one upcard, objective and shoe
    (the main one and a split's, see :class:`.stand_rows.StandRows`). A finite shoe's
    hit, play-on and double values run compiled (:mod:`.recursion`).
    """

    def __init__(
        self,
        rules: BlackjackRules,
        upcard: int,
        shoe: Shoe | None,
        objective: Objective = "ev",
        extra: Counts = (0,) * 10,
        stands: StandRows | None = None,
    ) -> None:
        self.rules = rules
        self.upcard = upcard
        self.objective = objective
        self.mode = bj_mode(rules, objective)
        self.extra = extra
        self.finite = shoe is not None
        if shoe is not None:
            left = list(shoe)
            left[upcard] -= 1
            for r in range(10):
                left[r] -= extra[r]
            if min(left) < 0:
                raise ValueError("more cards removed than the shoe holds")
            self.left: Shoe = tuple(left)
        self._cont: dict[object, float] = {}
        self._hole = (
            (TEN if upcard == ACE else ACE)
            if self.mode == "peek" and upcard in (ACE, TEN)
            else None
        )
        self._stand: dict[object, float] = {}
        self._flat = dealer.flat_program(upcard, rules.hits_soft_17, self.mode)
        self._infinite_dist: list[float] | None = None
        # the compiled recursion's state (finite shoes): stand rows and memos per hand index
        self._objective_code = OBJECTIVE_CODES[objective]
        self._hole_code = -1 if self._hole is None else self._hole
        if shoe is not None:
            store = stands if stands is not None else StandRows()
            self._shoe = store.state(shoe, upcard, extra, self._objective_code, self._flat)
            self._optimal = recursion.new_memo()
            self._memos: dict[int, tuple[dict[object, float], recursion.MemoState]] = {}

    # -- the shoe -----------------------------------------------------------------------

    def shoe_after(self, hand: Hand) -> Shoe:
        assert hand.counts is not None
        return tuple(a - b for a, b in zip(self.left, hand.counts, strict=True))

    def draws(self, hand: Hand) -> Iterator[tuple[float, int]]:
        """(probability, rank) of the next card, for ranks still in the shoe."""
        if not self.finite:
            yield from ((p, r) for r, p in enumerate(INFINITE_PROBS))
            return
        shoe = self.shoe_after(hand)
        size = sum(shoe)
        for r in range(10):
            if shoe[r] > 0:
                yield shoe[r] / size, r

    def possible(self, hand: Hand) -> bool:
        return not self.finite or min(self.shoe_after(hand)) >= 0

    def mass(self, hand: Hand) -> float:
        """P(the dealer has no blackjack | this hand) under the peek; else 1."""
        if self.mode != "peek" or self.upcard not in (ACE, TEN):
            return 1.0
        hole = TEN if self.upcard == ACE else ACE
        if not self.finite:
            return 1.0 - INFINITE_PROBS[hole]
        shoe = self.shoe_after(hand)
        return 1.0 - shoe[hole] / sum(shoe)

    def p_blackjack(self, hand: Hand) -> float:
        """P(the dealer has a blackjack | this hand)."""
        if self.upcard not in (ACE, TEN):
            return 0.0
        hole = TEN if self.upcard == ACE else ACE
        if not self.finite:
            return INFINITE_PROBS[hole]
        shoe = self.shoe_after(hand)
        return shoe[hole] / sum(shoe)

    def dealer_dist(self, hand: Hand) -> list[float]:
        """The dealer's (unnormalised under the peek) outcome probabilities."""
        if not self.finite:
            if self._infinite_dist is None:
                self._infinite_dist = infinite_distribution(
                    self.upcard, self.rules.hits_soft_17, self.mode
                )
            return self._infinite_dist
        return dealer.distribution(
            self.upcard, self.rules.hits_soft_17, self.mode, self.shoe_after(hand), True
        )

    def stand_finite(self, counts: Counts, code: int, player: int) -> float:
        """The stand value of a finite hand (``code`` = encode(counts), total ``player``)."""
        value = float(
            recursion.stand_at(
                recursion.INDEX[code],
                recursion.TABLES,
                self._flat,
                self._shoe,
                self._objective_code,
            )
        )
        self._stand[code] = value
        return value

    def _compiled(
        self, hits: HitRule | None, memo: dict[object, float]
    ) -> (
        tuple[
            int, recursion.RuleTable, recursion.MemoState, recursion.ShoeState, recursion.MemoState
        ]
        | None
    ):
        """The compiled form of a way of playing on (rule, table, memo, judge's shoe and
        memo), or None for a rule only Python can follow."""
        if hits is None:
            state = self._optimal if memo is self._cont else self._memo_state(memo)
            return recursion.OPTIMAL, recursion.NO_TABLE, state, self._shoe, self._optimal
        if isinstance(hits, ByTotals):
            return (
                recursion.BY_TOTALS,
                hits.table,
                self._memo_state(memo),
                self._shoe,
                self._optimal,
            )
        judge = hits.judge if isinstance(hits, OptimalIn) else None
        if (
            judge is not None
            and judge.finite
            and judge._flat is self._flat
            and judge.objective == self.objective
        ):
            # the same upcard, dealer and BJ mode
            state = self._memo_state(memo)
            return recursion.AS_JUDGE, recursion.NO_TABLE, state, judge._shoe, judge._optimal
        return None

    def _memo_state(self, memo: dict[object, float]) -> recursion.MemoState:
        found = self._memos.get(id(memo))
        if found is None:
            found = (memo, recursion.new_memo())  # the dict is kept: its id stays its own
            self._memos[id(memo)] = found
        return found[1]

    # -- values -------------------------------------------------------------------------

    def bust(self, hand: Hand, bet: float = 1.0) -> float:
        if self.objective == "win-probability":
            return 0.0
        return -bet * self.mass(hand) if self.mode == "peek" else -bet

    def stand(self, hand: Hand) -> float:
        if hand.hard > 21:
            return self.bust(hand)
        if hand.counts is not None:
            code = hand.code
            found = self._stand.get(code)
            return self.stand_finite(hand.counts, code, hand.total) if found is None else found
        value = self._stand.get(hand.key)
        if value is None:
            value = stand_value(hand.total, self.dealer_dist(hand), self.objective)
            self._stand[hand.key] = value
        return value

    def best_continuation(self, hand: Hand) -> tuple[float, str]:
        """The best of hit and stand, playing on optimally (hit or stand only)."""
        if hand.hard > 21:
            return self.bust(hand), "stand"
        value = self.play_on(hand, None, self._cont)
        return value, "hit" if value > self.stand(hand) and hand.total < 21 else "stand"

    def hit(self, hand: Hand) -> float:
        """Take one card, then play on optimally (hit or stand only)."""
        return self.hit_then(hand, None, self._cont)

    def play_on(self, hand: Hand, hits: HitRule | None, memo: dict[object, float]) -> float:
        """Value of a hand that may only hit or stand: optimally (``hits=None``) or by
        ``hits(hand)``. ``memo`` caches the values of one way of playing."""
        if hand.hard > 21:
            return self.bust(hand)
        if self.finite:
            assert hand.counts is not None
            compiled = self._compiled(hits, memo)
            if compiled is not None:
                rule, table, state, judge_shoe, judge_memo = compiled
                return float(
                    recursion.play_on(
                        recursion.INDEX[hand.code],
                        recursion.TABLES,
                        self._flat,
                        self._shoe,
                        self._objective_code,
                        self._hole_code,
                        rule,
                        table,
                        state,
                        judge_shoe,
                        judge_memo,
                    )
                )
            found = memo.get(hand.code)
            if found is None:
                found = play_coded(self, hand.counts, hand.code, hand.hard, hand.ace, hits, memo)
            return found
        found = memo.get(hand.key)
        if found is None:
            stand = self.stand(hand)
            value = total(hand.hard, hand.ace)[0]
            if value >= 21:
                found = stand
            elif hits is None:
                found = max(stand, self.hit_then(hand, hits, memo))
            else:
                found = self.hit_then(hand, hits, memo) if hits(hand) else stand
            memo[hand.key] = found
        return found

    def hit_then(self, hand: Hand, hits: HitRule | None, memo: dict[object, float]) -> float:
        """Take one card, then play on as :meth:`play_on`."""
        if self.finite:
            assert hand.counts is not None
            compiled = self._compiled(hits, memo)
            if compiled is not None:
                rule, table, state, judge_shoe, judge_memo = compiled
                return float(
                    recursion.hit_then(
                        recursion.INDEX[hand.code],
                        recursion.TABLES,
                        self._flat,
                        self._shoe,
                        self._objective_code,
                        self._hole_code,
                        rule,
                        table,
                        state,
                        judge_shoe,
                        judge_memo,
                    )
                )
            return hit_coded(self, hand.counts, hand.code, hand.hard, hand.ace, hits, memo)
        return sum(p * self.play_on(hand.add(r), hits, memo) for p, r in self.draws(hand))

    def double(self, hand: Hand) -> float:
        """Double the bet and take exactly one card."""
        if self.finite:
            assert hand.counts is not None
            if hand.hard > 21:
                raise ValueError("a bust hand cannot double")
            return float(
                recursion.double(
                    recursion.INDEX[hand.code],
                    recursion.TABLES,
                    self._flat,
                    self._shoe,
                    self._objective_code,
                    self._hole_code,
                )
            )
        return 2.0 * sum(p * self.stand(hand.add(r)) for p, r in self.draws(hand))

    def surrender(self, hand: Hand) -> float:
        """Give up half the bet (early surrender: before the dealer checks for blackjack).

        In the peek's units, early surrender is worth P(blackjack) - 1/2: the round's EV is
        always ``value - P(blackjack)`` for a hand that is not a natural.
        """
        if self.mode != "peek":
            return -0.5
        if self.rules.surrender == "early":
            return self.p_blackjack(hand) - 0.5
        return -0.5 * self.mass(hand)

    def can_double(self, hand: Hand, after_split: bool = False) -> bool:
        rules = self.rules
        if not in_chips(self.objective) or rules.double == "none":
            return False
        if after_split and not rules.double_after_split:
            return False
        if rules.double == "any":
            return True
        low = 9 if rules.double == "9-11" else 10
        return not hand.soft and low <= hand.total <= 11

    def can_surrender(self) -> bool:
        return in_chips(self.objective) and self.rules.surrender != "none"

    def round_value(self, value: float, hand: Hand) -> float:
        """The EV of the whole round (dealer blackjack included) from a hand's value."""
        if self.mode == "peek":
            return value - self.p_blackjack(hand)
        return value
