"""A blackjack table's round in the pieces :mod:`.vector_kernel` steps through, one table
(a row of ``state``, ``shoe`` and ``live``) at a time: the state's columns, a fresh or
refilled shoe, a draw, the deal, a hand's end, the settlement, the legal moves and the
observation, each the simulator kernel's rule for rule (numba, compiled once and cached)."""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.kernel import (
    ACES_ONLY,
    CUT,
    DAS,
    DECKS,
    DEN,
    DOUBLE,
    DOUBLE_9_11,
    DOUBLE_10_11,
    DOUBLE_A,
    DOUBLE_ANY,
    FIRST_MOVE,
    FRESH,
    H17,
    HIT,
    HSA,
    MAX_HANDS,
    NUM,
    PEEK,
    RSA,
    SPLIT_A,
    SPLIT_HAND,
    STAND,
    SURRENDER,
    SURRENDER_A,
    _refill,
    _shuffle,
)

# actions: the kernel's moves (hit, stand, double, split, surrender), then one bet action
# per bet unit
PLAY_ACTIONS = 5
MOVES = ("hit", "stand", "double", "split", "surrender")
# columns of the state
(
    POS, START, PHASE, C0, C1, HARD, ACE, STAKE, FLAGS, SPLIT, ACES, SPLITS, WAITING, NET,
    N_LIVE, UP, HOLE, HOLE_OUT, BET_NOW, HANDS_DONE,
) = range(20)  # fmt: skip
STATE_LEN = 20
OBS_LEN = 18
"""phase, total, soft, upcard (1 ace .. 10), pair rank (0: no pair), first move, hand,
hands, then the cards not yet seen by rank (ace .. ten): the shoe's remaining cards and
the hole card."""


@njit(cache=True, nogil=True, error_model="numpy")
def _fresh(rules: np.ndarray, shoe: np.ndarray, i: int) -> None:
    k = 0
    for _ in range(rules[DECKS]):
        for rank in range(10):
            for _copy in range(16 if rank == 9 else 4):
                shoe[i, k] = rank
                k += 1


@njit(cache=True, nogil=True, error_model="numpy")
def _count_unseen(shoe: np.ndarray, state: np.ndarray, unseen: np.ndarray, i: int) -> None:
    for r in range(10):
        unseen[i, r] = 0
    for k in range(state[i, POS], shoe.shape[1]):
        unseen[i, shoe[i, k]] += 1
    if state[i, HOLE_OUT]:
        unseen[i, state[i, HOLE]] += 1


@njit(cache=True, nogil=True, error_model="numpy")
def _draw(
    shoe: np.ndarray, spare: np.ndarray, state: np.ndarray, unseen: np.ndarray,
    keys: np.ndarray, counters: np.ndarray, i: int, seen: bool,
) -> int:  # fmt: skip
    n_cards = shoe.shape[1]
    if state[i, POS] == n_cards:  # dry: the discards reshuffled, dealt after the cards in play
        start = state[i, START]
        counters[i] = _refill(shoe[i], spare[i], start, keys[i], counters[i])
        state[i, POS] = (n_cards - start) % n_cards
        state[i, START] = 0
        _count_unseen(shoe, state, unseen, i)
    card = int(shoe[i, state[i, POS]])
    state[i, POS] += 1
    if seen:
        unseen[i, card] -= 1
    return card


@njit(cache=True, nogil=True, error_model="numpy")
def _begin(
    rules: np.ndarray, shoe: np.ndarray, state: np.ndarray, unseen: np.ndarray,
    keys: np.ndarray, counters: np.ndarray, i: int,
) -> None:  # fmt: skip
    """A new round at table ``i``: the cut card (or a fresh pack) shuffles, then the bet."""
    if state[i, POS] >= rules[CUT] or rules[FRESH] != 0:
        _fresh(rules, shoe, i)
        counters[i] = _shuffle(shoe[i], 0, shoe.shape[1], keys[i], counters[i])
        state[i, POS] = 0
        state[i, HOLE_OUT] = 0
        _count_unseen(shoe, state, unseen, i)
    state[i, START] = state[i, POS]
    state[i, PHASE] = 0


