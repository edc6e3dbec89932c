"""Seeded streams: defined bytes, golden values, independence of children, uniformity."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.engine import blake_blocks
from croupier.engine.errors import CroupierError
from croupier.engine.seeds import COMPILED_BLOCKS, Stream, check_seed, draw_seed


def test_bytes_follow_the_documented_definition():
    key = hashlib.blake2b(b"croupier-stream-v1\x0042\x00seat-1/hand").digest()
    expected = b"".join(
        hashlib.blake2b(i.to_bytes(8, "little"), key=key).digest() for i in range(3)
    )
    assert Stream(42, ("seat-1", "hand")).randbytes(150) == expected[:150]


@pytest.mark.parametrize("seed, path, skip", [(42, ("seat-1", "hand"), 0), (2**63, ("x",), 777)])
def test_a_big_read_is_made_by_compiled_code_with_the_same_bytes(seed, path, skip):
    """A read of COMPILED_BLOCKS blocks or more comes from the compiled BLAKE2b
    (engine/blake_blocks.py, RFC 7693 written out): byte for byte hashlib's blocks."""
    stream = Stream(seed, path)
    stream.randbytes(skip)
    count = COMPILED_BLOCKS + 3
    big = stream.randbytes(count * 64)
    key = hashlib.blake2b(
        b"croupier-stream-v1\0" + str(seed).encode() + b"\0" + "/".join(path).encode()
    ).digest()
    expected = b"".join(
        hashlib.blake2b(i.to_bytes(8, "little"), key=key).digest()
        for i in range(skip // 64 + count + 2)
    )
    assert big == expected[skip : skip + count * 64]
    assert stream.position == skip + count * 64


def test_compiled_blocks_match_hashlib_at_any_counter():
    keys = [bytes(64), bytes(range(64)), hashlib.blake2b(b"k").digest()]
    for key in keys:
        for start in (0, 1, 255, 256, 2**32 - 1, 2**40 + 5):
            expected = b"".join(
                hashlib.blake2b(c.to_bytes(8, "little"), key=key).digest()
                for c in range(start, start + 5)
            )
            assert blake_blocks.blocks(key, start, 5) == expected


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
