"""Solutions kept for reuse: ``croupier solve blackjack --indices COUNT`` takes minutes, and
asking again for the same set (to ``--plot`` it, ``--out`` it, see it as ``--json``) reads
the one already solved instead of solving it again.

A solver is a deterministic function of its problem to plain data
(:class:`~croupier.engine.solvers.Solver`), so a solution is kept by the engine's
:mod:`~croupier.engine.solvecache` under a hash of the problem, croupier's version and the
source of the plugin that solved it (a changed solver never answers from an older one's
cache). A cache that cannot be read or written is no cache: the problem is solved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.engine.solvecache import cache_dir, package_of, reuse, source_digest
from croupier.engine.solvers import Solver

__all__ = ["cache_dir", "solve_reusing"]


def _solution(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError("a solution is a JSON object")
    return data


def solve_reusing(
    solver: Solver, problem: Mapping[str, Any], key: Mapping[str, Any], *, fresh: bool = False
) -> tuple[dict[str, Any], bool]:
    """``solver.solve(problem)``, or the solution kept for ``key`` (the problem without
    what does not change its solution, such as the number of workers); whether it was
    reused. ``fresh`` solves again (and keeps the new solution)."""
    code = source_digest(package_of(solver.solve.__module__))
    return reuse(solver.name, code, key, lambda: solver.solve(problem), _solution, fresh=fresh)
