"""The compiled blackjack round (numba): casino rules and a chart, as plain arrays.

:func:`play_chunk` deals ``rounds`` rounds at a table of ``seats`` seats, every seat
playing one chart with a flat bet, and returns integer running totals (see ``FIELDS``).
It follows the engine's round (:mod:`croupier.plugins.blackjack.steps`) rule for rule under a casino
dealer (S17 or H17) and casino betting: the deal order, peeking, late surrender, doubles,
splits and resplits, one card to split aces, the cut card, and a shoe that runs dry in a
round reshuffling its discards. Strategies decline insurance and early surrender, as the
Python simulator's do.

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

# rules vector (int64): the indices of its entries
DECKS, CUT, H17, DOUBLE, DAS, MAX_HANDS, RSA, HSA, SURRENDER, PEEK, BET, NUM, DEN, FRESH = range(14)
RULES_LEN = 14
DOUBLE_ANY, DOUBLE_9_11, DOUBLE_10_11, DOUBLE_NONE = range(4)

# chart letters, as in the solver's charts (H S Dh Ds P Ph Rh Rs Rp)
H, S, DH, DS, P, PH, RH, RS, RP = range(9)
HIT, STAND, DOUBLE_A, SPLIT_A, SURRENDER_A = range(5)
# what a hand may do, as bits of the index into the table of plans (see _plans)
FIRST_MOVE, SPLIT_HAND, MAY_SPLIT, ACES_ONLY = 1, 2, 4, 8
# rows of the kernel's scratch table: per seat, and per live hand (see play_chunk)
FIRST, SECOND, NET, LIVE_SEAT, LIVE_TOTAL, LIVE_STAKE = range(6)

FIELDS = (
    "hands",
    "net",
    "net_sq",
    "wins",
    "pushes",
    "losses",
    "naturals",
    "busts",
    "doubles",
    "splits",
    "house",
    "shuffles",
    "round_net_sq",
)
"""The totals :func:`play_chunk` returns, in chips and counts (``house``: the house's net,
which must be minus the players' net: a double-entry check; ``round_net_sq``: the sum over
rounds of the square of the seats' net together, for intervals)."""

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


@njit(cache=True, nogil=True, error_model="numpy")
def play_chunk(
    rules: np.ndarray, chart: np.ndarray, seed: np.uint64, rounds: int, seats: int
) -> np.ndarray:
    """Play ``rounds`` rounds; the totals named by ``FIELDS`` (all -1 if the shoe ran dry
    in a round with no discards to reshuffle)."""
    out = np.empty(len(FIELDS), np.int64)  # all -1 until the end: a chunk not played
    for k in range(len(FIELDS)):
        out[k] = -1
    key = np.uint64(seed)
    counter = np.uint64(0)
    n_cards = rules[DECKS] * 52
    fresh = np.empty(n_cards, np.int8)  # decks in order: the engine's DECK, by rank
    k = 0
    for _ in range(rules[DECKS]):
        for rank in range(10):
            for _copy in range(16 if rank == 9 else 4):
                fresh[k] = rank
                k += 1
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
    plans = _plans(rules, chart)
    # per seat: the first two cards, and the seat's net before its live hands are settled;
    # live hands (played out, neither bust nor surrendered): seat, total and stake
    seat = np.empty((6, seats * max_hands), np.int64)  # each entry written before it is read
    pos = n_cards  # a fresh shoe is shuffled before the first round
    dry = False
    shuffles = 0
    n_net = n_net_sq = n_wins = n_pushes = n_losses = 0
    n_naturals = n_busts = n_doubles = n_splits = n_round_sq = 0
    staked = returned = 0  # the house's books, kept apart from the seats' nets
    for _round in range(rounds):
        if pos >= cut or fresh_pack:  # cut card out (or a fresh pack each round)
            for k in range(n_cards):
                shoe[k] = fresh[k]
            counter = _shuffle(shoe, 0, n_cards, key, counter)
            pos = 0
            shuffles += 1
        start = pos
        # the deal: a card to each seat, the upcard, a second card each, the hole card
        # (at each draw the shoe may run dry and reshuffle its discards; with none, the
        # round is played out on the same cards again and the chunk ends after it, unplayed)
        for s in range(seats):
            if pos == n_cards:
                dry = dry or start == 0
                counter = _refill(shoe, spare, start, key, counter)
                pos, start, shuffles = (n_cards - start) % n_cards, 0, shuffles + 1
            seat[FIRST, s] = shoe[np.uint64(pos)]
            pos += 1
        if pos == n_cards:
            dry = dry or start == 0
            counter = _refill(shoe, spare, start, key, counter)
            pos, start, shuffles = (n_cards - start) % n_cards, 0, shuffles + 1
        up = int(shoe[np.uint64(pos)])
        pos += 1
        for s in range(seats):
            if pos == n_cards:
                dry = dry or start == 0
                counter = _refill(shoe, spare, start, key, counter)
                pos, start, shuffles = (n_cards - start) % n_cards, 0, shuffles + 1
            seat[SECOND, s] = shoe[np.uint64(pos)]
            pos += 1
        if pos == n_cards:
            dry = dry or start == 0
            counter = _refill(shoe, spare, start, key, counter)
            pos, start, shuffles = (n_cards - start) % n_cards, 0, shuffles + 1
        hole = int(shoe[np.uint64(pos)])
        pos += 1
        dealer_hard = up + hole + 2
        dealer_ace = up == 0 or hole == 0
        dealer_natural = dealer_hard == 11 and dealer_ace
        up_plans = up * 1056
        peeked_natural = dealer_natural and peek and (up == 0 or up == 9)
        n_live = 0
        for s in range(seats):
            c0 = seat[FIRST, s]
            c1 = seat[SECOND, s]
            hard = c0 + c1 + 2
            ace = c0 == 0 or c1 == 0
            seat[NET, s] = -bet
            staked += bet
            if hard == 11 and ace:  # a natural: paid, or pushed by the dealer's
                n_naturals += 1
                paid = bet if dealer_natural else natural_pays
                seat[NET, s] += paid
                returned += paid
                continue
            if peeked_natural:
                continue  # lost to the dealer's natural, unplayed
            # the seat's hands, one at a time: the first two cards, then each hand split
            # off it (all of the pair's rank, waiting for their second card, in `waiting`)
            stake = bet
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
                    # c1 < 0 once the hand has more than two cards
                    if c0 == c1 and splits + 1 < max_hands and (not aces or rsa):
                        action = plans[np.uint64(up_plans + (44 + c0) * 16 + (flags | MAY_SPLIT))]
                    else:
                        action = plans[np.uint64(up_plans + (soft * 22 + total) * 16 + flags)]
                    if action == STAND:
                        break
                    if action == SURRENDER_A:
                        seat[NET, s] += stake // 2
                        returned += stake // 2
                        live = False
                        break
                    if pos == n_cards:
                        dry = dry or start == 0
                        counter = _refill(shoe, spare, start, key, counter)
                        pos, start, shuffles = (n_cards - start) % n_cards, 0, shuffles + 1
                    card = int(shoe[np.uint64(pos)])
                    pos += 1
                    if action == SPLIT_A:  # this hand keeps c0 and takes a new second card
                        splits += 1
                        waiting += 1
                        seat[NET, s] -= stake
                        staked += stake
                        split_hand = True
                        aces = c0 == 0
                        aces_only = aces and one_card_aces
                        flags = SPLIT_HAND | (ACES_ONLY if aces_only else FIRST_MOVE)
                        c1 = card
                        hard = c0 + c1 + 2
                        ace = c0 == 0 or c1 == 0
                        resplit = c0 == c1 and splits + 1 < max_hands and rsa
                        done = (aces_only and not resplit) or (ace and hard == 11)
                        continue
                    if action == DOUBLE_A:
                        seat[NET, s] -= stake
                        staked += stake
                        stake *= 2
                        doubled = True
                        done = True
                    c1 = -1
                    flags &= ~FIRST_MOVE
                    hard += card + 1
                    ace = ace or card == 0
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
                    seat[LIVE_STAKE, n_live] = stake
                    n_live += 1
                if waiting == 0:
                    break
                # the next hand split off: its second card now
                waiting -= 1
                if pos == n_cards:
                    dry = dry or start == 0
                    counter = _refill(shoe, spare, start, key, counter)
                    pos, start, shuffles = (n_cards - start) % n_cards, 0, shuffles + 1
                c1 = int(shoe[np.uint64(pos)])
                pos += 1
                stake = bet
                hard = c0 + c1 + 2
                ace = c0 == 0 or c1 == 0
                aces_only = aces and one_card_aces
                resplit = c0 == c1 and splits + 1 < max_hands and rsa
                done = (aces_only and not resplit) or (ace and hard == 11)
            n_busts += busted
            n_doubles += doubled
            n_splits += splits > 0
        # the dealer plays when a hand is still live
        if n_live > 0 and not peeked_natural:
            while True:
                dealer_soft = dealer_ace and dealer_hard <= 11
                dealer_total = dealer_hard + 10 if dealer_soft else dealer_hard
                if not (dealer_total < 17 or (dealer_total == 17 and h17 and dealer_soft)):
                    break
                if pos == n_cards:
                    dry = dry or start == 0
                    counter = _refill(shoe, spare, start, key, counter)
                    pos, start, shuffles = (n_cards - start) % n_cards, 0, shuffles + 1
                card = int(shoe[np.uint64(pos)])
                pos += 1
                dealer_hard += card + 1
                dealer_ace = dealer_ace or card == 0
        # settle (casino betting): a live hand wins twice its stake back above the dealer
        # (whose bust counts 0 and natural 22: it beats every live hand), pushes level
        final = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard
        beat = 22 if dealer_natural else 0 if final > 21 else final
        for k in range(n_live):
            player = seat[LIVE_TOTAL, k]
            paid = seat[LIVE_STAKE, k] * ((player > beat) + (player >= beat))
            seat[NET, seat[LIVE_SEAT, k]] += paid
            returned += paid
        table_net = 0
        for s in range(seats):
            net = seat[NET, s]
            n_net += net
            n_net_sq += net * net
            n_wins += net > 0
            n_losses += net < 0
            n_pushes += net == 0
            table_net += net
        n_round_sq += table_net * table_net  # seats share the dealer's hand: rounds vary as one
        if dry:
            return out
    out[0], out[1], out[2], out[3] = rounds * seats, n_net, n_net_sq, n_wins
    out[4], out[5], out[6], out[7] = n_pushes, n_losses, n_naturals, n_busts
    out[8], out[9], out[10] = n_doubles, n_splits, staked - returned
    out[11], out[12] = shuffles, n_round_sq
    return out
