"""The compiled dealer program gives exactly (bit for bit) what the plain-Python one does."""

from __future__ import annotations

import random

import numpy as np
import pytest

from croupier.plugins.blackjack.solver import dealer, stand
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


@pytest.mark.parametrize("mode", ["peek", "nopeek", "plain"])
@pytest.mark.parametrize("h17", [False, True])
def test_whole_shoe_pass_is_the_program_to_rounding(mode, h17):
    """The solver's stand-row pass (bust by what is left, ends summed by group) gives the
    program's distribution to rounding on whole shoes, and declines the shoes it cannot
    take: fractional counts and a shoe the dealer may run out of."""
    rng = random.Random(81)
    shoes = [(4,) * 9 + (16,), (24,) * 9 + (96,), (0, 1, 0, 2, 0, 0, 3, 0, 0, 1)]
    shoes += [(*(rng.randint(0, 24) for _ in range(9)), rng.randint(0, 96)) for _ in range(12)]
    for up in range(10):
        flat = dealer.flat_program(up, h17, mode)
        for shoe in shoes:
            got, whole = dealer._run_whole(np.array(shoe, dtype=np.float64), flat[5])
            want = dealer.distribution_python(up, h17, mode, shoe, True)
            assert whole
            assert max(abs(g - w) for g, w in zip(got, want, strict=True)) < 1e-14
            assert got[:5].tolist() != [0.0] * 5 or sum(shoe) < 20
        for shoe in [
            (1.5,) * 10,
            (0, 1) + (0,) * 8,
            (-1,) + (4,) * 9,
        ]:  # (0, 1, ...): a 2, then none
            assert not dealer._run_whole(np.array(shoe, dtype=np.float64), flat[5])[1]


def test_stand_rows_fall_back_to_the_program_on_fractional_shoes():
    flat = dealer.flat_program(5, False, "peek")
    for shoe in [(1.5,) * 9 + (6.25,), (0, 1) + (0,) * 8]:
        array = np.array(shoe, dtype=np.float64)
        assert (
            stand._row_fast(array, 0, flat).tolist() == stand._row_run(array, 0, *flat[:5]).tolist()
        )
