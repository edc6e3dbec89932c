"""Playing cards: ints, codes, names and point values.

A card is an ``int`` in ``0..51``: ``rank_index * 4 + suit_index`` with ranks
``A 2 3 4 5 6 7 8 9 T J Q K`` and suits ``S H D C``. Ints keep the simulator fast; on the
wire and in logs a card is its two-letter code (``"QC"``), and people read its name
(``"Queen of Clubs"``).
"""

from __future__ import annotations

from croupier.engine.errors import SpecError

RANKS = "A23456789TJQK"
"""The ranks' one-letter codes, ace to king (a card is ``4 * rank + suit``)."""
SUITS = "SHDC"
"""The suits' one-letter codes: spades, hearts, diamonds, clubs."""
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
"""The point value of each card: ace 1, two to nine their pips, ten and faces 10 (the
card games' common count; a game adds its own rules, such as an ace counting 11)."""
CODES: tuple[str, ...] = tuple(RANKS[c // 4] + SUITS[c % 4] for c in DECK)
"""Each card's two-letter code, rank then suit (``"QC"``): how cards travel on the wire."""
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
