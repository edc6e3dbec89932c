"""The ``list`` and ``sequence of list`` randomizers: a uniform entry per piece, or the
entries in order (:mod:`.randomizers` says what each draws)."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import Stream, UniformDraws, symbols_of


def unique(symbols: Sequence[str]) -> tuple[str, ...]:
    """The distinct symbols, in order of first appearance (a randomizer's ``symbols``)."""
    return tuple(dict.fromkeys(symbols))


class ListRandomizer:
    """``list``: each piece is a uniformly chosen entry (duplicates weigh more)."""

    def __init__(self, stream: Stream, entries: Sequence[str]) -> None:
        self.entries = tuple(entries)
        self.symbols = unique(self.entries)
        self._draws = UniformDraws(stream, len(self.entries))

    def deal(self, n: int) -> list[str]:
        if n < 64:
            return list(map(self.entries.__getitem__, self._draws.take(n)))
        return symbols_of(self.entries, self._draws.take_array(n))

    def observe_first(self, symbol: str) -> None:
        """A ``first`` piece was dealt in this randomizer's place: nothing to remember."""


class SequenceRandomizer:
    """``sequence of list``: the entries in order, cycling. Draws nothing."""

    def __init__(self, stream: Stream, entries: Sequence[str]) -> None:
        self.entries = tuple(entries)
        self.symbols = unique(self.entries)
        self._pos = 0

    def deal(self, n: int) -> list[str]:
        entries, size = self.entries, len(self.entries)
        out: list[str] = []
        while len(out) < n:
            chunk = entries[self._pos : self._pos + n - len(out)]
            out.extend(chunk)
            self._pos = (self._pos + len(chunk)) % size
        return out

    def observe_first(self, symbol: str) -> None:
        """``first`` does not advance the sequence."""
