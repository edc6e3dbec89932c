"""The player's recursion in a finite shoe, compiled: stand, hit-then-play-on and double.

Every hand a player can hold (a multiset of ranks with a hard sum of at most 21) has a
fixed index in :data:`TABLES`, which also hold each hand's hard sum, ace, rank
counts and the index of the hand one card larger (``-1``: that card busts it). An
:class:`~.hands.Evaluator` keeps, per shoe, arrays indexed by these: the stand row of each
hand (computed on first use by the compiled dealer pass, :func:`.stand._row_fast`) and a
memo per way of playing on. The functions below walk the hands reached by hitting in
compiled code, performing the very floating-point operations, in the same order, of the
plain-Python recursion they replace (:mod:`.play_python`),
so the values are identical to the last bit given the same stand rows (a whole shoe's rows
come from :func:`.dealer._run_whole`, equal to :func:`.dealer.distribution`'s to ~1e-16).

A way of playing on (hit or stand only) is a *rule*: ``OPTIMAL`` (the better of hitting
and standing), ``BY_TOTALS`` (hit where ``table[soft, total]`` is 1: a chart's rows) or
``AS_JUDGE`` (hit where hitting is optimal in another shoe, the *judge*: a post-split
strategy's decisions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.plugins.blackjack.solver.dealer import FlatProgram
from croupier.plugins.blackjack.solver.stand import _row_fast

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
ByteArray = npt.NDArray[np.uint8]

OPTIMAL = 0
BY_TOTALS = 1
AS_JUDGE = 2
WIN_PROBABILITY = 1  # stand.OBJECTIVE_CODES["win-probability"]


# every hand of hard sum at most 21 (index 0: no card), as the compiled code reads them:
# hard sums (N,), 1 where the hand holds an ace (N,), rank counts (N, 10), and the index of
# the hand plus one card of each rank (N, 10), -1 where that card busts it
Tables = tuple[IntArray, IntArray, IntArray, IntArray]
# one evaluator's shoe in a stand_rows.StandRows store: the store's shoes (S, 10: the cards
# left before the hand's own), their stand rows (S, N, 6: values at stand.STAND_TOTALS),
# 1 where a row is known (S, N), the shoe of (x, k) (10, K: k cards of rank x out besides
# the upcard, k = 0 the main shoe), and this evaluator's [shoe, x, k, shares rows]
ShoeState = tuple[FloatArray, FloatArray, ByteArray, IntArray, IntArray]
# one way of playing on: values per hand (N,) and 1 where known (N,)
MemoState = tuple[FloatArray, ByteArray]
# the table of a BY_TOTALS rule: 1 where it hits, by [soft, total]
RuleTable = IntArray


def _hands(start: int, hard: int, counts: list[int]) -> Iterator[tuple[int, ...]]:
    """Every non-empty multiset of ranks ``start`` and up, hard sum at most 21 in all."""
    for r in range(start, 10):
        if hard + r + 1 > 21:
            break
        counts[r] += 1
        yield tuple(counts)
        yield from _hands(r, hard + r + 1, counts)
        counts[r] -= 1


def _build() -> tuple[Tables, dict[int, int]]:
    rows = [(0,) * 10, *sorted(_hands(0, 0, [0] * 10))]
    index = {sum(n << (5 * r) for r, n in enumerate(c)): i for i, c in enumerate(rows)}
    counts = np.array(rows, dtype=np.int64)
    hard = counts @ np.arange(1, 11, dtype=np.int64)
    child = np.full((len(rows), 10), -1, dtype=np.int64)
    for i, c in enumerate(rows):
        code = sum(n << (5 * r) for r, n in enumerate(c))
        for r in range(10):
            if hard[i] + r + 1 <= 21:
                child[i, r] = index[code + (1 << (5 * r))]
    for array in (counts, hard, child):
        array.flags.writeable = False
    ace = (counts[:, 0] > 0).astype(np.int64)
    ace.flags.writeable = False
    return (hard, ace, counts, child), index


TABLES, INDEX = _build()
"""The compositions' tables and their indices by ``hand.encode(counts)``."""
SIZE = len(TABLES[0])
STACK = 64  # frames of play_on's walk: a hand grows by a card a frame, twice with a judge
NO_TABLE: RuleTable = np.zeros((2, 22), dtype=np.int64)


