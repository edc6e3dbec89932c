"""The compiled simulator's chunk played by the round engine in plain Python: the same totals.

Importing numba and loading the kernel's machine code cost a process about a second; a run
of a few thousand rounds takes milliseconds in the kernel and a fraction of a second on
the round engine (:class:`~croupier.plugins.blackjack.round.TableCore`, the simulator's
Python fast path). So a short run plays here: the engine's own round on a shoe shuffled
by the kernel's recipe (SplitMix64 keyed by the chunk's seed, Lemire's integers from the
high 32 bits, Fisher-Yates from the last card down: :mod:`.kernel`), which deals exactly
the kernel's cards, so every total is the kernel's (tests/test_kernel.py compares them
field for field).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from croupier.engine import ShoeRanOut, Stream
from croupier.plugins.blackjack.kernel.fields import FIELDS
from croupier.plugins.blackjack.round import TableCore
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.shoe import make_shoe
from croupier.plugins.blackjack.simulate import BANKROLL, SimStats, run_rounds
from croupier.plugins.blackjack.strategy import Strategy
from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule

PLAIN_HANDS = 20_000
"""Hands (rounds times seats) up to which a run plays here: 0.2-0.4 s of the round engine
with a chart, where loading the kernel costs about a second (a fixed number, so a run's
path, like its result, depends on its arguments only)."""


def plain_rounds(rules: BlackjackRules, seats: int) -> int:
    """The longest run :class:`PlainChunk` plays for these rules: :data:`PLAIN_HANDS`
    hands, and none for a shoe shuffled every round (the shuffle in Python would cost more
    than the round)."""
    return 0 if rules.shoe == "fresh-pack" else PLAIN_HANDS // seats


_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class SplitMix:
    """The kernel's generator: output ``i`` (1, 2, ...) mixes ``key + i * GAMMA``."""

    __slots__ = ("counter", "key")

    def __init__(self, key: int) -> None:
        self.key = key
        self.counter = 0

    def shuffle(self, cards: list[int]) -> None:
        """Fisher-Yates in place, swap ``k`` with a uniform ``j <= k`` from Lemire's method."""
        key, counter = self.key, self.counter
        for k in range(len(cards) - 1, 0, -1):
            bound = k + 1
            while True:
                counter += 1
                z = (key + counter * _GAMMA) & _MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                m = ((z ^ (z >> 31)) >> 32) * bound
                low = m & 0xFFFFFFFF
                if low >= bound or low >= ((1 << 32) - bound) % bound:
                    break
            j = m >> 32
            cards[k], cards[j] = cards[j], cards[k]
        self.counter = counter


@attrs.frozen
class PlainChunk:
    """A chunk of these rules and strategy at ``seats`` seats, ``chunk(seed, rounds)``:
    the kernel's totals (:data:`FIELDS`), all -1 when the shoe runs out in a round."""

    rules: BlackjackRules
    dealer: DealerRule
    scheme: BettingScheme
    strategy: Strategy
    seats: int

    def __call__(self, seed: int, rounds: int) -> Sequence[int]:
        shoe = make_shoe(self.rules, Stream(0), SplitMix(seed).shuffle)
        chips = [BANKROLL] * self.seats
        core = TableCore(self.rules, self.dealer, self.scheme, shoe, chips, keep_entries=False)
        house = core.ledger.balances["house"]
        stats = SimStats(self.rules.min_bet)
        try:
            run_rounds(core, [self.strategy] * self.seats, rounds, stats.add_round)
        except ShoeRanOut:
            return [-1] * len(FIELDS)
        totals = attrs.asdict(stats)
        totals["house"] = core.ledger.balances["house"] - house
        totals["shuffles"] = shoe.shuffles
        return [totals[name] for name in FIELDS]