@njit(cache=True, nogil=True, error_model="numpy")
def _settle(
    rules: np.ndarray, shoe: np.ndarray, spare: np.ndarray, state: np.ndarray,
    unseen: np.ndarray, live: np.ndarray, keys: np.ndarray, counters: np.ndarray, i: int,
) -> int:  # fmt: skip
    """The dealer's play (when a hand is live) and the settlement: the round's net."""
    up, hole = state[i, UP], state[i, HOLE]
    state[i, HOLE_OUT] = 0
    unseen[i, hole] -= 1
    dealer_hard = up + hole + 2
    dealer_ace = up == 0 or hole == 0
    natural = dealer_hard == 11 and dealer_ace
    n_live = state[i, N_LIVE]
    if n_live > 0:
        while True:
            soft = dealer_ace and dealer_hard <= 11
            total = dealer_hard + 10 if soft else dealer_hard
            if not (total < 17 or (total == 17 and rules[H17] != 0 and soft)):
                break
            card = _draw(shoe, spare, state, unseen, keys, counters, i, True)
            dealer_hard += card + 1
            dealer_ace = dealer_ace or card == 0
    final = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard
    beat = 22 if natural else 0 if final > 21 else final
    net = state[i, NET]
    for k in range(n_live):
        player = live[i, 0, k]
        net += live[i, 1, k] * ((player > beat) + (player >= beat))
    return int(net)


@njit(cache=True, nogil=True, error_model="numpy")
def _deal(
    rules: np.ndarray, shoe: np.ndarray, spare: np.ndarray, state: np.ndarray,
    unseen: np.ndarray, live: np.ndarray, keys: np.ndarray, counters: np.ndarray, i: int,
    bet: int,
) -> bool:  # fmt: skip
    """The deal after the bet; True when the round is over at once (a natural, or the
    dealer's found by the peek)."""
    state[i, BET_NOW] = bet
    state[i, NET] = -bet
    state[i, N_LIVE] = 0
    state[i, HANDS_DONE] = 0
    c0 = _draw(shoe, spare, state, unseen, keys, counters, i, True)
    up = _draw(shoe, spare, state, unseen, keys, counters, i, True)
    c1 = _draw(shoe, spare, state, unseen, keys, counters, i, True)
    hole = _draw(shoe, spare, state, unseen, keys, counters, i, False)
    state[i, HOLE_OUT] = 1
    state[i, UP], state[i, HOLE] = up, hole
    dealer_natural = up + hole + 2 == 11 and (up == 0 or hole == 0)
    hard = c0 + c1 + 2
    ace = c0 == 0 or c1 == 0
    if hard == 11 and ace:
        pays = bet + (bet * rules[NUM]) // rules[DEN]
        state[i, NET] += bet if dealer_natural else pays
        return True
    if dealer_natural and rules[PEEK] != 0 and (up == 0 or up == 9):
        return True
    state[i, C0], state[i, C1], state[i, HARD], state[i, ACE] = c0, c1, hard, ace
    state[i, STAKE] = bet
    state[i, FLAGS] = FIRST_MOVE
    state[i, SPLIT] = state[i, ACES] = state[i, SPLITS] = state[i, WAITING] = 0
    state[i, PHASE] = 1
    return False


