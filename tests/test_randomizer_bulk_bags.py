"""A bag too large for one uniform draw (the 14-bag) deals its bags from the stream's bytes
in bulk: the same pieces, and the stream left at the same byte, as one ``randbelow`` per
swap (``BagRandomizer._bag``), whatever the sizes of the deals."""

from __future__ import annotations

import pytest

from croupier.engine import Stream
from croupier.plugins.blackjack_spec.randomizers import BagRandomizer

PIECES = list("IJLOSTZ")


@pytest.mark.parametrize(
    ("entries", "count"),
    [
        (PIECES * 2, 14),  # the 14-bag
        (PIECES * 2, 7),  # half of it per bag
        (PIECES * 3, 1),
        ([f"p{i}" for i in range(300)], 300),  # two bytes a try
    ],
)
def test_bulk_bags_are_the_per_swap_bags(entries, count):
    for seed in range(3):
        bulk = BagRandomizer(Stream(seed), entries, count)
        per_swap = BagRandomizer(Stream(seed), entries, count)
        assert bulk._draws is None  # too many arrangements for one draw: sampled
        dealt: list[str] = []
        want: list[str] = []
        for n in (0, 1, 13, 5 * count + 3, 1000, 2):
            dealt += bulk.deal(n)
            while len(want) < len(dealt):  # the bags a deal of this many needs, one by one
                want += per_swap._bag()
            assert dealt == want[: len(dealt)]
            assert bulk._stream.position == per_swap._stream.position
