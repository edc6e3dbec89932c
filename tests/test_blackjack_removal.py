"""Effects of removal and the depletion self-test: a fixed strategy's exact EV averaged
over every shoe left after unseen cards are burnt equals its full-shoe EV."""

from __future__ import annotations

import json

import pytest

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import solve_rules
from croupier.plugins.blackjack.solver.removal import (
    chart_ev,
    depletion_average,
    effects_of_removal,
)

RULES = BlackjackRules(decks=1, max_split_hands=2, surrender="late")
SHOE = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)  # a short shoe: few compositions, quick


@pytest.fixture(scope="module")
def chart():
    return solve_rules(RULES.evolve(decks=None)).chart  # any fixed chart will do


def test_burning_one_unseen_card_leaves_a_fixed_strategy_ev_unchanged(chart):
    full = chart_ev(RULES, chart, SHOE)
    assert depletion_average(RULES, chart, 1, SHOE) == pytest.approx(full, abs=1e-13)
    # and the average is not trivially the same shoe: single removals do move the EV
    five_out = (2, 2, 2, 2, 1, 2, 2, 2, 2, 8)
    assert chart_ev(RULES, chart, five_out) - full > 1e-3


@pytest.mark.slow
def test_burning_two_unseen_cards_too(chart):
    rules = RULES.evolve(dealer="h17", double_after_split=False)
    full = chart_ev(rules, chart, SHOE)
    assert depletion_average(rules, chart, 2, SHOE) == pytest.approx(full, abs=1e-13)


@pytest.mark.slow
def test_single_deck_effects_of_removal():
    """Weighted by the deck they sum to zero (the self-test); their signs are the
    textbook ones (Griffin, The Theory of Blackjack): small cards help the player when
    removed, the 5 most, aces and tens hurt."""
    effects = effects_of_removal(RULES)
    deck = (4,) * 9 + (16,)
    assert sum(n * v for n, v in zip(deck, effects.values(), strict=True)) == pytest.approx(
        0, abs=1e-14
    )
    assert max(effects, key=lambda r: effects[r]) == "5"
    assert all(effects[r] > 0 for r in "234567") and effects["A"] < 0 and effects["T"] < 0


def test_eor_is_a_solve_option_with_clear_errors(cli):
    status, _, err = cli("solve", "blackjack", "--decks", "inf", "--eor")
    assert status != 0 and "finite shoe" in err and "Traceback" not in err
    status, _, err = cli(
        "solve", "blackjack", "--hand", "8,8", "--upcard", "T", "--post-split", "x"
    )
    assert status != 0 and "Traceback" not in err


@pytest.mark.slow
def test_eor_from_the_cli(cli):
    status, out, err = cli(
        "solve", "blackjack", "--decks", "1", "--split-hands", "2", "--eor", "--json"
    )
    assert status == 0, err
    data = json.loads(out)
    test = data["depletion_self_test"]
    assert test["average_ev"] == pytest.approx(test["full_ev"], abs=1e-14)
    assert set(data["effects_of_removal"]) == set("A23456789T")
