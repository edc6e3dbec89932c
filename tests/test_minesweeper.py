"""The Minesweeper solver: board text, exact probabilities checked by brute force, guesses."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine import CroupierError, SpecError
from croupier.plugins.minesweeper import analysis as analysis_module
from croupier.plugins.minesweeper import endgame as endgame_module
from croupier.plugins.minesweeper import enumeration
from croupier.plugins.minesweeper import guess as guess_module
from croupier.plugins.minesweeper.analysis import (
    InconsistentBoardError,
    TooComplexError,
    analyze,
)
from croupier.plugins.minesweeper.board import (
    COVERED,
    FLAG,
    Board,
    format_board,
    neighbours,
    parse_board,
)
from croupier.plugins.minesweeper.guess import best_guess, safest


def brute_force(board: Board, total: int | None) -> tuple[int, dict[int, int]]:
    """Every mine placement, checked cell by cell: (count, mines per covered cell).

    Without a total, only frontier cells (next to a number) are placed, as the solver does.
    """
    nbrs = neighbours(board.width, board.height)
    numbers = [i for i, v in enumerate(board.cells) if v >= 0]
    flags = {i for i, v in enumerate(board.cells) if v == FLAG}
    covered = [i for i, v in enumerate(board.cells) if v == COVERED]
    if total is None:
        covered = [i for i in covered if any(board.cells[j] >= 0 for j in nbrs[i])]
    counts = dict.fromkeys(covered, 0)
    found = 0
    sizes = range(len(covered) + 1) if total is None else [total - len(flags)]
    for k in sizes:
        for mines in itertools.combinations(covered, k) if k >= 0 else ():
            placed = set(mines) | flags
            if all(board.cells[i] == sum(j in placed for j in nbrs[i]) for i in numbers):
                found += 1
                for j in mines:
                    counts[j] += 1
    return found, counts


@st.composite
def boards(draw: st.DrawFn) -> tuple[Board, int | None]:
    """Small boards; numbers come from a real placement, or are random (maybe inconsistent)."""
    width, height = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    cells = width * height
    mines = draw(st.sets(st.integers(0, cells - 1), max_size=cells))
    honest = draw(st.booleans())
    nbrs = neighbours(width, height)
    values = []
    for i in range(cells):
        kind = draw(st.sampled_from(["covered", "shown", "flag"]))
        if i in mines:
            values.append(FLAG if kind == "flag" and honest else COVERED)
        elif kind == "shown":
            true = sum(j in mines for j in nbrs[i])
            values.append(true if honest else draw(st.integers(0, len(nbrs[i]))))
        else:
            values.append(COVERED)
    total = draw(st.one_of(st.none(), st.just(len(mines)), st.integers(0, cells)))
    return Board(width, height, tuple(values)), total


@settings(max_examples=400, deadline=None)
@given(boards())
def test_probabilities_match_brute_force(case):
    board, total = case
    found, counts = brute_force(board, total)
    try:
        result = analyze(board, total)
    except InconsistentBoardError:
        assert found == 0
        return
    assert found > 0
    assert result.placements == found
    for j, count in counts.items():
        assert result.probabilities[j] == Fraction(count, found)
    assert result.mines == {j for j, p in result.probabilities.items() if p == 1}
    assert result.safes == {j for j, p in result.probabilities.items() if p == 0}
    if total is None:
        assert set(result.interior).isdisjoint(result.probabilities)


def test_interior_cells_share_the_remaining_mines():
    # the 1 has one mine among 3 frontier cells; 5 interior cells share what is left
    board = parse_board("1??\n???\n???")
    result = analyze(board, 3)
    found, counts = brute_force(board, 3)
    # 3 frontier choices x C(5, 2) interior placements
    assert found == result.placements == 3 * 10
    assert result.probabilities[8] == Fraction(counts[8], found) == Fraction(2, 5)
    assert result.probabilities[1] == Fraction(1, 3)


def test_mine_total_changes_frontier_odds():
    # one mine on (0,1) or (1,1), or two on (1,0) and (1,2): the total decides the odds
    board = parse_board("1?1\n???\n???")
    assert analyze(board, 1).probabilities[3] == 0
    assert analyze(board, 1).safes == {3, 5, 6, 7, 8}
    many = analyze(board, 4)
    found, counts = brute_force(board, 4)
    assert many.probabilities[3] == Fraction(counts[3], found) > 0


def test_classic_deductions_and_board_after():
    board = parse_board("???\n121\n...")
    result = analyze(board)
    assert result.mines == {0, 2}
    assert result.safes == {1}
    marks = {j: "X" for j in result.mines} | {j: "n" for j in result.safes}
    assert format_board(board, marks) == "XnX\n121\n..."
    (group,) = result.components
    assert group.arrangements == 1 and group.sets == ((0, 2),)


def test_flags_count_towards_numbers_and_total():
    result = analyze(parse_board("X1?\n11?\n???"), 1)
    assert result.safes == {2, 5, 6, 7, 8}


def test_format_accepts_spaces_comments_and_star():
    board = parse_board("# a comment\n? 1 *\n\n0 . ?\n")
    assert board.cells == (COVERED, 1, FLAG, 0, 0, COVERED)
    assert format_board(board) == "?1X\n..?"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("??\n???", "has 3 cells, but the first row has 2"),
        ("?a?", "'a' is not a cell"),
        ("4?\n??", "has only 3 neighbours"),
        ("?" * 201, "too large"),
        ("?\n" * 201, "too large"),
        (("?" * 201 + "\n") * 2, "a 201x2 board is too large"),
    ],
)
def test_bad_board_text(text, message):
    with pytest.raises(SpecError, match=message) as info:
        parse_board(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "mines", "message"),
    [
        ("3?\n?.", None, "cannot be satisfied"),
        ("XX\n1?", None, "more flagged neighbours"),
        ("X?\nX?", 1, "2 flags but only 1 mines"),
        ("1???\n????\n????\n???1", 1, "no placement of 1 mines"),
        ("?1?\n?2?\n?1?\n?.?", None, "contradict"),
        ("??\n??", 5, "do not fit"),
        ("??\n??", -1, "cannot be negative"),
    ],
)
def test_inconsistent_boards(text, mines, message):
    with pytest.raises(CroupierError, match=message) as info:
        analyze(parse_board(text), mines)
    assert "\n" not in str(info.value)


def test_budget_turns_a_hopeless_search_into_an_error(monkeypatch):
    monkeypatch.setattr(enumeration, "NODE_BUDGET", 5)
    board = parse_board("?????????\n?1?1?1?1?\n?????????")
    with pytest.raises(TooComplexError, match="too complex"):
        analyze(board, 4)


def test_safest_is_lowest_probability_then_fewest_covered_neighbours():
    # frontier cells next to the 1 are 1/3; interior cells are lower and the corner wins
    board = parse_board("1???????\n????????\n????????\n????????")
    result = analyze(board, 3)
    low = min(result.probabilities.values())
    assert result.probabilities[7] == low
    assert safest(result) == 7  # top-right corner: 3 neighbours, the fewest among the lowest


def test_best_guess_prefers_a_cell_that_unlocks_the_board(monkeypatch):
    # four interior cells at 1/4 (frontier cells are 1/3): the one most likely to settle
    # another cell when it is safe wins, by the exact score the docs state (the endgame
    # search, which would settle this small position exactly, is switched off)
    monkeypatch.setattr(endgame_module, "MAX_SOLUTIONS", 0)
    monkeypatch.setattr(endgame_module, "TINY_SOLUTIONS", 0)
    monkeypatch.setattr(guess_module, "INTERIOR_CANDIDATES", 4)
    board = parse_board("1???\n????")
    result = analyze(board, 2)
    guess = best_guess(result)
    assert guess is not None
    assert result.probabilities[guess] <= min(result.probabilities.values()) + Fraction(1, 20)
    scores = {}
    candidates = [j for j, p in result.probabilities.items() if p == Fraction(1, 4)]
    assert len(candidates) == 4
    for j in candidates:
        cells = list(board.cells)
        progress = 0
        for value in range(9):
            cells[j] = value
            try:
                after = analyze(Board(4, 2, tuple(cells)), 2)
            except CroupierError:
                continue
            progress += after.placements if after.safes else 0
        scores[j] = 1 - result.probabilities[j] + Fraction(progress, result.placements)
    assert scores[guess] == max(scores.values())


def test_a_costly_position_is_not_re_solved_for_the_look_ahead(monkeypatch):
    monkeypatch.setattr(endgame_module, "MAX_SOLUTIONS", 0)
    monkeypatch.setattr(endgame_module, "TINY_SOLUTIONS", 0)
    board = parse_board("1???\n????")
    result = analyze(board, 2)
    assert result.steps > 0
    monkeypatch.setattr(guess_module, "LOOKAHEAD_MAX_STEPS", result.steps - 1)

    def no_re_solve(*args):
        raise AssertionError("the look-ahead re-solved a costly position")

    monkeypatch.setattr(guess_module, "_outcomes", no_re_solve)
    assert best_guess(result) == guess_module.safest(result)


DEAD_CELL_BOARD = """\
??X1.1?2
??21.1?X
??1.1232
??1.1X?1
??2123?2
????????
"""


def test_dead_cells_are_passed_over(monkeypatch):
    monkeypatch.setattr(endgame_module, "MAX_SOLUTIONS", 0)
    monkeypatch.setattr(endgame_module, "TINY_SOLUTIONS", 0)
    result = analyze(parse_board(DEAD_CELL_BOARD), 10)
    dead = 5 * 8 + 4  # (5, 4): the 2 above it leaves one mine for (5, 3) and (5, 5)
    assert safest(result) == dead and result.probabilities[dead] == Fraction(2, 23)
    assert guess_module._outcomes(result, dead) == (1, 0)  # always shows 1, settles nothing
    guess = best_guess(result)
    assert guess is not None and guess != dead
    assert guess_module._outcomes(result, guess)[0] > 1


def test_at_most_two_interior_cells_are_looked_at(monkeypatch):
    monkeypatch.setattr(endgame_module, "MAX_SOLUTIONS", 0)
    monkeypatch.setattr(endgame_module, "TINY_SOLUTIONS", 0)
    seen = []
    real = guess_module._outcomes

    def spy(analysis, j):
        seen.append(j)
        return real(analysis, j)

    monkeypatch.setattr(guess_module, "_outcomes", spy)
    result = analyze(parse_board("1" + "?" * 9 + "\n" + "?" * 10 + "\n" + "?" * 10), 4)
    best_guess(result)
    # 26 interior cells tie on probability: only the two first of the base order are tried
    assert len(result.interior) == 26
    assert sum(1 for j in seen if j in result.interior) == 2


def test_no_guess_when_only_mines_are_covered():
    assert best_guess(analyze(parse_board("1?\n11"), 1)) is None


def test_forced_fifty_fifty_is_found():
    # two cells, one mine, the same neighbours: no click can ever tell them apart
    assert guess_module.forced_fifty_fifty(analyze(parse_board("??\n11"), 1)) == (0, 1)
    # (0, 0) and (0, 1) are both at 1/2 with the same neighbours, but may both be mines
    assert guess_module.forced_fifty_fifty(analyze(parse_board("??\n??"), 2)) is None


def test_remembered_enumerations_give_the_same_answer_and_still_charge_the_budget():
    board = parse_board("?????????\n?1?2?1?1?\n?????????")
    first = analyze(board, 5)
    hits = analysis_module._remembered.cache_info().hits
    assert analyze(board, 5) == first
    assert analysis_module._remembered.cache_info().hits > hits
    # one number over two boxes: the steps an enumeration takes are charged on every call
    shape = ((2, 3), (1,), ((0, 1),))
    budget = [10**6]
    weights, _ = analysis_module._enumerate(*shape, budget)
    assert weights == {1: [5, 2, 3]}  # 5 ways: the mine in box 0 in 2, in box 1 in 3
    steps = 10**6 - budget[0]
    budget = [steps]
    assert analysis_module._enumerate(*shape, budget)[0] == weights
    assert budget == [0]
    with pytest.raises(TooComplexError, match="too complex"):
        analysis_module._enumerate(*shape, [steps - 1])
