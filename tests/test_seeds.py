"""Seeded streams: defined bytes, golden values, independence of children, uniformity."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.engine.errors import CroupierError
from croupier.engine.seeds import Stream, check_seed, draw_seed


def test_bytes_follow_the_documented_definition():
    key = hashlib.blake2b(b"croupier-stream-v1\x0042\x00seat-1/hand").digest()
    expected = b"".join(
        hashlib.blake2b(i.to_bytes(8, "little"), key=key).digest() for i in range(3)
    )
    assert Stream(42, ("seat-1", "hand")).randbytes(150) == expected[:150]


def test_golden_values():
    # These must never change: seeds recorded by users reproduce their runs forever.
    s = Stream(42)
    assert s.randbytes(8).hex() == "f2cfd8df577372c7"
    assert [s.randbelow(10) for _ in range(8)] == [9, 7, 2, 2, 1, 1, 4, 0]
    assert s.random() == 0.3354862128806855
    assert [Stream(42).child("seat-1").randbelow(52) for _ in range(1)] == [50]
    c = Stream(42).child("seat-1")
    assert [c.randbelow(52) for _ in range(6)] == [50, 7, 32, 9, 9, 17]
    assert Stream(7).randbelow_many(7, 12) == [4, 6, 6, 1, 5, 4, 2, 2, 4, 4, 1, 0]
    assert Stream(7).randbelow_many(1000, 5) == [816, 604, 890, 409, 690]
    assert Stream(2**63 - 1, ("a", "b")).shuffled(range(10)) == [6, 5, 3, 9, 8, 2, 0, 7, 4, 1]


@given(st.integers(0, 2**64), st.lists(st.integers(1, 300), max_size=20))
def test_reads_in_pieces_equal_one_read(seed, sizes):
    whole = Stream(seed).randbytes(sum(sizes))
    s = Stream(seed)
    assert b"".join(s.randbytes(n) for n in sizes) == whole


def test_children_do_not_disturb_each_other():
    root = Stream(5)
    a1 = root.child("a").randbytes(32)
    root.randbytes(1000)  # using the parent changes nothing for children
    _ = root.child("b").randbytes(1000)
    assert root.child("a").randbytes(32) == a1
    assert root.child("a").randbytes(32) != root.child("b").randbytes(32)
    assert Stream(5, ("a", "b")).randbytes(16) == root.child("a", "b").randbytes(16)


@pytest.mark.parametrize("n", [2, 3, 7, 10, 52, 255, 256, 257, 1000])
def test_randbelow_is_uniform_enough(n):
    s = Stream(n)
    draws = 2000 * n if n <= 52 else 200 * n
    counts = Counter(s.randbelow(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    # mean n-1, sd sqrt(2(n-1)); 6 sd is a bound a correct generator never fails here
    assert chi2 < (n - 1) + 6 * (2 * (n - 1)) ** 0.5


@pytest.mark.parametrize("n", [2, 7, 9, 256, 300, 65536])
def test_randbelow_many_is_uniform_and_in_range(n):
    values = Stream(1).randbelow_many(n, 50_000)
    assert len(values) == 50_000
    assert min(values) >= 0 and max(values) < n
    if n <= 300:
        counts = Counter(values)
        expected = 50_000 / n
        chi2 = sum((counts.get(k, 0) - expected) ** 2 / expected for k in range(n))
        assert chi2 < (n - 1) + 6 * (2 * (n - 1)) ** 0.5


def test_shuffle_gives_every_permutation_of_three_equally():
    s = Stream(11)
    counts = Counter(tuple(s.shuffled("abc")) for _ in range(60_000))
    assert len(counts) == 6
    assert all(abs(c - 10_000) < 500 for c in counts.values())


def test_seed_checks():
    assert 0 <= draw_seed() < 2**63
    assert draw_seed() != draw_seed()
    for bad in (-1, 1.5, "3", True, None):
        with pytest.raises(CroupierError, match="a seed must be a non-negative integer"):
            check_seed(bad)
    with pytest.raises(CroupierError, match=r"not '1{36}\.\.\.$"):
        check_seed("1" * 10_000)  # a stranger's text is quoted short
    with pytest.raises(ValueError):
        Stream(1, ("a/b",))
    with pytest.raises(ValueError):
        Stream(1).randbelow(0)
