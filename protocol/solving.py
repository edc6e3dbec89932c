"""``solve``: call any solver plugin by name with its problem (plain data).

Solvers are pure CPU work, so each call runs off the event loop in a worker process (see
:mod:`croupier.protocol.workers`): at most ``solver_threads`` at once server-wide and one
per connection, the connections served in turn. A call that cannot even wait its turn (the
queue is full, or no worker frees within ``solver_timeout``) gets ``busy``; a call that runs
over ``solver_timeout`` is stopped and gets ``limit-exceeded``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from croupier.protocol.transport.methods import Method, Param, Service
from croupier.protocol.transport.server import Connection
from croupier.protocol.workers import PluginFailure, internal_error, run_job

SOLVE_COST = 50.0
"""Tokens a solve takes from its caller's request budget (it may hold a worker for a
minute)."""


class SolverService(Service):
    """The ``solve`` method."""

    def methods(self) -> Iterable[Method]:
        return [
            Method(
                "solve",
                (
                    Param("solver", (str,), doc="a solver's name (see 'solvers')"),
                    Param("problem", (dict,), doc="the problem, as the solver documents it"),
                ),
                self.solve,
                "solve one problem with a solver plugin",
                returns="the solver's solution (a map)",
                watcher=True,
                cost=SOLVE_COST,
            )
        ]

    async def solve(self, conn: Connection, solver: str, problem: dict[str, Any]) -> Any:
        server = conn.server
        found = server.manager.solvers.get(solver)
        try:
            return await run_job(
                server.solver_pool,
                conn.id,
                f"solver {solver!r}",
                found.solve,
                problem,
                timeout=server.limits.solver_timeout,
                group=conn.address,
            )
        except PluginFailure as exc:
            raise internal_error(exc) from None
