"""Exact endgame search: the click that maximises the probability of winning the game.

When few mine placements remain (at most ``MAX_SOLUTIONS``, over at most ``MAX_CELLS``
undecided cells), the whole game tree is searched over the actual placements, all equally
likely:

- a state is the set of placements still consistent with what has been revealed;
- every cell that is safe in all of them is clicked for free (it must be clicked to win and
  can only add information; a revealed 0's neighbours become such cells, so flood fill
  needs no special case), and the placements split by the numbers those cells show;
- otherwise the player chooses the cell to click; the placements where it is safe split by
  the number it shows, the others lose;
- a state with one placement left is won.

Counting wins instead of probabilities keeps the arithmetic exact and in integers: the
number of placements a strategy wins from a state is the sum over the parts it splits into,
and the best click maximises it. A cell safe in s placements wins at most s of them, so
cells are tried from the safest down and the search stops as soon as no remaining cell can
beat the best found. States are memoised by their set of placements. The placements are
enumerated breadth-first through the numbers, so that each number closes early. A work
budget (:class:`Budget`), charged by every step of the enumeration and of the search, turns
a search that would take too long into ``None`` (the caller then falls back on the
heuristic guess).
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from croupier.plugins.minesweeper.analysis import Analysis
from croupier.plugins.minesweeper.board import FLAG, neighbours
from croupier.plugins.minesweeper.enumeration import breadth_first

MAX_SOLUTIONS = 400
MAX_CELLS = 40
SEARCH_BUDGET = 2_000_000
TINY_CELLS = 16
"""Boards of at most this many cells are *tiny*: the whole game is searched from the first
guess on, with the larger limits below (a 4x4 board with 4 mines: 1,820 placements)."""
TINY_SOLUTIONS = 5_000
TINY_BUDGET = 40_000_000


@attrs.frozen
class Endgame:
    """The best click ``cell`` and its exact win probability ``wins / placements``."""

    cell: int
    wins: int
    placements: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.wins, self.placements)


class _OutOfBudget(Exception):
    pass


class Budget:
    """Work left to a search, in elementary steps (a placement looked at, a node entered).

    Every loop of the search charges it, enumeration included, so a search that would take
    long stops early instead, whatever the position.
    """

    def __init__(self, steps: int) -> None:
        self.left = steps
        self.spent = 0

    def charge(self, steps: int) -> None:
        self.spent += steps
        self.left -= steps
        if self.left < 0:
            raise _OutOfBudget


def _order(cells: list[int], members: list[list[int]]) -> list[int]:
    """Cells (as indices into ``cells``) breadth-first through the numbers they touch, so
    that each number's cells come together and it closes early; free cells last."""
    touching: list[list[int]] = [[] for _ in cells]
    for c, inside in enumerate(members):
        for i in inside:
            touching[i].append(c)
    return breadth_first(touching, members)


def _placements(
    analysis: Analysis, cells: list[int], budget: Budget, limit: int = MAX_SOLUTIONS
) -> list[int] | None:
    """Every consistent placement over ``cells`` as a bit mask (bit i: ``cells[i]`` mined);
    ``None`` when there are more than ``limit``."""
    board = analysis.board
    assert analysis.total_mines is not None
    nbrs = neighbours(board.width, board.height)
    known = analysis.mines | {i for i, v in enumerate(board.cells) if v == FLAG}
    remaining = analysis.total_mines - len(known)
    where = {j: i for i, j in enumerate(cells)}
    needs: list[int] = []
    members: list[list[int]] = []
    for index, value in enumerate(board.cells):
        if value < 0:
            continue
        inside = [where[j] for j in nbrs[index] if j in where]
        if inside:
            needs.append(value - sum(1 for j in nbrs[index] if j in known))
            members.append(inside)
    order = _order(cells, members)
    touching: list[list[int]] = [[] for _ in cells]
    for c, inside in enumerate(members):
        for i in inside:
            touching[i].append(c)
    room = [len(inside) for inside in members]
    out: list[int] = []

    def rec(pos: int, left: int, mask: int) -> None:
        budget.charge(1)
        if len(out) > limit:
            return
        if pos == len(order):
            if left == 0 and not any(needs):
                out.append(mask)
            return
        if left > len(order) - pos:
            return
        i = order[pos]
        cons = touching[i]
        for c in cons:
            room[c] -= 1
        for mine in (0, 1) if left else (0,):
            if all(0 <= needs[c] - mine <= room[c] for c in cons):
                for c in cons:
                    needs[c] -= mine
                rec(pos + 1, left - mine, mask | (mine << i))
                for c in cons:
                    needs[c] += mine
        for c in cons:
            room[c] += 1

    rec(0, remaining, 0)
    return out if len(out) <= limit else None


