"""The compiled step of many blackjack tables at once (numba): the kernel's round, cut at
the player's decisions.

:func:`step_tables` applies one action at every table in one call (no Python loop per
table). A table's round follows the simulator's kernel
(:mod:`croupier.plugins.blackjack.kernel.kernel`) rule for rule, with its shuffle and its
generator (SplitMix64 keyed by the table's seed), so a table seeded like a chunk of
``croupier sim`` deals that chunk's cards: the bet, the deal (a card, the upcard, a second
card, the hole card), a natural paid or pushed, the dealer's peek, late surrender,
doubles, splits and resplits, one card to split aces, the dealer's draw (S17 or H17) and
the casino's settlement. Insurance is not offered (the kernel's strategies decline it).

A table waits at a decision: the bet (``phase`` 0) or the play of its current hand
(``phase`` 1). Its state is a row of ``state`` (the columns below), its shoe a row of
``shoe``, its live hands' totals and stakes rows of ``live``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.plugins.blackjack.kernel.kernel import (
    ACES_ONLY,
    BET,
    DOUBLE_A,
    FIRST_MOVE,
    HSA,
    MAX_HANDS,
    RSA,
    SPLIT_A,
    SPLIT_HAND,
    STAND,
    SURRENDER_A,
)

from .vector_round import (
    ACE,
    ACES,
    C0,
    C1,
    FLAGS,
    HARD,
    N_LIVE,
    NET,
    PHASE,
    PLAY_ACTIONS,
    POS,
    SPLIT,
    SPLITS,
    STAKE,
    STATE_LEN,
    UP,
    WAITING,
    _begin,
    _deal,
    _draw,
    _end_hand,
    _legal,
    _observe,
    _settle,
)
from .vector_round import HOLE as HOLE  # the state's columns, for the tests


@njit(cache=True, nogil=True, error_model="numpy")
def reset_tables(
    rules: np.ndarray, shoe: np.ndarray, state: np.ndarray, unseen: np.ndarray,
    keys: np.ndarray, counters: np.ndarray, obs: np.ndarray, masks: np.ndarray,
) -> None:  # fmt: skip
    """Every table new (a full shoe, to be shuffled before the first round), at its bet."""
    for i in range(shoe.shape[0]):
        for k in range(STATE_LEN):
            state[i, k] = 0
        counters[i] = 0
        state[i, POS] = shoe.shape[1]  # shuffled before the first round, as the kernel's
        _begin(rules, shoe, state, unseen, keys, counters, i)
        _legal(rules, state, i, masks)
        _observe(state, unseen, i, obs)


@njit(cache=True, nogil=True, error_model="numpy")
def step_tables(
    rules: np.ndarray, units: np.ndarray, actions: np.ndarray, shoe: np.ndarray,
    spare: np.ndarray, state: np.ndarray, unseen: np.ndarray, live: np.ndarray,
    keys: np.ndarray, counters: np.ndarray, obs: np.ndarray, masks: np.ndarray,
    rewards: np.ndarray, ended: np.ndarray,
) -> int:  # fmt: skip
    """One action at every table; returns the first table whose action was not legal
    (nothing is changed then), or -1. A round that ends is settled (``rewards``: its net
    in chips, ``ended`` set) and the table waits at the next round's bet."""
    for i in range(shoe.shape[0]):
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
            return i
    for i in range(shoe.shape[0]):
        a = actions[i]
        rewards[i] = 0
        ended[i] = False
        over = False
        if state[i, PHASE] == 0:
            over = _deal(rules, shoe, spare, state, unseen, live, keys, counters, i,
                         rules[BET] * units[a - PLAY_ACTIONS])  # fmt: skip
        elif a == STAND:
            over = _end_hand(rules, shoe, spare, state, unseen, live, keys, counters, i, True)
        elif a == SURRENDER_A:
            state[i, NET] += state[i, STAKE] // 2
            over = _end_hand(rules, shoe, spare, state, unseen, live, keys, counters, i, False)
        else:
            card = _draw(shoe, spare, state, unseen, keys, counters, i, True)
            if a == SPLIT_A:
                c0 = state[i, C0]
                state[i, SPLITS] += 1
                state[i, WAITING] += 1
                state[i, NET] -= state[i, STAKE]
                state[i, SPLIT] = 1
                aces = c0 == 0
                state[i, ACES] = aces
                aces_only = aces and rules[HSA] == 0
                state[i, FLAGS] = SPLIT_HAND | (ACES_ONLY if aces_only else FIRST_MOVE)
                state[i, C1] = card
                hard = c0 + card + 2
                ace = c0 == 0 or card == 0
                state[i, HARD], state[i, ACE] = hard, ace
                resplit = c0 == card and state[i, SPLITS] + 1 < rules[MAX_HANDS] and rules[RSA] != 0
                if (aces_only and not resplit) or (ace and hard == 11):
                    over = _end_hand(
                        rules, shoe, spare, state, unseen, live, keys, counters, i, True
                    )
            else:
                doubled = a == DOUBLE_A
                if doubled:
                    state[i, NET] -= state[i, STAKE]
                    state[i, STAKE] *= 2
                state[i, C1] = -1
                state[i, FLAGS] &= ~FIRST_MOVE
                hard = state[i, HARD] + card + 1
                ace = state[i, ACE] != 0 or card == 0
                state[i, HARD], state[i, ACE] = hard, ace
                now = hard + 10 if ace and hard <= 11 else hard
                if now > 21:
                    over = _end_hand(
                        rules, shoe, spare, state, unseen, live, keys, counters, i, False
                    )
                elif now == 21 or doubled:
                    over = _end_hand(
                        rules, shoe, spare, state, unseen, live, keys, counters, i, True
                    )
        if over:
            if state[i, PHASE] == 0:  # settled at the deal: the hole card is turned
                state[i, N_LIVE] = 0
            rewards[i] = _settle(rules, shoe, spare, state, unseen, live, keys, counters, i)
            ended[i] = True
            _begin(rules, shoe, state, unseen, keys, counters, i)
        _legal(rules, state, i, masks)
        _observe(state, unseen, i, obs)
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def chart_actions(
    rules: np.ndarray, plans: np.ndarray, state: np.ndarray, bet_action: int, out: np.ndarray
) -> None:
    """The kernel's chart player's action at every table (``plans``: the kernel's table of
    plans for a chart): a baseline agent, and the simulator's play through this env."""
    for i in range(state.shape[0]):
        if state[i, PHASE] == 0:
            out[i] = bet_action
            continue
        flags = state[i, FLAGS]
        hard, ace = state[i, HARD], state[i, ACE] != 0
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        up = state[i, UP] * 1056
        c0, c1 = state[i, C0], state[i, C1]
        aces = state[i, ACES] != 0
        if (
            c1 >= 0
            and c0 == c1
            and state[i, SPLITS] + 1 < rules[MAX_HANDS]
            and (not aces or rules[RSA] != 0)
        ):
            move = plans[up + (44 + c0) * 16 + (flags | 4)]
        else:
            move = plans[up + (soft * 22 + total) * 16 + flags]
        out[i] = move
