"""Ways of playing on a hand that may only hit or stand, other than optimally: by a
chart's rows (:class:`ByTotals`) or by another shoe's optimal play (:class:`OptimalIn`).
The evaluator runs either compiled (see :meth:`.hands.Evaluator.play_on`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from croupier.plugins.blackjack.solver import recursion
from croupier.plugins.blackjack.solver.hand import Hand

if TYPE_CHECKING:
    from croupier.plugins.blackjack.solver.hands import Evaluator

HitRule = Callable[[Hand], bool]  # True: hit this hand (it may only hit or stand)


class ByTotals:
    """A hit rule by the hand's total and softness alone (a chart's rows): compiled."""

    def __init__(self, hits: Callable[[int, bool], bool]) -> None:
        self.table = recursion.rule_table(hits)

    def __call__(self, hand: Hand) -> bool:
        return bool(self.table[int(hand.soft), hand.total])


class OptimalIn:
    """A hit rule that hits where hitting (and playing on optimally) beats standing in the
    judge's shoe (a post-split strategy's decisions): compiled for a judge of a finite
    shoe and the same upcard."""

    def __init__(self, judge: Evaluator) -> None:
        self.judge = judge

    def __call__(self, hand: Hand) -> bool:
        return self.judge.best_continuation(hand)[1] == "hit"
