"""The compiled blackjack round (numba): casino rules and a chart, as plain arrays.

:func:`play_chunk` deals ``rounds`` rounds at a table of ``seats`` seats, every seat
playing one chart with a flat bet, and returns integer running totals (see ``FIELDS``).
It follows the engine's round (:mod:`croupier.engine.steps`) rule for rule under a casino
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

_NONE, _LOSE, _PUSH, _WIN, _NATURAL, _SURRENDERED, _BUST = -1, 0, 1, 2, 3, 4, 5

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(cache=True)
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _shuffle(cards: np.ndarray, lo: int, hi: int, state: np.ndarray) -> None:
    """Fisher-Yates over ``cards[lo:hi]``, from the last card down; ``state`` is ``[key,
    counter]``. Swap k takes a uniform integer below k + 1 by Lemire's method: the high 32
    bits ``x`` of the next output, ``m = x * n``, kept when the low 32 bits of ``m`` are at
    least ``(2^32 - n) mod n`` (then ``m >> 32``), else drawn again. (The generator runs in
    locals here: a call per draw passing the state array cost a third of the kernel.)"""
    key = state[0]
    counter = state[1]
    for k in range(hi - lo - 1, 0, -1):
        bound = np.uint64(k + 1)
        while True:
            counter += np.uint64(1)
            m = (_mix(key + counter * _GAMMA) >> np.uint64(32)) * bound
            low = m & _LOW32
            if low >= bound or low >= (_TWO32 - bound) % bound:
                break
        j = int(m >> np.uint64(32))
        a = cards[lo + k]
        cards[lo + k] = cards[lo + j]
        cards[lo + j] = a
    state[1] = counter


@njit(cache=True)
def _refill(shoe: np.ndarray, spare: np.ndarray, cursor: np.ndarray, state: np.ndarray) -> bool:
    """The shoe ran dry in a round (``cursor`` is ``[position, round start, shuffles]``):
    reshuffle the cards dealt before the round and deal them after the ones in play, as the
    engine's Shoe does; False if there are none.

    Only this rare path is a call: a call passing arrays costs reference counting, and
    made for every card it cut the kernel's speed six times, so each draw site reads the
    next card itself."""
    n_cards = len(shoe)
    start = cursor[1]
    if start == 0:
        return False
    _shuffle(shoe, 0, start, state)
    spare[: n_cards - start] = shoe[start:]
    spare[n_cards - start :] = shoe[:start]
    shoe[:] = spare
    cursor[0] = n_cards - start
    cursor[1] = 0
    cursor[2] += 1
    return True


@njit(cache=True)
def _total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


@njit(cache=True)
def _soft(hard: int, ace: bool) -> bool:
    return ace and hard <= 11


@njit(cache=True)
def play_chunk(
    rules: np.ndarray, chart: np.ndarray, seed: np.uint64, rounds: int, seats: int
) -> np.ndarray:
    """Play ``rounds`` rounds; the totals named by ``FIELDS``."""
    out = np.zeros(len(FIELDS), np.int64)
    state = np.zeros(2, np.uint64)
    state[0] = np.uint64(seed)
    n_cards = rules[DECKS] * 52
    fresh = np.empty(n_cards, np.int8)  # decks in order: the engine's DECK, by rank
    k = 0
    for _ in range(rules[DECKS]):
        for rank in range(10):
            for _copy in range(16 if rank == 9 else 4):
                fresh[k] = rank
                k += 1
    shoe = fresh.copy()
    spare = np.empty(n_cards, np.int8)
    cut = rules[CUT]
    cursor = np.zeros(3, np.int64)
    cursor[0] = n_cards  # a fresh shoe is shuffled before the first round
    bet = rules[BET]
    max_hands = rules[MAX_HANDS]
    one_card_aces = rules[HSA] == 0
    # every rule read once, into locals (array reads in the loop cannot be hoisted by the
    # compiler, since the loop writes to other arrays)
    fresh_pack = rules[FRESH] != 0
    peek = rules[PEEK] != 0
    rsa = rules[RSA] != 0
    double_rule = rules[DOUBLE]
    das = rules[DAS] != 0
    surrender = rules[SURRENDER] != 0
    h17 = rules[H17] != 0
    num, den = rules[NUM], rules[DEN]
    h_hard = np.zeros((seats, max_hands), np.int64)
    h_ace = np.zeros((seats, max_hands), np.bool_)
    h_n = np.zeros((seats, max_hands), np.int64)
    h_c0 = np.zeros((seats, max_hands), np.int64)
    h_c1 = np.zeros((seats, max_hands), np.int64)
    h_bet = np.zeros((seats, max_hands), np.int64)
    h_done = np.zeros((seats, max_hands), np.bool_)
    h_out = np.zeros((seats, max_hands), np.int64)
    h_split = np.zeros((seats, max_hands), np.bool_)
    h_aces = np.zeros((seats, max_hands), np.bool_)
    h_moves = np.zeros((seats, max_hands), np.int64)
    n_hands = np.zeros(seats, np.int64)
    natural = np.zeros(seats, np.bool_)
    busts = np.zeros(seats, np.int64)
    doubles = np.zeros(seats, np.int64)
    splits = np.zeros(seats, np.int64)
    staked = np.zeros(seats, np.int64)
    returned = np.zeros(seats, np.int64)
    for _round in range(rounds):
        if cursor[0] >= cut or fresh_pack:  # cut card out (or a fresh pack each round)
            shoe[:] = fresh
            _shuffle(shoe, 0, n_cards, state)
            cursor[0] = 0
            cursor[2] += 1
        cursor[1] = cursor[0]
        for s in range(seats):
            n_hands[s] = 1
            busts[s] = doubles[s] = splits[s] = 0
            staked[s] = bet
            returned[s] = 0
            h_hard[s, 0] = 0
            h_ace[s, 0] = False
            h_n[s, 0] = 0
            h_bet[s, 0] = bet
            h_done[s, 0] = False
            h_out[s, 0] = _NONE
            h_split[s, 0] = False
            h_aces[s, 0] = False
            h_moves[s, 0] = 0
        # the deal: a card to each seat, the upcard, a second card each, the hole card
        dealer_hard = 0
        dealer_ace = False
        up = 0
        for step in range(2 * seats + 2):
            if cursor[0] == n_cards and not _refill(shoe, spare, cursor, state):
                out[:] = -1  # dry in a round with nothing behind to reshuffle
                return out
            card = int(shoe[cursor[0]])
            cursor[0] += 1
            value = card + 1
            if step == seats:
                up = card
                dealer_hard += value
                dealer_ace = dealer_ace or card == 0
            elif step == 2 * seats + 1:
                dealer_hard += value
                dealer_ace = dealer_ace or card == 0
            else:
                s = step if step < seats else step - seats - 1
                if h_n[s, 0] == 0:
                    h_c0[s, 0] = card
                else:
                    h_c1[s, 0] = card
                h_n[s, 0] += 1
                h_hard[s, 0] += value
                h_ace[s, 0] = h_ace[s, 0] or card == 0
        dealer_natural = dealer_hard == 11 and dealer_ace
        for s in range(seats):
            natural[s] = h_hard[s, 0] == 11 and h_ace[s, 0]
        peeked = peek and (up == 0 or up == 9)
        if not (peeked and dealer_natural):
            for s in range(seats):
                i = 0
                while i < n_hands[s]:
                    if h_n[s, i] == 1:  # the second card of a split hand
                        if cursor[0] == n_cards and not _refill(shoe, spare, cursor, state):
                            out[:] = -1  # dry in a round with nothing behind to reshuffle
                            return out
                        card = int(shoe[cursor[0]])
                        cursor[0] += 1
                        h_c1[s, i] = card
                        h_n[s, i] = 2
                        h_hard[s, i] += card + 1
                        h_ace[s, i] = h_ace[s, i] or card == 0
                        if h_aces[s, i] and one_card_aces:
                            h_done[s, i] = not (
                                h_c0[s, i] == h_c1[s, i] and n_hands[s] < max_hands and rsa
                            )
                    if _total(h_hard[s, i], h_ace[s, i]) == 21 and h_out[s, i] == _NONE:
                        h_done[s, i] = True
                    while not h_done[s, i]:
                        hard = h_hard[s, i]
                        ace = h_ace[s, i]
                        total = _total(hard, ace)
                        soft = _soft(hard, ace)
                        pair = h_n[s, i] == 2 and h_c0[s, i] == h_c1[s, i]
                        can_split = pair and n_hands[s] < max_hands and (not h_aces[s, i] or rsa)
                        aces_only = h_aces[s, i] and one_card_aces
                        first = h_moves[s, i] == 0 and h_n[s, i] == 2 and not aces_only
                        can_double = False
                        can_surrender = False
                        if first:
                            rule = double_rule
                            can_double = (
                                rule != DOUBLE_NONE
                                and (not h_split[s, i] or das)
                                and (
                                    rule == DOUBLE_ANY
                                    or (
                                        not soft
                                        and (
                                            (rule == DOUBLE_9_11 and 9 <= total <= 11)
                                            or (rule == DOUBLE_10_11 and 10 <= total <= 11)
                                        )
                                    )
                                )
                            )
                            can_surrender = surrender and not h_split[s, i] and n_hands[s] == 1
                        else:
                            can_split = can_split and aces_only
                        # the chart's letter (see Chart.letter), then its plan
                        if total >= 21:
                            letter = S
                        elif pair and can_split:
                            letter = chart[2, h_c0[s, i], up]
                        elif soft:
                            letter = chart[1, total, up]
                        else:
                            letter = chart[0, total, up]
                        action = STAND
                        if letter == H:
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
                        if action == HIT and aces_only:
                            action = STAND  # one card to split aces: hit is not legal
                        if action == STAND:
                            h_done[s, i] = True
                        elif action == SURRENDER_A:
                            h_out[s, i] = _SURRENDERED
                            h_done[s, i] = True
                        elif action == SPLIT_A:
                            splits[s] += 1
                            staked[s] += h_bet[s, i]
                            last = n_hands[s]
                            for j in range(last, i + 1, -1):  # make room at i + 1
                                h_hard[s, j] = h_hard[s, j - 1]
                                h_ace[s, j] = h_ace[s, j - 1]
                                h_n[s, j] = h_n[s, j - 1]
                                h_c0[s, j] = h_c0[s, j - 1]
                                h_c1[s, j] = h_c1[s, j - 1]
                                h_bet[s, j] = h_bet[s, j - 1]
                                h_done[s, j] = h_done[s, j - 1]
                                h_out[s, j] = h_out[s, j - 1]
                                h_split[s, j] = h_split[s, j - 1]
                                h_aces[s, j] = h_aces[s, j - 1]
                                h_moves[s, j] = h_moves[s, j - 1]
                            n_hands[s] = last + 1
                            second = h_c1[s, i]
                            aces = h_c0[s, i] == 0
                            j = i + 1
                            h_hard[s, j] = second + 1
                            h_ace[s, j] = second == 0
                            h_n[s, j] = 1
                            h_c0[s, j] = second
                            h_bet[s, j] = h_bet[s, i]
                            h_done[s, j] = False
                            h_out[s, j] = _NONE
                            h_split[s, j] = True
                            h_aces[s, j] = aces
                            h_moves[s, j] = 0
                            first_card = h_c0[s, i]
                            h_hard[s, i] = first_card + 1
                            h_ace[s, i] = first_card == 0
                            h_split[s, i] = True
                            h_aces[s, i] = aces
                            if cursor[0] == n_cards and not _refill(shoe, spare, cursor, state):
                                out[:] = -1  # dry in a round with nothing behind to reshuffle
                                return out
                            card = int(shoe[cursor[0]])
                            cursor[0] += 1
                            h_c1[s, i] = card
                            h_n[s, i] = 2
                            h_hard[s, i] += card + 1
                            h_ace[s, i] = h_ace[s, i] or card == 0
                            if aces and one_card_aces:
                                h_done[s, i] = not (
                                    h_c0[s, i] == h_c1[s, i] and n_hands[s] < max_hands and rsa
                                )
                            elif _total(h_hard[s, i], h_ace[s, i]) == 21:
                                h_done[s, i] = True
                        else:  # hit or double: one more card
                            if action == DOUBLE_A:
                                staked[s] += h_bet[s, i]
                                h_bet[s, i] *= 2
                                doubles[s] += 1
                                h_done[s, i] = True
                            h_moves[s, i] += 1
                            if cursor[0] == n_cards and not _refill(shoe, spare, cursor, state):
                                out[:] = -1  # dry in a round with nothing behind to reshuffle
                                return out
                            card = int(shoe[cursor[0]])
                            cursor[0] += 1
                            h_n[s, i] += 1
                            h_hard[s, i] += card + 1
                            h_ace[s, i] = h_ace[s, i] or card == 0
                            now = _total(h_hard[s, i], h_ace[s, i])
                            if now > 21:
                                h_out[s, i] = _BUST
                                h_done[s, i] = True
                                busts[s] += 1
                            elif now == 21:
                                h_done[s, i] = True
                    i += 1
            # the dealer plays when a hand is still live
            live = False
            for s in range(seats):
                for i in range(n_hands[s]):
                    if h_out[s, i] == _NONE and not (i == 0 and n_hands[s] == 1 and natural[s]):
                        live = True
            if live:
                while True:
                    dealer_total = _total(dealer_hard, dealer_ace)
                    if dealer_total >= 21:
                        break
                    if not (
                        dealer_total < 17
                        or (h17 and dealer_total == 17 and _soft(dealer_hard, dealer_ace))
                    ):
                        break
                    if cursor[0] == n_cards and not _refill(shoe, spare, cursor, state):
                        out[:] = -1  # dry in a round with nothing behind to reshuffle
                        return out
                    card = int(shoe[cursor[0]])
                    cursor[0] += 1
                    dealer_hard += card + 1
                    dealer_ace = dealer_ace or card == 0
        dealer_total = _total(dealer_hard, dealer_ace)
        # settle (casino betting)
        table_net = 0
        for s in range(seats):
            for i in range(n_hands[s]):
                outcome = h_out[s, i]
                hand_natural = i == 0 and n_hands[s] == 1 and natural[s]
                if outcome == _NONE:
                    player = _total(h_hard[s, i], h_ace[s, i])
                    if hand_natural or dealer_natural:
                        if hand_natural and dealer_natural:
                            outcome = _PUSH
                        elif hand_natural:
                            outcome = _NATURAL
                        else:
                            outcome = _LOSE
                    elif dealer_total > 21 or player > dealer_total:
                        outcome = _WIN
                    elif player == dealer_total:
                        outcome = _PUSH
                    else:
                        outcome = _LOSE
                stake = h_bet[s, i]
                if outcome == _WIN:
                    returned[s] += 2 * stake
                elif outcome == _PUSH:
                    returned[s] += stake
                elif outcome == _NATURAL:
                    returned[s] += stake + (stake * num) // den
                elif outcome == _SURRENDERED:
                    returned[s] += stake // 2
            net = returned[s] - staked[s]
            out[0] += 1
            out[1] += net
            out[2] += net * net
            if net > 0:
                out[3] += 1
            elif net < 0:
                out[5] += 1
            else:
                out[4] += 1
            out[6] += natural[s]
            out[7] += busts[s] > 0
            out[8] += doubles[s] > 0
            out[9] += splits[s] > 0
            out[10] += staked[s] - returned[s]
            table_net += net
        out[12] += table_net * table_net  # seats share the dealer's hand: rounds vary as one
    out[11] = cursor[2]
    return out
