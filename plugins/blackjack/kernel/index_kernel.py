"""Playing indices by simulation (numba): each decision played both ways from one shoe.

:func:`play_index_chunk` deals rounds to one seat as the counting kernel does (the same
generator, shuffles and cut card; card ids, so every count's tags are exact; the count
kept as a player sees the cards) with the chart played throughout. At every decision the
index set asks about (a cell ``up * 66 + row`` that has decisions, on a hand not split),
the rest of the round is played out twice from the cards that follow: the decision taken,
then declined (the counting kernel's letter maps: the chart's letter without it), later
decisions by the chart, then the dealer. The difference of the hand's two results is
added at the true count; then the round goes on as the chart plays it. Insurance: at an
ace up, ``3 [ten in the hole] - 1`` per unit insured. Both plays draw the same cards in
the same order (common random numbers), so the difference varies far less than either.

The true count is read at the decision (``at_decision``: every card seen so far, as a
player deviates) or at the round's start (the bet's count, before the hand's cards: the
shoe the exact generator conditions on). Totals are integers, so a run's sums do not
depend on the order of its chunks: per decision slot and bucket (true count ``-10..15``,
the reading floored and clamped) the samples, the sum and the sum of squares of the
difference in half units of the hand's bet, and the sum of the unrounded true count in
units of ``1/TC_SCALE``; then rounds dealt, forks not played (the shoe ran out in one),
rounds abandoned (the shoe ran out in the chart's own play: reshuffled, not refilled).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.kernel import (
    CUT,
    DECKS,
    DOUBLE_A,
    FRESH,
    H17,
    HIT,
    HSA,
    MAX_HANDS,
    PEEK,
    RSA,
    SPLIT_A,
    STAND,
    SURRENDER_A,
    _plans,
    _shuffle,
)
from croupier.plugins.blackjack.kernel.true_count import exact_value, quotients, read

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


@njit(cache=True, nogil=True, error_model="numpy")
def play_index_chunk(
    rules: np.ndarray,
    chart: np.ndarray,
    seed: np.uint64,
    rounds: int,
    p: np.ndarray,
    p_raw: np.ndarray,
    tags: np.ndarray,
    cell_first: np.ndarray,
    cell_count: np.ndarray,
    dec_slot: np.ndarray,
    dec_action: np.ndarray,
    dec_map: np.ndarray,
    ins_slot: int,
    slots: int,
    at_decision: bool,
    two_card: bool,
) -> np.ndarray:
    """Play ``rounds`` rounds measuring the decisions (see the module docstring). A cell
    ``up * 66 + row`` has ``cell_count`` decisions from ``cell_first``; decision ``k``
    adds to ``dec_slot[k]``, is taken by the move ``dec_action[k]`` (``KIND_ACTION``
    of its kind: stand, hit, double, split, surrender) and maps the chart's letter to
    ``dec_map[k, taken * 9 + letter]``;
    ``ins_slot`` is insurance's slot (-1: none); ``p`` the count's parameters and
    ``p_raw`` the same unrounded; ``two_card``: decisions on two-card hands only."""
    acc = np.zeros(slots * BUCKETS * 4 + len(TRAILER), np.int64)
    key = np.uint64(seed)
    counter = np.uint64(0)
    decks = rules[DECKS]
    n_cards = decks * 52
    shoe = np.empty(n_cards, np.int8)
    rank_of = np.empty(52, np.int64)
    for k in range(52):
        rank_of[k] = min(k // 4, 9)
    q = quotients(n_cards, decks, p)  # the true count's exact quotient by cards remaining
    cut = rules[CUT]
    fresh_pack = rules[FRESH] != 0
    peek = rules[PEEK] != 0
    max_hands = rules[MAX_HANDS]
    plans = _plans(rules, chart)
    lplans = np.empty(9 * 1056, np.int8)  # each letter's plan by row and state
    every = np.empty((3, 22, 10), np.int64)
    for letter in range(9):
        every[:, :, :] = letter
        one = _plans(rules, every)
        for k in range(1056):
            lplans[letter * 1056 + k] = one[k]
    live = np.empty(2 * max_hands, np.int64)
    irc = int(p[0])
    tail = slots * BUCKETS * 4
    pos = n_cards
    rc = irc
    for _round in range(rounds):
        if pos >= cut or fresh_pack or pos + 4 > n_cards:
            for k in range(n_cards):
                shoe[k] = k % 52
            counter = _shuffle(shoe, 0, n_cards, key, counter)
            pos = 0
            rc = irc
        acc[tail] += 1
        round_raw = read(exact_value(rc, q, n_cards - pos), p_raw)
        round_tc = read(round_raw, p)
        ids = shoe[np.uint64(pos) : np.uint64(pos + 4)]  # first card, up, second, hole
        pos += 4
        rc += tags[np.uint64(ids[0])] + tags[np.uint64(ids[1])] + tags[np.uint64(ids[2])]
        c0, up = rank_of[np.uint64(ids[0])], rank_of[np.uint64(ids[1])]
        c1, hole = rank_of[np.uint64(ids[2])], rank_of[np.uint64(ids[3])]
        hole_tag = tags[np.uint64(ids[3])]
        dealer_natural = up + hole == 9 and (up == 0 or hole == 0)
        if ins_slot >= 0 and up == 0:
            tc, raw = round_tc, round_raw
            if at_decision:
                raw = read(exact_value(rc, q, n_cards - pos), p_raw)
                tc = read(raw, p)
            _add(acc, ins_slot, tc, raw, 4 if hole == 9 else -2)  # +2 or -1 a unit insured
        if (c0 + c1 == 9 and (c0 == 0 or c1 == 0)) or (
            dealer_natural and peek and (up == 0 or up == 9)
        ):
            rc += hole_tag  # a natural ends the round: no decision, no draw
            continue
        hard, ace = c0 + c1 + 2, c0 == 0 or c1 == 0
        end = pos
        while True:
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            if c0 == c1 and max_hands > 1:
                row, state = 44 + c0, (1 if c1 >= 0 else 0) | 4
            else:
                row, state = soft * 22 + total, 1 if c1 >= 0 else 0
            act = plans[np.uint64(up * 1056 + row * 16 + state)]
            cell = np.uint64(up * 66 + row)
            if cell_count[cell] > 0 and (c1 >= 0 or not two_card):
                tc, raw = round_tc, round_raw
                if at_decision:
                    raw = read(exact_value(rc, q, n_cards - pos), p_raw)
                    tc = read(raw, p)
                base = chart[row // 22, row % 22, up]
                for k in range(cell_first[cell], cell_first[cell] + cell_count[cell]):
                    taken = lplans[np.uint64(dec_map[k, 9 + base] * 1056 + row * 16 + state)]
                    declined = lplans[np.uint64(dec_map[k, base] * 1056 + row * 16 + state)]
                    if taken != dec_action[k] or declined == taken:
                        continue  # not offered on this hand (or no choice)
                    net_t, at_t = _play_out(
                        rules,
                        plans,
                        shoe,
                        rank_of,
                        live,
                        pos,
                        c0,
                        c1,
                        hard,
                        ace,
                        up,
                        hole,
                        taken,
                        taken == SPLIT_A,
                    )
                    net_d, at_d = _play_out(
                        rules,
                        plans,
                        shoe,
                        rank_of,
                        live,
                        pos,
                        c0,
                        c1,
                        hard,
                        ace,
                        up,
                        hole,
                        declined,
                        False,
                    )
                    if at_t < 0 or at_d < 0:
                        acc[tail + 1] += 1
                        continue
                    _add(acc, dec_slot[k], tc, raw, net_t - net_d)
            if act != HIT:  # the chart's play of the rest, then the dealer's
                _, end = _play_out(
                    rules, plans, shoe, rank_of, live, pos, c0, c1, hard, ace, up, hole, act, False
                )
                break
            if pos == n_cards:
                end = -1
                break
            rank = rank_of[np.uint64(shoe[np.uint64(pos)])]
            rc += tags[np.uint64(shoe[np.uint64(pos)])]
            pos += 1
            c1 = -1
            hard += rank + 1
            ace = ace or rank == 0
            now = hard + 10 if ace and hard <= 11 else hard
            if now > 21:  # bust: one seat, so the dealer does not draw
                end = pos
                break
            if now == 21:
                _, end = _play_out(
                    rules,
                    plans,
                    shoe,
                    rank_of,
                    live,
                    pos,
                    c0,
                    c1,
                    hard,
                    ace,
                    up,
                    hole,
                    STAND,
                    False,
                )
                break
        if end < 0:  # the shoe ran out in the chart's own play: reshuffle
            acc[tail + 2] += 1
            pos = n_cards
            continue
        for k in range(pos, end):
            rc += tags[np.uint64(shoe[np.uint64(k)])]
        rc += hole_tag
        pos = end
    return acc
