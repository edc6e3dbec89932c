"""Playing indices by simulation (numba): each decision played both ways from one shoe.

:func:`~croupier.plugins.blackjack.kernel.instances.play_index_chunk` (the one round body
of :mod:`.round_body`, specialised for this measurement) deals rounds to one seat as the
counting kernel does (the same generator, shuffles and cut card; card ids, so every count's
tags are exact; the count kept as a player sees the cards) with the chart played
throughout. At every decision the index set asks about (a cell ``up * 66 + row`` that has
decisions, on a hand not split), the rest of the round is played out twice from the cards
that follow: the decision taken, then declined (the counting kernel's letter maps: the
chart's letter without it), later decisions by the chart, then the dealer. The difference
of the hand's two results is added at the true count; then the round goes on as the chart
plays it. Insurance: at an ace up, ``3 [ten in the hole] - 1`` per unit insured. Both plays
draw the same cards in the same order (common random numbers), so the difference varies far
less than either.

The true count is read at the decision (``at_decision``: every card seen so far, as a
player deviates) or at the round's start (the bet's count, before the hand's cards: the
shoe the exact generator conditions on). Totals are integers, so a run's sums do not
depend on the order of its chunks: per decision slot and bucket (true count ``-10..15``,
the reading floored and clamped) the samples, the sum and the sum of squares of the
difference in half units of the hand's bet, and the sum of the unrounded true count in
units of ``1/TC_SCALE``; then rounds dealt, forks not played (the shoe ran out in one),
rounds abandoned (the shoe ran out in the chart's own play: reshuffled, not refilled).

This module holds the measurement's pieces the round body calls: :func:`_play_out` (a hand
from a decision on, then the dealer, without reshuffling) and :func:`_add` (one sample).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.kernel import (
    DOUBLE_A,
    H17,
    HIT,
    HSA,
    MAX_HANDS,
    RSA,
    SPLIT_A,
    STAND,
    SURRENDER_A,
)

TC_LOW, TC_HIGH = -10, 15
BUCKETS = TC_HIGH - TC_LOW + 1
STATS = ("n", "sum", "sq", "tc")
TC_SCALE = 1024
KIND_ACTION = (STAND, HIT, DOUBLE_A, SPLIT_A, SURRENDER_A)  # by decision kind code
TRAILER = ("rounds", "forks_dry", "rounds_dry")


@njit(cache=True, nogil=True, error_model="numpy")
def _play_out(
    rules: np.ndarray,
    plans: np.ndarray,
    shoe: np.ndarray,
    rank_of: np.ndarray,
    live: np.ndarray,
    pos: int,
    c0: int,
    c1: int,
    hard: int,
    ace: bool,
    up: int,
    hole: int,
    action: int,
    split_all: bool,
) -> tuple[int, int]:
    """One seat's hand from a decision on: ``action`` first, then the chart (``plans``)
    with splits, doubles and resplits as the counting kernel plays them, then the dealer
    (when a hand is live), from ``shoe[pos:]`` without reshuffling. Returns the hand's net
    in half units of its bet and the position after the round's cards (-1: the shoe ran
    out). ``c1`` is -1 on a hand of three cards or more; ``live`` is scratch. With
    ``split_all`` every pair that may be split again is (a split taken by its index is
    taken at every pair of that rank: the exact generator's convention too)."""
    n_cards = len(shoe)
    max_hands = rules[MAX_HANDS]
    one_card_aces = rules[HSA] == 0
    rsa = rules[RSA] != 0
    up_plans = up * 1056
    lin, half, n_live, units = -1, 0, 0, 1
    split_hand = aces = False
    splits = waiting = 0
    done = False
    forced = action
    flags = 1 if c1 >= 0 else 0  # FIRST_MOVE on two cards
    while True:
        alive = True
        if split_hand:
            flags = 2 | (8 if aces and one_card_aces else 1)
        while not done:
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            if forced >= 0:
                act, forced = forced, -1
            elif c0 == c1 and splits + 1 < max_hands and (not aces or rsa):
                act = (
                    SPLIT_A
                    if split_all
                    else plans[np.uint64(up_plans + (44 + c0) * 16 + (flags | 4))]
                )
            else:
                act = plans[np.uint64(up_plans + (soft * 22 + total) * 16 + flags)]
            if act == STAND:
                break
            if act == SURRENDER_A:
                half += 1
                alive = False
                break
            if pos == n_cards:
                return 0, -1
            rank = rank_of[np.uint64(shoe[np.uint64(pos)])]
            pos += 1
            if act == SPLIT_A:
                splits += 1
                waiting += 1
                lin -= 1
                split_hand = True
                aces = c0 == 0
                flags = 2 | (8 if aces and one_card_aces else 1)
                c1 = rank
                hard = c0 + c1 + 2
                ace = c0 == 0 or c1 == 0
                resplit = c0 == c1 and splits + 1 < max_hands and rsa
                done = (aces and one_card_aces and not resplit) or (ace and hard == 11)
                continue
            if act == DOUBLE_A:
                lin -= units
                units *= 2
                done = True
            c1 = -1
            flags &= ~1
            hard += rank + 1
            ace = ace or rank == 0
            now = hard + 10 if ace and hard <= 11 else hard
            if now > 21:
                alive = False
                break
            if now == 21:
                break
        if alive:
            live[2 * n_live] = hard + 10 if ace and hard <= 11 else hard
            live[2 * n_live + 1] = units
            n_live += 1
        if waiting == 0:
            break
        waiting -= 1
        if pos == n_cards:
            return 0, -1
        c1 = rank_of[np.uint64(shoe[np.uint64(pos)])]
        pos += 1
        units = 1
        hard = c0 + c1 + 2
        ace = c0 == 0 or c1 == 0
        resplit = c0 == c1 and splits + 1 < max_hands and rsa
        done = (aces and one_card_aces and not resplit) or (ace and hard == 11)
    dealer_hard = up + hole + 2
    dealer_ace = up == 0 or hole == 0
    dealer_natural = dealer_hard == 11 and dealer_ace
    if n_live > 0:
        while True:
            dealer_total = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard
            dealer_soft = dealer_ace and dealer_hard <= 11
            if not (dealer_total < 17 or (dealer_total == 17 and rules[H17] != 0 and dealer_soft)):
                break
            if pos == n_cards:
                return 0, -1
            rank = rank_of[np.uint64(shoe[np.uint64(pos)])]
            pos += 1
            dealer_hard += rank + 1
            dealer_ace = dealer_ace or rank == 0
    final = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard
    beat = 22 if dealer_natural else 0 if final > 21 else final
    for k in range(n_live):
        player = live[2 * k]
        lin += live[2 * k + 1] * ((player > beat) + (player >= beat))
    return 2 * lin + half, pos


@njit(cache=True, nogil=True, error_model="numpy")
def _add(acc: np.ndarray, slot: int, reading: float, raw: float, x: int) -> None:
    """One sample ``x`` (half units) of decision ``slot`` at this true count."""
    bucket = min(max(math.floor(reading), TC_LOW), TC_HIGH) - TC_LOW
    at = np.uint64((slot * BUCKETS + bucket) * 4)
    acc[at] += 1
    acc[at + np.uint64(1)] += x
    acc[at + np.uint64(2)] += x * x
    acc[at + np.uint64(3)] += math.floor(raw * TC_SCALE + 0.5)
