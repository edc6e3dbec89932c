"""Rule options are checked where they are made, whatever their source (CLI, wire, Python)."""

from fractions import Fraction

import pytest

from croupier.engine import CroupierError
from croupier.plugins.blackjack.rules import BlackjackRules, parse_payout, rules_from_options


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3:2", Fraction(3, 2)),
        ("6:5", Fraction(6, 5)),
        ("1.5", Fraction(3, 2)),
        (1.2, Fraction(6, 5)),
        (2, Fraction(2)),
    ],
)
def test_payouts_are_read_as_written(text, value):
    assert parse_payout(text) == value


@pytest.mark.parametrize(
    "text", ["abc", "3:0", "-1:2", "nan", float("inf"), "1e400", "1001:1", "1:1001", True, "7" * 50]
)
def test_bad_payouts_are_refused_in_one_line(text):
    with pytest.raises(CroupierError) as exc:
        parse_payout(text)
    message = str(exc.value)
    assert "payout" in message and "\n" not in message and len(message) < 120


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"decks": 1.5}, "decks must be a whole number"),
        ({"decks": True}, "decks must be a whole number"),
        ({"max_split_hands": 2.0}, "max_split_hands must be a whole number"),
        ({"starting_chips": "100"}, "starting_chips must be a whole number"),
        ({"insurance": "yes"}, "insurance must be true or false"),
        ({"dealer": 17}, "dealer must be a name"),
        ({"penetration": "0.5"}, "penetration must be a number"),
        ({"penetration": float("nan")}, "penetration must be in (0, 1]"),
        ({"min_bet": 10, "max_bet": 10**12 + 1}, "at most 1,000,000,000,000"),
        ({"starting_chips": "x" * 10**6}, "starting_chips must be a whole number"),
    ],
)
def test_options_of_the_wrong_type_or_size_are_refused(options, fragment):
    with pytest.raises(CroupierError) as exc:
        rules_from_options(BlackjackRules(), options)
    message = str(exc.value)
    assert fragment in message and len(message) < 120


def test_sound_options_still_pass():
    rules = rules_from_options(
        BlackjackRules(), {"decks": None, "penetration": 1, "blackjack_pays": "6:5", "peek": False}
    )
    assert rules.decks is None and rules.blackjack_pays == Fraction(6, 5) and not rules.peek
