"""Solutions kept for reuse: ``croupier solve blackjack --indices COUNT`` takes minutes, and
asking again for the same set (to ``--plot`` it, ``--out`` it, see it as ``--json``) reads
the one already solved instead of solving it again.

A solver is a deterministic function of its problem to plain data
(:class:`~croupier.engine.solvers.Solver`), so a solution is kept under a hash of the
problem, croupier's version and the source of the plugin that solved it (a changed solver
never answers from an older one's cache). The files are in ``$XDG_CACHE_HOME/croupier/
solves`` (default ``~/.cache/croupier/solves``; ``$CROUPIER_CACHE`` names another folder);
deleting them only costs time. A cache
that cannot be read or written is no cache: the problem is solved.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from croupier.engine import __version__
from croupier.engine.solvers import Solver

CACHE_VARIABLE = "CROUPIER_CACHE"


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$CROUPIER_CACHE`` if set (the tests set one of their own), else ``solves`` in
    the user's cache directory, ``$XDG_CACHE_HOME/croupier`` (default ``~/.cache``)."""
    env = os.environ if environ is None else environ
    if env.get(CACHE_VARIABLE):
        return Path(env[CACHE_VARIABLE])
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "croupier" / "solves"


def _code(solver: Solver) -> str:
    """A digest of the source of the package that solves (its plugin's package)."""
    parts = solver.solve.__module__.split(".")
    top = ".".join(parts[:3] if parts[:2] == ["croupier", "plugins"] else parts[:1])
    package = sys.modules.get(top)
    digest = hashlib.sha256()
    where = getattr(package, "__file__", None)
    if where is not None:
        for path in sorted(Path(where).parent.rglob("*.py")):
            digest.update(path.as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def solve_reusing(
    solver: Solver, problem: Mapping[str, Any], key: Mapping[str, Any], *, fresh: bool = False
) -> tuple[dict[str, Any], bool]:
    """``solver.solve(problem)``, or the solution kept for ``key`` (the problem without
    what does not change its solution, such as the number of workers); whether it was
    reused. ``fresh`` solves again (and keeps the new solution)."""
    text = json.dumps([__version__, solver.name, _code(solver), key], sort_keys=True, default=str)
    path = cache_dir() / f"{hashlib.sha256(text.encode()).hexdigest()}.json"
    if not fresh:
        try:
            return json.loads(path.read_text(encoding="utf-8")), True
        except (OSError, ValueError):
            pass
    solution = solver.solve(problem)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(solution), encoding="utf-8")
        partial.replace(path)  # whole or not at all, even with two solves at once
    except (OSError, TypeError, ValueError):
        pass
    return solution, False
