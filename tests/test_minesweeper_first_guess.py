"""The first guess on a small empty board is the click that wins most often with the best
play after it: checked against a plain game-tree search written here, on every small
board it can enumerate."""

from __future__ import annotations

import itertools
from math import comb

import pytest

from croupier.engine import PluginManager


def neighbours(w: int, h: int) -> list[list[int]]:
    return [
        [
            yy * w + xx
            for yy in range(max(0, y - 1), min(h, y + 2))
            for xx in range(max(0, x - 1), min(w, x + 2))
            if (xx, yy) != (x, y)
        ]
        for y in range(h)
        for x in range(w)
    ]


def wins_by_first_click(w: int, h: int, k: int) -> dict[int, int]:
    """For each first click, the number of the C(w*h, k) equally likely placements that the
    best play after it wins. A state is the set of placements still consistent with what
    has been seen; a click splits the placements where its cell is safe by the number it
    shows (the others lose); one placement left is a win."""
    n = w * h
    nb = neighbours(w, h)
    placements = frozenset(
        sum(1 << c for c in combo) for combo in itertools.combinations(range(n), k)
    )
    memo: dict[frozenset[int], int] = {}

    def click(state: frozenset[int], c: int) -> list[frozenset[int]]:
        parts: dict[int, set[int]] = {}
        for p in state:
            if not p >> c & 1:
                parts.setdefault(sum(p >> j & 1 for j in nb[c]), set()).add(p)
        return [frozenset(s) for s in parts.values()]

    def best(state: frozenset[int]) -> int:
        if len(state) == 1:
            return 1
        if state not in memo:
            values = [0]
            for c in range(n):
                parts = click(state, c)
                if len(parts) == 1 and len(parts[0]) == len(state):
                    continue  # a safe click that shows nothing new
                values.append(sum(best(p) for p in parts))
            memo[state] = max(values)
        return memo[state]

    return {c: sum(best(p) for p in click(placements, c)) for c in range(n)}


def boards(most: int) -> list[tuple[int, int, int]]:
    return [
        (w, h, k)
        for w in range(1, 5)
        for h in range(1, w + 1)
        for k in range(1, w * h)
        if w * h >= 2 and comb(w * h, k) <= most
    ]


def first_guess(w: int, h: int, k: int) -> int:
    solver = PluginManager(autoload=False).solvers.get("minesweeper")
    board = "\n".join("?" * w for _ in range(h))
    guess = solver.solve({"board": board, "mines": k})["best_guess"]
    return guess["row"] * w + guess["col"]


@pytest.mark.parametrize(("w", "h", "k"), boards(300))
def test_the_first_guess_is_optimal_on_small_boards(w, h, k):
    wins = wins_by_first_click(w, h, k)
    assert wins[first_guess(w, h, k)] == max(wins.values())


@pytest.mark.slow
@pytest.mark.parametrize(("w", "h", "k"), [b for b in boards(1820) if b not in boards(300)])
def test_the_first_guess_is_optimal_on_4x4_boards(w, h, k):
    """4x4 with 3 and 4 mines: the heuristic's corner is not the best first click there."""
    wins = wins_by_first_click(w, h, k)
    assert wins[first_guess(w, h, k)] == max(wins.values())
