"""Playing cards and blackjack hand values.

A card is an ``int`` in ``0..51``: ``rank_index * 4 + suit_index`` with ranks
``A 2 3 4 5 6 7 8 9 T J Q K`` and suits ``S H D C``. Ints keep the simulator fast; on the
wire and in logs a card is its two-letter code (``"QC"``), and people read its name
(``"Queen of Clubs"``). A hand's total counts one ace as 11 when that does not bust it
(the hand is then *soft*).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from croupier.engine.errors import SpecError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RANK_NAMES = (
    "Ace",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
)
SUIT_NAMES = ("Spades", "Hearts", "Diamonds", "Clubs")
HIDDEN = "#"
"""How a face-down card (the dealer's hole card) is shown to players."""

DECK: tuple[int, ...] = tuple(range(52))
VALUES: tuple[int, ...] = tuple(min(c // 4 + 1, 10) for c in DECK)
"""Blackjack value of each card: ace 1 (promoted to 11 by :func:`hand_value`), faces 10."""
CODES: tuple[str, ...] = tuple(RANKS[c // 4] + SUITS[c % 4] for c in DECK)
_BY_CODE = {code: card for card, code in enumerate(CODES)}


def card(code: str) -> int:
    """The card with two-letter ``code`` (``"QC"``, ``"ah"``, ``"10D"`` also accepted)."""
    text = code.strip().upper().replace("10", "T")
    try:
        return _BY_CODE[text]
    except KeyError:
        raise SpecError(
            f"{code!r} is not a card (rank A 2-9 T J Q K then suit S H D C, e.g. QC)"
        ) from None


def cards(text: str) -> list[int]:
    """Cards from codes separated by blanks or commas: ``"AS KD"`` -> two cards."""
    return [card(code) for code in text.replace(",", " ").split()]


def code(c: int) -> str:
    """The two-letter code of card ``c``: ``"QC"``."""
    return CODES[c]


def rank(c: int) -> str:
    """The rank letter of card ``c`` (``A 2-9 T J Q K``), as the contest bots read it."""
    return RANKS[c // 4]


def name(c: int) -> str:
    """The card's English name: ``"Queen of Clubs"``."""
    return f"{RANK_NAMES[c // 4]} of {SUIT_NAMES[c % 4]}"


def value(c: int) -> int:
    """The card's blackjack value: 1 for an ace, 10 for T J Q K."""
    return VALUES[c]


@attrs.frozen
class HandValue:
    """A hand's best total, whether an ace counts 11 in it, and whether it is a natural."""

    total: int
    soft: bool
    natural: bool = False

    @property
    def bust(self) -> bool:
        return self.total > 21

    def __str__(self) -> str:
        return f"soft {self.total}" if self.soft else str(self.total)


def total_of(values: Iterable[int]) -> tuple[int, bool]:
    """``(total, soft)`` of card values (aces as 1): one ace counts 11 unless that busts."""
    hard = 0
    ace = False
    for v in values:
        hard += v
        ace = ace or v == 1
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


def hand_value(hand: Sequence[int], *, split: bool = False) -> HandValue:
    """The value of ``hand`` (cards as ints). Two cards making 21 are a natural unless the
    hand came from a split."""
    total, soft = total_of(VALUES[c] for c in hand)
    return HandValue(total, soft, natural=len(hand) == 2 and total == 21 and not split)
