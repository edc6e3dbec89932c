"""``action_values`` on depleted shoes against the independent brute force (bj_oracle),
which deals the hole card first and plays the real game."""

from __future__ import annotations

import bj_oracle as oracle
import pytest

from croupier.engine import CroupierError
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.decisions import action_values

# small depleted shoes (after the hand and the upcard left them)
SHOE_A = (2, 3, 2, 1, 2, 1, 2, 1, 2, 9)
SHOE_B = (1, 2, 3, 2, 1, 0, 2, 3, 1, 11)


def brute(shoe, cards, up, rules):
    worlds = oracle.initial_worlds(list(shoe), up, rules.peek)
    mass = sum(w for w, _, _ in worlds)
    h17 = rules.hits_soft_17
    out = {"stand": oracle.stand(cards, worlds, up, h17)}
    if oracle.best_total(cards)[0] < 21:
        out["hit"] = oracle.hit(cards, worlds, up, h17)
    if len(cards) == 2:
        out["double"] = oracle.double(cards, worlds, up, h17)
    return {k: v / mass for k, v in out.items()}


@pytest.mark.parametrize(
    ("shoe", "cards", "up", "changes"),
    [
        (SHOE_A, [9, 5], 9, {}),
        (SHOE_A, [1, 3, 2], 5, {"dealer": "h17"}),
        (SHOE_B, [0, 5], 0, {}),
        (SHOE_B, [4, 5], 6, {"peek": False}),
        (SHOE_B, [7, 7], 9, {}),
    ],
)
def test_hand_values_agree_with_the_brute_force(shoe, cards, up, changes):
    rules = BlackjackRules(decks=1, surrender="late").evolve(**changes)
    got = action_values(rules, shoe, cards, up)
    expected = brute(shoe, cards, up, rules)
    for action, value in expected.items():
        if action == "double" and len(cards) > 2:
            continue
        assert got[action] == pytest.approx(value, abs=1e-12), action
    if len(cards) == 2:
        assert got["surrender"] == pytest.approx(-0.5, abs=1e-12)
    else:
        assert "double" not in got and "surrender" not in got


@pytest.mark.slow  # 15 s; tests/test_blackjack_split.py checks each split by brute force
def test_split_agrees_with_the_real_split_game():
    """8,8 against a T from a depleted shoe, split to 3 hands, CDZ- decisions taken in the
    shoe before the split (the hand's cards and the upcard out)."""
    rules = BlackjackRules(decks=1, surrender="none", max_split_hands=3)
    shoe = (1, 2, 3, 2, 1, 0, 2, 3, 1, 12)
    got = action_values(rules, shoe, [7, 7], 9)
    base = list(shoe)
    base[7] += 2  # presplit_decider removes the hand's cards itself
    decide = oracle.presplit_decider(base, 9, False, True, True)
    value = oracle.split_game(shoe, 7, 9, False, True, 3, decide)
    mass = sum(w for w, _, _ in oracle.initial_worlds(list(shoe), 9, True))
    assert got["split"] == pytest.approx(value / mass, abs=1e-12)


def test_a_split_hand_resplits_only_within_the_hands_left():
    rules = BlackjackRules(decks=1, surrender="late", max_split_hands=2)
    shoe = (1, 2, 3, 2, 1, 0, 2, 1, 1, 12)
    after = action_values(rules, shoe, [7, 7], 9, splits=1)
    assert "split" not in after and "surrender" not in after
    assert "split" in action_values(rules, shoe, [7, 7], 9)


def test_a_natural_is_no_decision():
    rules = BlackjackRules(decks=1)
    got = action_values(rules, (3, 4, 4, 4, 4, 4, 4, 4, 4, 14), [0, 9], 5)
    assert set(got) == {"natural"} and got["natural"] == pytest.approx(1.5)


@pytest.mark.parametrize(
    ("shoe", "cards", "up", "splits", "message"),
    [
        ((1,) * 9, [9, 5], 9, 0, "ten counts"),
        ((1,) * 9 + (-1,), [9, 5], 9, 0, "ten counts"),
        ((1,) * 10, [9], 9, 0, "at least two"),
        ((1,) * 10, [9, 10], 9, 0, "rank index"),
        ((1,) * 10, [9, 5], 9, 7, "splits so far"),
        ((0,) * 10, [9, 5], 9, 0, "empty"),
        ((1,) * 10, [9, 5, 9], 9, 0, "bust"),
        ((0,) * 9 + (3,), [4, 5], 0, 0, "no decision"),
    ],
)
def test_bad_input_is_one_clear_error(shoe, cards, up, splits, message):
    with pytest.raises(CroupierError, match=message):
        action_values(BlackjackRules(decks=1), shoe, cards, up, splits)


def test_a_split_hand_resplit_is_the_split_of_the_hands_left():
    """7,7 as the second hand of a split (one split made, at most three hands): splitting
    it again may make two hands of it, valued as the real split game from this shoe."""
    rules = BlackjackRules(decks=1, surrender="none", max_split_hands=3)
    shoe = (1, 2, 3, 2, 1, 0, 2, 2, 1, 11)  # the other hand's cards are already out
    got = action_values(rules, shoe, [6, 6], 9, splits=1)
    base = list(shoe)
    base[6] += 2
    decide = oracle.presplit_decider(base, 9, False, True, True)
    value = oracle.split_game(shoe, 6, 9, False, True, 2, decide)
    mass = sum(w for w, _, _ in oracle.initial_worlds(list(shoe), 9, True))
    assert got["split"] == pytest.approx(value / mass, abs=1e-12)
    assert "surrender" not in got and "double" in got  # DAS
