"""The compiled blackjack round (numba), written once and specialised at compile time for
flat play, for a card counter and for measuring playing indices.

:func:`make_chunk` is a closure factory: ``counting`` and ``indexing`` are constants of the
function it compiles, so numba folds every ``if counting:`` and ``if indexing:`` away and
the flat instance carries none of the count's work (the count's tags, the true count, bets
by bucket, deviations, per-shoe batches) nor the measurement's (each decision played out
both ways). :mod:`.instances` compiles its three instances and calls them (``play_chunk``
flat, ``play_count_chunk`` counting, ``play_index_chunk`` indices); docs for the round itself are
in :mod:`.kernel` (the flat rules, the generator, why the round runs in locals),
:mod:`.count_kernel` (the count, the bucket and batch totals) and :mod:`.index_kernel`
(the measurement: one seat, the chart played throughout, each decision asked about played
out twice from the cards that follow; a round the shoe cannot finish is abandoned, not
refilled). The steps run once per chunk, round or decision (the set-up, the count's bet
and books, the measurement's fork, a dry shoe's reshuffle) are in :mod:`.round_steps`; the
per-card path stays inline here.

A shoe holds ranks (flat) or card ids ``0..51`` per deck (counting: a tag may depend on
the suit); both are shuffled by the same Fisher-Yates over the same positions, so they
deal the same ranks from a seed. A counter's seat keeps its result per unit of the
minimum bet (``LIN`` units of the stake, ``NAT`` naturals paid, ``HALF`` half-stakes), from
which the chips of any bet follow exactly as the engine pays them; a flat seat keeps chips
in ``LIN`` (fewer stores: flat play stays as fast as before the merge). The house keeps
its own books in chips (``staked - returned``: a double-entry check).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.count_batches import (
    BATCH_SIZE,
    end_shoe,
)
from croupier.plugins.blackjack.kernel.count_kernel import BUCKETS, COUNT_FIELDS
from croupier.plugins.blackjack.kernel.count_move import (
    chart_cells,
    count_move,
    deviate,
    letter_plans,
)
from croupier.plugins.blackjack.kernel.index_kernel import TRAILER, _add
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
    _shuffle,
)
from croupier.plugins.blackjack.kernel.round_steps import (
    book_round,
    count_totals,
    deviation_tables,
    measure_decision,
    new_pack,
    place_bet,
    ramp_tables,
    reading_now,
    run_dry,
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
    exact_value,
    quotients,
    read,
    true_count,
)

# rows of the scratch table: per seat, and per live hand
FIRST, SECOND, LIN, NAT, HALF, LIVE_SEAT, LIVE_TOTAL, LIVE_UNITS = range(8)
# the state of a hand, as bits of the index into the table of plans (kernel._plans)
FIRST_MOVE, SPLIT_HAND, MAY_SPLIT, ACES_ONLY = 1, 2, 4, 8


def make_chunk(counting: bool, indexing: bool = False) -> Callable[..., Any]:
    """The chunk player for flat play (both False), for a counter (``counting``) or for
    measuring indices (``indexing``), with :func:`play_count_chunk`'s arguments and then
    :func:`play_index_chunk`'s own; it returns ``FIELDS``, ``COUNT_FIELDS`` or the index
    totals (:mod:`.index_kernel`)."""
    n_out = len(COUNT_FIELDS) if counting else len(FIELDS)
    ids = counting or indexing  # the shoe holds card ids and the count is kept

    @njit(cache=True, nogil=True, error_model="numpy")
    def chunk(
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
        p_raw: np.ndarray,
        dec_slot: np.ndarray,
        dec_action: np.ndarray,
        ins_slot: int,
        slots: int,
        at_decision: bool,
        two_card: bool,
    ) -> np.ndarray:
        out = np.empty(n_out, np.int64)  # all -1 until the end: a chunk not played
        for k in range(n_out):
            out[k] = -1
        key = np.uint64(seed)
        counter = np.uint64(0)
        decks = rules[DECKS]
        n_cards = decks * 52
        fresh, rank_of = new_pack(decks, ids)  # decks in the engine's order (DECK)
        shoe = np.empty(n_cards, np.int8)  # shuffled from fresh before the first round
        spare = np.empty(n_cards, np.int8)
        # every rule read once, into locals
        cut = rules[CUT]
        bet = rules[BET]
        max_hands = rules[MAX_HANDS]
        one_card_aces = rules[HSA] == 0
        fresh_pack = rules[FRESH] != 0
        peek = rules[PEEK] != 0
        rsa = rules[RSA] != 0
        h17 = rules[H17] != 0
        num, den = rules[NUM], rules[DEN]
        natural_pays = bet + (bet * num) // den  # a natural's return (whole chips)
        nat_gain = natural_pays - bet
        half_bet = bet // 2
        unit = 1 if counting else bet  # a seat's results: units of the bet, or chips flat
        plans = _plans(rules, chart)
        # the count's state and tables (small and unused when flat)
        q = quotients(n_cards, decks, p)  # the true count's exact quotient by cards left
        acc = np.zeros(BUCKETS * 7 if counting else 1, np.int64)
        batches = np.zeros(BATCH_SIZE if counting else 1, np.int64)  # count_batches' layout
        ramp_bet, ramp_nat, ramp_half = ramp_tables(ramp, bet, num, den)
        # the chart's letter by cell (up * 66 + row), where a deviation starts from
        base = chart_cells(chart)
        n_dev = len(dev_index) if counting else 0
        dev_at, dev_up, dev_to = deviation_tables(dev_index, dev_map, n_dev)
        # the plan of every letter for every row and state (the deviations' letters)
        lplans = letter_plans(rules) if ids else plans
        # indices: per decision slot and bucket n, sum, sq, tc; then TRAILER's counts
        tail = slots * BUCKETS * 4
        measured = np.zeros(tail + len(TRAILER) if indexing else 1, np.int64)
        fork_live = np.empty(2 * max_hands, np.int64)  # _play_out's scratch
        round_raw = round_tc = 0.0  # the true count at the round's start (indices)
        abandoned = False
        irc = int(p[IRC])
        has_wong_in, has_wong_out = p[HAS_WONG_IN] != 0, p[HAS_WONG_OUT] != 0
        wong_in, wong_out = p[WONG_IN], p[WONG_OUT]
        insures = p[HAS_INS] != 0
        has_spots = p[HAS_SPOTS] != 0
        spots_tc = p[SPOTS_TC]
        most = max(seats, int(p[SPOTS_N])) if counting and has_spots else seats
        # per seat: the first two cards and the result so far; per live hand (played
        # out, neither bust nor surrendered): seat, total and its stake in units (chips flat)
        seat = np.empty((8, most * max_hands), np.int64)  # each entry written before read
        n_hands = 0
        pos = n_cards  # a fresh shoe is shuffled before the first round
        rc = irc
        playing = True
        dry = False
        shuffles = 0
        n_net = n_net_sq = n_wins = n_pushes = n_losses = 0
        n_naturals = n_busts = n_doubles = n_splits = n_round_sq = 0
        staked = returned = 0  # the house's books, kept apart from the seats' results
        for _round in range(rounds):
            # cut card out (or a fresh pack each round; indices: too few cards to deal)
            if pos >= cut or fresh_pack or (indexing and pos + 4 > n_cards):
                if counting:
                    end_shoe(acc, batches)  # the shoe that ends is a batch
                for k in range(n_cards):
                    shoe[k] = fresh[k]
                counter = _shuffle(shoe, 0, n_cards, key, counter)
                pos = 0
                shuffles += 1
                rc = irc
                playing = not has_wong_in  # in from the start unless Wonging in
            spots = seats
            bucket = 0
            if indexing:
                measured[tail] += 1
                round_raw = read(exact_value(rc, q, n_cards - pos), p_raw)
                round_tc = read(round_raw, p)
                abandoned = False
            if counting:  # the bet is made at the true count before the deal
                playing, bucket, spots = place_bet(
                    true_count(rc, q, n_cards - pos, p), playing, spots, has_wong_in, wong_in,
                    has_wong_out, wong_out, has_spots, spots_tc, int(p[SPOTS_N]),
                )  # fmt: skip
            n_hands += spots
            start = pos
            # the deal: a card to each seat, the upcard, a second card each, the hole card
            # (at each draw the shoe may run dry and reshuffle its discards; with none, the
            # round is played out on the same cards again and the chunk ends after it)
            for s in range(spots):
                if pos == n_cards:  # dry: reshuffle the discards
                    dry, counter, pos, start = run_dry(shoe, spare, start, key, counter, dry)
                    shuffles, rc = shuffles + 1, irc
                card = int(shoe[np.uint64(pos)])
                pos += 1
                rank = card if not ids else rank_of[np.uint64(card)]
                if ids:
                    rc += tags[np.uint64(card)]
                seat[FIRST, s] = rank
            if pos == n_cards:  # dry: reshuffle the discards
                dry, counter, pos, start = run_dry(shoe, spare, start, key, counter, dry)
                shuffles, rc = shuffles + 1, irc
            card = int(shoe[np.uint64(pos)])
            pos += 1
            up = card if not ids else rank_of[np.uint64(card)]
            if ids:
                rc += tags[np.uint64(card)]
            for s in range(spots):
                if pos == n_cards:  # dry: reshuffle the discards
                    dry, counter, pos, start = run_dry(shoe, spare, start, key, counter, dry)
                    shuffles, rc = shuffles + 1, irc
                card = int(shoe[np.uint64(pos)])
                pos += 1
                rank = card if not ids else rank_of[np.uint64(card)]
                if ids:
                    rc += tags[np.uint64(card)]
                seat[SECOND, s] = rank
            # the hole card is counted when it is turned over, at the round's end
            if pos == n_cards:  # dry: reshuffle the discards
                dry, counter, pos, start = run_dry(shoe, spare, start, key, counter, dry)
                shuffles, rc = shuffles + 1, irc
            hole_card = int(shoe[np.uint64(pos)])
            pos += 1
            hole = hole_card if not ids else rank_of[np.uint64(hole_card)]
            dealer_hard = up + hole + 2
            dealer_ace = up == 0 or hole == 0
            dealer_natural = dealer_hard == 11 and dealer_ace
            up_plans = up * 1056
            up_cells = up * 66
            peeked_natural = dealer_natural and peek and (up == 0 or up == 9)
            insure = False
            if counting and insures and up == 0:
                now_tc = true_count(rc, q, n_cards - pos, p)
                insure = now_tc >= p[INS_INDEX] if p[INS_DIR] > 0 else now_tc <= p[INS_INDEX]
            if indexing and ins_slot >= 0 and up == 0:  # +2 or -1 a unit insured
                tc, raw = reading_now(
                    round_tc, round_raw, at_decision, rc, q, n_cards - pos, p, p_raw
                )
                _add(measured, ins_slot, tc, raw, 4 if hole == 9 else -2)
            n_live = 0
            for s in range(spots):
                c0 = seat[FIRST, s]
                c1 = seat[SECOND, s]
                hard = c0 + c1 + 2
                ace = c0 == 0 or c1 == 0
                seat[LIN, s] = -unit
                if counting:
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
                if hard == 11 and ace:  # a natural: paid, or pushed by the dealer's
                    n_naturals += 1
                    if counting:
                        seat[LIN, s] += 1
                        seat[NAT, s] += not dealer_natural
                    else:
                        seat[LIN, s] += bet if dealer_natural else natural_pays
                    returned += bet if dealer_natural else natural_pays
                    continue
                if peeked_natural:
                    continue  # lost to the dealer's natural, unplayed
                # the seat's hands, one at a time: the first two cards, then each hand
                # split off it (all of the pair's rank, waiting for their second card)
                stake = bet
                units = unit
                split_hand = aces = False
                splits = waiting = 0
                busted = doubled = False
                done = hard == 21
                while True:
                    live = True
                    aces_only = aces and one_card_aces
                    flags = ACES_ONLY if aces_only else FIRST_MOVE
                    if split_hand:
                        flags |= SPLIT_HAND
                    while not done:
                        soft = ace and hard <= 11
                        total = hard + 10 if soft else hard
                        total_row = soft * 22 + total
                        # c1 < 0 once the hand has more than two cards
                        pair_row = -1
                        if c0 == c1 and splits + 1 < max_hands and (not aces or rsa):
                            pair_row = 44 + c0
                        if indexing and not split_hand and (c1 >= 0 or not two_card):
                            # each decision asked about here, played out taken and declined
                            row = pair_row if pair_row >= 0 else total_row
                            cell = up_cells + row
                            state = (flags | MAY_SPLIT) if pair_row >= 0 else flags
                            tc, raw = reading_now(
                                round_tc, round_raw, at_decision and dev_count[cell] > 0, rc,
                                q, n_cards - pos, p, p_raw,
                            )  # fmt: skip
                            measure_decision(
                                measured, tail + 1, rules, plans, lplans, shoe, rank_of,
                                fork_live, pos, c0, c1, hard, ace, up, hole, cell, row, state,
                                base, dev_first, dev_count, dev_map, dec_slot, dec_action, tc,
                                raw,
                            )  # fmt: skip
                        if not counting or (
                            dev_first[np.uint64(up_cells + total_row)] < 0
                            and (pair_row < 0 or dev_first[np.uint64(up_cells + pair_row)] < 0)
                        ):  # the chart's plan: one load
                            if pair_row < 0:
                                action = plans[np.uint64(up_plans + total_row * 16 + flags)]
                            else:
                                action = plans[
                                    np.uint64(up_plans + pair_row * 16 + (flags | MAY_SPLIT))
                                ]
                        elif pair_row < 0:  # count_move's total-row path, inline
                            now_tc = true_count(rc, q, n_cards - pos, p)
                            cell = up_cells + total_row
                            letter = deviate(
                                cell, base[cell], now_tc, dev_first, dev_count, dev_at,
                                dev_up, dev_to,
                            )  # fmt: skip
                            action = lplans[np.uint64(letter * 1056 + total_row * 16 + flags)]
                        else:  # a pair with deviations (a call: rare, and costly inline)
                            action = count_move(
                                up, total_row, pair_row, flags, rc, q, n_cards - pos, p,
                                base, plans, lplans, dev_first, dev_count, dev_at, dev_up,
                                dev_to,
                            )  # fmt: skip
                        if action == STAND:
                            break
                        if action == SURRENDER_A:
                            if counting:
                                seat[HALF, s] += 1
                            else:
                                seat[LIN, s] += stake // 2
                            returned += stake // 2
                            live = False
                            break
                        if pos == n_cards and indexing:  # the round is abandoned
                            abandoned, live, waiting = True, False, 0
                            break
                        if pos == n_cards:  # dry: reshuffle the discards
                            dry, counter, pos, start = run_dry(
                                shoe, spare, start, key, counter, dry
                            )
                            shuffles, rc = shuffles + 1, irc
                        card = int(shoe[np.uint64(pos)])
                        pos += 1
                        rank = card if not ids else rank_of[np.uint64(card)]
                        if ids:
                            rc += tags[np.uint64(card)]
                        if action == SPLIT_A:  # this hand keeps c0, takes a new second card
                            splits += 1
                            waiting += 1
                            seat[LIN, s] -= units
                            staked += stake
                            split_hand = True
                            aces = c0 == 0
                            aces_only = aces and one_card_aces
                            flags = SPLIT_HAND | (ACES_ONLY if aces_only else FIRST_MOVE)
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
                        flags &= ~FIRST_MOVE
                        hard += rank + 1
                        ace = ace or rank == 0
                        now = hard + 10 if ace and hard <= 11 else hard
                        if now > 21:
                            busted = True
                            live = False
                            break
                        if now == 21:
                            break
                    if live:  # settled after the dealer's play
                        seat[LIVE_SEAT, n_live] = s
                        seat[LIVE_TOTAL, n_live] = hard + 10 if ace and hard <= 11 else hard
                        seat[LIVE_UNITS, n_live] = units
                        n_live += 1
                    if waiting == 0:
                        break
                    # the next hand split off: its second card now
                    waiting -= 1
                    if pos == n_cards and indexing:  # the round is abandoned
                        abandoned = True
                        break
                    if pos == n_cards:  # dry: reshuffle the discards
                        dry, counter, pos, start = run_dry(shoe, spare, start, key, counter, dry)
                        shuffles, rc = shuffles + 1, irc
                    card = int(shoe[np.uint64(pos)])
                    pos += 1
                    c1 = card if not ids else rank_of[np.uint64(card)]
                    if ids:
                        rc += tags[np.uint64(card)]
                    stake = bet
                    units = unit
                    hard = c0 + c1 + 2
                    ace = c0 == 0 or c1 == 0
                    aces_only = aces and one_card_aces
                    resplit = c0 == c1 and splits + 1 < max_hands and rsa
                    done = (aces_only and not resplit) or (ace and hard == 11)
                n_busts += busted
                n_doubles += doubled
                n_splits += splits > 0
            # the dealer plays when a hand is still live
            if n_live > 0 and not peeked_natural and not (indexing and abandoned):
                while True:
                    dealer_soft = dealer_ace and dealer_hard <= 11
                    dealer_total = dealer_hard + 10 if dealer_soft else dealer_hard
                    if not (dealer_total < 17 or (dealer_total == 17 and h17 and dealer_soft)):
                        break
                    if pos == n_cards and indexing:  # the round is abandoned
                        abandoned = True
                        break
                    if pos == n_cards:  # dry: reshuffle the discards
                        dry, counter, pos, start = run_dry(shoe, spare, start, key, counter, dry)
                        shuffles, rc = shuffles + 1, irc
                    card = int(shoe[np.uint64(pos)])
                    pos += 1
                    rank = card if not ids else rank_of[np.uint64(card)]
                    if ids:
                        rc += tags[np.uint64(card)]
                    dealer_hard += rank + 1
                    dealer_ace = dealer_ace or rank == 0
            if indexing and abandoned:  # reshuffled before the next round, not refilled
                measured[tail + 2] += 1
                pos = n_cards
                continue
            if ids:
                rc += tags[np.uint64(hole_card)]  # turned over as the round ends
            # settle (casino betting): a live hand wins twice its stake back above the
            # dealer (whose bust counts 0 and natural 22: it beats every live hand)
            final = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard
            beat = 22 if dealer_natural else 0 if final > 21 else final
            for k in range(n_live):
                player = seat[LIVE_TOTAL, k]
                won = seat[LIVE_UNITS, k] * ((player > beat) + (player >= beat))
                seat[LIN, seat[LIVE_SEAT, k]] += won
                returned += won * bet if counting else won
            table_net = 0
            ramp_net = 0
            stake_b = ramp_bet[np.uint64(bucket)]  # the ramp's bet (capped when made)
            for s in range(spots):
                net = seat[LIN, s]
                if counting:  # units of the bet: chips at the minimum bet and the ramp's
                    lin, nat, half = net, seat[NAT, s], seat[HALF, s]
                    net = bet * lin + nat * nat_gain + half * half_bet
                    b_at = np.uint64(bucket)
                    ramp_net += stake_b * lin + nat * ramp_nat[b_at] + half * ramp_half[b_at]
                n_net += net
                n_net_sq += net * net
                n_wins += net > 0
                n_losses += net < 0
                n_pushes += net == 0
                table_net += net
            n_round_sq += table_net * table_net  # seats share the dealer: rounds vary as one
            if counting:
                book_round(acc, bucket, table_net, playing, ramp_net, stake_b, spots)
            if dry:
                return out
        if indexing:
            return measured
        out[0], out[1], out[2], out[3] = n_hands, n_net, n_net_sq, n_wins
        out[4], out[5], out[6], out[7] = n_pushes, n_losses, n_naturals, n_busts
        out[8], out[9], out[10] = n_doubles, n_splits, staked - returned
        out[11], out[12] = shuffles, n_round_sq
        if counting:
            count_totals(out, acc, batches)
        return out

    return chunk
