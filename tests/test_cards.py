"""Cards, names and hand values."""

from __future__ import annotations

import pytest

from croupier.engine import SpecError
from croupier.engine.cards import CODES, DECK, card, cards, code, name, rank
from croupier.plugins.blackjack.values import hand_value, value


def test_deck_has_52_distinct_cards():
    assert len(DECK) == 52
    assert len(set(CODES)) == 52
    assert [code(c) for c in cards("AS 2H TD KC")] == ["AS", "2H", "TD", "KC"]


def test_names_and_ranks():
    assert name(card("QC")) == "Queen of Clubs"
    assert name(card("5h")) == "Five of Hearts"
    assert name(card("10D")) == "Ten of Diamonds"
    assert rank(card("TD")) == "T"
    assert [value(c) for c in cards("AS 9S TS JS QS KS")] == [1, 9, 10, 10, 10, 10]


@pytest.mark.parametrize("bad", ["", "1S", "AX", "QQ", "ASS"])
def test_bad_card_is_a_spec_error(bad):
    with pytest.raises(SpecError, match="is not a card"):
        card(bad)


@pytest.mark.parametrize(
    ("hand", "total", "soft", "natural"),
    [
        ("AS KD", 21, True, True),
        ("AS 6D", 17, True, False),
        ("AS 6D 5C", 12, False, False),
        ("AS AD", 12, True, False),
        ("AS AD 9C", 21, True, False),
        ("TS 6D", 16, False, False),
        ("TS 6D 9C", 25, False, False),
        ("7S 7D 7C", 21, False, False),
    ],
)
def test_hand_value(hand, total, soft, natural):
    v = hand_value(cards(hand))
    assert (v.total, v.soft, v.natural) == (total, soft, natural)
    assert v.bust == (total > 21)


def test_split_21_is_not_a_natural():
    assert not hand_value(cards("AS KD"), split=True).natural
    assert str(hand_value(cards("AS 6D"))) == "soft 17"
