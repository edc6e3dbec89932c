"""The round body's steps that run once per chunk or once per round, not once per card.

:func:`.round_body.make_chunk` calls these so that its one function holds the deal and the
play (the per-card path, whose array indexing stays inline: a call per card that passes the
shoe costs numba reference counts, about 40% of flat speed). The chunk's set-up is plain
compiled calls (once per chunk); the count's bet and books and the index measurement are
``inline="always"`` (once per round or per decision, and only in the instances that keep a
count: the flat instance folds their ``if counting:`` / ``if indexing:`` away).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.count_batches import SHOE_SQ, TOTALS, end_shoe
from croupier.plugins.blackjack.kernel.count_kernel import BUCKETS, TC_HIGH, TC_LOW
from croupier.plugins.blackjack.kernel.fields import FIELDS
from croupier.plugins.blackjack.kernel.index_kernel import _add, _play_out
from croupier.plugins.blackjack.kernel.kernel import SPLIT_A, _refill
from croupier.plugins.blackjack.kernel.true_count import exact_value, read


@njit(cache=True, nogil=True, error_model="numpy")
def new_pack(decks: int, ids: bool) -> tuple[np.ndarray, np.ndarray]:
    """The unshuffled shoe (decks in the engine's order: card ids ``0..51`` per deck, or
    their ranks) and each card id's rank."""
    rank_of = np.empty(52, np.int64)
    for k in range(52):
        rank_of[k] = min(k // 4, 9)
    fresh = np.empty(decks * 52, np.int8)
    for k in range(decks * 52):
        fresh[k] = k % 52 if ids else rank_of[k % 52]
    return fresh, rank_of


@njit(cache=True, nogil=True, error_model="numpy")
def run_dry(
    shoe: np.ndarray,
    spare: np.ndarray,
    start: int,
    key: np.uint64,
    counter: np.uint64,
    dry: bool,
) -> tuple[bool, np.uint64, int, int]:
    """The shoe ran out mid-round (rare: a call, as ``_refill``'s already was): reshuffle
    the discards. Returns ``dry`` (also set when there were none, ``start`` 0: the chunk
    ends after this round), the generator's counter, the next card's position and the
    round's new start."""
    n_cards = len(shoe)
    counter = _refill(shoe, spare, start, key, counter)
    return dry or start == 0, counter, (n_cards - start) % n_cards, 0


@njit(cache=True, nogil=True, error_model="numpy")
def ramp_tables(
    ramp: np.ndarray, bet: int, num: int, den: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By true-count bucket: the ramp's bet in chips, a natural's gain and half the bet at it."""
    ramp_bet = np.empty(BUCKETS, np.int64)
    ramp_nat = np.empty(BUCKETS, np.int64)
    ramp_half = np.empty(BUCKETS, np.int64)
    for b in range(BUCKETS):
        ramp_bet[b] = ramp[b] * bet
        ramp_nat[b] = (ramp_bet[b] * num) // den
        ramp_half[b] = ramp_bet[b] // 2
    return ramp_bet, ramp_nat, ramp_half


@njit(cache=True, nogil=True, error_model="numpy")
def deviation_tables(
    dev_index: np.ndarray, dev_map: np.ndarray, n_dev: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per deviation: its index, whether taken at or above it, and its 18-letter map, flat."""
    dev_at = np.empty(n_dev, np.float64)
    dev_up = np.empty(n_dev, np.bool_)
    dev_to = np.empty(n_dev * 18, np.int64)
    for k in range(n_dev):
        dev_at[k] = dev_index[k, 0]
        dev_up[k] = dev_index[k, 1] > 0
        for j in range(18):
            dev_to[k * 18 + j] = dev_map[k, j]
    return dev_at, dev_up, dev_to


@njit(inline="always", cache=True, nogil=True, error_model="numpy")
def place_bet(
    tc: float,
    playing: bool,
    spots: int,
    has_wong_in: bool,
    wong_in: float,
    has_wong_out: bool,
    wong_out: float,
    has_spots: bool,
    spots_tc: float,
    spots_n: int,
) -> tuple[bool, int, int]:
    """A counter's bet at the true count ``tc`` before the deal: whether it plays (Wonging
    out below ``wong_out``, back in at ``wong_in``), its bucket, and the spots dealt."""
    if playing and has_wong_out and tc < wong_out:
        playing = False
    elif not playing and has_wong_in and tc >= wong_in:
        playing = True
    bucket = min(max(math.floor(tc), TC_LOW), TC_HIGH) - TC_LOW
    if has_spots and tc >= spots_tc:
        spots = spots_n
    return playing, bucket, spots


@njit(inline="always", cache=True, nogil=True, error_model="numpy")
def book_round(
    acc: np.ndarray,
    bucket: int,
    table_net: int,
    playing: bool,
    ramp_net: int,
    stake_b: int,
    spots: int,
) -> None:
    """Add a counted round to its bucket's totals (``BUCKET_FIELDS``)."""
    at = np.uint64(bucket * 7)
    acc[at] += 1
    acc[at + np.uint64(1)] += table_net
    acc[at + np.uint64(2)] += table_net * table_net
    if playing:
        acc[at + np.uint64(3)] += 1
        acc[at + np.uint64(4)] += ramp_net
        acc[at + np.uint64(5)] += ramp_net * ramp_net
        acc[at + np.uint64(6)] += stake_b * spots


@njit(inline="always", cache=True, nogil=True, error_model="numpy")
def measure_decision(
    measured: np.ndarray,
    fork_dry: int,
    rules: np.ndarray,
    plans: np.ndarray,
    lplans: np.ndarray,
    shoe: np.ndarray,
    rank_of: np.ndarray,
    fork_live: np.ndarray,
    pos: int,
    c0: int,
    c1: int,
    hard: int,
    ace: bool,
    up: int,
    hole: int,
    cell: int,
    row: int,
    state: int,
    base: np.ndarray,
    dev_first: np.ndarray,
    dev_count: np.ndarray,
    dev_map: np.ndarray,
    dec_slot: np.ndarray,
    dec_action: np.ndarray,
    tc: float,
    raw: float,
) -> None:
    """Each decision asked about at this cell, played out taken and declined from the cards
    that follow; the difference is a sample at the true count ``tc`` (``raw`` unrounded),
    or a fork the shoe ran out in (``measured[fork_dry]``)."""
    for k in range(dev_first[cell], dev_first[cell] + dev_count[cell]):
        at_row = row * 16 + state
        was = base[cell]  # the chart's letter
        taken = lplans[np.uint64(dev_map[k, 9 + was] * 1056 + at_row)]
        declined = lplans[np.uint64(dev_map[k, was] * 1056 + at_row)]
        if taken != dec_action[k] or declined == taken:
            continue  # not offered on this hand (or no choice)
        net_t, at_t = _play_out(
            rules, plans, shoe, rank_of, fork_live, pos, c0, c1, hard, ace, up, hole, taken,
            taken == SPLIT_A,
        )  # fmt: skip
        net_d, at_d = _play_out(
            rules, plans, shoe, rank_of, fork_live, pos, c0, c1, hard, ace, up, hole, declined,
            False,
        )  # fmt: skip
        if at_t < 0 or at_d < 0:
            measured[fork_dry] += 1
            continue
        _add(measured, dec_slot[k], tc, raw, net_t - net_d)


@njit(inline="always", cache=True, nogil=True, error_model="numpy")
def reading_now(
    tc: float, raw: float, at_decision: bool, rc: int, q: np.ndarray, left: int,
    p: np.ndarray, p_raw: np.ndarray,
) -> tuple[float, float]:  # fmt: skip
    """The true count a measurement is filed under: the round's (``tc``, ``raw``), or with
    ``at_decision`` the count now, ``left`` cards from the end."""
    if at_decision:
        raw = read(exact_value(rc, q, left), p_raw)
        tc = read(raw, p)
    return tc, raw


@njit(cache=True, nogil=True, error_model="numpy")
def count_totals(out: np.ndarray, acc: np.ndarray, batches: np.ndarray) -> None:
    """Close the chunk's last shoe (dealt in part: a batch too) and copy the bucket and
    batch totals after ``FIELDS`` (``COUNT_FIELDS``' order)."""
    end_shoe(acc, batches)
    k = len(FIELDS)
    for j in range(BUCKETS * 7):
        out[k + j] = acc[j]
    k += BUCKETS * 7
    for j in range(BUCKETS * 6):
        out[k + j] = batches[SHOE_SQ + j]
    k += BUCKETS * 6
    for j in range(4):
        out[k + j] = batches[TOTALS + j]
