"""Cards as the solver sees them: ten ranks, hands as rank counts, shoes as rank counts.

Rank index ``r`` (0..9) is the card of value ``r + 1``: 0 is the ace, 9 is any ten-valued
card (10, J, Q, K). A shoe is a tuple of ten counts, or ``None`` for an infinite deck.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import CroupierError, SpecError

RANKS = "A23456789T"
ACE = 0
TEN = 9
Counts = tuple[int, ...]
Shoe = tuple[float, ...]
"""A shoe's counts: ints, or the fractional counts of a mean shoe (at a true count, say)."""

_NAMES = {"A": 0, "1": 0, "J": 9, "Q": 9, "K": 9, "T": 9, "10": 9}
_NAMES.update({str(v): v - 1 for v in range(2, 10)})


def rank_of(text: str, whole: str | None = None, position: int | None = None) -> int:
    """The rank index of a card name: ``A``, ``2``..``9``, ``T``/``10``/``J``/``Q``/``K``."""
    rank = _NAMES.get(text.strip().upper())
    if rank is None:
        raise SpecError(
            f"unknown card {text.strip()!r} (cards are A, 2-9, T, J, Q, K)", whole, position
        )
    return rank


def parse_cards(text: str) -> list[int]:
    """``"T,6"`` or ``"A 7"`` or ``"8,8"`` as rank indices (at least one card)."""
    cards: list[int] = []
    position = 0
    for part in text.replace(" ", ",").split(","):
        if part:
            cards.append(rank_of(part, text, position))
        position += len(part) + 1
    if not cards:
        raise SpecError("a hand needs at least one card, e.g. T,6", text, 0)
    return cards


def parse_hand(hand: str, upcard: str, decks: int | None) -> tuple[list[int], int]:
    """A hand of at least two cards and one upcard, as rank indices; with ``decks`` decks
    (``None``: infinite), the shoe must hold them all."""
    cards = parse_cards(hand)
    ups = parse_cards(upcard) if upcard.strip(" ,") else []
    if len(ups) != 1:
        raise CroupierError(f"the upcard is one card, not {upcard!r}")
    if len(cards) < 2:
        raise CroupierError(f"a hand has at least two cards, not {hand!r}")
    if decks is not None:
        shoe = full_shoe(decks)
        for r in range(10):
            if cards.count(r) + (ups[0] == r) > shoe[r]:
                raise CroupierError(
                    f"{decks} deck(s) hold only {shoe[r]} card(s) of rank {RANKS[r]}"
                )
    return cards, ups[0]


def card_name(rank: int) -> str:
    return RANKS[rank]


def hand_text(cards: Sequence[int]) -> str:
    return ",".join(RANKS[r] for r in cards)


def full_shoe(decks: int) -> Counts:
    """The counts of ``decks`` full 52-card decks."""
    return (4 * decks,) * 9 + (16 * decks,)


def counts_of(cards: Sequence[int]) -> Counts:
    counts = [0] * 10
    for r in cards:
        counts[r] += 1
    return tuple(counts)


def total(hard: int, has_ace: bool) -> tuple[int, bool]:
    """The best total of a hand with hard sum ``hard`` and whether it is soft."""
    if has_ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def hand_total(cards: Sequence[int]) -> tuple[int, bool]:
    """(best total, soft) of a hand given as rank indices."""
    return total(sum(cards) + len(cards), ACE in cards)
