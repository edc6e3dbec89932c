"""The compiled blackjack round played by a card counter (numba): a bet ramp, Wonging and
playing deviations by the true count.

:func:`play_count_chunk` is :func:`~croupier.plugins.blackjack.kernel.kernel.play_chunk`'s
round, rule for rule and card for card (the same generator, shuffles and cut card), with a
count kept as a player sees the cards: every card's tag as it is dealt, the dealer's hole
card when the round ends (it is turned over then), the running count back to the count's
initial value at every shuffle (a shoe that runs dry in a round too). It is a separate
function so that flat play (:func:`play_chunk`) stays exactly as it is and as fast.

The shoe holds card ids (``0..51`` per deck, the engine's order) and looks up each card's
rank and tag, so a count whose tag depends on the suit (Red 7) is exact. Betting never
changes the cards: a seat that sits out (Wonging) is dealt and played as if another
player of the same strategy sat there, and every seat's result is kept per unit of the
minimum bet (``LIN`` units of the stake, ``NAT`` naturals paid, ``HALF`` half-stakes from
surrender and insurance), from which the chips of any bet follow exactly as the engine
pays them (a natural ``bet * num // den``, half a stake ``bet // 2``).

Totals (see ``FIELDS``): the flat kernel's, at the minimum bet with the deviations played,
then per true-count bucket (the true count when the round's bet is made, floored, clamped
to ``TC_LOW..TC_HIGH``) the rounds dealt, the table's flat net and its square, the rounds
played, the ramp's net and its square, and the chips bet (initial bets). With spots at
high counts (``HAS_SPOTS``), a round whose true count is at least ``SPOTS_TC`` is dealt to
``SPOTS_N`` seats instead of ``seats``, each betting the ramp's bet.

For intervals, each shoe's sums are also kept as a batch (:mod:`.count_batches`): the
rounds of one shoe are correlated, shoes are independent.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.count_batches import (
    BATCH_SIZE,
    SHOE_FIELDS,
    SHOE_SQ,
    TOTAL_FIELDS,
    TOTALS,
    end_shoe,
)
from croupier.plugins.blackjack.kernel.count_batches import BUCKETS as BATCH_BUCKETS
from croupier.plugins.blackjack.kernel.count_move import (
    chart_cells,
    count_move,
    deviate,
    letter_plans,
)
from croupier.plugins.blackjack.kernel.kernel import (
    BET,
    CUT,
    DECKS,
    DEN,
    DOUBLE_A,
    FIELDS,
    FRESH,
    H17,
    HSA,
    MAX_HANDS,
    NUM,
    PEEK,
    RSA,
    SPLIT_A,
    STAND,
    SURRENDER_A,
    _plans,
    _refill,
    _shuffle,
)
from croupier.plugins.blackjack.kernel.true_count import (
    HAS_INS,
    HAS_SPOTS,
    HAS_WONG_IN,
    HAS_WONG_OUT,
    INS_DIR,
    INS_INDEX,
    IRC,
    SPOTS_N,
    SPOTS_TC,
    WONG_IN,
    WONG_OUT,
    quotients,
    true_count,
)

TC_LOW, TC_HIGH = -10, 15
BUCKETS = TC_HIGH - TC_LOW + 1
assert BUCKETS == BATCH_BUCKETS, "count_batches' layout is the buckets'"
BUCKET_FIELDS = ("rounds", "flat_net", "flat_sq", "played", "ramp_net", "ramp_sq", "bet")
COUNT_FIELDS = (
    FIELDS
    + tuple(f"tc{t:+d}_{name}" for t in range(TC_LOW, TC_HIGH + 1) for name in BUCKET_FIELDS)
    + tuple(f"tc{t:+d}_{name}" for t in range(TC_LOW, TC_HIGH + 1) for name in SHOE_FIELDS)
    + TOTAL_FIELDS
)
# rows of the scratch table: per seat, and per live hand
FIRST, SECOND, LIN, NAT, HALF, LIVE_SEAT, LIVE_TOTAL, LIVE_STAKE = range(8)


@njit(cache=True, nogil=True, error_model="numpy")
def play_count_chunk(
    rules: np.ndarray,
    chart: np.ndarray,
    seed: np.uint64,
    rounds: int,
    seats: int,
    p: np.ndarray,
    tags: np.ndarray,
    ramp: np.ndarray,
    dev_first: np.ndarray,
    dev_count: np.ndarray,
    dev_index: np.ndarray,
    dev_map: np.ndarray,
) -> np.ndarray:
    """Play ``rounds`` rounds counting; the totals named by ``COUNT_FIELDS`` (all -1 if
    the shoe ran dry in a round with nothing to reshuffle). ``tags``: the tag of each card
    id 0..51; ``ramp``: units of the minimum bet by bucket; a cell ``up * 66 + row`` with
    deviations has ``dev_count`` of them from ``dev_first``, each taken at or above
    (``dev_index[k, 1] > 0``) or at or below ``dev_index[k, 0]``, mapping the letter so far
    to ``dev_map[k, taken * 9 + letter]``."""
    n_out = len(COUNT_FIELDS)
    out = np.empty(n_out, np.int64)
    for k in range(n_out):
        out[k] = -1
    acc = np.zeros(BUCKETS * 7, np.int64)
    batches = np.zeros(BATCH_SIZE, np.int64)  # count_batches' layout
    key = np.uint64(seed)
    counter = np.uint64(0)
    decks = rules[DECKS]
    n_cards = decks * 52
    fresh = np.empty(n_cards, np.int8)
    rank_of = np.empty(52, np.int64)
    q = quotients(n_cards, decks, p)  # the true count's exact quotient by cards remaining
    for k in range(n_cards):
        fresh[k] = k % 52
    for k in range(52):
        rank_of[k] = min(k // 4, 9)
    shoe = np.empty(n_cards, np.int8)
    spare = np.empty(n_cards, np.int8)
    cut = rules[CUT]
    bet = rules[BET]
    max_hands = rules[MAX_HANDS]
    one_card_aces = rules[HSA] == 0
    fresh_pack = rules[FRESH] != 0
    peek = rules[PEEK] != 0
    rsa = rules[RSA] != 0
    h17 = rules[H17] != 0
    num, den = rules[NUM], rules[DEN]
    natural_pays = bet + (bet * num) // den
    nat_gain = natural_pays - bet
    half_bet = bet // 2
    # by bucket: the ramp's bet, a natural's gain and half the bet at it (no division
    # in the round)
    ramp_bet = np.empty(BUCKETS, np.int64)
    ramp_nat = np.empty(BUCKETS, np.int64)
    ramp_half = np.empty(BUCKETS, np.int64)
    for b in range(BUCKETS):
        ramp_bet[b] = ramp[b] * bet
        ramp_nat[b] = (ramp_bet[b] * num) // den
        ramp_half[b] = ramp_bet[b] // 2
    # the chart's letter by cell (up * 66 + row), where a deviation starts from
    base = chart_cells(chart)
    n_dev = len(dev_index)
    dev_at = np.empty(n_dev, np.float64)
    dev_up = np.empty(n_dev, np.bool_)
    dev_to = np.empty(n_dev * 18, np.int64)
    for k in range(n_dev):
        dev_at[k] = dev_index[k, 0]
        dev_up[k] = dev_index[k, 1] > 0
        for j in range(18):
            dev_to[k * 18 + j] = dev_map[k, j]
    plans = _plans(rules, chart)
    # the plan of every letter for every row and state (the deviations' letters)
    lplans = letter_plans(rules)
    irc = int(p[IRC])
    has_wong_in, has_wong_out = p[HAS_WONG_IN] != 0, p[HAS_WONG_OUT] != 0
    wong_in, wong_out = p[WONG_IN], p[WONG_OUT]
    insures = p[HAS_INS] != 0
    has_spots = p[HAS_SPOTS] != 0
    spots_tc = p[SPOTS_TC]
    most = max(seats, int(p[SPOTS_N])) if has_spots else seats
    seat = np.empty((8, most * max_hands), np.int64)
    n_hands = 0
    pos = n_cards
    rc = irc
    playing = True
    dry = False
    shuffles = 0
    n_net = n_net_sq = n_wins = n_pushes = n_losses = 0
    n_naturals = n_busts = n_doubles = n_splits = n_round_sq = 0
    staked = returned = 0
    for _round in range(rounds):
        if pos >= cut or fresh_pack:
            end_shoe(acc, batches)  # the shoe that ends is a batch
            for k in range(n_cards):
                shoe[k] = fresh[k]
            counter = _shuffle(shoe, 0, n_cards, key, counter)
            pos = 0
            shuffles += 1
            rc = irc
            playing = not has_wong_in  # back-counting: in from the start unless Wonging in
        tc = true_count(rc, q, n_cards - pos, p)
        if playing and has_wong_out and tc < wong_out:
            playing = False
        elif not playing and has_wong_in and tc >= wong_in:
            playing = True
        bucket = min(max(math.floor(tc), TC_LOW), TC_HIGH) - TC_LOW
        spots = int(p[SPOTS_N]) if has_spots and tc >= spots_tc else seats
        n_hands += spots
        b_at = np.uint64(bucket)
        stake_b = ramp_bet[b_at]  # the ramp's bet (capped when the ramp was made)
        nat_b = ramp_nat[b_at]
        half_b = ramp_half[b_at]
        start = pos
        for s in range(spots):
            if pos == n_cards:
                dry = dry or start == 0
                counter = _refill(shoe, spare, start, key, counter)
                pos, start, shuffles, rc = (n_cards - start) % n_cards, 0, shuffles + 1, irc
            card = shoe[np.uint64(pos)]
            pos += 1
            rc += tags[np.uint64(card)]
            seat[FIRST, s] = rank_of[np.uint64(card)]
        if pos == n_cards:
            dry = dry or start == 0
            counter = _refill(shoe, spare, start, key, counter)
            pos, start, shuffles, rc = (n_cards - start) % n_cards, 0, shuffles + 1, irc
        card = shoe[np.uint64(pos)]
        pos += 1
        rc += tags[np.uint64(card)]
        up = rank_of[np.uint64(card)]
        for s in range(spots):
            if pos == n_cards:
                dry = dry or start == 0
                counter = _refill(shoe, spare, start, key, counter)
                pos, start, shuffles, rc = (n_cards - start) % n_cards, 0, shuffles + 1, irc
            card = shoe[np.uint64(pos)]
            pos += 1
            rc += tags[np.uint64(card)]
            seat[SECOND, s] = rank_of[np.uint64(card)]
        if pos == n_cards:
            dry = dry or start == 0
            counter = _refill(shoe, spare, start, key, counter)
            pos, start, shuffles, rc = (n_cards - start) % n_cards, 0, shuffles + 1, irc
        hole_card = shoe[np.uint64(pos)]  # counted when turned over, at the round's end
        pos += 1
        hole = rank_of[np.uint64(hole_card)]
        dealer_hard = up + hole + 2
        dealer_ace = up == 0 or hole == 0
        dealer_natural = dealer_hard == 11 and dealer_ace
        up_plans = up * 1056
        up_cells = up * 66
        peeked_natural = dealer_natural and peek and (up == 0 or up == 9)
        insure = False
        if insures and up == 0:
            now_tc = true_count(rc, q, n_cards - pos, p)
            insure = now_tc >= p[INS_INDEX] if p[INS_DIR] > 0 else now_tc <= p[INS_INDEX]
        n_live = 0
        for s in range(spots):
            c0 = seat[FIRST, s]
            c1 = seat[SECOND, s]
            hard = c0 + c1 + 2
            ace = c0 == 0 or c1 == 0
            seat[LIN, s] = -1
            seat[NAT, s] = 0
            seat[HALF, s] = 0
            staked += bet
            if insure:  # half the bet, paid 2 to 1 on the dealer's natural
                staked += half_bet
                if dealer_natural:
                    seat[HALF, s] += 2
                    returned += 3 * half_bet
                else:
                    seat[HALF, s] -= 1
            if hard == 11 and ace:
                n_naturals += 1
                paid = bet if dealer_natural else natural_pays
                seat[LIN, s] += 1
                seat[NAT, s] += not dealer_natural
                returned += paid
                continue
            if peeked_natural:
                continue
            stake = bet
            units = 1
            split_hand = aces = False
            splits = waiting = 0
            busted = doubled = False
            done = hard == 21
            while True:
                live = True
                aces_only = aces and one_card_aces
                flags = 8 if aces_only else 1  # ACES_ONLY, FIRST_MOVE
                if split_hand:
                    flags |= 2  # SPLIT_HAND
                while not done:
                    soft = ace and hard <= 11
                    total = hard + 10 if soft else hard
                    # count_move, its common paths inline (a call per decision cost a
                    # third of the rate): the chart's plan where no cell has deviations,
                    # deviate for a hand that is not a pair, count_move for a pair
                    total_row = soft * 22 + total
                    pair_row = -1
                    if c0 == c1 and splits + 1 < max_hands and (not aces or rsa):
                        pair_row = 44 + c0
                    if dev_first[np.uint64(up_cells + total_row)] < 0 and (
                        pair_row < 0 or dev_first[np.uint64(up_cells + pair_row)] < 0
                    ):
                        if pair_row < 0:
                            action = plans[np.uint64(up_plans + total_row * 16 + flags)]
                        else:
                            action = plans[np.uint64(up_plans + pair_row * 16 + (flags | 4))]
                    elif pair_row < 0:  # count_move's total-row path, inline
                        now_tc = true_count(rc, q, n_cards - pos, p)
                        cell = up_cells + total_row
                        letter = deviate(
                            cell, base[cell], now_tc, dev_first, dev_count, dev_at, dev_up, dev_to
                        )
                        action = lplans[np.uint64(letter * 1056 + total_row * 16 + flags)]
                    else:
                        action = count_move(
                            up,
                            total_row,
                            pair_row,
                            flags,
                            rc,
                            q,
                            n_cards - pos,
                            p,
                            base,
                            plans,
                            lplans,
                            dev_first,
                            dev_count,
                            dev_at,
                            dev_up,
                            dev_to,
                        )
                    if action == STAND:
                        break
                    if action == SURRENDER_A:
                        seat[HALF, s] += 1
                        returned += stake // 2
                        live = False
                        break
                    if pos == n_cards:
                        dry = dry or start == 0
                        counter = _refill(shoe, spare, start, key, counter)
                        pos, start, shuffles, rc = (n_cards - start) % n_cards, 0, shuffles + 1, irc
                    card = shoe[np.uint64(pos)]
                    pos += 1
                    rc += tags[np.uint64(card)]
                    rank = rank_of[np.uint64(card)]
                    if action == SPLIT_A:
                        splits += 1
                        waiting += 1
                        seat[LIN, s] -= units
                        staked += stake
                        split_hand = True
                        aces = c0 == 0
                        aces_only = aces and one_card_aces
                        flags = 2 | (8 if aces_only else 1)
                        c1 = rank
                        hard = c0 + c1 + 2
                        ace = c0 == 0 or c1 == 0
                        resplit = c0 == c1 and splits + 1 < max_hands and rsa
                        done = (aces_only and not resplit) or (ace and hard == 11)
                        continue
                    if action == DOUBLE_A:
                        seat[LIN, s] -= units
                        staked += stake
                        stake *= 2
                        units *= 2
                        doubled = True
                        done = True
                    c1 = -1
                    flags &= ~1
                    hard += rank + 1
                    ace = ace or rank == 0
                    now = hard + 10 if ace and hard <= 11 else hard
                    if now > 21:
                        busted = True
                        live = False
                        break
                    if now == 21:
                        break
                if live:
                    seat[LIVE_SEAT, n_live] = s
                    seat[LIVE_TOTAL, n_live] = hard + 10 if ace and hard <= 11 else hard
                    seat[LIVE_STAKE, n_live] = units
                    n_live += 1
                if waiting == 0:
                    break
                waiting -= 1
                if pos == n_cards:
                    dry = dry or start == 0
                    counter = _refill(shoe, spare, start, key, counter)
                    pos, start, shuffles, rc = (n_cards - start) % n_cards, 0, shuffles + 1, irc
                card = shoe[np.uint64(pos)]
                pos += 1
                rc += tags[np.uint64(card)]
                c1 = rank_of[np.uint64(card)]
                stake = bet
                units = 1
                hard = c0 + c1 + 2
                ace = c0 == 0 or c1 == 0
                aces_only = aces and one_card_aces
                resplit = c0 == c1 and splits + 1 < max_hands and rsa
                done = (aces_only and not resplit) or (ace and hard == 11)
            n_busts += busted
            n_doubles += doubled
            n_splits += splits > 0
        if n_live > 0 and not peeked_natural:
            while True:
                dealer_soft = dealer_ace and dealer_hard <= 11
                dealer_total = dealer_hard + 10 if dealer_soft else dealer_hard
                if not (dealer_total < 17 or (dealer_total == 17 and h17 and dealer_soft)):
                    break
                if pos == n_cards:
                    dry = dry or start == 0
                    counter = _refill(shoe, spare, start, key, counter)
                    pos, start, shuffles, rc = (n_cards - start) % n_cards, 0, shuffles + 1, irc
                card = shoe[np.uint64(pos)]
                pos += 1
                rc += tags[np.uint64(card)]
                dealer_hard += rank_of[np.uint64(card)] + 1
                dealer_ace = dealer_ace or rank_of[np.uint64(card)] == 0
        rc += tags[np.uint64(hole_card)]  # turned over as the round ends
        final = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard
        beat = 22 if dealer_natural else 0 if final > 21 else final
        for k in range(n_live):
            player = seat[LIVE_TOTAL, k]
            times = (player > beat) + (player >= beat)
            paid = seat[LIVE_STAKE, k] * bet * times
            seat[LIN, seat[LIVE_SEAT, k]] += seat[LIVE_STAKE, k] * times
            returned += paid
        table_net = 0
        ramp_net = 0
        for s in range(spots):
            net = bet * seat[LIN, s] + seat[NAT, s] * nat_gain + seat[HALF, s] * half_bet
            n_net += net
            n_net_sq += net * net
            n_wins += net > 0
            n_losses += net < 0
            n_pushes += net == 0
            table_net += net
            ramp_net += stake_b * seat[LIN, s] + seat[NAT, s] * nat_b + seat[HALF, s] * half_b
        n_round_sq += table_net * table_net
        at = np.uint64(bucket * 7)
        acc[at] += 1
        acc[at + np.uint64(1)] += table_net
        acc[at + np.uint64(2)] += table_net * table_net
        if playing:
            acc[at + np.uint64(3)] += 1
            acc[at + np.uint64(4)] += ramp_net
            acc[at + np.uint64(5)] += ramp_net * ramp_net
            acc[at + np.uint64(6)] += stake_b * spots
        if dry:
            return out
    end_shoe(acc, batches)  # the chunk's last shoe, dealt in part: a batch too
    out[0], out[1], out[2], out[3] = n_hands, n_net, n_net_sq, n_wins
    out[4], out[5], out[6], out[7] = n_pushes, n_losses, n_naturals, n_busts
    out[8], out[9], out[10] = n_doubles, n_splits, staked - returned
    out[11], out[12] = shuffles, n_round_sq
    k = len(FIELDS)
    for j in range(BUCKETS * 7):
        out[k + j] = acc[j]
    k += BUCKETS * 7
    for j in range(BUCKETS * 6):
        out[k + j] = batches[SHOE_SQ + j]
    k += BUCKETS * 6
    for j in range(4):
        out[k + j] = batches[TOTALS + j]
    return out
