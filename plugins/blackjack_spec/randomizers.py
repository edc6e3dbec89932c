"""The randomizers the Blackjack language builds, each dealing in fast batches.

What each one draws from its stream (so a reimplementation can reproduce it exactly):

* list (memoryless): one :class:`UniformDraws` value in ``[0, len)`` per piece.
* bag: one ``UniformDraws`` value ``u`` in ``[0, len!)`` per bag when ``len! <= 2**32``,
  decoded as Fisher-Yates from the last position down (swap ``i`` with ``u % (i + 1)``,
  then ``u //= i + 1``); for bigger bags ``stream.shuffle`` of the list.
* sequence: nothing.
* history without rolls: ``UniformDraws`` values in ``[0, len)``, skipping blocked entries.
* history with ``M`` rolls: one ``UniformDraws`` value ``u`` in ``[0, len**M)`` per piece
  (``stream.randbelow(len**M)`` when that exceeds ``2**32``), looked up in the exact table of
  the current history (see :func:`roll_weights`).
* ``first``: ``stream.child("first").randbelow(len(first))`` once; the rest of the spec draws
  from ``stream`` exactly as it would without ``first``.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence

from croupier.engine import Stream
from croupier.engine.draws import MAX_N, UniformDraws


def unique(symbols: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(symbols))


class ListRandomizer:
    """``list``: each piece is a uniformly chosen entry (duplicates weigh more)."""

    def __init__(self, stream: Stream, entries: Sequence[str]) -> None:
        self.entries = tuple(entries)
        self.symbols = unique(self.entries)
        self._draws = UniformDraws(stream, len(self.entries))

    def deal(self, n: int) -> list[str]:
        return list(map(self.entries.__getitem__, self._draws.take(n)))

    def observe_first(self, symbol: str) -> None:
        """A ``first`` piece was dealt in this randomizer's place: nothing to remember."""


class BagRandomizer:
    """``N bag of list``: deal the first ``N`` of a shuffled bag, then reshuffle."""

    def __init__(self, stream: Stream, entries: Sequence[str], count: int) -> None:
        self.entries = tuple(entries)
        self.symbols = unique(self.entries)
        self.count = count
        self._stream = stream
        size = math.factorial(len(self.entries))
        self._draws = UniformDraws(stream, size) if size <= MAX_N else None
        self._cache: dict[int, tuple[str, ...]] | None = {} if size <= 40_320 else None
        self._pending: list[str] = []

    def _bag(self) -> tuple[str, ...]:
        if self._draws is None:
            return tuple(self._stream.shuffled(self.entries)[: self.count])
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

    def deal(self, n: int) -> list[str]:
        out = self._pending[:n]
        self._pending = self._pending[n:]
        while len(out) < n:
            bag = self._bag()
            need = n - len(out)
            out.extend(bag[:need])
            self._pending = list(bag[need:])
        return out

    def observe_first(self, symbol: str) -> None:
        """``first`` does not use a bag slot: the first bag is dealt whole after it."""


class SequenceRandomizer:
    """``sequence of list``: the entries in order, cycling. Draws nothing."""

    def __init__(self, stream: Stream, entries: Sequence[str]) -> None:
        self.entries = tuple(entries)
        self.symbols = unique(self.entries)
        self._pos = 0

    def deal(self, n: int) -> list[str]:
        size = len(self.entries)
        start = self._pos
        reps = (start + n) // size + 1
        out = list(self.entries * reps)[start : start + n]
        self._pos = (start + n) % size
        return out

    def observe_first(self, symbol: str) -> None:
        """``first`` does not advance the sequence."""


def roll_weights(size: int, blocked: int, rolls: int) -> tuple[int, int]:
    """Out of ``size**rolls`` equally likely roll sequences, how many deal one given entry.

    Returns ``(free, fallback)``: the count for an entry outside the history (dealt on the
    first roll that misses the history) and for an entry in it (every roll hit the history
    and this entry was the last roll). ``(size - blocked) * free + blocked * fallback`` is
    ``size**rolls``.
    """
    free = sum(blocked**k * size ** (rolls - 1 - k) for k in range(rolls))
    fallback = blocked ** (rolls - 1) if blocked else 0
    return free, fallback


