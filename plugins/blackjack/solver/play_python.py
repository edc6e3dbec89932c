"""Playing on a finite hand by a hit rule only Python can follow (one the compiled
recursion does not know, see :meth:`.hands.Evaluator.play_on`): the same recursion in
Python, memoised by the hand's code in the caller's dict."""

from __future__ import annotations

from operator import sub
from typing import TYPE_CHECKING

from croupier.plugins.blackjack.solver.cards import ACE, Counts, total
from croupier.plugins.blackjack.solver.hand import RANK_CODES, Hand
from croupier.plugins.blackjack.solver.hit_rules import HitRule

if TYPE_CHECKING:
    from croupier.plugins.blackjack.solver.hands import Evaluator


def play_coded(
    ev: Evaluator,
    counts: Counts,
    code: int,
    hard: int,
    ace: bool,
    hits: HitRule | None,
    memo: dict[object, float],
) -> float:
    """:meth:`play_on` for a finite hand not yet in ``memo`` (keyed by its code)."""
    value = total(hard, ace)[0]
    stand = ev._stand.get(code)
    if stand is None:
        stand = ev.stand_finite(counts, code, value)
    if value >= 21:
        found = stand
    elif hits is None:
        found = max(stand, hit_coded(ev, counts, code, hard, ace, hits, memo))
    elif hits(Hand(hard, ace, counts, code)):
        found = hit_coded(ev, counts, code, hard, ace, hits, memo)
    else:
        found = stand
    memo[code] = found
    return found


def hit_coded(
    ev: Evaluator,
    counts: Counts,
    code: int,
    hard: int,
    ace: bool,
    hits: HitRule | None,
    memo: dict[object, float],
) -> float:
    shoe: list[int] = list(map(sub, ev.left, counts))
    size = sum(shoe)
    hole = ev._hole
    acc = 0.0
    for r in range(10):
        n = shoe[r]
        if n <= 0:
            continue
        new_hard = hard + r + 1
        if new_hard > 21:
            if ev.objective == "win-probability":
                continue
            if hole is None:
                acc -= n
            else:
                acc -= n * (1.0 - (shoe[hole] - (r == hole)) / (size - 1))
        else:
            child_code = code + RANK_CODES[r]
            found = memo.get(child_code)
            if found is None:
                child = (*counts[:r], counts[r] + 1, *counts[r + 1 :])
                found = play_coded(ev, child, child_code, new_hard, ace or r == ACE, hits, memo)
            acc += n * found
    return acc / size
