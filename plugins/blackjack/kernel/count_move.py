"""A counter's move at one decision (numba): the chart's letter changed by the index
table's deviations for the cell, as the counting kernel plays it.

A cell (``up * 66 + row``) with deviations starts from the chart's letter and applies them
in the order stand/hit, double, split, surrender, each mapping the letter to its taken or
declined form (``count_data._maps``); the letter is then played as the chart plays letters.
A pair that may be split is first the pair's cell (its split index); when the letter it
ends with does not split (``P``, ``Ph``, ``Rp``), the hand is played as its total: the
total's deviations apply to it, from the pair's letter (an index on a hard total applies
to every hand of that total, a pair not split included). Without deviations in either
cell the move is the chart's plan, one load.

The counting kernel makes the first two cases inline (the chart's plan; a hand that is not
a pair, by :func:`deviate`) and calls :func:`count_move` for a pair with deviations: a
call at every decision cost a third of its rate (the arrays it passes), measured.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.kernel import _plans
from croupier.plugins.blackjack.kernel.true_count import true_count

LETTER_P, LETTER_PH, LETTER_RP = 4, 5, 8  # kernels.LETTERS' split letters


@njit(cache=True, nogil=True, error_model="numpy")
def chart_cells(chart: np.ndarray) -> np.ndarray:
    """The chart's letter by cell ``up * 66 + row`` (where a deviation starts from)."""
    base = np.empty(660, np.int64)
    for k in range(660):
        base[k] = chart[(k % 66) // 22, (k % 66) % 22, k // 66]
    return base


@njit(cache=True, nogil=True, error_model="numpy")
def letter_plans(rules: np.ndarray) -> np.ndarray:
    """The plan of every letter for every row and state under ``rules``, at ``letter *
    1056 + row * 16 + flags`` (the move a deviation's letter makes)."""
    lplans = np.empty(9 * 1056, np.int8)
    every = np.empty((3, 22, 10), np.int64)
    for letter in range(9):
        every[:, :, :] = letter
        one = _plans(rules, every)
        for k in range(1056):
            lplans[letter * 1056 + k] = one[k]
    return lplans


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def deviate(
    cell: int,
    letter: int,
    tc: float,
    dev_first: np.ndarray,
    dev_count: np.ndarray,
    dev_at: np.ndarray,
    dev_up: np.ndarray,
    dev_to: np.ndarray,
) -> int:
    """``letter`` changed by each of the cell's deviations in turn at true count ``tc``."""
    at = np.uint64(cell)
    for k in range(dev_first[at], dev_first[at] + dev_count[at]):
        index = dev_at[np.uint64(k)]
        taken = tc >= index if dev_up[np.uint64(k)] else tc <= index
        letter = dev_to[np.uint64(k * 18 + taken * 9 + letter)]
    return letter


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def count_move(
    up: int,
    total_row: int,
    pair_row: int,
    flags: int,
    rc: int,
    q: np.ndarray,
    remaining: int,
    p: np.ndarray,
    base: np.ndarray,
    plans: np.ndarray,
    lplans: np.ndarray,
    dev_first: np.ndarray,
    dev_count: np.ndarray,
    dev_at: np.ndarray,
    dev_up: np.ndarray,
    dev_to: np.ndarray,
) -> int:
    """The move (``kernel.STAND`` ...) of a hand of chart row ``total_row`` (``pair_row``:
    its pair's row when it may be split, else -1) in state ``flags`` against ``up``, the
    running count ``rc`` with ``remaining`` cards left (``q``, ``p``: the true count's
    quotients and parameters; read only when a cell has deviations). ``base``: the chart's
    letter by cell; ``plans``: the chart's move by ``up * 1056 + row * 16 + flags``;
    ``lplans``: each letter's, by ``letter * 1056 + row * 16 + flags``."""
    cells = up * 66
    total_cell = cells + total_row
    has_total = dev_first[np.uint64(total_cell)] >= 0
    if pair_row >= 0:
        pair_cell = cells + pair_row
        has_pair = dev_first[np.uint64(pair_cell)] >= 0
        if not has_pair and not has_total:
            return int(plans[np.uint64(up * 1056 + pair_row * 16 + (flags | 4))])
        tc = true_count(rc, q, remaining, p)
        letter = base[np.uint64(pair_cell)]
        if has_pair:
            letter = deviate(pair_cell, letter, tc, dev_first, dev_count, dev_at, dev_up, dev_to)
        if letter in (LETTER_P, LETTER_PH, LETTER_RP):
            return int(lplans[np.uint64(letter * 1056 + pair_row * 16 + (flags | 4))])
    elif not has_total:
        return int(plans[np.uint64(up * 1056 + total_row * 16 + flags)])
    else:
        tc = true_count(rc, q, remaining, p)
        letter = base[np.uint64(total_cell)]
    if has_total:  # a pair not split is played as its total
        letter = deviate(total_cell, letter, tc, dev_first, dev_count, dev_at, dev_up, dev_to)
    return int(lplans[np.uint64(letter * 1056 + total_row * 16 + flags)])
