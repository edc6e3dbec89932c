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

import sys
from array import array
from collections.abc import Iterator

from croupier.engine.seeds import Stream

BLOCK_BYTES = 4096
MAX_N = 1 << 32

_WORD_CODE = next(code for code in ("I", "L") if array(code).itemsize == 4)


class UniformDraws:
    """Uniform integers in ``[0, n)`` from ``stream``, read in fixed blocks (see module)."""

    __slots__ = ("_buf", "_convert", "_pos", "n", "stream")
    MAX_N = MAX_N

    def __init__(self, stream: Stream, n: int) -> None:
        if not 0 < n <= MAX_N:
            raise ValueError(f"UniformDraws needs 0 < n <= 2**32, not {n}")
        self.stream = stream
        self.n = n
        self._buf: list[int] = []
        self._pos = 0
        if n <= 256:
            limit = 256 - 256 % n
            table = bytes(b % n if b < limit else 0 for b in range(256))
            reject = bytes(range(limit, 256))

            def convert(data: bytes) -> list[int]:
                return list(data.translate(table, reject))

        else:
            size, code = (2, "H") if n <= 65536 else (4, _WORD_CODE)
            limit = (1 << (8 * size)) - (1 << (8 * size)) % n

            def convert(data: bytes) -> list[int]:
                words = array(code, data)
                if sys.byteorder == "big":
                    words.byteswap()
                return [w % n for w in words if w < limit]

        self._convert = convert

    def _refill(self, need: int) -> None:
        """Make at least ``need`` draws available, reading whole blocks only."""
        rest = self._buf[self._pos :]
        while len(rest) < need:
            rest.extend(self._convert(self.stream.randbytes(BLOCK_BYTES)))
        self._buf = rest
        self._pos = 0

    def take(self, count: int) -> list[int]:
        """The next ``count`` draws."""
        if len(self._buf) - self._pos < count:
            self._refill(count)
        start = self._pos
        self._pos = start + count
        return self._buf[start : self._pos]

    def next(self) -> int:
        """The next draw."""
        if self._pos >= len(self._buf):
            self._refill(1)
        value = self._buf[self._pos]
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
            yield from buf[start:] if start else buf
