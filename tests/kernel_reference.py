"""A plain-Python reference of the compiled kernel's random numbers and shuffles.

It is the recipe docs/tables.md states, written independently of the kernel: with it the
engine's own round (``TableCore``) deals exactly the cards the kernel deals, so the two
can be compared total for total.
"""

from __future__ import annotations

from croupier.engine.cards import DECK
from croupier.engine.errors import CroupierError
from croupier.engine.seeds import Stream
from croupier.engine.shoes import Shoe

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


class SplitMix:
    """SplitMix64 from ``key``: output ``i`` (1, 2, ...) is ``mix(key + i * GAMMA)``."""

    def __init__(self, key: int) -> None:
        self.key = key
        self.counter = 0

    def next64(self) -> int:
        self.counter += 1
        z = (self.key + self.counter * GAMMA) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Lemire's unbiased integer in [0, n) from the high 32 bits of each output."""
        while True:
            m = (self.next64() >> 32) * n
            low = m & 0xFFFFFFFF
            if low >= n or low >= ((1 << 32) - n) % n:
                return m >> 32


def fisher_yates(cards: list[int], rng: SplitMix) -> None:
    for k in range(len(cards) - 1, 0, -1):
        j = rng.below(k + 1)
        cards[k], cards[j] = cards[j], cards[k]


class SplitMixShoe(Shoe):
    """The engine's casino shoe, shuffled as the kernel shuffles."""

    __slots__ = ("rng",)

    def __init__(self, key: int, decks: int, penetration: float, every_round: bool) -> None:
        super().__init__(
            Stream(0), kind="casino", decks=decks, penetration=penetration, every_round=every_round
        )
        self.rng = SplitMix(key)

    def _shuffle_all(self) -> None:
        cards = list(DECK) * self.decks
        fisher_yates(cards, self.rng)
        self._deal_from(cards, 0)
        self._round_start = 0
        self.shuffles += 1

    def _run_dry(self) -> None:
        in_play = self._cards[self._round_start : self._pos]
        discards = self._cards[: self._round_start]
        if not discards:
            raise CroupierError("the shoe ran out of cards in one round")
        fisher_yates(discards, self.rng)
        self._deal_from(in_play + discards, len(in_play))
        self._round_start = 0
        self.shuffles += 1
