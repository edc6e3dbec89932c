"""Exact split EVs (resplits included) against a brute force of the real split game and
against Eric Farmer's published combinatorial-analyser figures."""

from __future__ import annotations

import functools

import bj_oracle as oracle
import pytest

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import solve
from croupier.plugins.blackjack.solver.analysis import UpcardSolver
from croupier.plugins.blackjack.solver.hands import Evaluator
from croupier.plugins.blackjack.solver.split import (
    SplitShoes,
    cdp_strategy,
    first_hand_strategy,
    presplit_strategy,
    split_value,
)

# small shoes with at least 2 (hands + 1) tens left, so that no round can run out of cards
SHOE_A = (0, 5, 4, 2, 0, 0, 2, 0, 0, 12)  # 25 cards: deuces to resplit
SHOE_B = (1, 4, 3, 2, 1, 0, 2, 3, 0, 12)  # 28 cards: eights
SHOE_C = (4, 2, 2, 1, 1, 1, 1, 1, 1, 12)  # 26 cards: aces


def brute_force(shoe, rank, up, rules, strategy):
    """The real game dealt in order (oracle), under the same post-split strategy."""
    base = list(shoe)
    base[up] -= 1
    if strategy == "first-hand":
        base[rank] -= 1  # decisions taken in the shoe minus both pair cards
    decide = oracle.presplit_decider(
        base, up, rules.hits_soft_17, rules.peek, rules.double_after_split
    )
    left = list(shoe)
    left[up] -= 1
    left[rank] -= 2
    limit = 2 if rank == 0 and not rules.resplit_aces else rules.max_split_hands
    return oracle.split_game(
        tuple(left), rank, up, rules.hits_soft_17, rules.peek, limit, decide, rules.hit_split_aces
    )


def solver_split(shoe, rank, up, rules, strategy):
    main = Evaluator(rules, up, shoe)
    chosen = first_hand_strategy() if strategy == "first-hand" else presplit_strategy(main)
    if not rules.double_after_split:
        chosen = (
            first_hand_strategy(das=False)
            if strategy == "first-hand"
            else presplit_strategy(main, das=False)
        )
    return split_value(SplitShoes(rules, up, shoe, rank), chosen)


CASES = [
    # shoe, pair rank, upcard, rule changes, strategy
    (SHOE_A, 1, 6, {"max_split_hands": 4}, "cdz-"),
    (SHOE_A, 1, 6, {"max_split_hands": 3, "double_after_split": False}, "cdz-"),
    (SHOE_A, 1, 9, {"max_split_hands": 4, "dealer": "h17"}, "cdz-"),
    (SHOE_A, 1, 6, {"max_split_hands": 4}, "first-hand"),
    (SHOE_B, 7, 9, {"max_split_hands": 4}, "cdz-"),
    (SHOE_B, 7, 9, {"max_split_hands": 4, "peek": False}, "cdz-"),
    (SHOE_B, 7, 0, {"max_split_hands": 3, "dealer": "h17"}, "first-hand"),
    (SHOE_B, 7, 4, {"max_split_hands": 2}, "cdz-"),
    (SHOE_C, 0, 9, {"max_split_hands": 4}, "cdz-"),
    (SHOE_C, 0, 9, {"max_split_hands": 4, "resplit_aces": True}, "cdz-"),
    pytest.param(  # the one slow case (resplit and hit split aces): tens of seconds
        SHOE_C,
        0,
        5,
        {"max_split_hands": 3, "resplit_aces": True, "hit_split_aces": True},
        "cdz-",
        marks=pytest.mark.slow,
    ),
]


@pytest.mark.parametrize(("shoe", "rank", "up", "changes", "strategy"), CASES)
def test_split_agrees_with_the_real_game_by_brute_force(shoe, rank, up, changes, strategy):
    rules = BlackjackRules(decks=1, surrender="none").evolve(**changes)
    expected = brute_force(shoe, rank, up, rules, strategy)
    assert solver_split(shoe, rank, up, rules, strategy) == pytest.approx(expected, abs=1e-12)