class HistoryRandomizer:
    """``list with N history [M rolls] [starting list]``: a Markov chain on its history.

    The history holds entry *indices* (repeated symbols are separate entries, as the
    language says); a symbol in ``starting`` or ``first`` stands for its first entry, and a
    ``first`` symbol not in the list enters the history as an entry that blocks nothing.
    With rolls, every history state gets its exact next-entry distribution as integer
    counts over the ``len**M`` roll sequences, computed once per state and sampled with one
    uniform integer; a deal is a roll failure exactly when the dealt entry is in the
    history, which :attr:`roll_failures` counts.
    """

    def __init__(
        self,
        stream: Stream,
        entries: Sequence[str],
        history: int,
        rolls: int | None,
        starting: Sequence[str] | None = None,
    ) -> None:
        self.entries = tuple(entries)
        self.symbols = unique(self.entries)
        self.history = history
        self.rolls = rolls
        self.roll_failures = 0
        self._stream = stream
        size = len(self.entries)
        self._index = {s: self.entries.index(s) for s in self.symbols}
        start = tuple(self._index[s] for s in starting) if starting else ()
        self._ids: dict[tuple[int, ...], int] = {}
        self._states: list[tuple[int, ...]] = []
        self._next: list[list[int]] = []
        self._tables: list[tuple[list[int], list[int], int]] = []
        self._blocked: list[list[bool]] = []
        self._state = self._intern(start)
        self._draws: UniformDraws | None
        if rolls is None:
            self._draws = UniformDraws(stream, size)
        else:
            self.total = size**rolls
            self._draws = UniformDraws(stream, self.total) if self.total <= MAX_N else None

    # -- states ----------------------------------------------------------------------------
    def _intern(self, state: tuple[int, ...]) -> int:
        sid = self._ids.get(state)
        if sid is not None:
            return sid
        sid = len(self._states)
        self._ids[state] = sid
        self._states.append(state)
        self._next.append([-1] * len(self.entries))
        blocked = [False] * len(self.entries)
        for e in state:
            if e >= 0:
                blocked[e] = True
        self._blocked.append(blocked)
        if self.rolls is not None:
            self._tables.append(self._table(blocked))
        return sid

    def _table(self, blocked: list[bool]) -> tuple[list[int], list[int], int]:
        """(cumulative counts, entry per slot, count of successful outcomes)."""
        assert self.rolls is not None
        b = sum(blocked)
        free, fallback = roll_weights(len(self.entries), b, self.rolls)
        order = [e for e, x in enumerate(blocked) if not x] + [
            e for e, x in enumerate(blocked) if x
        ]
        cum: list[int] = []
        acc = 0
        for e in order:
            acc += fallback if blocked[e] else free
            cum.append(acc)
        return cum, order, free * (len(self.entries) - b)

    def _advance(self, sid: int, entry: int) -> int:
        nxt = self._next[sid][entry]
        if nxt < 0:
            state = self._states[sid] + (entry,)
            nxt = self._intern(state[-self.history :] if self.history else ())
            self._next[sid][entry] = nxt
        return nxt

    def history_entries(self) -> tuple[int, ...]:
        """The current history as entry indices, oldest first."""
        return self._states[self._state]

    def weights(self, state: tuple[int, ...]) -> list[int]:
        """Exact counts, per entry, of the next deal from history ``state`` (for tests)."""
        blocked = [False] * len(self.entries)
        for e in state:
            if e >= 0:
                blocked[e] = True
        if self.rolls is None:
            return [0 if x else 1 for x in blocked]
        cum, order, _ = self._table(blocked)
        out = [0] * len(self.entries)
        prev = 0
        for slot, e in enumerate(order):
            out[e] = cum[slot] - prev
            prev = cum[slot]
        return out

    # -- dealing ---------------------------------------------------------------------------
    def deal(self, n: int) -> list[str]:
        out = self._deal_rolls(n) if self.rolls is not None else self._deal_reject(n)
        return list(map(self.entries.__getitem__, out))

    def _deal_rolls(self, n: int) -> list[int]:
        draws = self._draws
        us = (
            draws.take(n)
            if draws is not None
            else [self._stream.randbelow(self.total) for _ in range(n)]
        )
        tables, nexts, advance = self._tables, self._next, self._advance
        sid = self._state
        fails = 0
        out: list[int] = []
        append = out.append
        for u in us:
            cum, order, ok = tables[sid]
            e = order[bisect_right(cum, u)]
            if u >= ok:
                fails += 1
            append(e)
            nxt = nexts[sid][e]
            sid = nxt if nxt >= 0 else advance(sid, e)
        self._state = sid
        self.roll_failures += fails
        return out

    def _deal_reject(self, n: int) -> list[int]:
        assert self._draws is not None
        draw = self._draws.next
        blockeds, nexts, advance = self._blocked, self._next, self._advance
        sid = self._state
        out: list[int] = []
        append = out.append
        for _ in range(n):
            blocked = blockeds[sid]
            e = draw()
            while blocked[e]:
                e = draw()
            append(e)
            nxt = nexts[sid][e]
            sid = nxt if nxt >= 0 else advance(sid, e)
        self._state = sid
        return out

    def observe_first(self, symbol: str) -> None:
        """The first piece came from a ``first`` list: it enters the history (as in TGM)."""
        self._state = self._advance(self._state, self._index.get(symbol, -1))


Inner = ListRandomizer | BagRandomizer | SequenceRandomizer | HistoryRandomizer


class FirstRandomizer:
    """``SPEC first list``: the first piece is uniform over ``first``, then SPEC continues."""

    def __init__(self, stream: Stream, inner: Inner, first: Sequence[str]) -> None:
        self.inner = inner
        self.first = tuple(first)
        self.symbols = unique(inner.symbols + self.first)
        self._stream = stream.child("first")
        self._started = False

    def deal(self, n: int) -> list[str]:
        if n <= 0:
            return []
        if self._started:
            return self.inner.deal(n)
        self._started = True
        piece = self.first[self._stream.randbelow(len(self.first))]
        self.inner.observe_first(piece)
        return [piece, *self.inner.deal(n - 1)]


class FirstHistoryRandomizer(FirstRandomizer):
    """``first`` on a history spec, which also reports its roll failures."""

    inner: HistoryRandomizer

    @property
    def roll_failures(self) -> int:
        return self.inner.roll_failures