def solve_endgame(analysis: Analysis, budget: int | None = None) -> Endgame | None:
    """The exact best click, or ``None`` when the position is too large or the budget runs out.

    Needs the mine total and a position with no certainly safe cell. ``budget`` counts every
    step, the enumeration of the placements included (see :class:`Budget`); by default
    :data:`SEARCH_BUDGET`, or :data:`TINY_BUDGET` on a tiny board.
    """
    if budget is None:
        budget = TINY_BUDGET if _tiny(analysis) else SEARCH_BUDGET
    return search(analysis, Budget(budget))


def _tiny(analysis: Analysis) -> bool:
    return len(analysis.board.cells) <= TINY_CELLS


def search(analysis: Analysis, budget: Budget) -> Endgame | None:
    """:func:`solve_endgame` charging ``budget``, whose ``spent`` then tells the work done."""
    if analysis.total_mines is None or analysis.safes:
        return None
    limit = TINY_SOLUTIONS if _tiny(analysis) else MAX_SOLUTIONS
    if analysis.placements > limit:
        return None
    cells = sorted(j for j, p in analysis.probabilities.items() if 0 < p < 1)
    if not cells or len(cells) > MAX_CELLS:
        return None
    try:
        solutions = _placements(analysis, cells, budget, limit)
    except _OutOfBudget:
        return None
    if solutions is None or len(solutions) != analysis.placements:
        return None
    board = analysis.board
    nbrs = neighbours(board.width, board.height)
    known = analysis.mines | {i for i, v in enumerate(board.cells) if v == FLAG}
    where = {j: i for i, j in enumerate(cells)}
    fixed = [sum(1 for n in nbrs[j] if n in known) for j in cells]
    near = [sum(1 << where[n] for n in nbrs[j] if n in where) for j in cells]
    count = len(cells)
    memo: dict[frozenset[int], int] = {}

    def value(mask: int, i: int) -> int:
        return fixed[i] + (mask & near[i]).bit_count()

    def split(state: list[int], bits: list[int]) -> list[list[int]]:
        budget.charge(len(state) * len(bits))
        parts: dict[tuple[int, ...], list[int]] = {}
        for mask in state:
            parts.setdefault(tuple(value(mask, i) for i in bits), []).append(mask)
        return list(parts.values())

    def wins(state: list[int], revealed: int) -> int:
        """Placements of ``state`` won by the best play, cells in ``revealed`` shown."""
        if len(state) == 1:
            return 1
        budget.charge(len(state) + count)
        union = 0
        for mask in state:
            union |= mask
        free = [i for i in range(count) if not (union >> i) & 1 and not (revealed >> i) & 1]
        if free:
            shown = revealed | sum(1 << i for i in free)
            return sum(wins(part, shown) for part in split(state, free))
        key = frozenset(state)
        if key in memo:
            return memo[key]
        memo[key] = best = _choose(state, revealed)[1]
        return best

    twins = _orbit_representatives(analysis, cells)

    def _choose(state: list[int], revealed: int, root: bool = False) -> tuple[int, int]:
        budget.charge(len(state) * count)
        safe = []
        for i in range(count):
            if (revealed >> i) & 1 or (root and twins[i] != i):
                continue
            s = sum(1 for mask in state if not (mask >> i) & 1)
            if s:
                safe.append((-s, i))
        safe.sort()
        best_cell, best = safe[0][1], -1
        for negative, i in safe:
            if -negative <= best:
                break
            budget.charge(len(state))
            alive = [mask for mask in state if not (mask >> i) & 1]
            won = sum(wins(part, revealed | (1 << i)) for part in split(alive, [i]))
            if won > best:
                best_cell, best = i, won
        return best_cell, best

    try:
        cell, won = _choose(solutions, 0, root=True)
    except _OutOfBudget:
        return None
    return Endgame(cells[cell], won, len(solutions))


def _symmetries(width: int, height: int) -> list[list[int]]:
    """The board's rotations and reflections, each as a map of cell indices."""

    def at(x: int, y: int) -> int:
        return y * width + x

    maps = [
        [at(width - 1 - x, y) for y in range(height) for x in range(width)],
        [at(x, height - 1 - y) for y in range(height) for x in range(width)],
        [at(width - 1 - x, height - 1 - y) for y in range(height) for x in range(width)],
    ]
    if width == height:
        n = width - 1
        maps += [
            [at(y, x) for y in range(height) for x in range(width)],
            [at(n - y, n - x) for y in range(height) for x in range(width)],
            [at(y, n - x) for y in range(height) for x in range(width)],
            [at(n - y, x) for y in range(height) for x in range(width)],
        ]
    return maps


def _orbit_representatives(analysis: Analysis, cells: list[int]) -> list[int]:
    """For each of ``cells`` (by position in the list), the position of the first cell it
    can be carried to by a symmetry of the board that leaves the position unchanged: such
    cells are the same click, so the first move tries one of each."""
    board = analysis.board
    where = {j: i for i, j in enumerate(cells)}
    keep = [
        m
        for m in _symmetries(board.width, board.height)
        if all(board.cells[m[i]] == v for i, v in enumerate(board.cells))
    ]
    return [min([i] + [where[m[j]] for m in keep if m[j] in where]) for i, j in enumerate(cells)]