def test_one_split_first_hand_strategy_is_twice_the_optimal_first_hand():
    rules = BlackjackRules(decks=1, surrender="none", max_split_hands=2)
    left = list(SHOE_B)
    left[9] -= 1
    left[7] -= 2
    worlds = oracle.initial_worlds(left, 9, True)
    expected = 2 * oracle.split_first_hand(7, worlds, 9, False, das=True)
    got = solver_split(SHOE_B, 7, 9, rules, "first-hand")
    assert got == pytest.approx(expected, abs=1e-13)


def test_farmer_single_deck_split_without_resplits():
    """Eric Farmer (blackjacktheforum, "MGP's BJCA" thread): single deck, S17, split once,
    no DAS, CDZ-: splitting 2,2 against a 6 is worth 0.1189818683947885."""
    rules = {"decks": 1, "max_split_hands": 2, "double_after_split": False}
    hand = solve({"rules": rules, "hand": "2,2", "upcard": "6"})["hand"]
    assert hand["actions"]["split"]["ev"] == pytest.approx(0.1189818683947885, abs=1e-14)


def test_farmer_test_shoe_split_with_resplits():
    """Farmer's test shoe (blackjackinfo.com thread 22710): four 2s, four 3s, two 4s, two
    7s, seven tens; S17, DAS, split to 4 hands: 2,2 against a 7, CDZ-: -76.210%."""
    shoe = (0, 4, 4, 2, 0, 0, 2, 0, 0, 7)
    rules = BlackjackRules(decks=1, surrender="none", max_split_hands=4)
    value = split_value(SplitShoes(rules, 6, shoe, 1), presplit_strategy(Evaluator(rules, 6, shoe)))
    assert round(100 * value, 3) == -76.210


def test_the_solver_uses_the_same_split_value():
    rules = BlackjackRules(decks=2, max_split_hands=4)
    solver = UpcardSolver(rules, 6, "ev")
    direct = split_value(SplitShoes(rules, 6, (8,) * 9 + (32,), 7), presplit_strategy(solver.main))
    assert solver.action_values(7, 7)["split"] == pytest.approx(direct, abs=1e-14)


def test_infinite_deck_split_counts_hands_like_a_branching_process():
    """In an infinite deck the expected number of hands after splitting to at most 4 is
    2 + the expected resplits: checked with a strategy worth 1 per hand."""
    rules = BlackjackRules(decks=None, max_split_hands=4)
    p = 1 / 13
    q = 1 - p
    hands = split_value(SplitShoes(rules, 6, None, 7), lambda shoes: lambda ev, hand: 1.0)

    # enumerate directly: (hands, waiting) until four hands or none waiting
    def walk(h, w):
        if h == 4 or w == 0:
            return h
        return p * walk(h + 1, w + 1) + q * walk(h, w - 1)

    assert hands == pytest.approx(walk(2, 2), abs=1e-15)
    assert hands > 2 + 2 * p * q  # more than the two hands and a single resplit


# -- CDP: play by the pair cards the split used, against a brute force of its own ---------


