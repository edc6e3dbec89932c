"""A split hand's value over its second card, compiled: the inner loop of the split walk.

:func:`.split.split_value` values a split from ``X(a, 0)`` and ``N(a, 0)``: the value of
one split hand (the pair card plus a second card) in the shoe minus ``2 + a`` pair cards,
summed over the second card, all of them (``X``) or the non-pair ones (``N``). A fixed
post-split strategy plays each of those two-card hands by a decision (stand, double, or
hit and play on by a rule), the same for CDZ-, CDP1 and CDP (the decisions optimal in a
*judge's* shoe) and for a chart. :func:`second_cards` makes the whole sum in one compiled
call from the recursion's compiled pieces (:mod:`.recursion`), the same floating-point
operations in the same order as the plain-Python loop it replaces (``split.base`` calling
a play per second card), so the values are identical to the last bit.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.plugins.blackjack.solver import recursion
from croupier.plugins.blackjack.solver.dealer import FlatProgram
from croupier.plugins.blackjack.solver.hand import Hand
from croupier.plugins.blackjack.solver.hands import Evaluator
from croupier.plugins.blackjack.solver.recursion import (
    AS_JUDGE,
    BY_TOTALS,
    OPTIMAL,
    MemoState,
    RuleTable,
    ShoeState,
    Tables,
    double,
    hit_then,
    play_on,
    stand_at,
)

IntArray = npt.NDArray[np.int64]

# what a two-card split hand does, per second card (``actions``)
BY_JUDGE = -1  # as the judge's decisions say (CDZ-, CDP1, CDP)
STAND = 0
HIT = 1  # then play on by the rule given
DOUBLE = 2
NO_DOUBLE = -1  # ``doubling``: never; 0: any two cards; 9 or 10: hard 9 (10) to 11
ACTION_CODES = {"stand": STAND, "hit": HIT, "double": DOUBLE}
ALL_BY_JUDGE: IntArray = np.full(10, BY_JUDGE, dtype=np.int64)
ALL_BY_JUDGE.flags.writeable = False


def doubling_code(allowed: bool, rule: str) -> int:
    """``doubling`` for a split hand: ``allowed`` (chips, doubling after a split, the
    strategy's ``das``) and the rules' double rule (``any``, ``9-11``, ``10-11``)."""
    if not allowed or rule == "none":
        return NO_DOUBLE
    if rule == "any":
        return 0
    return 9 if rule == "9-11" else 10


class SecondCards(ABC):
    """A post-split play (``play(ev, hand)``: a two-card split hand's value) that can also
    sum over a split hand's second card in one compiled call: ``sums`` (None where it
    cannot: the caller then calls the play per card)."""

    @abstractmethod
    def __call__(self, ev: Evaluator, hand: Hand) -> float: ...

    @abstractmethod
    def sums(self, ev: Evaluator, start: Hand) -> tuple[float, float, float] | None: ...


def second_card_sums(
    play: Callable[[Evaluator, Hand], float], ev: Evaluator, start: Hand
) -> tuple[float, float, float]:
    """Over the second card of a split hand ``start`` (its pair card): the sum of P x
    value over every card, that over the non-pair cards, and their P; compiled when
    ``play`` can, else by ``play``'s own calls (the same operations in the same order)."""
    found = play.sums(ev, start) if isinstance(play, SecondCards) else None
    if found is not None:
        return found
    rank = start.hard - 1
    total = 0.0
    other = 0.0
    p_other = 0.0
    for p, r in ev.draws(start):
        value = play(ev, start.add(r))
        total += p * value
        if r != rank:
            other += p * value
            p_other += p
    return total, other, p_other


class ByDecisions(SecondCards):
    """A play by fixed decisions (a chart's): ``decide(ev, hand, second)`` is ``stand``,
    ``hit`` (then hit on where ``table(ev)``, a ``BY_TOTALS`` table, says so, memoised
    in ``memo(ev)``) or ``double``; ``play`` is the same in Python."""

    def __init__(
        self,
        play: Callable[[Evaluator, Hand], float],
        decide: Callable[[Evaluator, Hand, int], str],
        table: Callable[[Evaluator], RuleTable],
        memo: Callable[[Evaluator], dict[object, float]],
    ) -> None:
        self.play = play
        self.decide = decide
        self.table = table
        self.memo = memo

    def __call__(self, ev: Evaluator, hand: Hand) -> float:
        return self.play(ev, hand)

    def sums(self, ev: Evaluator, start: Hand) -> tuple[float, float, float] | None:
        if not ev.finite:
            return None
        actions = np.empty(10, dtype=np.int64)
        for r in range(10):
            code = ACTION_CODES.get(self.decide(ev, start.add(r), r))
            if code is None:
                return None
            actions[r] = code
        return sums(ev, start, False, NO_DOUBLE, actions, self.memo(ev), table=self.table(ev))


def sums(
    ev: Evaluator,
    start: Hand,
    stand_only: bool,
    doubling: int,
    actions: IntArray,
    memo: dict[object, float],
    judge: Evaluator | None = None,
    table: RuleTable | None = None,
) -> tuple[float, float, float] | None:
    """:func:`second_cards` for a split hand ``start`` (its pair card) in ``ev``'s shoe:
    ``judge`` decides the ``BY_JUDGE`` hands and their play-on (it must run compiled with
    ``ev``'s dealer), ``table`` is the ``BY_TOTALS`` rule of ``HIT`` hands otherwise, and
    ``memo`` the play-on's memo in ``ev`` (as ``Evaluator.hit_then`` keeps it). None when
    the shoes are not both finite: the caller plays the hands in Python."""
    if not ev.finite:
        return None
    if judge is None:
        judge_shoe, judge_memo = ev._shoe, ev._optimal
    elif judge.finite and judge._flat is ev._flat and judge.objective == ev.objective:
        judge_shoe, judge_memo = judge._shoe, judge._optimal
    else:
        return None
    rule = BY_TOTALS if table is not None else AS_JUDGE
    return second_cards(
        recursion.INDEX[start.code],
        start.hard - 1,
        recursion.TABLES,
        ev._flat,
        ev._shoe,
        ev._objective_code,
        ev._hole_code,
        stand_only,
        doubling,
        actions,
        rule,
        recursion.NO_TABLE if table is None else table,
        ev._memo_state(memo),
        judge_shoe,
        judge_memo,
    )


@njit(cache=True, nogil=True)
def second_cards(
    first: int,
    rank: int,
    comps: Tables,
    flat: FlatProgram,
    shoe: ShoeState,
    objective: int,
    hole: int,
    stand_only: bool,
    doubling: int,
    actions: IntArray,
    rule: int,
    table: RuleTable,
    memo: MemoState,
    judge_shoe: ShoeState,
    judge_memo: MemoState,
) -> tuple[float, float, float]:  # pragma: no cover - compiled
    """Sum over the second card of a split hand of ``rank`` (hand ``first``): its
    probability times the hand's value, over all cards (``total``) and over the non-pair
    ones (``other``, with their probability ``p_other``).

    A hand's decision is ``actions[r]`` for second card ``r``; ``BY_JUDGE``: stand on
    21 (or when ``stand_only``: split aces), double where ``doubling`` allows it and the
    judge doubles (doubling beats its best of hit and stand), else hit where the judge
    hits (and play on as it would, ``AS_JUDGE``), else stand. ``HIT`` plays on by
    ``rule`` and ``table`` (``BY_TOTALS``: a chart's rows)."""
    hard, ace, counts, child = comps
    left = shoe[0][shoe[4][0]]
    size = 0.0
    for r in range(10):
        size += left[r] - counts[first, r]
    total = 0.0
    other = 0.0
    p_other = 0.0
    for r in range(10):
        n = left[r] - counts[first, r]
        if n <= 0:
            continue
        p = n / size
        c = child[first, r]
        action = actions[r]
        if action == BY_JUDGE:
            points = hard[c]
            soft = False
            if ace[c] and points + 10 <= 21:
                points += 10
                soft = True
            if stand_only or points >= 21:
                action = STAND
            else:
                best = -1.0  # the judge's best of hit and stand, when asked for
                known = False
                if doubling == 0 or (doubling > 0 and not soft and doubling <= points <= 11):
                    best = play_on(
                        c, comps, flat, judge_shoe, objective, hole, OPTIMAL,
                        table, judge_memo, judge_shoe, judge_memo,
                    )  # fmt: skip
                    known = True
                    if double(c, comps, flat, judge_shoe, objective, hole) > best:
                        action = DOUBLE
                if action == BY_JUDGE:
                    if not known:
                        best = play_on(
                            c, comps, flat, judge_shoe, objective, hole, OPTIMAL,
                            table, judge_memo, judge_shoe, judge_memo,
                        )  # fmt: skip
                    if best > stand_at(c, comps, flat, judge_shoe, objective):
                        action = HIT
                    else:
                        action = STAND
        if action == STAND:
            value = stand_at(c, comps, flat, shoe, objective)
        elif action == DOUBLE:
            value = double(c, comps, flat, shoe, objective, hole)
        else:
            value = hit_then(
                c, comps, flat, shoe, objective, hole,
                AS_JUDGE if actions[r] == BY_JUDGE else rule,
                table, memo, judge_shoe, judge_memo,
            )  # fmt: skip
        total += p * value
        if r != rank:
            other += p * value
            p_other += p
    return total, other, p_other
