"""The compiled dealer program gives exactly (bit for bit) what the plain-Python one does."""

from __future__ import annotations

import random

import pytest

from croupier.plugins.blackjack.solver import dealer
from croupier.plugins.blackjack.solver.hands import INFINITE_PROBS


@pytest.mark.parametrize("mode", ["peek", "nopeek", "plain"])
@pytest.mark.parametrize("h17", [False, True])
def test_compiled_dealer_is_the_python_one_to_the_bit(mode, h17):
    rng = random.Random(28)
    shoes: list[tuple[float, ...]] = [tuple(INFINITE_PROBS)]
    for _ in range(8):
        shoes.append((*tuple(rng.randint(0, 24) for _ in range(9)), rng.randint(0, 96)))
        shoes.append((*tuple(rng.uniform(0, 24) for _ in range(9)), rng.uniform(0, 96)))
    shoes.append((1, 0, 0, 0, 0, 0, 0, 0, 0, 1))  # runs out: the dealer stops short
    for up in range(10):
        for shoe in shoes:
            finite = shoe is not shoes[0]
            got = dealer.distribution(up, h17, mode, shoe, finite)
            assert got == dealer.distribution_python(up, h17, mode, shoe, finite)
    # finite inferred from ints, as before
    assert dealer.distribution(5, h17, mode, (4,) * 9 + (16,)) == dealer.distribution_python(
        5, h17, mode, (4,) * 9 + (16,)
    )
