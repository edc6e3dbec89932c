"""``tgm3-cambridge``: TGM3's Ti randomizer as the open-source TGM clone Cambridge plays it.

Cambridge (github.com/cambridge-stacker/cambridge, ``tetris/randomizers/
history_6rolls_35bag.lua``) is a widely played reimplementation whose Ti randomizer
differs materially from the TetrisWiki pseudocode that ``tgm3`` follows. This module is
written from a reading of its rules (no code carried over):

* the pool holds 35 slots, 5 of each piece, laid out I, T, L, J, S, Z, O (5 slots each);
  the history starts Z, S, Z, S (oldest first); every piece has a **drought counter**
  starting at 4;
* the first piece is a uniform pick among the first 20 slots (so I, T, L or J): unchecked,
  it enters the history and updates the counters, but changes no pool slot;
* every later piece: up to 6 times, pick a uniform slot; a piece outside the history is
  dealt. A rejected pick overwrites its slot with the most droughted piece and then makes
  **one more pick**, which the next attempt simply discards, except after the sixth
  rejection: that extra pick is dealt **unchecked** (a roll failure when it too is in
  the history);
* the most droughted piece is the one with the highest counter; ties go to the piece later
  in the order I, T, L, J, S, Z, O;
* after the deal the dealt piece's counter goes to 0 and every other one up by 1; the
  dealt slot is refilled with the (new) most droughted piece **only if** the pick was not
  rerolled or the highest counter went up (Cambridge's imitation of a bug claimed for the
  arcade game; otherwise the slot keeps the piece just dealt).

Draws: the first piece is ``stream.child("first").randbelow(20)``; every other pick is the
next value of ``UniformDraws(stream, 35)``, the extra picks included.
"""

from __future__ import annotations

from collections.abc import Iterator

from croupier.engine import COMPILED_FROM, Stream, UniformDraws, run_loop, symbols_of
from croupier.plugins.tgm3_cambridge_loop import deal_cambridge

PIECES = ("I", "J", "L", "O", "S", "T", "Z")
_INDEX = {piece: i for i, piece in enumerate(PIECES)}
ORDER = tuple(_INDEX[p] for p in "ITLJSZO")
"""Cambridge's piece order: the pool's layout and the drought tie-break (later wins)."""
_LATEST_FIRST = ORDER[::-1]
ROLLS = 6
FIRST_SLOTS = 20


class Tgm3Cambridge:
    """Cambridge's ``history_6rolls_35bag`` (see module). ``pool``, ``history`` and
    ``droughts`` (a counter per piece, indexed like ``PIECES``) are public for comparison.

    ``roll_failures`` counts deals where every pick hit the history (the six checked ones
    and the unchecked extra pick: the piece dealt is in the history, as a failure of
    ``tgm3``'s sixth roll is); ``six_rejections`` counts every deal of the extra pick."""

    symbols = PIECES

    def __init__(self, stream: Stream) -> None:
        self._first_stream = stream.child("first")
        self._draws = UniformDraws(stream, 35)
        self._slots: Iterator[int] = iter(self._draws.next, -1)  # one by one: see deal
        self._own_slots = self._slots
        self.pool = [p for p in ORDER for _ in range(5)]
        self.history = [_INDEX[p] for p in "ZSZS"]
        self.droughts = [4] * len(PIECES)
        self.started = False
        self.roll_failures = 0
        self.six_rejections = 0

    def most_droughted(self) -> int:
        droughts = self.droughts
        return max(_LATEST_FIRST, key=droughts.__getitem__)  # the first maximum: latest wins

    def deal(self, n: int) -> list[str]:
        out: list[int] = []
        if n >= COMPILED_FROM and self._slots is self._own_slots:
            if not self.started:
                out.append(self._next())
            extra = [0]
            pieces, fails = run_loop(
                deal_cambridge,
                self._draws,
                n - len(out),
                3.0,
                self.pool,
                self.history,
                self.droughts,
                list(_LATEST_FIRST),
                extra,
            )
            self.roll_failures += fails
            self.six_rejections += extra[0]
            dealt = symbols_of(PIECES, pieces)
            if out:
                dealt.insert(0, PIECES[out[0]])
            return dealt
        for _ in range(n):
            out.append(self._next())
        return list(map(PIECES.__getitem__, out))

    def _next(self) -> int:
        pool, history, droughts = self.pool, self.history, self.droughts
        if not self.started:
            self.started = True
            piece = pool[self._first_stream.randbelow(FIRST_SLOTS)]
            self._record(piece)
            return piece
        slot = self._slots.__next__
        rerolled = False
        for _ in range(ROLLS):
            i = slot()
            piece = pool[i]
            if piece not in history:
                break
            rerolled = True
            pool[i] = self.most_droughted()
            i = slot()  # the extra pick: dealt unchecked only after the last rejection
            piece = pool[i]
        else:  # six rejections: the extra pick is dealt; a failure when it too is in history
            self.six_rejections += 1
            self.roll_failures += piece in history
        high = max(droughts)
        self._record(piece)
        if not rerolled or max(droughts) > high:
            pool[i] = self.most_droughted()
        return piece

    def _record(self, piece: int) -> None:
        del self.history[0]
        self.history.append(piece)
        droughts = self.droughts
        for p in range(len(droughts)):
            droughts[p] += 1
        droughts[piece] = 0
