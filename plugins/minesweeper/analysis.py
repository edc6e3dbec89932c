"""Exact analysis of a Minesweeper position: certain cells and every cell's mine probability.

Every placement of the mines that agrees with the revealed numbers (and the flags, and the
total number of mines when it is known) is taken as equally likely; a cell's probability is
the share of those placements with a mine on it, an exact :class:`~fractions.Fraction`.

How, so that expert boards solve in milliseconds:

1. Each revealed number is a constraint "these covered neighbours hold exactly n mines".
   Trivial constraints (n = 0, or n = the number of cells) are propagated first.
2. Covered cells next to a number (the frontier) that touch exactly the same constraints
   form a *box*; a box of s cells holding m mines counts ``C(s, m)`` placements, so the search
   runs over boxes, not cells.
3. Boxes linked by constraints form *components*, which are enumerated independently by
   backtracking (bounded by the constraints' remaining need and room, so a dead branch is
   never entered), each yielding its weight per number of mines k
   (:mod:`croupier.plugins.minesweeper.enumeration`).
4. The covered cells next to no number (the interior) share the remaining mines: a
   combination of components with S mines in all is weighted by ``C(interior, remaining - S)``,
   exact big integers. Without a mine total the components are independent and the interior
   is unknown.

The enumeration is exponential in the number of boxes of one component; a node budget turns
a hopeless position into a one-line :class:`TooComplexError` instead of a hang.

A component's enumeration depends only on its shape (box sizes, needs, which boxes each
number touches), so it is remembered (``ENUMERATION_CACHE`` shapes): the look-ahead re-solves
a position once per number a cell could show, and every component the cell does not touch
comes back unchanged. A remembered enumeration still charges the budget the steps it took,
so an answer never depends on what was solved before.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import attrs

from croupier.engine import CroupierError
from croupier.plugins.minesweeper import enumeration
from croupier.plugins.minesweeper.board import COVERED, FLAG, Board, neighbours
from croupier.plugins.minesweeper.enumeration import (
    ENUMERATION_CACHE,
    MAX_DEPTH,
    MAX_LISTED_SETS,
    NODE_BUDGET,
    TooComplexError,
    _enumerate,
    _remembered,
    _search,
)

# the enumeration's names are re-exported: callers, tests and benchmarks find them here
__all__ = [
    "ENUMERATION_CACHE",
    "MAX_DEPTH",
    "MAX_LISTED_SETS",
    "NODE_BUDGET",
    "Analysis",
    "Component",
    "InconsistentBoardError",
    "TooComplexError",
    "_enumerate",
    "_remembered",
    "_search",
    "analyze",
]


class InconsistentBoardError(CroupierError):
    """No placement of mines agrees with the board."""


@attrs.frozen
class Component:
    """A group of frontier cells linked by numbers, solved on its own.

    ``arrangements`` counts its mine placements that fit its numbers; ``sets`` lists them
    (as sorted cell indices) when there are at most ``MAX_LISTED_SETS``, else it is empty.
    """

    cells: tuple[int, ...]
    arrangements: int
    sets: tuple[tuple[int, ...], ...]


@attrs.frozen
class Analysis:
    """Everything known about a position.

    ``probabilities`` maps each covered, unflagged cell to its exact mine probability; an
    interior cell is missing from it when the total number of mines is not known.
    ``placements`` is the number of mine placements consistent with the board (over the
    frontier only when the total is not known); ``steps`` what it cost to find them.
    """

    board: Board
    total_mines: int | None
    probabilities: dict[int, Fraction]
    mines: frozenset[int]
    safes: frozenset[int]
    placements: int
    components: tuple[Component, ...]
    interior: tuple[int, ...]
    steps: int = 0
    """Search steps the enumeration took (remembered ones counted as if searched again)."""


def _where(board: Board, index: int) -> str:
    row, col = board.coords(index)
    return f"({row}, {col})"


def _constraints(board: Board) -> list[tuple[int, int, list[int]]]:
    """``(number cell, mines still needed, covered neighbours)`` for each revealed number."""
    nbrs = neighbours(board.width, board.height)
    cells = board.cells
    out = []
    for index, value in enumerate(cells):
        if value < 0:
            continue
        covered = [j for j in nbrs[index] if cells[j] == COVERED]
        need = value - sum(1 for j in nbrs[index] if cells[j] == FLAG)
        if need < 0:
            raise InconsistentBoardError(
                f"the {value} at {_where(board, index)} has more flagged neighbours than {value}"
            )
        if need > len(covered):
            raise InconsistentBoardError(
                f"the {value} at {_where(board, index)} cannot be satisfied: it needs {need} "
                f"more mines but has {len(covered)} covered neighbours"
            )
        if covered:
            out.append((index, need, covered))
    return out


def _propagate(
    board: Board, constraints: list[tuple[int, int, list[int]]]
) -> tuple[dict[int, bool], list[tuple[int, list[int]]]]:
    """Settle trivial constraints; return the settled cells and the reduced constraints."""
    known: dict[int, bool] = {}
    changed = True
    reduced: list[tuple[int, list[int]]] = []
    while changed:
        changed = False
        reduced = []
        for origin, need, cells in constraints:
            free = [j for j in cells if j not in known]
            left = need - sum(1 for j in cells if known.get(j))
            if left < 0 or left > len(free):
                raise InconsistentBoardError(
                    f"the numbers around {_where(board, origin)} contradict each other"
                )
            if not free:
                continue
            if left == 0 or left == len(free):
                for j in free:
                    known[j] = left > 0
                changed = True
            else:
                reduced.append((left, free))
    return known, reduced


def _components(
    reduced: list[tuple[int, list[int]]],
) -> list[tuple[list[tuple[int, ...]], list[int], list[list[int]]]]:
    """Split the frontier into components: ``(boxes as cell tuples, needs, boxes per need)``."""
    touching: dict[int, list[int]] = {}
    for ci, (_, cells) in enumerate(reduced):
        for j in cells:
            touching.setdefault(j, []).append(ci)
    box_of: dict[tuple[int, ...], list[int]] = {}
    for j in sorted(touching):
        box_of.setdefault(tuple(touching[j]), []).append(j)
    boxes = list(box_of.items())  # (constraint ids, cells)
    cons_to_boxes: dict[int, list[int]] = {}
    for bi, (cons, _) in enumerate(boxes):
        for ci in cons:
            cons_to_boxes.setdefault(ci, []).append(bi)
    out = []
    done = [False] * len(boxes)
    for start in range(len(boxes)):
        if done[start]:
            continue
        members, stack, cons_seen = [], [start], set()
        done[start] = True
        while stack:
            bi = stack.pop()
            members.append(bi)
            for ci in boxes[bi][0]:
                if ci in cons_seen:
                    continue
                cons_seen.add(ci)
                for other in cons_to_boxes[ci]:
                    if not done[other]:
                        done[other] = True
                        stack.append(other)
        members.sort()
        local = {bi: i for i, bi in enumerate(members)}
        cons_list = sorted(cons_seen)
        needs = [reduced[ci][0] for ci in cons_list]
        cons_boxes = [[local[bi] for bi in cons_to_boxes[ci]] for ci in cons_list]
        out.append(([tuple(boxes[bi][1]) for bi in members], needs, cons_boxes))
    return out


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def analyze(board: Board, total_mines: int | None = None) -> Analysis:
    """Solve ``board`` exactly; ``total_mines`` counts every mine, flagged ones included."""
    covered = [i for i, v in enumerate(board.cells) if v == COVERED]
    flags = sum(1 for v in board.cells if v == FLAG)
    if total_mines is not None:
        if total_mines < 0:
            raise CroupierError(f"the number of mines cannot be negative ({total_mines})")
        if flags > total_mines:
            raise InconsistentBoardError(
                f"the board has {flags} flags but only {total_mines} mines"
            )
        if total_mines - flags > len(covered):
            raise InconsistentBoardError(
                f"{total_mines - flags} unflagged mines do not fit in {len(covered)} covered cells"
            )
    known, reduced = _propagate(board, _constraints(board))
    parts = _components(reduced)
    budget = [enumeration.NODE_BUDGET]
    solved = []
    for boxes, needs, cons_boxes in parts:
        sizes = tuple(len(cells) for cells in boxes)
        shape = tuple(tuple(members) for members in cons_boxes)
        weights, leaves = _enumerate(sizes, tuple(needs), shape, budget)
        if not weights:
            first = boxes[0][0]
            raise InconsistentBoardError(
                f"the numbers around {_where(board, first)} contradict each other"
            )
        solved.append((boxes, weights, leaves))
    frontier = {j for boxes, _, _ in parts for cells in boxes for j in cells}
    interior = tuple(i for i in covered if i not in known and i not in frontier)
    probs: dict[int, Fraction] = {j: Fraction(int(m)) for j, m in known.items()}
    # per component: g[k] = weight of everything else given k mines in this component
    if total_mines is None:
        gs = [dict.fromkeys(weights, 1) for _, weights, _ in solved]
        placements = 1
        for _, weights, _ in solved:
            placements *= sum(entry[0] for entry in weights.values())
    else:
        remaining = total_mines - flags - sum(known.values())
        inner = len(interior)

        def fill(s: int) -> int:
            return comb(inner, remaining - s) if 0 <= remaining - s <= inner else 0

        dists = []
        for _, weights, _ in solved:
            dist = [0] * (max(weights) + 1)
            for k, entry in weights.items():
                dist[k] = entry[0]
            dists.append(dist)
        prefix = [[1]]
        for dist in dists:
            prefix.append(_convolve(prefix[-1], dist))
        # suffix[c][s] = weight of components c.. and the interior, s mines before them
        suffix: list[list[int]] = [[] for _ in range(len(dists) + 1)]
        top = len(prefix[-1]) - 1
        suffix[-1] = [fill(s) for s in range(top + 1)]
        for c in range(len(dists) - 1, -1, -1):
            after = suffix[c + 1]
            span = len(prefix[c])
            suffix[c] = [
                sum(w * after[s + k] for k, w in enumerate(dists[c]) if w) for s in range(span)
            ]
        placements = suffix[0][0]
        if placements == 0:
            raise InconsistentBoardError(
                f"no placement of {total_mines} mines agrees with the numbers"
            )
        gs = []
        for c, (_, weights, _) in enumerate(solved):
            after = suffix[c + 1]
            before = prefix[c]
            gs.append(
                {k: sum(w * after[a + k] for a, w in enumerate(before) if w) for k in weights}
            )
        if inner:
            expected = sum(w * fill(s) * (remaining - s) for s, w in enumerate(prefix[-1]))
            share = Fraction(expected, placements * inner)
            for j in interior:
                probs[j] = share
    components = []
    for (boxes, weights, leaves), g in zip(solved, gs, strict=True):
        z = sum(entry[0] * g[k] for k, entry in weights.items())
        for b, cells in enumerate(boxes):
            mine_weight = sum(entry[b + 1] * g[k] for k, entry in weights.items())
            share = Fraction(mine_weight, z * len(cells))
            for j in cells:
                probs[j] = share
        components.append(_component(boxes, weights, leaves, g))
    mines = frozenset(j for j, p in probs.items() if p == 1)
    safes = frozenset(j for j, p in probs.items() if p == 0)
    return Analysis(
        board=board,
        total_mines=total_mines,
        probabilities=probs,
        mines=mines,
        safes=safes,
        placements=placements,
        components=tuple(components),
        interior=interior,
        steps=enumeration.NODE_BUDGET - budget[0],
    )


def _component(
    boxes: list[tuple[int, ...]],
    weights: dict[int, list[int]],
    leaves: list[tuple[int, ...]],
    g: dict[int, int],
) -> Component:
    """A component for display: its cells, arrangements, and the sets when there are few."""
    cells = tuple(sorted(j for box in boxes for j in box))
    arrangements = sum(entry[0] for k, entry in weights.items() if g[k])
    sets: list[tuple[int, ...]] = []
    if arrangements <= MAX_LISTED_SETS and len(leaves) <= MAX_LISTED_SETS:
        for leaf in leaves:
            if not g[sum(leaf)]:
                continue
            choices = [combinations(box, m) for box, m in zip(boxes, leaf, strict=True)]
            partial: list[tuple[int, ...]] = [()]
            for options in choices:
                opts = list(options)
                partial = [p + o for p in partial for o in opts]
            sets.extend(tuple(sorted(p)) for p in partial)
        sets.sort()
    return Component(cells, arrangements, tuple(sets))