def second_cards_first_game(shoe, rank, up, rules, decide_for):
    """The split dealt as CDP assumes, by brute force: hole card first (unknown to the
    player), then every split hand's second card (a pair card opens a new hand while fewer
    than the limit are in play), then each hand played in order by ``decide_for(hands)``,
    then the dealer. ``shoe``: after the upcard and both pair cards left it."""
    h17 = rules.hits_soft_17
    limit = 2 if rank == 0 and not rules.resplit_aces else rules.max_split_hands
    total = 0.0
    for w, hole, rest in oracle.initial_worlds(list(shoe), up, rules.peek):
        memo: dict = {}

        def settle(shoe, done, hole=hole):
            finals = oracle.dealer_finals(up, hole, list(shoe), h17)
            out = 0.0
            for final, p in finals.items():
                for value, bet in done:
                    if value > 21 or final == "bj" or (final != 22 and final > value):
                        out -= p * bet
                    elif final == 22 or final < value:
                        out += p * bet
            return out

        def play(shoe, hands, i, cards, bet, done, decide, memo=memo):
            key = ("play", shoe, hands[i + 1 :], tuple(sorted(cards)), bet, tuple(sorted(done)))
            key = (*key, len(hands))  # the decisions depend on the hands only
            if key not in memo:
                memo[key] = play_now(shoe, hands, i, cards, bet, done, decide)
            return memo[key]

        def play_now(shoe, hands, i, cards, bet, done, decide):
            aces = rank == 0 and not rules.hit_split_aces
            if aces or bet == 2 or oracle.best_total(cards)[0] >= 21:
                action = "stand"
            else:
                action = decide(cards)
            if action == "stand":
                done = (*done, (oracle.best_total(cards)[0], bet))
                if i + 1 == len(hands):
                    return settle(shoe, done)
                return play(shoe, hands, i + 1, list(hands[i + 1]), 1, done, decide)
            size = sum(shoe)
            value = 0.0
            for r in range(10):
                if shoe[r]:
                    left = (*shoe[:r], shoe[r] - 1, *shoe[r + 1 :])
                    new_bet = 2 if action == "double" else bet
                    value += (
                        shoe[r] / size * play(left, hands, i, [*cards, r], new_bet, done, decide)
                    )
            return value

        def deal(shoe, hands, waiting, count, memo=memo):
            key = ("deal", shoe, hands, waiting, count)
            if key not in memo:
                memo[key] = deal_now(shoe, hands, waiting, count)
            return memo[key]

        def deal_now(shoe, hands, waiting, count):
            if waiting == 0:
                decide = decide_for(count)
                return play(shoe, hands, 0, list(hands[0]), 1, (), decide)
            size = sum(shoe)
            value = 0.0
            for r in range(10):
                if not shoe[r]:
                    continue
                left = (*shoe[:r], shoe[r] - 1, *shoe[r + 1 :])
                if r == rank and count < limit:
                    value += shoe[r] / size * deal(left, hands, waiting + 1, count + 1)
                else:
                    value += shoe[r] / size * deal(left, (*hands, (rank, r)), waiting - 1, count)
            return value

        total += w * deal(tuple(rest), (), 2, 2)
    return total


@pytest.mark.parametrize(
    ("shoe", "rank", "up", "changes"),
    [
        pytest.param(SHOE_A, 1, 6, {"max_split_hands": 3}, marks=pytest.mark.slow),
        pytest.param(
            SHOE_B,
            7,
            9,
            {"max_split_hands": 3, "double_after_split": False},
            marks=pytest.mark.slow,
        ),
        (SHOE_B, 7, 4, {"max_split_hands": 2}),
    ],
)
def test_cdp_agrees_with_its_brute_force(shoe, rank, up, changes):
    """CDP (and CDZ-, CDP1 under the same deal order) against the brute force: the
    decisions for a split into ``hands`` hands are the optimal ones in the shoe minus the
    upcard and ``hands`` pair cards."""
    rules = BlackjackRules(decks=1, surrender="none").evolve(**changes)
    das = rules.double_after_split
    base = list(shoe)
    base[up] -= 1

    @functools.cache
    def deciders(hands):
        shoe_then = list(base)
        shoe_then[rank] -= hands - 1  # the decider takes the hand's own pair card out
        return oracle.presplit_decider(shoe_then, up, rules.hits_soft_17, rules.peek, das)

    left = list(shoe)
    left[up] -= 1
    left[rank] -= 2
    left = tuple(left)
    cdp = second_cards_first_game(left, rank, up, rules, deciders)
    got = split_value(SplitShoes(rules, up, shoe, rank), cdp_strategy(das))
    assert got == pytest.approx(cdp, abs=1e-12)
    presplit = oracle.presplit_decider(base, up, rules.hits_soft_17, rules.peek, das)
    cdz = second_cards_first_game(left, rank, up, rules, lambda hands: presplit)
    main = Evaluator(rules, up, shoe)
    assert split_value(SplitShoes(rules, up, shoe, rank), presplit_strategy(main, das)) == (
        pytest.approx(cdz, abs=1e-12)
    )
    if rules.max_split_hands == 2:  # one split: CDP is CDP1
        cdp1 = split_value(SplitShoes(rules, up, shoe, rank), first_hand_strategy(das))
        assert got == pytest.approx(cdp1, abs=1e-14)


