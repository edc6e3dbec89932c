"""The solver's plain-data face: problems and solutions of dicts, lists, str, int and float.

Two kinds of problem (see ``PROBLEM_DOC``): a position to analyse, or one auto-played game.
Big integers (counts of placements) travel as decimal strings so that any msgpack or JSON
client can read them; exact probabilities travel as ``"p/q"`` strings next to floats.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from croupier.engine import CroupierError, Problem, Solution, Stream
from croupier.plugins.minesweeper.analysis import Analysis, analyze
from croupier.plugins.minesweeper.autoplay import play_game
from croupier.plugins.minesweeper.board import FLAG, format_board, parse_board
from croupier.plugins.minesweeper.game import GameSpec
from croupier.plugins.minesweeper.guess import best_guess

PROBLEM_DOC = """\
Analyse a position: {"board": TEXT, "mines": M (optional, counts flagged mines too)}.
TEXT has one line per row: ? covered, 0-8 or . revealed, X or * flagged. The solution has
certain_mines and certain_safes ([row, col], from 0 at the top left), per-cell
probabilities (floats, and exact "p/q" strings; null for revealed cells and, without
"mines", for cells next to no number), best_guess (null when a cell is certainly safe),
components with their mine sets when few, placements (a decimal string) and board_after
(X certain mine, n certain safe).
Play one game: {"play": {"width": W, "height": H, "mines": M, "first_click":
"safe"|"opening", "seed": S, "game": I}} plays game I of seed S (stream child "game-I") and
returns {"won", "guesses", "solves", "revealed"}."""


def _int(problem: Problem, key: str, default: int | None = None) -> int | None:
    value = problem.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise CroupierError(f"{key!r} must be an integer, not {value!r}")
    return value


def solve(problem: Problem) -> Solution:
    """Solve one problem (a position or a game to play), as plain data."""
    if not hasattr(problem, "get"):
        raise CroupierError("a minesweeper problem is a mapping with 'board' or 'play'")
    if "play" in problem:
        return _play(problem["play"])
    text = problem.get("board")
    if not isinstance(text, str):
        raise CroupierError("a minesweeper problem needs 'board' (the board as text) or 'play'")
    unknown = set(problem) - {"board", "mines"}
    if unknown:
        raise CroupierError(f"unknown keys in the problem: {', '.join(sorted(map(str, unknown)))}")
    return describe(analyze(parse_board(text), _int(problem, "mines")))


def _play(options: Any) -> Solution:
    if not isinstance(options, dict):
        raise CroupierError("'play' must be a mapping of width, height, mines, seed, game")
    unknown = set(options) - {"width", "height", "mines", "first_click", "seed", "game"}
    if unknown:
        raise CroupierError(f"unknown keys in 'play': {', '.join(sorted(map(str, unknown)))}")
    values = {}
    for key in ("width", "height", "mines", "seed", "game"):
        value = _int(options, key)
        if value is None:
            raise CroupierError(f"'play' needs {key!r}")
        values[key] = value
    if values["seed"] < 0 or values["game"] < 0:
        raise CroupierError("'seed' and 'game' must be non-negative")
    rule = options.get("first_click", "opening")
    spec = GameSpec(values["width"], values["height"], values["mines"], str(rule))
    result = play_game(spec, Stream(values["seed"]).child(f"game-{values['game']}"))
    return attrs.asdict(result)


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def describe(analysis: Analysis) -> Solution:
    """An analysis as plain data (see ``PROBLEM_DOC``)."""
    board = analysis.board
    probs = analysis.probabilities
    floats: list[list[float | None]] = []
    exact: list[list[str | None]] = []
    for row in range(board.height):
        frow: list[float | None] = []
        erow: list[str | None] = []
        for col in range(board.width):
            index = row * board.width + col
            p = Fraction(1) if board.cells[index] == FLAG else probs.get(index)
            frow.append(None if p is None else float(p))
            erow.append(None if p is None else _exact(p))
        floats.append(frow)
        exact.append(erow)
    guess = None if analysis.safes else best_guess(analysis)
    guess_info = None
    if guess is not None:
        row, col = board.coords(guess)
        p = probs.get(guess)
        guess_info = {
            "row": row,
            "col": col,
            "probability": None if p is None else float(p),
            "exact": None if p is None else _exact(p),
        }
    marks = {j: "X" for j in analysis.mines} | {j: "n" for j in analysis.safes}
    return {
        "width": board.width,
        "height": board.height,
        "mines": analysis.total_mines,
        "certain_mines": [list(board.coords(j)) for j in sorted(analysis.mines)],
        "certain_safes": [list(board.coords(j)) for j in sorted(analysis.safes)],
        "best_guess": guess_info,
        "probabilities": floats,
        "exact": exact,
        "placements": str(analysis.placements),
        "interior_cells": len(analysis.interior),
        "components": [
            {
                "cells": [list(board.coords(j)) for j in c.cells],
                "arrangements": str(c.arrangements),
                "sets": [[list(board.coords(j)) for j in s] for s in c.sets],
            }
            for c in analysis.components
        ],
        "board": format_board(board),
        "board_after": format_board(board, marks),
    }
