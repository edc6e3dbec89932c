"""Three-card poker hands: their ranking, as one comparable integer per hand.

Categories, best first: straight flush, three of a kind, straight, flush, pair, high
card (three cards make straights likelier than flushes, so a straight beats a flush).
Aces are high (Q-K-A is the best straight) and also low in A-2-3, the lowest straight.
Within a category, hands compare by their ranks: a pair's rank, then its kicker; a
straight by its top card; the others by their ranks from the highest down. Suits never
break ties.
"""

from __future__ import annotations

from collections.abc import Sequence

HIGH, PAIR, FLUSH, STRAIGHT, TRIPS, STRAIGHT_FLUSH = range(6)
CATEGORIES = ("high card", "pair", "flush", "straight", "three of a kind", "straight flush")


def rank(card: int) -> int:
    """2..14 (ace 14) of a card 0..51 (``rank_index * 4 + suit``, ranks A 2 .. K)."""
    index = card // 4
    return 14 if index == 0 else index + 1


def value(cards: Sequence[int]) -> int:
    """The hand's strength: a larger value is a better hand, equal values tie."""
    ranks = sorted((rank(c) for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    a, b, c = ranks
    if ranks == [14, 3, 2]:  # the wheel: A-2-3, the lowest straight
        a, b, c = 3, 2, 1
    straight = a - b == 1 and b - c == 1
    if straight and flush:
        category = STRAIGHT_FLUSH
    elif a == b == c:
        category = TRIPS
    elif straight:
        category = STRAIGHT
    elif flush:
        category = FLUSH
    elif a == b or b == c:
        category = PAIR
        pair, kicker = (a, c) if a == b else (b, a)
        a, b, c = pair, pair, kicker
    else:
        category = HIGH
    return ((category * 15 + a) * 15 + b) * 15 + c


def category(hand_value: int) -> int:
    return hand_value // 15**3


def qualifies(dealer_value: int) -> bool:
    """The dealer plays with queen high or better."""
    return category(dealer_value) > HIGH or dealer_value // 15**2 % 15 >= 12
