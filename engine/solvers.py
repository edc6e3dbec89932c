"""The solver extension point: pure functions from a problem to a solution.

Problems and solutions are plain data (dicts of str, int, float, bool, lists, None), so a
solver can be called the same way from the CLI, from Python and over the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

Problem = Mapping[str, Any]
"""What a solver is asked: plain data (str keys; str, int, float, bool, list, None values)."""
Solution = dict[str, Any]
"""What a solver answers, plain data like its problem."""


@attrs.frozen
class Solver:
    """A named solver.

    ``solve(problem)`` must be deterministic, must not touch files or the network, and must
    raise :class:`~croupier.engine.errors.CroupierError` (one line) for a bad problem.
    ``problem_doc`` describes the problem's keys for the server's ``solvers`` call.
    """

    name: str
    summary: str
    solve: Callable[[Problem], Solution]
    problem_doc: str = ""
