"""A player's hand for the exact solver: hard sum, whether it holds an ace, and in a finite
shoe its rank counts (which leave the shoe), with the int code the memo tables key on."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from croupier.plugins.blackjack.solver.cards import ACE, Counts, total

# a finite hand's rank counts as one int, 5 bits a rank (a hand of at most 21 holds at
# most 21 cards of a rank): cheap to hash and to extend by a card, for the memo tables
RANK_CODES = tuple(1 << (5 * r) for r in range(10))


def encode(counts: Counts) -> int:
    """The memo key of a finite hand's rank counts (see ``RANK_CODES``)."""
    code = 0
    for r, n in enumerate(counts):
        code += n << (5 * r)
    return code


@attrs.frozen
class Hand:
    """A player hand: hard sum (aces count 1), whether it holds an ace, rank counts."""

    hard: int
    ace: bool
    counts: Counts | None  # None in an infinite deck, where only the total matters
    # encode(counts) (0 in an infinite deck): the memo key, carried along by add()
    code: int = attrs.field(eq=False, repr=False)

    @code.default
    def _code(self) -> int:
        return 0 if self.counts is None else encode(self.counts)

    @property
    def total(self) -> int:
        return total(self.hard, self.ace)[0]

    @property
    def soft(self) -> bool:
        return total(self.hard, self.ace)[1]

    def add(self, rank: int) -> Hand:
        counts = self.counts
        if counts is None:
            return Hand(self.hard + rank + 1, self.ace or rank == ACE, None, 0)
        counts = (*counts[:rank], counts[rank] + 1, *counts[rank + 1 :])
        code = self.code + RANK_CODES[rank]
        return Hand(self.hard + rank + 1, self.ace or rank == ACE, counts, code)

    @property
    def key(self) -> object:
        return self.counts if self.counts is not None else (self.hard, self.ace)


def make_hand(cards: Sequence[int], finite: bool) -> Hand:
    counts = tuple(sum(1 for c in cards if c == r) for r in range(10)) if finite else None
    return Hand(sum(cards) + len(cards), ACE in cards, counts)
