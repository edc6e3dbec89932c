"""The Minesweeper game engine: boards generated from a seed, the first-click rule, reveals.

First-click rules (the mines are placed before the first click, knowing where it will be):

- ``safe``: the first click is the top-left corner ``(0, 0)`` and is never a mine;
- ``opening``: the first click is ``(3, 3)`` (counted from 0; clamped on tiny boards) and
  neither it nor any of its neighbours is a mine, so it always opens an area.

The mines are a uniform choice among the other cells: a partial Fisher-Yates shuffle of the
allowed cells driven by the game's :class:`~croupier.engine.Stream`.
"""

from __future__ import annotations

import attrs

from croupier.engine import CroupierError, Stream
from croupier.plugins.minesweeper.board import COVERED, Board, check_size, neighbours

FIRST_CLICK_RULES = ("safe", "opening")


@attrs.frozen
class GameSpec:
    """The rules of one kind of game: board size, number of mines, first-click rule."""

    width: int
    height: int
    mines: int
    first_click: str = "opening"

    def __attrs_post_init__(self) -> None:
        check_size(self.width, self.height)
        if self.first_click not in FIRST_CLICK_RULES:
            raise CroupierError(
                f"unknown first-click rule {self.first_click!r}; "
                f"use one of {', '.join(FIRST_CLICK_RULES)}"
            )
        room = self.width * self.height - len(self.protected())
        if not 0 <= self.mines <= room:
            article = "an" if self.first_click == "opening" else "a"
            raise CroupierError(
                f"a {self.width}x{self.height} board with {article} {self.first_click} first click "
                f"holds 0 to {room} mines, not {self.mines}"
            )

    def start(self) -> int:
        """The index of the first click."""
        if self.first_click == "safe":
            return 0
        row, col = min(3, self.height - 1), min(3, self.width - 1)
        return row * self.width + col

    def protected(self) -> tuple[int, ...]:
        """The cells that never hold a mine under the first-click rule."""
        start = self.start()
        if self.first_click == "safe":
            return (start,)
        return (start, *neighbours(self.width, self.height)[start])


class Game:
    """One game in play: the hidden mines and what the player sees."""

    def __init__(self, spec: GameSpec, stream: Stream) -> None:
        self.spec = spec
        cells = spec.width * spec.height
        shut = set(spec.protected())
        allowed = [i for i in range(cells) if i not in shut]
        for t in range(spec.mines):
            j = t + stream.randbelow(len(allowed) - t)
            allowed[t], allowed[j] = allowed[j], allowed[t]
        self.mine = [False] * cells
        for i in allowed[: spec.mines]:
            self.mine[i] = True
        self._nbrs = neighbours(spec.width, spec.height)
        self.counts = [sum(self.mine[j] for j in self._nbrs[i]) for i in range(cells)]
        self.view = [COVERED] * cells
        self.hidden_safe = cells - spec.mines
        self.lost = False

    @property
    def won(self) -> bool:
        return self.hidden_safe == 0 and not self.lost

    @property
    def over(self) -> bool:
        return self.lost or self.hidden_safe == 0

    def board(self) -> Board:
        """What the player sees, as a :class:`Board`."""
        return Board(self.spec.width, self.spec.height, tuple(self.view))

    def reveal(self, index: int) -> list[int]:
        """Click ``index``: lose on a mine, else reveal it (and flood-fill from a 0).

        Returns the newly revealed cells; clicking a revealed cell does nothing.
        """
        if self.over or self.view[index] != COVERED:
            return []
        if self.mine[index]:
            self.lost = True
            return []
        out = []
        stack = [index]
        view, counts, nbrs = self.view, self.counts, self._nbrs
        view[index] = counts[index]
        while stack:
            i = stack.pop()
            out.append(i)
            if counts[i] == 0:
                for j in nbrs[i]:
                    if view[j] == COVERED:
                        view[j] = counts[j]
                        stack.append(j)
        self.hidden_safe -= len(out)
        return out
