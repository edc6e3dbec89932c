"""Counting placements by dynamic programming over the frontier: the same weights as
listing them, and lattice boards that listing could not finish."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from croupier.plugins.minesweeper import enumeration, frontier
from croupier.plugins.minesweeper.analysis import (
    _components,
    _constraints,
    _propagate,
    analyze,
)
from croupier.plugins.minesweeper.board import neighbours, parse_board
from croupier.plugins.minesweeper.enumeration import TooComplexError, _search, breadth_first


def board_text(w: int, h: int, mines: set[int], revealed: set[int]) -> str:
    nb = neighbours(w, h)
    rows = []
    for y in range(h):
        row = ""
        for x in range(w):
            i = y * w + x
            row += str(sum(j in mines for j in nb[i])) if i in revealed else "?"
        rows.append(row)
    return "\n".join(rows)


def lattice(w: int, h: int, count: int, rows: int, seed: int) -> str:
    """Every second row and column revealed in the top ``rows`` rows, the rest covered;
    the numbers come from ``count`` mines placed at random (``seed``) elsewhere."""
    revealed = {y * w + x for y in range(0, rows, 2) for x in range(0, w, 2)}
    spots = [i for i in range(w * h) if i not in revealed]
    mines = set(random.Random(seed).sample(spots, count))
    return board_text(w, h, mines, revealed)


def random_board(seed: int) -> tuple[str, int]:
    rnd = random.Random(seed)
    w, h = rnd.randint(3, 7), rnd.randint(3, 6)
    count = rnd.randint(1, w * h // 3)
    mines = set(rnd.sample(range(w * h), count))
    safe = [i for i in range(w * h) if i not in mines]
    revealed = set(rnd.sample(safe, rnd.randint(1, len(safe) // 2)))
    return board_text(w, h, mines, revealed), count


def components(text: str):
    board = parse_board(text)
    _, reduced = _propagate(board, _constraints(board))
    for boxes, needs, cons_boxes in _components(reduced):
        sizes = tuple(len(c) for c in boxes)
        links: list[list[int]] = [[] for _ in sizes]
        for c, members in enumerate(cons_boxes):
            for b in members:
                links[b].append(c)
        yield sizes, needs, cons_boxes, breadth_first(links, cons_boxes)


@pytest.mark.parametrize("seed", range(60))
def test_counting_gives_the_weights_listing_gives(seed):
    text, _ = random_board(seed)
    for sizes, needs, cons_boxes, order in components(text):
        listed, _ = _search(sizes, needs, cons_boxes, [10**9])
        counted, _ = frontier.count(sizes, needs, cons_boxes, order, 10**9)
        assert counted == listed


def brute_force(text: str, total: int) -> dict[int, Fraction]:
    """Every placement of ``total`` mines over the covered cells, checked against every
    number: each covered cell's share of the placements that fit."""
    board = parse_board(text)
    nb = neighbours(board.width, board.height)
    covered = [i for i, v in enumerate(board.cells) if v < 0]
    numbers = [(i, v) for i, v in enumerate(board.cells) if v >= 0]
    hits = dict.fromkeys(covered, 0)
    fits = 0
    for chosen in itertools.combinations(covered, total):
        mines = set(chosen)
        if all(sum(j in mines for j in nb[i]) == v for i, v in numbers):
            fits += 1
            for j in chosen:
                hits[j] += 1
    return {j: Fraction(n, fits) for j, n in hits.items()}


@pytest.mark.parametrize(
    ("w", "h", "count", "rows", "seed"), [(5, 5, 4, 5, 1), (6, 4, 5, 4, 2), (5, 4, 3, 4, 3)]
)
def test_small_lattices_against_brute_force(monkeypatch, w, h, count, rows, seed):
    monkeypatch.setattr(enumeration, "SEARCH_FIRST", 0)  # counted, never listed
    text = lattice(w, h, count, rows, seed)
    assert analyze(parse_board(text), count).probabilities == brute_force(text, count)


@pytest.mark.parametrize(("rows", "seed"), [(10, 1), (12, 0)])
def test_counting_and_listing_agree_on_large_lattices(monkeypatch, rows, seed):
    text = lattice(16, 16, 40, rows, seed)
    monkeypatch.setattr(enumeration, "SEARCH_FIRST", 0)
    counted = analyze(parse_board(text), 40)
    monkeypatch.setattr(enumeration, "SEARCH_FIRST", 10**8)
    monkeypatch.setattr(enumeration, "NODE_BUDGET", 10**8)
    listed = analyze(parse_board(text), 40)
    assert counted.probabilities == listed.probabilities
    assert counted.placements == listed.placements


@pytest.mark.parametrize(
    ("w", "h", "count", "seed"), [(16, 16, 40, 0), (16, 16, 40, 2), (30, 16, 99, 0)]
)
def test_lattices_listing_could_not_finish_are_solved_exactly(w, h, count, seed):
    rows = 16 if w == 16 else 10
    analysis = analyze(parse_board(lattice(w, h, count, rows, seed)), count)
    covered = analysis.probabilities
    assert sum(covered.values()) == count  # the expected number of mines, exactly
    assert analysis.placements > 10**7


@pytest.mark.slow
def test_past_the_limit_is_still_one_clear_line():
    with pytest.raises(TooComplexError, match="too complex to solve exactly"):
        analyze(parse_board(lattice(30, 16, 99, 16, 0)), 99)
