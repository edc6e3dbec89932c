"""The Tetris The Grand Master randomizers: ``tgm1``, ``tgm2``, ``tgm-ideal``, ``tgm3`` and
``tgm3-cambridge`` (:mod:`croupier.plugins.tgm3_cambridge`).

These roll literally, one uniform piece per roll, independently of the Blackjack language
(whose ``tgm1``/``tgm2`` presets must give the same distribution; the tests check it).

What they draw: the first piece is ``stream.child("first").randbelow(4)`` over I, J, L, T;
every roll after it is the next value of ``UniformDraws(stream, 7)`` (a piece of
I, J, L, O, S, T, Z) or, for ``tgm3``, of ``UniformDraws(stream, 35)`` (a pool slot).
The history holds the last 4 pieces, oldest first; the first piece enters it.

``tgm3`` follows the TetrisWiki pseudocode of the Ti randomizer (decisions and the
disagreements between implementations are in docs/randomizers.md):

* a pool of 35 pieces (5 of each), a history starting S, Z, S, Z and a drought order
  starting J, I, Z, L, O, T, S (the piece not seen for longest first);
* up to 6 rolls of a pool slot; a roll whose piece is not in the history is dealt, and the
  sixth roll is dealt whatever it is;
* the quirk: a rejected roll overwrites its pool slot with the most droughted piece, so
  rerolls push the pool toward droughted pieces even though nothing was dealt from it;
* after the deal the piece moves to the back of the drought order and the dealt slot takes
  the (new) most droughted piece. The first piece updates neither the pool nor the order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from croupier.engine import (
    Indices,
    RandomizerKind,
    Stream,
    UniformDraws,
    hookimpl,
    run_loop,
    symbols_of,
)
from croupier.plugins.tgm3_cambridge import Tgm3Cambridge
from croupier.plugins.tgm_loops import deal_history, deal_tgm3

PIECES = ("I", "J", "L", "O", "S", "T", "Z")
_INDEX = {piece: i for i, piece in enumerate(PIECES)}


def _pieces(text: str) -> tuple[int, ...]:
    return tuple(_INDEX[p] for p in text.split(","))


FIRST = _pieces("I,J,L,T")
_ALL = ",".join(PIECES)


class _FirstThenHistory(ABC):
    """Shared start: a first piece from I, J, L, T that enters the history."""

    symbols = PIECES

    def __init__(self, stream: Stream, start: Sequence[int]) -> None:
        self._first_stream = stream.child("first")
        self._history = list(start)
        self._started = False
        self.roll_failures = 0

    def deal(self, n: int) -> list[str]:
        first = None
        if n > 0 and not self._started:
            self._started = True
            first = FIRST[self._first_stream.randbelow(len(FIRST))]
            self._history = [*self._history[1:], first]
            n -= 1
        pieces, fails = self._deal(n)
        self.roll_failures += fails
        out = symbols_of(PIECES, pieces)
        if first is not None:
            out.insert(0, PIECES[first])
        return out

    @abstractmethod
    def _deal(self, n: int) -> tuple[Indices, int]:
        """``n`` more pieces (indices into PIECES) and their roll failures."""


class TgmHistory(_FirstThenHistory):
    """TGM1/TGM2: up to ``rolls`` rolls for a piece outside the last 4, else the last roll.

    ``rolls=None`` is ``tgm-ideal``: roll until a piece outside the history comes up.
    """

    def __init__(self, stream: Stream, start: Sequence[int], rolls: int | None) -> None:
        super().__init__(stream, start)
        self.rolls = rolls
        self._rolls = UniformDraws(stream, len(PIECES))

    def _deal(self, n: int) -> tuple[Indices, int]:
        # about 2 rolls a piece: half of the history's 4 slots are usually distinct pieces
        return run_loop(deal_history, self._rolls, n, 2.5, self._history, self.rolls or 0)


class Tgm3(_FirstThenHistory):
    """TGM3 (Ti): 35-piece pool with drought-driven replacement, 6 rolls (see module)."""

    ROLLS = 6

    def __init__(self, stream: Stream) -> None:
        super().__init__(stream, _pieces("S,Z,S,Z"))
        self.pool = list(range(len(PIECES))) * 5
        self.drought = list(_pieces("J,I,Z,L,O,T,S"))
        self._slots = UniformDraws(stream, len(self.pool))

    def _deal(self, n: int) -> tuple[Indices, int]:
        # a piece is begun with 6 slots in hand, so the last few need that many peeked
        return run_loop(deal_tgm3, self._slots, n, 1.5, self.pool, self.drought, self._history)


@hookimpl
def croupier_randomizers() -> list[RandomizerKind]:
    return [
        RandomizerKind(
            "tgm1",
            "TGM1: 4 history starting Z,Z,Z,Z, 4 rolls, first piece I/J/L/T",
            lambda stream: TgmHistory(stream, _pieces("Z,Z,Z,Z"), 4),
            spec=f"{_ALL} with 4 history 4 rolls starting Z,Z,Z,Z first I,J,L,T",
        ),
        RandomizerKind(
            "tgm2",
            "TGM2 (TAP): 4 history starting Z,S,Z,S, 6 rolls, first piece I/J/L/T",
            lambda stream: TgmHistory(stream, _pieces("Z,S,Z,S"), 6),
            spec=f"{_ALL} with 4 history 6 rolls starting Z,S,Z,S first I,J,L,T",
        ),
        RandomizerKind(
            "tgm-ideal",
            "TGM with infinitely many rolls: uniform among pieces not in the last 4",
            lambda stream: TgmHistory(stream, _pieces("Z,Z,Z,Z"), None),
            spec=f"{_ALL} with 4 history starting Z,Z,Z,Z first I,J,L,T",
        ),
        RandomizerKind(
            "tgm3",
            "TGM3 (Ti): 35-piece pool with drought replacement, 6 rolls, history S,Z,S,Z",
            Tgm3,
        ),
        RandomizerKind(
            "tgm3-cambridge",
            "TGM3 (Ti) as the clone Cambridge plays it: drought counters, history Z,S,Z,S, "
            "an unchecked extra pick after 6 rejections, conditional pool refill",
            Tgm3Cambridge,
        ),
    ]
