"""The compiled player recursion (solver/recursion.py) against the plain-Python one it
replaced, kept in hands.py for hit rules only Python can follow: the same floats to the
last bit, for every way of playing on, objective and peek; and shared stand rows (the main
and a split's shoes, see StandRows) equal to rows of one's own."""

from __future__ import annotations

import pytest

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.cards import full_shoe
from croupier.plugins.blackjack.solver.hand import Hand, make_hand
from croupier.plugins.blackjack.solver.hands import Evaluator
from croupier.plugins.blackjack.solver.hit_rules import ByTotals, OptimalIn
from croupier.plugins.blackjack.solver.play_python import hit_coded
from croupier.plugins.blackjack.solver.stand_rows import StandRows

# a depleted single deck (a few cards of each kind gone) and a few tens more gone
SHOE = (3, 4, 2, 4, 3, 4, 4, 3, 4, 12)
HANDS = ([9, 5], [1, 2], [0, 5], [4, 5, 1], [0, 0], [7, 7], [2, 3])


def python_play_on(ev: Evaluator, hand: Hand, hits: object) -> float:
    """The Python recursion: a rule that is a plain function is never compiled."""
    return ev.hit_then(hand, lambda h: bool(hits(h)), {})  # type: ignore[operator]


@pytest.mark.parametrize("up", [0, 5, 9])
@pytest.mark.parametrize(
    ("peek", "objective"), [(True, "ev"), (False, "ev"), (True, "win-probability")]
)
def test_compiled_values_equal_the_python_recursion(up, peek, objective):
    rules = BlackjackRules(decks=1, dealer="h17", peek=peek)
    ev = Evaluator(rules, up, SHOE, objective)
    judge = Evaluator(rules, up, SHOE, objective, extra=(0, 0, 0, 0, 0, 0, 0, 2, 0, 0))
    chart = ByTotals(lambda total, soft: total < (18 if soft else 15))
    follows = OptimalIn(judge)
    for cards in HANDS:
        hand = make_hand(cards, True)
        # optimal play: the Python recursion with hits=None, called directly
        assert ev.hit(hand) == hit_coded(ev, hand.counts, hand.code, hand.hard, hand.ace, None, {})
        assert ev.hit_then(hand, chart, {}) == python_play_on(ev, hand, chart)
        assert ev.hit_then(hand, follows, {}) == python_play_on(ev, hand, follows)
        assert ev.play_on(hand, chart, {}) == ev.play_on(hand, lambda h: chart(h), {})


def test_double_equals_the_python_sum():
    for up, peek in [(9, True), (0, True), (9, False), (4, True)]:
        ev = Evaluator(BlackjackRules(decks=1, peek=peek), up, SHOE)
        for cards in HANDS:
            hand = make_hand(cards, True)
            expected = 2.0 * sum(p * ev.stand(hand.add(r)) for p, r in ev.draws(hand))
            assert ev.double(hand) == expected


@pytest.mark.parametrize("shoe", [full_shoe(2), SHOE, tuple(0.9 * n for n in full_shoe(1))])
def test_shared_stand_rows_equal_rows_of_ones_own(shoe):
    """A split's shoes (2 and 3 eights out) share rows with the main shoe where the
    player can hold the same cards; each value is the one an evaluator alone computes."""
    rules = BlackjackRules(decks=2)
    shared = StandRows()
    main = Evaluator(rules, 9, shoe, stands=shared)
    for out in (2, 3):
        extra = (0,) * 7 + (out, 0, 0)
        split = Evaluator(rules, 9, shoe, extra=extra, stands=shared)
        alone = Evaluator(rules, 9, shoe, extra=extra)
        for cards in ([7, 1], [7, 7], [7, 2, 3], [7, 0, 0]):
            hand = make_hand(cards, True)
            assert split.stand(hand) == alone.stand(hand)
            assert split.hit(hand) == alone.hit(hand)
            assert split.double(hand) == alone.double(hand)
    hand = make_hand([7, 7, 1], True)
    assert main.hit(hand) == Evaluator(rules, 9, shoe).hit(hand)


def test_an_evaluator_of_another_shoe_keeps_rows_of_its_own():
    shared = StandRows()
    rules = BlackjackRules(decks=1)
    Evaluator(rules, 9, SHOE, stands=shared)
    other = Evaluator(rules, 9, full_shoe(1), stands=shared)  # not the store's shoe
    hand = make_hand([9, 5], True)
    assert other.hit(hand) == Evaluator(rules, 9, full_shoe(1)).hit(hand)
