"""Auto-play: the solver plays whole games, so win rates can be measured.

Each turn the player analyses what it sees (its deduced mines flagged), clicks every
certainly safe cell, and only when there is none clicks the best guess. The first click is
given by the game's rule and is not counted as a guess. Should a position ever exceed the
solver's search budget (never seen on the standard sizes), the player clicks the first
covered cell in reading order, counted as a guess.
"""

from __future__ import annotations

import attrs

from croupier.engine import Stream
from croupier.plugins.minesweeper.analysis import TooComplexError, analyze
from croupier.plugins.minesweeper.board import COVERED, FLAG, Board
from croupier.plugins.minesweeper.game import Game, GameSpec
from croupier.plugins.minesweeper.guess import best_guess


@attrs.frozen
class GameResult:
    """How one game went: won or lost, guesses taken, solver calls, cells revealed."""

    won: bool
    guesses: int
    solves: int
    revealed: int


def play_game(spec: GameSpec, stream: Stream) -> GameResult:
    """Play one game generated from ``stream`` to the end."""
    game = Game(spec, stream)
    game.reveal(spec.start())
    flags: set[int] = set()
    guesses = solves = 0
    while not game.over:
        view = list(game.view)
        for j in flags:
            view[j] = FLAG
        solves += 1
        try:
            analysis = analyze(Board(spec.width, spec.height, tuple(view)), spec.mines)
        except TooComplexError:  # never seen on standard sizes: click the first unknown cell
            guesses += 1
            game.reveal(next(i for i, v in enumerate(view) if v == COVERED))
            continue
        flags |= analysis.mines
        if analysis.safes:
            for j in sorted(analysis.safes):
                game.reveal(j)
            continue
        guess = best_guess(analysis)
        if guess is None:  # only mines are left covered: the game is already won
            break
        guesses += 1
        game.reveal(guess)
    cells = spec.width * spec.height
    revealed = cells - spec.mines - game.hidden_safe
    return GameResult(game.won, guesses, solves, revealed)
