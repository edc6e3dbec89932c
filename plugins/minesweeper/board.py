"""Minesweeper boards as text and as data: parsing, printing, neighbours.

The text format is the classic solver's, one line per row, one character per cell:

- ``?`` a covered cell (unknown);
- ``0``-``8`` a revealed number, ``.`` also a revealed 0 (an empty cell);
- ``X`` or ``*`` a flagged mine (taken as certain: the player says it is a mine).

Spaces and tabs inside a line are ignored (so ``? 1 ?`` and ``?1?`` are the same row), blank
lines are skipped, and a line starting with ``#`` is a comment. Every row must have the same
number of cells. Cells are addressed as ``(row, col)``, both counted from 0 at the top left.
"""

from __future__ import annotations

from functools import cache

import attrs

from croupier.engine import SpecError

COVERED = -1
FLAG = -2
MAX_SIDE = 200
MAX_CELLS = 10_000
MAX_TEXT = 100_000

_CHARS = {"?": COVERED, "X": FLAG, "x": FLAG, "*": FLAG, ".": 0}
_CHARS.update({str(d): d for d in range(9)})


@attrs.frozen
class Board:
    """A position: ``cells[row * width + col]`` is ``COVERED``, ``FLAG`` or a number 0-8."""

    width: int
    height: int
    cells: tuple[int, ...]

    def cell(self, row: int, col: int) -> int:
        return self.cells[row * self.width + col]

    def coords(self, index: int) -> tuple[int, int]:
        return divmod(index, self.width)


def check_size(width: int, height: int) -> None:
    """Raise a one-line error for a board that is empty or absurdly large."""
    if width < 1 or height < 1:
        raise SpecError(f"a board needs at least one row and one column, not {width}x{height}")
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_CELLS:
        raise SpecError(
            f"a {width}x{height} board is too large (at most {MAX_SIDE} cells a side "
            f"and {MAX_CELLS} cells in all)"
        )


def parse_board(text: str) -> Board:
    """Parse board text (see the module docstring); a bad board is a one-line ``SpecError``."""
    if len(text) > MAX_TEXT:
        raise SpecError(f"the board text is too long ({len(text)} characters, at most {MAX_TEXT})")
    rows: list[list[int]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        row: list[int] = []
        for pos, char in enumerate(raw):
            if char in " \t\r":
                continue
            value = _CHARS.get(char)
            if value is None:
                raise SpecError(
                    f"row {len(rows) + 1} (line {number}): {char!r} is not a cell "
                    "(use ? covered, 0-8 or . revealed, X or * flagged)",
                    raw.strip("\r\n"),
                    pos,
                )
            row.append(value)
        if rows and len(row) != len(rows[0]):
            raise SpecError(
                f"row {len(rows) + 1} (line {number}) has {len(row)} cells, "
                f"but the first row has {len(rows[0])}"
            )
        rows.append(row)
    if not rows:
        raise SpecError("the board is empty")
    width, height = len(rows[0]), len(rows)
    check_size(width, height)  # after the whole text (bounded above), so the size is exact
    board = Board(width, height, tuple(v for row in rows for v in row))
    for index, value in enumerate(board.cells):
        if value > 0:
            count = len(neighbours(width, height)[index])
            if value > count:
                row_, col = board.coords(index)
                raise SpecError(f"the {value} at ({row_}, {col}) has only {count} neighbours")
    return board


def format_board(board: Board, marks: dict[int, str] | None = None) -> str:
    """The board as text, with ``marks`` (index -> character) drawn over covered cells."""
    marks = marks or {}
    lines = []
    for row in range(board.height):
        chars = []
        for col in range(board.width):
            index = row * board.width + col
            value = board.cells[index]
            if value == COVERED:
                chars.append(marks.get(index, "?"))
            elif value == FLAG:
                chars.append("X")
            else:
                chars.append("." if value == 0 else str(value))
        lines.append("".join(chars))
    return "\n".join(lines)


@cache
def neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index of a ``width`` x ``height`` board, its up to 8 neighbours."""
    out = []
    for row in range(height):
        for col in range(width):
            out.append(
                tuple(
                    r * width + c
                    for r in range(max(0, row - 1), min(height, row + 2))
                    for c in range(max(0, col - 1), min(width, col + 2))
                    if (r, c) != (row, col)
                )
            )
    return tuple(out)
