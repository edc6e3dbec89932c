"""The best guess when no cell is certainly safe.

The base order: the lowest exact mine probability first; exact ties (common: every interior
cell shares one probability) go to the cell with the fewest covered, not-known-mine
neighbours, the most likely to show a 0 (which opens an area) or a small number that settles
its few neighbours; then reading order.

The guess (:func:`best_guess`):

1. Endgame: when few placements remain, the exact game-tree search of
   :mod:`~croupier.plugins.minesweeper.endgame` picks the click with the highest probability
   of winning the whole game.
2. A forced 50/50 (two cells sharing one mine that no click can ever tell apart, see
   :func:`forced_fifty_fifty`) is clicked first: it must be guessed sooner or later, and
   the number its safe cell shows may spare a later guess.
3. Otherwise it looks one step ahead among the best ``LOOKAHEAD_CANDIDATES`` cells of the
   base order whose probability is within ``LOOKAHEAD_MARGIN`` of the lowest: for each it
   tries every number the cell could show, weighs each by its exact share of the
   placements, and checks whether the solver would then find a safe cell. It picks the
   highest ``P(safe) + P(safe and the next move is certain)``: a slightly riskier cell that
   usually unlocks the board beats a slightly safer one that usually leads to another guess.
   Dead cells (only one number possible and nothing settled by it) are passed over: clicking
   one takes a risk and teaches nothing, while later information may settle it for free.
   At most ``INTERIOR_CANDIDATES`` interior cells are looked at (they differ only by their
   neighbour counts), so the frontier cells just behind them get their turn. A position
   that was itself costly to solve (``LOOKAHEAD_MAX_STEPS``) is not re-solved: the base
   order decides, so one guess never takes more than a few solves' time.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from croupier.engine import CroupierError
from croupier.plugins.minesweeper.analysis import Analysis, analyze
from croupier.plugins.minesweeper.board import COVERED, FLAG, Board, neighbours
from croupier.plugins.minesweeper.endgame import solve_endgame


def safest(analysis: Analysis) -> int | None:
    """The first cell in the base order; ``None`` if every covered cell is a mine.

    Cells whose probability is unknown (interior cells when the mine total is not given)
    are only chosen when nothing else is covered.
    """
    board = analysis.board
    probs = analysis.probabilities
    options = [j for j, p in probs.items() if p < 1]
    if not options:
        unknown = [i for i, v in enumerate(board.cells) if v == COVERED and i not in probs]
        return unknown[0] if unknown else None
    return min(options, key=_order(analysis))


def _order(analysis: Analysis) -> Callable[[int], tuple[Fraction, int, int]]:
    board = analysis.board
    nbrs = neighbours(board.width, board.height)
    cells = board.cells
    mines = analysis.mines
    probs = analysis.probabilities

    def key(j: int) -> tuple[Fraction, int, int]:
        covered = sum(1 for n in nbrs[j] if cells[n] == COVERED and n not in mines)
        return (probs[j], covered, j)

    return key


LOOKAHEAD_CANDIDATES = 6
LOOKAHEAD_MARGIN = Fraction(1, 20)
INTERIOR_CANDIDATES = 2
LOOKAHEAD_MAX_STEPS = 50_000
"""A position whose own enumeration took more steps gets no look-ahead (the base order
decides): on standard boards guesses are made in positions of at most a few thousand."""


def best_guess(analysis: Analysis) -> int | None:
    """The cell to click when no cell is certainly safe (see the module docstring).

    ``None`` when every covered cell is a mine. Ties keep the base order.
    """
    first = safest(analysis)
    if first is None or first not in analysis.probabilities:
        return first
    endgame = solve_endgame(analysis)
    if endgame is not None:
        return endgame.cell
    pair = forced_fifty_fifty(analysis)
    if pair is not None:
        return pair[0]  # a coin flip that must be taken: take it while it can still help
    if analysis.steps > LOOKAHEAD_MAX_STEPS:
        return first  # re-solving so costly a position dozens of times would take seconds
    probs = analysis.probabilities
    low = probs[first]
    ranked = sorted(
        (j for j, p in probs.items() if p <= low + LOOKAHEAD_MARGIN), key=_order(analysis)
    )
    best, best_score = first, Fraction(-1)
    interior = set(analysis.interior)
    evaluated = inside = 0
    for j in ranked:
        if evaluated >= LOOKAHEAD_CANDIDATES:
            break
        if j in interior:
            if inside >= INTERIOR_CANDIDATES:
                continue
            inside += 1
        outcomes, progress = _outcomes(analysis, j)
        if outcomes == 1 and not progress:
            continue  # dead: its number is already known, clicking it is risk for nothing
        evaluated += 1
        chance = Fraction(progress, analysis.placements)  # P(safe and progress)
        score = 1 - probs[j] + chance
        if score > best_score:
            best, best_score = j, score
    return best


def forced_fifty_fifty(analysis: Analysis) -> tuple[int, int] | None:
    """Two undecided cells holding exactly one mine that no click can ever tell apart.

    Each has probability 1/2, every other cell next to one of them (known mines aside) is
    next to both, so whatever is revealed later treats them alike, and a mine on one makes
    the other safe. Such a coin flip must be taken sooner or later; taken first, the number
    it shows may spare a later guess.
    """
    board = analysis.board
    nbrs = neighbours(board.width, board.height)
    probs = analysis.probabilities
    half = Fraction(1, 2)
    known = analysis.mines | {i for i, v in enumerate(board.cells) if v == FLAG}
    halves = sorted(j for j, p in probs.items() if p == half)
    for a in halves:
        around_a = set(nbrs[a]) - known
        for b in nbrs[a]:
            if b <= a or probs.get(b) != half:
                continue
            if around_a - {b} != set(nbrs[b]) - known - {a}:
                continue
            cells = list(board.cells)
            cells[a] = FLAG
            try:
                flagged = Board(board.width, board.height, tuple(cells))
                after = analyze(flagged, analysis.total_mines)
            except CroupierError:
                continue
            if b in after.safes:
                return a, b
    return None


def _outcomes(analysis: Analysis, j: int) -> tuple[int, int]:
    """How many numbers ``j`` could show, and the placements in which it shows one that
    makes some cell certainly safe."""
    board = analysis.board
    cells = list(board.cells)
    nbrs = neighbours(board.width, board.height)[j]
    low = sum(1 for n in nbrs if cells[n] == FLAG or n in analysis.mines)
    high = low + sum(1 for n in nbrs if cells[n] == COVERED and n not in analysis.mines)
    outcomes = progress = 0
    for value in range(low, high + 1):  # any other number contradicts the known mines
        cells[j] = value
        try:
            after = analyze(Board(board.width, board.height, tuple(cells)), analysis.total_mines)
        except CroupierError:
            continue
        outcomes += 1
        if after.safes:
            progress += after.placements
    return outcomes, progress
