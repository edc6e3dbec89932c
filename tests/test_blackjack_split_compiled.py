"""The split's compiled loops against the plain-Python play they replace, to the last bit.

:mod:`.split_loop` sums a split hand's value over its second card in one compiled call
(CDZ-, CDP1, CDP and a chart's play), :mod:`.cdpn_loop` values a CDPN term in one; each
keeps its Python path (a play called per card; the term's recursion), taken where the
compiled one cannot go (an infinite deck; shoes with stand rows of their own), and both
must give the same floating-point values.
"""

from __future__ import annotations

import itertools

import pytest

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import split_loop
from croupier.plugins.blackjack.solver.analysis import ChartPlayer, UpcardSolver, solve_rules
from croupier.plugins.blackjack.solver.cards import full_shoe
from croupier.plugins.blackjack.solver.cdpn import OptimalTerms, _TermProblem
from croupier.plugins.blackjack.solver.split import (
    ResplitAware,
    SplitShoes,
    cdp_strategy,
    first_hand_strategy,
    presplit_strategy,
    split_value,
)
from croupier.plugins.blackjack.solver.stand_rows import StandRows

RULES = [
    BlackjackRules(decks=1, resplit_aces=True),
    BlackjackRules(decks=2, dealer="h17", double_after_split=False, hit_split_aces=True),
    BlackjackRules(decks=6, double="10-11", max_split_hands=3),
]
DEPLETED = (3, 4, 2, 4, 1, 4, 3, 4, 4, 13)  # one deck less 10 cards


def plays(rules, upcard, shoe):
    """(name, strategy's play for a split of each rank) for the fixed post-split modes."""
    main = UpcardSolver(rules, upcard, "ev", shoe=shoe).main
    yield "cdz-", lambda shoes: presplit_strategy(main)(shoes)
    yield "cdz- nodas", lambda shoes: presplit_strategy(main, das=False)(shoes)
    yield "cdp1", lambda shoes: first_hand_strategy()(shoes)
    yield "cdp a=1", lambda shoes: cdp_strategy().for_removal(shoes, 1)


CASES = [(rules, None) for rules in RULES] + [(RULES[0], DEPLETED)]


@pytest.mark.parametrize(("rules", "shoe"), CASES, ids=["1d", "2d", "6d", "1d-depleted"])
def test_second_card_sums_are_the_python_loops(rules, shoe):
    full = shoe or full_shoe(rules.decks)
    for upcard in (0, 5, 9):
        for rank in (0, 7, 9):
            for name, make in plays(rules, upcard, shoe):
                shoes = SplitShoes(rules, upcard, full, rank)
                play = make(shoes)
                apart = SplitShoes(rules, upcard, full, rank)  # memos of its own
                in_python = make(apart)
                assert isinstance(play, split_loop.SecondCards)
                for a in range(2):
                    start = shoes.first_card()
                    compiled = play.sums(shoes.context(a), start)
                    assert compiled is not None
                    by_calls = split_loop.second_card_sums(
                        lambda ev, hand, play=in_python: play(ev, hand), apart.context(a), start
                    )
                    assert compiled == by_calls, (name, upcard, rank, a)


def test_a_chart_after_a_split_is_the_python_play():
    rules = BlackjackRules(decks=2)
    chart = solve_rules(rules).chart
    for upcard in (0, 4, 9):
        solver = UpcardSolver(rules, upcard, "ev")
        for rank in (1, 7, 8):
            compiled = split_value(solver.splits[rank], ChartPlayer(chart, solver).post_split)
            player = ChartPlayer(chart, solver)

            def by_calls(shoes, player=player):
                return lambda ev, hand: player.play_split_hand(ev, hand, shoes.rank)

            assert compiled == split_value(solver.splits[rank], by_calls)


def test_an_infinite_deck_sums_in_python():
    rules = BlackjackRules(decks=None)
    main = UpcardSolver(rules, 5, "ev").main
    shoes = SplitShoes(rules, 5, None, 7)
    play = presplit_strategy(main)(shoes)
    assert isinstance(play, split_loop.SecondCards)
    assert play.sums(shoes.context(0), shoes.first_card()) is None
    assert split_value(shoes, presplit_strategy(main)) > 0  # 8,8 v 6 makes money


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.decks}d")
def test_cdpn_terms_compiled_are_the_python_recursion(rules):
    full = full_shoe(rules.decks)
    for upcard in (0, 5, 9):
        for rank in (0, 2, 7):
            shoes = SplitShoes(rules, upcard, full, rank)
            for das in (True, False):
                terms = OptimalTerms(shoes, das)
                for a, b, own in itertools.product(range(3), range(4), (False, True)):
                    if 2 + a + b > shoes.limit + 1:
                        continue
                    term = _TermProblem(shoes, a, terms.coefficients(a, b, own), own, das)
                    assert term.value() == term.value_in_python(), (upcard, rank, a, b, own)


def test_cdpn_with_stand_rows_of_their_own_is_the_same_split():
    """A store too small to share rows keeps its terms in Python: the same values."""
    rules = BlackjackRules(decks=2)
    full = (8,) * 9 + (32,)
    for upcard, rank in ((0, 7), (5, 2), (9, 0)):
        shared = SplitShoes(rules, upcard, full, rank)
        alone = SplitShoes(rules, upcard, full, rank, stands=StandRows(1))
        assert split_value(shared, ResplitAware()) == split_value(alone, ResplitAware())


def test_doubling_codes():
    assert split_loop.doubling_code(False, "any") == split_loop.NO_DOUBLE
    assert split_loop.doubling_code(True, "none") == split_loop.NO_DOUBLE
    assert split_loop.doubling_code(True, "any") == 0
    assert split_loop.doubling_code(True, "9-11") == 9
    assert split_loop.doubling_code(True, "10-11") == 10
