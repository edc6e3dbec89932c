"""Fast, batch-invariant uniform integers drawn from a :class:`~croupier.engine.seeds.Stream`.

A randomizer that deals in batches must deal the same symbols however the caller batches
(``deal(a)`` then ``deal(b)`` equals ``deal(a + b)``). :class:`UniformDraws` guarantees this
by reading the stream in fixed blocks of :data:`BLOCK_BYTES` bytes, whatever is asked for,
and keeping what it has not handed out yet. Its exact derivation, for reimplementers:

* ``n <= 256``: each byte ``b`` of a block is one draw; bytes ``b >= 256 - 256 % n`` are
  skipped, the others give ``b % n``.
* ``n <= 65536``: each little-endian 2-byte word ``w`` is one draw, skipped when
  ``w >= 65536 - 65536 % n``, else ``w % n``.
* ``n <= 2**32``: the same with little-endian 4-byte words.

Each block of 4096 bytes is ``stream.randbytes(4096)``; draws come out in stream order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.engine.seeds import Stream

BLOCK_BYTES = 4096
MAX_N = 1 << 32

Draws = npt.NDArray[Any]
"""An array of draws: uint8 for ``n <= 256``, uint16 up to 65536, else uint32."""


class UniformDraws:
    """Uniform integers in ``[0, n)`` from ``stream``, read in fixed blocks (see module).

    The draws not handed out yet are kept as a numpy array, so a compiled randomizer can
    read them in bulk (:meth:`peek`, :meth:`advance`) and a Python one as ints.
    """

    __slots__ = ("_buf", "_convert", "_per_block", "_pos", "n", "stream")
    MAX_N = MAX_N

    def __init__(self, stream: Stream, n: int) -> None:
        if not 0 < n <= MAX_N:
            raise ValueError(f"UniformDraws needs 0 < n <= 2**32, not {n}")
        self.stream = stream
        self.n = n
        self._pos = 0
        if n <= 256:
            self._buf: Draws = np.empty(0, np.uint8)
            limit = 256 - 256 % n
            table = bytes(b % n if b < limit else 0 for b in range(256))
            reject = bytes(range(limit, 256))
            self._per_block = BLOCK_BYTES

            def convert(data: bytes) -> Draws:
                return np.frombuffer(data.translate(table, reject), np.uint8)

        else:
            size, dtype = (2, np.dtype("<u2")) if n <= 65536 else (4, np.dtype("<u4"))
            self._buf = np.empty(0, dtype.newbyteorder("="))
            self._per_block = BLOCK_BYTES // size
            span = 1 << (8 * size)
            limit = span - span % n

            def convert(data: bytes) -> Draws:
                words: Draws = np.frombuffer(data, dtype).astype(dtype.newbyteorder("="))
                if n == span:  # every word is a draw, itself
                    return words
                return words[words < limit] % n

        self._convert = convert

    def _refill(self, need: int) -> None:
        """Make at least ``need`` draws available, reading whole blocks only, and never
        more blocks than reading them one at a time until enough would (so the stream is
        left where that would leave it)."""
        parts = [self._buf[self._pos :]]
        have = len(parts[0])
        while have < need:
            blocks = math.ceil((need - have) / self._per_block)  # as if none were skipped
            fresh = self._convert(self.stream.randbytes(blocks * BLOCK_BYTES))
            parts.append(fresh)
            have += len(fresh)
        self._buf = np.concatenate(parts)
        self._pos = 0

    def take(self, count: int) -> list[int]:
        """The next ``count`` draws."""
        return self.take_array(count).tolist()  # type: ignore[no-any-return]

    def take_array(self, count: int) -> Draws:
        """The next ``count`` draws, as an array (read only)."""
        if len(self._buf) - self._pos < count:
            self._refill(count)
        start = self._pos
        self._pos = start + count
        return self._buf[start : self._pos]

    def peek(self, count: int) -> Draws:
        """Every draw not handed out yet, at least ``count`` of them, without using any:
        a compiled randomizer reads them, then says how many it used (:meth:`advance`)."""
        if len(self._buf) - self._pos < count:
            self._refill(count)
        return self._buf[self._pos :]

    def advance(self, count: int) -> None:
        """Mark the next ``count`` draws (of those :meth:`peek` returned) as used."""
        if count > len(self._buf) - self._pos:
            raise ValueError("advance past the draws peeked")
        self._pos += count

    def next(self) -> int:
        """The next draw."""
        if self._pos >= len(self._buf):
            self._refill(1)
        value = int(self._buf[self._pos])
        self._pos += 1
        return value

    def iterate(self) -> Iterator[int]:
        """An endless iterator over the draws, faster than :meth:`next` in a tight loop.

        It hands out buffered draws in order; a randomizer that uses it must keep it for
        its whole life and not mix it with :meth:`take` or :meth:`next`.
        """
        while True:
            if self._pos >= len(self._buf):
                self._refill(1)
            buf, start = self._buf, self._pos
            self._pos = len(buf)
            yield from buf[start:].tolist()
