"""Blackjack hand values: a card's value, and a hand's total, which counts one ace as 11
when that does not bust it (the hand is then *soft*)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from croupier.engine import VALUES


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
