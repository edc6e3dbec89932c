"""The randomizers the Blackjack language builds, each dealing in fast batches.

What each one draws from its stream (so a reimplementation can reproduce it exactly):

* list (memoryless): one :class:`UniformDraws` value in ``[0, len)`` per piece.
* bag: one ``UniformDraws`` value ``u`` in ``[0, len!)`` per bag when ``len! <= 2**32``,
  decoded as Fisher-Yates from the last position down (swap ``i`` with ``u % (i + 1)``,
  then ``u //= i + 1``); for bigger lists, a partial Fisher-Yates on a working list that
  persists from bag to bag: for ``i`` in ``0..N-1`` swap ``i`` with
  ``i + stream.randbelow(len - i)`` and deal positions ``0..N-1``.
* sequence: nothing.
* history without rolls: ``UniformDraws`` values in ``[0, len)``, skipping blocked entries.
* history with ``M`` rolls: one ``UniformDraws`` value ``u`` in ``[0, len**M)`` per piece
  (``stream.randbelow(len**M)`` when that exceeds ``2**32``), looked up in the exact table of
  the current history (see :func:`roll_weights`).
* ``first``: ``stream.child("first").randbelow(len(first))`` once; the rest of the spec draws
  from ``stream`` exactly as it would without ``first``.

The randomizers live apart (:mod:`.lists`, :mod:`.bags`, :mod:`.history`); this module
adds ``first`` over any of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import Stream
from croupier.plugins.blackjack_spec.bags import BagRandomizer
from croupier.plugins.blackjack_spec.history import HistoryRandomizer
from croupier.plugins.blackjack_spec.lists import ListRandomizer, SequenceRandomizer, unique

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