def new_memo() -> MemoState:
    return np.empty(SIZE), np.zeros(SIZE, dtype=np.uint8)


def rule_table(hits: Callable[[int, bool], bool]) -> RuleTable:
    """The BY_TOTALS table of ``hits(total, soft)`` (totals 4..20; 21 always stands)."""
    table = np.zeros((2, 22), dtype=np.int64)
    for soft in (0, 1):
        for total in range(4, 21):
            table[soft, total] = hits(total, bool(soft))
    return table


@njit(cache=True, nogil=True)
def stand_at(
    i: int, comps: Tables, flat: FlatProgram, shoe: ShoeState, objective: int
) -> float:  # pragma: no cover - compiled
    """The stand value of hand ``i`` (its row computed once per shoe)."""
    hard, ace, counts, child = comps
    lefts, stand, known, slot_of, own = shoe
    slot = own[0]
    h = i
    if own[3] and own[2] > 0:  # the same cards out: pair cards moved into the hand
        x = own[1]
        j = own[2]
        while j > 0 and child[h, x] >= 0:
            h = child[h, x]
            j -= 1
        slot = slot_of[x, j]
    if not known[slot, h]:
        left = lefts[slot]
        rest = np.empty(10)
        for r in range(10):
            rest[r] = left[r] - counts[h, r]
        row = _row_fast(rest, objective, flat)
        for k in range(6):
            stand[slot, h, k] = row[k]
        known[slot, h] = 1
    value = hard[i]
    if ace[i] and value + 10 <= 21:
        value += 10
    found: float = stand[slot, h, value - 16 if value > 16 else 0]
    return found


@njit(cache=True, nogil=True)
def play_on(
    i: int,
    comps: Tables,
    flat: FlatProgram,
    shoe: ShoeState,
    objective: int,
    hole: int,
    rule: int,
    table: RuleTable,
    memo: MemoState,
    judge_shoe: ShoeState,
    judge_memo: MemoState,
) -> float:  # pragma: no cover - compiled
    """The value of hand ``i`` that may only hit or stand, by ``rule`` (memoised).

    A walk with an explicit stack (numba's cached recursive functions crash when loaded
    back): each frame is a hand being valued, in its shoe (``0``) or in the judge's
    (``1``: valued optimally, for an ``AS_JUDGE`` decision), first deciding whether it
    hits, then summing over the next card, resumed after each unknown child."""
    if memo[1][i]:  # known: no walk (and none of its stacks allocated)
        known_value: float = memo[0][i]
        return known_value
    hard, ace, counts, child = comps
    hand = np.empty(STACK, dtype=np.int64)
    where = np.empty(STACK, dtype=np.int64)
    phase = np.empty(STACK, dtype=np.int64)
    rank = np.empty(STACK, dtype=np.int64)
    sums = np.empty(STACK)
    sizes = np.empty(STACK)
    stands = np.empty(STACK)
    hand[0], where[0], phase[0] = i, 0, 0
    depth = 1
    while depth > 0:
        top = depth - 1
        h = hand[top]
        w = where[top]
        own = shoe if w == 0 else judge_shoe
        values, known = memo if w == 0 else judge_memo
        follows = rule if w == 0 else OPTIMAL
        if phase[top] == 0:  # decide: stand, or hit and sum over the next card
            if known[h]:
                depth -= 1
                continue
            total = hard[h]
            soft = 0
            if ace[h] and total + 10 <= 21:
                total += 10
                soft = 1
            stand = 0.0  # a hand that hits by a fixed rule never needs its stand row
            if total >= 21 or follows == OPTIMAL:
                stand = stand_at(h, comps, flat, own, objective)
                if total >= 21:
                    values[h] = stand
                    known[h] = 1
                    depth -= 1
                    continue
            if follows == OPTIMAL:
                hits = True
            elif follows == BY_TOTALS:
                hits = table[soft, total] != 0
            else:
                if not judge_memo[1][h]:  # the judge's value first, then decide again
                    hand[depth], where[depth], phase[depth] = h, 1, 0
                    depth += 1
                    continue
                hits = judge_memo[0][h] > stand_at(h, comps, flat, judge_shoe, objective)
            if not hits:
                values[h] = stand_at(h, comps, flat, own, objective)
                known[h] = 1
                depth -= 1
                continue
            left = own[0][own[4][0]]
            size = 0.0
            for r in range(10):
                size += left[r] - counts[h, r]
            phase[top] = 1
            rank[top] = 0
            sums[top] = 0.0
            sizes[top] = size
            stands[top] = stand
        left = own[0][own[4][0]]
        size = sizes[top]
        acc = sums[top]
        r = rank[top]
        waiting = False
        while r < 10:
            n = left[r] - counts[h, r]
            if n <= 0:
                r += 1
                continue
            c = child[h, r]
            if c < 0:
                if objective != WIN_PROBABILITY:
                    if hole < 0:
                        acc -= n
                    else:
                        held = left[hole] - counts[h, hole] - (1.0 if r == hole else 0.0)
                        acc -= n * (1.0 - held / (size - 1))
                r += 1
                continue
            if not known[c]:  # value the child, then come back to this card
                sums[top] = acc
                rank[top] = r
                hand[depth], where[depth], phase[depth] = c, w, 0
                depth += 1
                waiting = True
                break
            acc += n * values[c]
            r += 1
        if waiting:
            continue
        hit = acc / size
        stand = stands[top]
        values[h] = hit if follows != OPTIMAL or hit > stand else stand
        known[h] = 1
        depth -= 1
    values, known = memo
    found: float = values[i]
    return found


