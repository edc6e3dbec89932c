"""The ``N bag of list`` randomizer: the first ``N`` of a shuffled bag, then a new bag, its
bags decoded or sampled in compiled loops for big deals (:mod:`.randomizers` says what it
draws)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from croupier.engine import COMPILED_FROM, Stream, UniformDraws, compiled, symbols_of
from croupier.plugins.blackjack_spec.lists import unique
from croupier.plugins.blackjack_spec.loops import decode_bags, sample_bags


class BagRandomizer:
    """``N bag of list``: deal the first ``N`` of a shuffled bag, then reshuffle."""

    def __init__(self, stream: Stream, entries: Sequence[str], count: int) -> None:
        self.entries = tuple(entries)
        self.symbols = unique(self.entries)
        self.count = count
        self._stream = stream
        size = math.factorial(len(self.entries))
        self._draws = UniformDraws(stream, size) if size <= UniformDraws.MAX_N else None
        self._cache: dict[int, tuple[str, ...]] | None = {} if size <= 40_320 else None
        self._pending: list[str] = []
        self._work = list(range(len(self.entries)))  # entry indices

    def _bag(self) -> tuple[str, ...]:
        if self._draws is None:
            # partial Fisher-Yates on a working copy that is never reset: any arrangement
            # gives a uniformly random ordered sample, and a bag costs O(count), not O(len)
            work, randbelow = self._work, self._stream.randbelow
            size = len(work)
            for i in range(self.count):
                j = i + randbelow(size - i)
                work[i], work[j] = work[j], work[i]
            return tuple(self.entries[k] for k in work[: self.count])
        u = self._draws.next()
        cache = self._cache
        if cache is not None and u in cache:
            return cache[u]
        bag = list(self.entries)
        v = u
        for i in range(len(bag) - 1, 0, -1):
            v, j = divmod(v, i + 1)
            bag[i], bag[j] = bag[j], bag[i]
        dealt = tuple(bag[: self.count])
        if cache is not None:
            cache[u] = dealt
        return dealt

    def _decoded(self, bags: int) -> list[str]:
        """``bags`` bags as :meth:`_bag` decodes them, in a compiled loop (big batches)."""
        assert self._draws is not None
        out = np.empty(bags * self.count, np.int64)
        compiled(decode_bags)(self._draws.take_array(bags), out, len(self.entries), self.count)
        return symbols_of(self.entries, out)

    def _sampled_bags(self, bags: int) -> list[str]:
        """``bags`` bags by :meth:`_bag`'s partial Fisher-Yates, their pieces in one list,
        reading the stream's bytes in bulk: per swap the bytes ``Stream.randbelow`` reads
        (``(k + 7) // 8`` per try, rejection on the low ``k`` bits), in the same order, so
        the same bags, and the stream is left where ``randbelow`` would leave it. (A call
        chain per piece was 80% of the 14-bag's time.)"""
        stream, work, count = self._stream, self._work, self.count
        size = len(work)
        ranges = [size - i for i in range(count)]
        widths = [((m - 1).bit_length() + 7) // 8 for m in ranges]
        big = bags * count >= COMPILED_FROM
        loop = compiled(sample_bags) if big else sample_bags
        state: Any = np.array(work, np.int64) if big else work
        out: Any = np.empty(bags * count, np.int64) if big else [0] * (bags * count)
        steps: Any = (np.array(ranges), np.array(widths)) if big else (ranges, widths)
        start = stream.position
        buf = stream.randbytes(2 * bags * sum(widths) + 64)
        done = 0
        while True:
            data = np.frombuffer(buf, np.uint8) if big else buf
            done, used = loop(data, out, done, bags, state, *steps)
            start += used
            if done == bags:
                break
            buf = buf[used:] + stream.randbytes(64 * max(widths) + len(buf))
        stream.seek(start)
        if big:
            work[:] = state.tolist()
        return symbols_of(self.entries, out)

    def deal(self, n: int) -> list[str]:
        out = self._pending[:n]
        self._pending = self._pending[n:]
        need = n - len(out)
        if need > 0 and (self._draws is None or need >= COMPILED_FROM):  # every bag at once
            bags = -(-need // self.count)
            pieces = self._sampled_bags(bags) if self._draws is None else self._decoded(bags)
            self._pending = pieces[need:]
            del pieces[need:]
            if not out:
                return pieces
            out.extend(pieces)
            return out
        while len(out) < n:
            bag = self._bag()
            need = n - len(out)
            out.extend(bag[:need])
            self._pending = list(bag[need:])
        return out

    def observe_first(self, symbol: str) -> None:
        """``first`` does not use a bag slot: the first bag is dealt whole after it."""