def test_post_split_modes_agree_in_an_infinite_deck():
    """In an infinite deck removing pair cards changes nothing: the three modes agree
    (through the problem's ``post_split`` key)."""
    rules = BlackjackRules(decks=None, max_split_hands=4)
    values = {
        mode: solve({"rules": rules.to_dict(), "hand": "8,8", "upcard": "T", "post_split": mode})[
            "hand"
        ]["actions"]["split"]["ev"]
        for mode in ("cdz-", "cdp1", "cdp")
    }
    assert values["cdz-"] == pytest.approx(values["cdp1"], abs=1e-15)
    assert values["cdz-"] == pytest.approx(values["cdp"], abs=1e-15)


# -- the perfect-play bound ----------------------------------------------------------------


def perfect_split_game(shoe, rank, up, rules):
    """Splitting played perfectly by brute force: in the real deal order, every decision
    the best for everything the player has seen (all his cards, the upcard; never the
    hole card). ``shoe``: after the upcard and both pair cards left it."""
    h17, das = rules.hits_soft_17, rules.double_after_split
    limit = 2 if rank == 0 and not rules.resplit_aces else rules.max_split_hands
    memo: dict = {}

    def settle(worlds, done):
        out = 0.0
        for w, hole, rest in worlds:
            for final, p in oracle.dealer_finals(up, hole, list(rest), h17).items():
                for value, bet in done:
                    if value > 21 or final == "bj" or (final != 22 and final > value):
                        out -= w * p * bet
                    elif final == 22 or final < value:
                        out += w * p * bet
        return out

    def game(worlds, seen, done, cards, bet, waiting, hands):
        key = (seen, tuple(sorted(done)), tuple(sorted(cards)), bet, waiting, hands)
        if key in memo:
            return memo[key]
        if len(cards) == 1:  # deal the second card (a pair card splits while it may)
            value = 0.0
            for r, ws in oracle.draw(worlds).items():
                now = tuple(sorted((*seen, r)))
                if r == rank and hands < limit:
                    value += game(ws, now, done, cards, bet, waiting + 1, hands + 1)
                else:
                    value += game(ws, now, done, [*cards, r], bet, waiting, hands)
        else:
            finished = tuple(sorted((*done, (oracle.best_total(cards)[0], bet))))
            if waiting:
                value = game(worlds, seen, finished, [rank], 1, waiting - 1, hands)
            else:
                value = settle(worlds, finished)
            aces = rank == 0 and not rules.hit_split_aces
            if not aces and bet == 1 and oracle.best_total(cards)[0] < 21:
                draws = oracle.draw(worlds).items()
                hit = sum(
                    game(ws, tuple(sorted((*seen, r))), done, [*cards, r], 1, waiting, hands)
                    for r, ws in draws
                )
                value = max(value, hit)
                if das and len(cards) == 2:
                    double = sum(
                        game(ws, tuple(sorted((*seen, r))), done, [*cards, r], 2, waiting, hands)
                        for r, ws in draws
                    )
                    value = max(value, double)
        memo[key] = value
        return value

    worlds = oracle.initial_worlds(list(shoe), up, rules.peek)
    return game(worlds, (), (), [rank], 1, 1, 2)


@pytest.mark.slow  # 8 s; each mode agrees with its own brute force in the tests above
def test_perfect_play_bounds_every_post_split_mode():
    """Each post-split mode is a strategy the perfect player could follow, so none may be
    worth more than perfect play (and, one split allowed, the perfect player's edge over
    them is real but small)."""
    rules = BlackjackRules(decks=1, surrender="none", max_split_hands=2)
    shoe = (1, 2, 3, 2, 1, 0, 2, 3, 0, 12)
    left = (1, 2, 3, 2, 1, 0, 2, 1, 0, 11)  # the upcard (T) and both 8s out
    best = perfect_split_game(left, 7, 9, rules)
    main = Evaluator(rules, 9, shoe)
    for strategy in (presplit_strategy(main), first_hand_strategy(), cdp_strategy()):
        value = split_value(SplitShoes(rules, 9, shoe, 7), strategy)
        assert value <= best + 1e-12
        assert best - value < 0.01