@njit(cache=True, nogil=True, error_model="numpy")
def _end_hand(
    rules: np.ndarray, shoe: np.ndarray, spare: np.ndarray, state: np.ndarray,
    unseen: np.ndarray, live: np.ndarray, keys: np.ndarray, counters: np.ndarray, i: int,
    is_live: bool,
) -> bool:  # fmt: skip
    """The current hand is played out: the next hand split off it (its second card now),
    until one needs a decision (False) or the seat's hands are all played (True)."""
    one_card_aces = rules[HSA] == 0
    while True:
        state[i, HANDS_DONE] += 1
        if is_live:
            n = state[i, N_LIVE]
            hard = state[i, HARD]
            live[i, 0, n] = hard + 10 if state[i, ACE] and hard <= 11 else hard
            live[i, 1, n] = state[i, STAKE]
            state[i, N_LIVE] = n + 1
        if state[i, WAITING] == 0:
            return True
        state[i, WAITING] -= 1
        c0 = state[i, C0]
        c1 = _draw(shoe, spare, state, unseen, keys, counters, i, True)
        state[i, C1] = c1
        state[i, STAKE] = state[i, BET_NOW]
        hard = c0 + c1 + 2
        ace = c0 == 0 or c1 == 0
        state[i, HARD], state[i, ACE] = hard, ace
        aces_only = state[i, ACES] != 0 and one_card_aces
        resplit = c0 == c1 and state[i, SPLITS] + 1 < rules[MAX_HANDS] and rules[RSA] != 0
        state[i, FLAGS] = SPLIT_HAND | (ACES_ONLY if aces_only else FIRST_MOVE)
        if not ((aces_only and not resplit) or (ace and hard == 11)):
            return False
        is_live = True


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _doubles_here(rules: np.ndarray, total: int, soft: bool) -> bool:
    rule = rules[DOUBLE]
    if rule == DOUBLE_ANY:
        return True
    if soft:
        return False
    if rule == DOUBLE_9_11:
        return 9 <= total <= 11
    if rule == DOUBLE_10_11:
        return 10 <= total <= 11
    return False


@njit(cache=True, nogil=True, error_model="numpy")
def _legal(rules: np.ndarray, state: np.ndarray, i: int, masks: np.ndarray) -> None:
    n = masks.shape[1]
    for a in range(n):
        masks[i, a] = 0
    if state[i, PHASE] == 0:
        for a in range(PLAY_ACTIONS, n):
            masks[i, a] = 1
        return
    flags = state[i, FLAGS]
    hard, ace = state[i, HARD], state[i, ACE] != 0
    soft = ace and hard <= 11
    total = hard + 10 if soft else hard
    first = flags & FIRST_MOVE != 0
    split_hand = flags & SPLIT_HAND != 0
    c0, c1 = state[i, C0], state[i, C1]
    masks[i, STAND] = 1
    masks[i, HIT] = flags & ACES_ONLY == 0
    masks[i, DOUBLE_A] = (
        first and _doubles_here(rules, total, soft) and (not split_hand or rules[DAS] != 0)
    )
    masks[i, SPLIT_A] = (
        c1 >= 0
        and c0 == c1
        and state[i, SPLITS] + 1 < rules[MAX_HANDS]
        and (state[i, ACES] == 0 or rules[RSA] != 0)
    )
    masks[i, SURRENDER_A] = first and not split_hand and rules[SURRENDER] != 0


@njit(cache=True, nogil=True, error_model="numpy")
def _observe(state: np.ndarray, unseen: np.ndarray, i: int, obs: np.ndarray) -> None:
    for k in range(OBS_LEN):
        obs[i, k] = 0
    obs[i, 0] = state[i, PHASE]
    if state[i, PHASE] == 1:
        hard, ace = state[i, HARD], state[i, ACE] != 0
        soft = ace and hard <= 11
        obs[i, 1] = hard + 10 if soft else hard
        obs[i, 2] = soft
        obs[i, 3] = state[i, UP] + 1
        c0, c1 = state[i, C0], state[i, C1]
        obs[i, 4] = c0 + 1 if c1 >= 0 and c0 == c1 else 0
        obs[i, 5] = state[i, FLAGS] & FIRST_MOVE != 0
        obs[i, 6] = state[i, HANDS_DONE]
        obs[i, 7] = state[i, SPLITS] + 1
    for r in range(10):
        obs[i, 8 + r] = unseen[i, r]
