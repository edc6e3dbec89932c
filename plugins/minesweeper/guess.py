"""The best guess when no cell is certainly safe.

The rule: the lowest exact mine probability wins. Exact ties (common: every interior cell
shares one probability) go to the cell with the fewest covered, not-known-mine neighbours,
because it is the most likely to show a 0 (which opens an area) or a small number that
settles its few neighbours; remaining ties go to the first cell in reading order.
"""

from __future__ import annotations

from croupier.plugins.minesweeper.analysis import Analysis
from croupier.plugins.minesweeper.board import COVERED, neighbours


def best_guess(analysis: Analysis) -> int | None:
    """The cell to click when no cell is certainly safe; ``None`` if there is no choice.

    Cells whose probability is unknown (interior cells when the mine total is not given)
    are only chosen when nothing else is covered.
    """
    board = analysis.board
    probs = analysis.probabilities
    options = [j for j, p in probs.items() if p < 1]
    if not options:
        unknown = [i for i, v in enumerate(board.cells) if v == COVERED and i not in probs]
        return unknown[0] if unknown else None
    nbrs = neighbours(board.width, board.height)
    cells = board.cells
    mines = analysis.mines

    def key(j: int) -> tuple[object, ...]:
        covered = sum(1 for n in nbrs[j] if cells[n] == COVERED and n not in mines)
        return (probs[j], covered, j)

    return min(options, key=key)
