"""Stand rows shared by the evaluators of one upcard, objective and shoe: the store
:func:`.recursion.stand_at` reads and fills (a split's shoes share the main shoe's rows
where the same cards are out). Split from :mod:`.recursion` (one concept a file)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from croupier.plugins.blackjack.solver.dealer import FlatProgram
from croupier.plugins.blackjack.solver.recursion import SIZE, ShoeState


class StandRows:
    """Stand rows shared by the evaluators of one upcard, objective and shoe.

    A split's evaluators play from the shoe less ``k`` pair cards (``x``) besides the
    upcard: a hand's row there is the row, in the shoe less ``k - 1`` of them, of the hand
    with one more ``x`` (the same cards out), so each row is computed once, in the shoe
    with the fewest pair cards out where the player can hold that hand (the main shoe
    when he can). Shared only for whole counts, where both ways of removing the cards give
    the same shoe to the last bit; a mean shoe's fractional counts keep their rows apart.
    """

    DEPTH = 22  # k below this

    def __init__(self, capacity: int = 32) -> None:
        """``capacity``: the shoes it holds (the main one and each (x, k)); an evaluator
        of a shoe beyond it keeps rows of its own."""
        self.capacity = capacity
        self._key: tuple[object, ...] | None = None
        self._slots: dict[tuple[int, int], int] = {}

    def state(
        self,
        shoe: Sequence[float],
        upcard: int,
        extra: Sequence[int],
        objective: int,
        flat: FlatProgram,
    ) -> ShoeState:
        """The state of the evaluator of ``shoe`` less ``upcard`` and ``extra``."""
        key = (tuple(shoe), upcard, objective, id(flat))
        if self._key is None:
            self._key = key
            self._allocate(self.capacity)
            self._share = all(float(n).is_integer() for n in shoe)
        ranks = [r for r in range(10) if extra[r]]
        x, k = (ranks[0], extra[ranks[0]]) if len(ranks) == 1 else (0, 0)
        fits = len(ranks) <= 1 and k < self.DEPTH
        missing = [j for j in range(k + 1) if ((x, j) if j else (-1, 0)) not in self._slots]
        fits = fits and len(self._slots) + len(missing) <= self.capacity
        if self._key != key or not fits:  # rows of its own
            alone = StandRows()
            alone._allocate(1)
            left = list(shoe)  # as the evaluator makes it, operation for operation
            left[upcard] -= 1
            for r in range(10):
                left[r] -= extra[r]
            alone._lefts[0] = left
            own = np.zeros(4, dtype=np.int64)
            return alone._lefts, alone._stand, alone._known, alone._slot_of, own
        for j in range(k + 1):  # every shoe on the way down, for the walk in stand_at
            self._slot(shoe, upcard, x, j)
        own = np.array([self._slot_of[x, k], x, k, int(self._share)], dtype=np.int64)
        return self._lefts, self._stand, self._known, self._slot_of, own

    def _allocate(self, shoes: int) -> None:
        self._lefts = np.zeros((shoes, 10))
        self._stand = np.empty((shoes, SIZE, 6))
        self._known = np.zeros((shoes, SIZE), dtype=np.uint8)
        self._slot_of = np.full((10, self.DEPTH), -1, dtype=np.int64)

    def _slot(self, shoe: Sequence[float], upcard: int, x: int, j: int) -> None:
        name = (x, j) if j else (-1, 0)
        slot = self._slots.get(name)
        if slot is None:
            slot = len(self._slots)
            self._slots[name] = slot
            left = list(shoe)  # as the evaluator makes it, operation for operation
            left[upcard] -= 1
            left[x] -= j
            self._lefts[slot] = left
        if j:
            self._slot_of[x, j] = slot
        else:
            self._slot_of[:, 0] = slot
