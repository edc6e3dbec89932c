"""All of croupier's randomness: seeded, named, reproducible streams of random bytes.

A :class:`Stream` is a deterministic generator defined by an integer seed and a path of
names. Its bytes are BLAKE2b in counter mode::

    key   = BLAKE2b-512(b"croupier-stream-v1\\0" + seed as text + b"\\0" + path joined by "/")
    block = BLAKE2b-512(counter as 8 little-endian bytes, key=key)   for counter = 0, 1, 2, ...

so the output depends on nothing but the seed and the path: not on the platform, the Python
version or the order in which sibling streams are used. ``stream.child("seat-3")`` derives an
independent sub-stream by name, so adding a seat never changes what another seat is dealt.
The definition is simple enough to reimplement in any language, which lets a bot author
reproduce a table's cards outside croupier.

Integers come from the bytes by rejection sampling (never modulo bias), floats from 53 bits,
shuffles are Fisher-Yates from the last position down.
"""

from __future__ import annotations

import hashlib
import secrets
import sys
from array import array
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from croupier.engine.errors import CroupierError, shown

T = TypeVar("T")

SEED_BITS = 63
"""Seeds drawn by :func:`draw_seed` are below 2**63 so they fit any language's int64."""

_BLOCK = 64
COMPILED_BLOCKS = 4096
"""Reads of at least this many blocks (256 kB) make them in compiled code
(:mod:`croupier.engine.blake_blocks`): loading it costs what ~10**5 blocks from hashlib do
once per process, the first time; after that a big read is about twice as fast
(``benchmarks/randomizers.py`` prints the stream's bytes a second)."""
_PREFIX = b"croupier-stream-v1\0"


def draw_seed() -> int:
    """A fresh seed from the operating system, for runs that were given none."""
    return secrets.randbits(SEED_BITS)


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is a non-negative integer, else raise a one-line
    :class:`CroupierError` (a seed is user input, like every other bad input)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise CroupierError(f"a seed must be a non-negative integer, not {shown(seed)}")
    return seed


class Stream:
    """A reproducible stream of random bytes, integers, floats and shuffles.

    Not thread-safe; give each consumer its own child stream instead of sharing one.
    """

    __slots__ = ("_buf", "_counter", "_key", "_pos", "path", "seed")

    def __init__(self, seed: int, path: Sequence[str] = ()) -> None:
        self.seed = check_seed(seed)
        self.path: tuple[str, ...] = tuple(path)
        for name in self.path:
            if "/" in name:
                raise ValueError(f"a stream name may not contain '/': {name!r}")
        material = _PREFIX + str(self.seed).encode() + b"\0" + "/".join(self.path).encode()
        self._key = hashlib.blake2b(material).digest()
        self._counter = 0
        self._buf = b""
        self._pos = 0

    def __repr__(self) -> str:
        return f"Stream(seed={self.seed}, path={'/'.join(self.path)!r})"

    def child(self, *names: str) -> Stream:
        """An independent stream named ``names`` below this one (its state is not used)."""
        return Stream(self.seed, self.path + tuple(names))

    # -- position (checkpoints) ----------------------------------------------------------------
    @property
    def position(self) -> int:
        """Bytes of the stream used so far: with the seed and path, all a checkpoint needs
        to carry the stream on exactly (:meth:`seek`)."""
        return self._counter * _BLOCK - (len(self._buf) - self._pos)

    def seek(self, position: int) -> None:
        """Carry on from byte ``position`` of the stream, as if that many had been used."""
        if isinstance(position, bool) or not isinstance(position, int) or position < 0:
            raise CroupierError(f"a stream position is a non-negative integer, not {position!r}")
        self._counter, rest = divmod(position, _BLOCK)
        self._buf, self._pos = b"", 0
        if rest:
            self._buf, self._pos = self._blocks(1), rest

    # -- bytes -----------------------------------------------------------------------------
    def _blocks(self, count: int) -> bytes:
        start = self._counter
        self._counter = start + count
        if count == 1:
            return hashlib.blake2b(start.to_bytes(8, "little"), key=self._key).digest()
        if count >= COMPILED_BLOCKS:  # a big read: the same blocks, by compiled code
            from croupier.engine import blake_blocks  # numpy and numba: only when needed

            return blake_blocks.blocks(self._key, start, count)
        # copies of one hash already keyed: keying costs a compression, as much as a block
        copy = hashlib.blake2b(key=self._key).copy
        out: list[bytes] = []
        append = out.append
        for c in range(start, start + count):
            h = copy()
            h.update(c.to_bytes(8, "little"))
            append(h.digest())
        return b"".join(out)

    def randbytes(self, n: int) -> bytes:
        """The next ``n`` bytes of the stream."""
        if n < 0:
            raise ValueError("n must be non-negative")
        have = len(self._buf) - self._pos
        if have >= n:
            out = self._buf[self._pos : self._pos + n]
            self._pos += n
            return out
        head = self._buf[self._pos :]
        need = n - have
        blocks = self._blocks(-(-need // _BLOCK))
        self._buf = blocks
        self._pos = need
        return head + blocks[:need]

    # -- integers --------------------------------------------------------------------------
    def getrandbits(self, k: int) -> int:
        """An integer with ``k`` uniformly random bits (little-endian from the bytes)."""
        if k <= 0:
            return 0
        value = int.from_bytes(self.randbytes((k + 7) // 8), "little")
        return value & ((1 << k) - 1)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection on the smallest covering bit count."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        if n == 1:
            return 0
        k = (n - 1).bit_length()
        while True:
            r = self.getrandbits(k)
            if r < n:
                return r

    def randint(self, a: int, b: int) -> int:
        """A uniform integer in ``[a, b]``."""
        return a + self.randbelow(b - a + 1)

    def randbelow_many(self, n: int, count: int) -> list[int]:
        """``count`` uniform integers in ``[0, n)``, for ``n <= 65536``, fast.

        Each value takes one byte (n <= 256) or two little-endian bytes, rejecting values at
        or above the largest multiple of ``n`` that fits; this is a different (equally
        uniform) derivation than repeated :meth:`randbelow`, meant for bulk dealing.
        """
        if not 0 < n <= 65536:
            raise ValueError("randbelow_many needs 0 < n <= 65536")
        if n == 1:
            return [0] * count
        out: list[int] = []
        if n <= 256:
            limit = 256 - 256 % n
            while len(out) < count:
                need = count - len(out)
                data = self.randbytes(need + need // 8 + 8)
                out.extend([b % n for b in data if b < limit])
        else:
            limit = 65536 - 65536 % n
            while len(out) < count:
                need = count - len(out)
                words = array("H", self.randbytes(2 * (need + need // 4 + 8)))
                if sys.byteorder == "big":
                    words.byteswap()
                out.extend([w % n for w in words if w < limit])
        del out[count:]
        return out

    # -- floats and sequences --------------------------------------------------------------
    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return self.getrandbits(53) / 9007199254740992.0

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle ``seq`` in place: Fisher-Yates, swapping position i with randbelow(i+1)."""
        randbelow = self.randbelow
        for i in range(len(seq) - 1, 0, -1):
            j = randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def shuffled(self, seq: Sequence[T]) -> list[T]:
        """A shuffled copy of ``seq``."""
        out = list(seq)
        self.shuffle(out)
        return out