@njit(cache=True, nogil=True)
def hit_then(
    i: int,
    comps: Tables,
    flat: FlatProgram,
    shoe: ShoeState,
    objective: int,
    hole: int,
    rule: int,
    table: RuleTable,
    memo: MemoState,
    judge_shoe: ShoeState,
    judge_memo: MemoState,
) -> float:  # pragma: no cover - compiled
    """Take one card on hand ``i``, then play on by ``rule``."""
    _, _, counts, child = comps
    left = shoe[0][shoe[4][0]]
    size = 0.0
    for r in range(10):
        size += left[r] - counts[i, r]
    acc = 0.0
    for r in range(10):
        n = left[r] - counts[i, r]
        if n <= 0:
            continue
        c = child[i, r]
        if c < 0:
            if objective == WIN_PROBABILITY:
                continue
            if hole < 0:
                acc -= n
            else:
                held = left[hole] - counts[i, hole] - (1.0 if r == hole else 0.0)
                acc -= n * (1.0 - held / (size - 1))
        else:
            acc += n * play_on(
                c, comps, flat, shoe, objective, hole, rule, table, memo, judge_shoe, judge_memo
            )
    return acc / size


@njit(cache=True, nogil=True)
def double(
    i: int, comps: Tables, flat: FlatProgram, shoe: ShoeState, objective: int, hole: int
) -> float:  # pragma: no cover - compiled
    """Double on hand ``i``: one card, then stand, twice the bet."""
    _, _, counts, child = comps
    left = shoe[0][shoe[4][0]]
    size = 0.0
    for r in range(10):
        size += left[r] - counts[i, r]
    acc = 0.0
    for r in range(10):
        n = left[r] - counts[i, r]
        if n <= 0:
            continue
        p = n / size
        c = child[i, r]
        if c >= 0:
            acc += p * stand_at(c, comps, flat, shoe, objective)
        elif objective == WIN_PROBABILITY:
            acc += p * 0.0
        elif hole < 0:
            acc += p * -1.0
        else:  # the bust hand's mass: P(no dealer blackjack) with that card out too
            rest = 0.0
            for k in range(10):
                rest += left[k] - (counts[i, k] + (1 if k == r else 0))
            held = left[hole] - (counts[i, hole] + (1 if r == hole else 0))
            acc += p * (-1.0 * (1.0 - held / rest))
    return 2.0 * acc
