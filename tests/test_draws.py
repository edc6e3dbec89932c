"""UniformDraws: batch-invariant, uniform, pinned to its documented derivation."""

from __future__ import annotations

from collections import Counter
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine import Stream
from croupier.engine.draws import BLOCK_BYTES, UniformDraws


@settings(max_examples=30, deadline=None)
@given(
    n=st.sampled_from([1, 2, 7, 35, 255, 256, 257, 5040, 65536, 117649, 2**32]),
    cuts=st.lists(st.integers(0, 3000), max_size=6),
)
def test_any_batching_gives_the_same_draws(n, cuts):
    whole = UniformDraws(Stream(5), n).take(sum(cuts) + 10)
    draws = UniformDraws(Stream(5), n)
    pieces: list[int] = []
    for k in cuts:
        pieces += draws.take(k)
    pieces += [draws.next() for _ in range(10)]
    assert pieces == whole
    assert all(0 <= v < n for v in whole)


def test_iterate_continues_where_the_buffer_is():
    draws = UniformDraws(Stream(1), 7)
    expected = UniformDraws(Stream(1), 7).take(20_000)
    assert list(islice(draws.iterate(), 20_000)) == expected


def test_small_n_follows_the_documented_byte_rule():
    data = Stream(9).randbytes(BLOCK_BYTES)
    expected = [b % 7 for b in data if b < 252]
    assert UniformDraws(Stream(9), 7).take(len(expected)) == expected


def test_roughly_uniform():
    counts = Counter(UniformDraws(Stream(2), 35).take(350_000))
    assert set(counts) == set(range(35))
    assert max(abs(c - 10_000) for c in counts.values()) < 500  # > 5 sigma


def test_bad_range_is_refused():
    with pytest.raises(ValueError):
        UniformDraws(Stream(0), 0)
    with pytest.raises(ValueError):
        UniformDraws(Stream(0), 2**32 + 1)
