"""The exact endgame search, checked against a brute-force game tree on tiny boards."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.plugins.minesweeper import endgame as endgame_module
from croupier.plugins.minesweeper import guess as guess_module
from croupier.plugins.minesweeper.analysis import analyze
from croupier.plugins.minesweeper.board import COVERED, Board, neighbours, parse_board
from croupier.plugins.minesweeper.endgame import solve_endgame


def best_win_probability(board: Board, total: int) -> Fraction:
    """The best win probability by brute force: real clicks with flood fill, no shortcuts.

    Every placement of ``total`` mines on the covered cells that fits the numbers is equally
    likely; the player may click any covered cell (certain ones included) and wins when
    every safe cell is revealed.
    """
    width, height = board.width, board.height
    nbrs = neighbours(width, height)
    covered = [i for i, v in enumerate(board.cells) if v == COVERED]
    numbers = [i for i, v in enumerate(board.cells) if v >= 0]
    layouts = [
        frozenset(mines)
        for mines in itertools.combinations(covered, total)
        if all(board.cells[i] == sum(j in mines for j in nbrs[i]) for i in numbers)
    ]

    def click(mines: frozenset[int], shown: frozenset[int], cell: int) -> frozenset[int]:
        out, stack = set(shown), [cell]
        while stack:
            i = stack.pop()
            if i in out:
                continue
            out.add(i)
            if not any(j in mines for j in nbrs[i]):
                stack.extend(nbrs[i])
        return frozenset(out)

    @cache
    def win(state: frozenset[frozenset[int]], shown: frozenset[int]) -> Fraction:
        mines = next(iter(state))
        if all(i in shown or i in mines for i in covered):
            return Fraction(1)  # every safe cell is shown (the same in every layout left)
        best = Fraction(0)
        for cell in covered:
            if cell in shown:
                continue
            parts: dict[tuple[tuple[int, int], ...], set[frozenset[int]]] = {}
            for layout in state:
                if cell in layout:
                    continue
                after = click(layout, shown, cell)
                seen = tuple(sorted((i, sum(j in layout for j in nbrs[i])) for i in after))
                parts.setdefault(seen, set()).add(layout)
            total_won = sum(
                (
                    len(part) * win(frozenset(part), frozenset(i for i, _ in seen))
                    for seen, part in parts.items()
                ),
                Fraction(0),
            )
            best = max(best, total_won / len(state))
        return best

    return win(
        frozenset(layouts), frozenset(i for i in range(len(board.cells)) if i not in covered)
    )


@st.composite
def positions(draw: st.DrawFn) -> tuple[Board, int]:
    """A real game on a tiny board, with a few cells revealed (no certain safe cell left)."""
    width, height = draw(st.sampled_from([(2, 2), (3, 2), (4, 2), (3, 3), (5, 2)]))
    cells = width * height
    mines = draw(st.sets(st.integers(0, cells - 1), min_size=1, max_size=cells // 2))
    nbrs = neighbours(width, height)
    safe = [i for i in range(cells) if i not in mines]
    shown = draw(st.sets(st.sampled_from(safe), max_size=len(safe))) if safe else set()
    values = tuple(
        sum(j in mines for j in nbrs[i]) if i in shown else COVERED for i in range(cells)
    )
    return Board(width, height, values), len(mines)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(positions())
def test_endgame_finds_the_exact_best_win_probability(case):
    board, total = case
    analysis = analyze(board, total)
    result = solve_endgame(analysis, budget=10**9)
    if analysis.safes or not any(0 < p < 1 for p in analysis.probabilities.values()):
        assert result is None
        return
    assert result is not None
    expected = best_win_probability(board, total)
    assert result.probability == expected
    # the chosen cell achieves it: click it and play on optimally
    assert 0 < analysis.probabilities[result.cell] < 1


def test_a_forced_fifty_fifty_is_a_coin_flip():
    # two cells, one mine, nothing can tell them apart
    result = solve_endgame(analyze(parse_board("??\n11"), 1))
    assert result is not None
    assert result.probability == Fraction(1, 2) and result.placements == 2


def test_an_untouched_board_matches_brute_force():
    # no numbers at all: every first click is as safe, but they differ in what they reveal
    board = parse_board("??\n??\n??")
    result = solve_endgame(analyze(board, 1))
    assert result is not None
    assert result.probability == best_win_probability(board, 1)


def test_too_large_or_out_of_budget_gives_none(monkeypatch):
    analysis = analyze(parse_board("????\n????\n????"), 3)
    assert solve_endgame(analysis, budget=0) is None
    monkeypatch.setattr(endgame_module, "TINY_SOLUTIONS", 10)  # 12 cells: a tiny board
    assert solve_endgame(analysis) is None
    assert solve_endgame(analyze(parse_board("?1\n??"), None)) is None
    big = analyze(parse_board("\n".join(["?????"] * 4)), 3)  # 20 cells: not tiny
    monkeypatch.setattr(endgame_module, "MAX_SOLUTIONS", 10)
    assert solve_endgame(big) is None


# An expert endgame (dev seed 1, game 548) whose 39 undecided cells once took seconds to
# enumerate, uncounted by the budget: 162 placements, most cells far apart along one frontier.
PATHOLOGICAL = """
X311....1???222X2X1..13X??????
X3X1..123???X2X2211..1XX??????
2321..1XX2??23331....14X??????
1X1...245???33XX2.12335XX224??
222...1XX???XX5X2.1XXXXX312X??
2X1.11235???54X2213343321.2X31
X4323X11XX4XX3221X3X1....12221
XX2XX2124X4322X344X21111.1X22X
234431.1X3X2112XXX4322X21112X3
.1XX1112122X211344XX3X4X21122X
.23311X1.123X1.1X23X325X31X222
.1X11221.1X322.1122222XX2112X1
.1111X1..123X1...1X22X32211111
....11211.1X21...112X21.2X2...
111...2X2.111112221111..2X2.11
1X1...2X2....1X2XX1.....111.1X
"""


def test_a_pathological_endgame_stays_within_its_budget():
    analysis = analyze(parse_board(PATHOLOGICAL), 99)
    assert analysis.placements == 162 and not analysis.safes
    # every step is charged, enumeration included: a small budget stops it early ...
    small = endgame_module.Budget(10_000)
    assert endgame_module.search(analysis, small) is None
    assert small.spent <= 10_000 + 162 * 40  # at most one charge past the budget
    # ... the default budget is not enough, and says so within it ...
    default = endgame_module.Budget(endgame_module.SEARCH_BUDGET)
    assert endgame_module.search(analysis, default) is None
    assert default.spent <= endgame_module.SEARCH_BUDGET + 162 * 40
    # ... and a larger one solves it exactly
    full = endgame_module.Budget(3_000_000)
    result = endgame_module.search(analysis, full)
    assert result is not None and result.placements == 162
    assert 0 < analysis.probabilities[result.cell] < 1


@settings(max_examples=200, deadline=None)
@given(positions())
def test_a_forced_fifty_fifty_is_a_true_coin_flip(case):
    """Checked by brute force: exactly one mine in the pair in every placement, and every
    cell next to one of them (known mines aside) is next to the other."""
    board, total = case
    result = analyze(board, total)
    pair = guess_module.forced_fifty_fifty(result)
    if pair is None:
        return
    a, b = pair
    nbrs = neighbours(board.width, board.height)
    numbers = [i for i, v in enumerate(board.cells) if v >= 0]
    covered = [i for i, v in enumerate(board.cells) if v == COVERED]
    placements = [
        set(mines)
        for mines in itertools.combinations(covered, total)
        if all(board.cells[i] == sum(j in mines for j in nbrs[i]) for i in numbers)
    ]
    assert placements and all((a in p) != (b in p) for p in placements)
    always = set.intersection(*placements)
    assert set(nbrs[a]) - always - {b} == set(nbrs[b]) - always - {a}
