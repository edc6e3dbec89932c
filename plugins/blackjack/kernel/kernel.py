"""The compiled blackjack round (numba): casino rules and a chart, as plain arrays, and the
primitives every kernel shares (the generator, the shuffle, a shoe running dry, the plans).

:func:`~croupier.plugins.blackjack.kernel.instances.play_chunk` (the flat instance of
the one round body, :mod:`.round_body`) deals ``rounds`` rounds at a table of ``seats``
seats, every seat playing one chart with a flat bet, and returns integer running totals
(see ``FIELDS``). It follows the engine's round (:mod:`croupier.plugins.blackjack.steps`)
rule for rule under a casino dealer (S17 or H17) and casino betting: the deal order,
peeking, late surrender, doubles, splits and resplits, one card to split aces, the cut
card, and a shoe that runs dry in a round reshuffling its discards. Strategies decline
insurance and early surrender, as the Python simulator's do.

Random numbers: SplitMix64 keyed by the chunk's seed, which is counter-based (the ``i``-th
output is ``mix(key + (i + 1) * 0x9E3779B97F4A7C15)``), turned into an integer below ``n``
by Lemire's multiply-and-reject on the high 32 bits; a shuffle is Fisher-Yates from the
last card down over the decks in the engine's order (``DECK`` repeated), and a shoe that
runs dry in a round shuffles its discards the same way and deals them after the cards in
play. docs/tables.md gives the recipe to reproduce a chunk elsewhere.

Speed: the round runs in locals (the shoe position, the generator, the hand being played
and the totals), since values kept in arrays are loaded and stored again around every
write to another array; only the rare paths (a shuffle, a shoe running dry) are calls.
The hottest reads index with ``np.uint64(...)``: numba checks a signed index for a
negative value (counting from the end) on every read, and an unsigned one never.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.fields import FIELDS as FIELDS  # its totals

# rules vector (int64): the indices of its entries
DECKS, CUT, H17, DOUBLE, DAS, MAX_HANDS, RSA, HSA, SURRENDER, PEEK, BET, NUM, DEN, FRESH = range(14)
RULES_LEN = 14
DOUBLE_ANY, DOUBLE_9_11, DOUBLE_10_11, DOUBLE_NONE = range(4)

# chart letters, as in the solver's charts (H S Dh Ds P Ph Rh Rs Rp)
H, S, DH, DS, P, PH, RH, RS, RP = range(9)
HIT, STAND, DOUBLE_A, SPLIT_A, SURRENDER_A = range(5)
# what a hand may do, as bits of the index into the table of plans (see _plans)
FIRST_MOVE, SPLIT_HAND, MAY_SPLIT, ACES_ONLY = 1, 2, 4, 8


_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(cache=True, nogil=True, error_model="numpy")
def _shuffle(cards: np.ndarray, lo: int, hi: int, key: np.uint64, counter: np.uint64) -> np.uint64:
    """Fisher-Yates over ``cards[lo:hi]``, from the last card down; returns the generator's
    counter after it. Swap k takes a uniform integer below k + 1 by Lemire's method: the
    high 32 bits ``x`` of the next output, ``m = x * n``, kept when the low 32 bits of
    ``m`` are at least ``(2^32 - n) mod n`` (then ``m >> 32``), else drawn again."""
    for k in range(hi - lo - 1, 0, -1):
        bound = np.uint64(k + 1)
        while True:
            counter += np.uint64(1)
            z = key + counter * _GAMMA
            z = (z ^ (z >> np.uint64(30))) * _M1
            z = (z ^ (z >> np.uint64(27))) * _M2
            m = ((z ^ (z >> np.uint64(31))) >> np.uint64(32)) * bound
            low = m & _LOW32
            if low >= bound or low >= (_TWO32 - bound) % bound:
                break
        j = int(m >> np.uint64(32))
        i = np.uint64(lo + k)
        a = cards[i]
        cards[i] = cards[np.uint64(lo + j)]
        cards[np.uint64(lo + j)] = a
    return counter


@njit(cache=True, nogil=True, error_model="numpy")
def _refill(
    shoe: np.ndarray, spare: np.ndarray, start: int, key: np.uint64, counter: np.uint64
) -> np.uint64:
    """The shoe ran dry in a round that began at ``start``: reshuffle the cards dealt
    before the round and deal them after the ones in play, as the engine's Shoe does; the
    round then begins at 0 and the next card is at ``len(shoe) - start`` (with no cards
    before the round, ``start`` 0, the shoe is left as it is). Returns the generator's
    counter. Only this rare path is a call: each draw site reads the next card itself (a
    call per card, passing arrays, cost reference counting)."""
    n_cards = len(shoe)
    counter = _shuffle(shoe, 0, start, key, counter)
    for k in range(n_cards):
        spare[k] = shoe[(start + k) % n_cards]
    for k in range(n_cards):
        shoe[k] = spare[k]
    return counter


@njit(cache=True, nogil=True, error_model="numpy")
def _plans(rules: np.ndarray, chart: np.ndarray) -> np.ndarray:
    """The move for each upcard, chart row and state of the hand, at ``up * 1056 + (kind *
    22 + row) * 16 + flags`` (kind: hard or soft total, or pair by rank; flags:
    ``FIRST_MOVE | SPLIT_HAND | MAY_SPLIT | ACES_ONLY``). It is Chart.letter's plan under
    these rules: a letter's first choice when the hand may make it, else its fallback (a
    first move may double by the doubling rule, after a split only with DAS, and surrender
    on the hand dealt); a total of 21 stands; a split ace that takes one card stands where
    it would hit. One load per decision in the round."""
    double_rule = rules[DOUBLE]
    plans = np.empty(10 * 3 * 22 * 16, np.int8)
    for up in range(10):
        for row in range(3 * 22):
            kind, key = row // 22, row % 22
            letter = chart[kind, key, up]
            soft = kind == 1 or (kind == 2 and key == 0)
            total = (12 if key == 0 else 2 * key + 2) if kind == 2 else key
            doubles_here = double_rule == DOUBLE_ANY or (
                not soft
                and (
                    (double_rule == DOUBLE_9_11 and 9 <= total <= 11)
                    or (double_rule == DOUBLE_10_11 and 10 <= total <= 11)
                )
            )
            for flags in range(16):
                first = flags & FIRST_MOVE != 0
                split_hand = flags & SPLIT_HAND != 0
                can_double = first and doubles_here and (not split_hand or rules[DAS] != 0)
                can_surrender = first and not split_hand and rules[SURRENDER] != 0
                can_split = flags & MAY_SPLIT != 0
                action = STAND
                if total >= 21:
                    action = STAND
                elif letter == H:
                    action = HIT
                elif letter == DH:
                    action = DOUBLE_A if can_double else HIT
                elif letter == DS:
                    action = DOUBLE_A if can_double else STAND
                elif letter in (P, PH):
                    action = SPLIT_A if can_split else HIT
                elif letter == RH:
                    action = SURRENDER_A if can_surrender else HIT
                elif letter == RS:
                    action = SURRENDER_A if can_surrender else STAND
                elif letter == RP:
                    action = SURRENDER_A if can_surrender else SPLIT_A if can_split else HIT
                if action == HIT and flags & ACES_ONLY != 0:
                    action = STAND  # one card to split aces: hit is not legal
                plans[up * 1056 + row * 16 + flags] = action
    return plans
