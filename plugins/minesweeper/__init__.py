"""The Minesweeper solver plugin: exact probabilities, best guess, game engine, auto-play.

Contributes the solver ``minesweeper`` (see :mod:`.problem` for its problem and solution).
The modules: :mod:`.board` (text format), :mod:`.analysis` (exact probabilities),
:mod:`.guess` (the guess rule), :mod:`.game` (the game engine), :mod:`.autoplay`.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.engine import CommandLine, Solver, hookimpl
from croupier.plugins.minesweeper.cli import COMMAND_LINE
from croupier.plugins.minesweeper.problem import PROBLEM_DOC, solve


@hookimpl
def croupier_solvers() -> Iterable[Solver]:
    return [
        Solver(
            "minesweeper",
            "Minesweeper positions: certain cells, exact mine probabilities, best guess; auto-play",
            solve,
            PROBLEM_DOC,
        )
    ]


@hookimpl
def croupier_command_lines() -> Iterable[CommandLine]:
    """``croupier solve minesweeper``."""
    return [COMMAND_LINE]
