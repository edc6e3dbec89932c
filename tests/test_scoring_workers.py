"""A scored server table's valuations run in a scoring worker process, off the server's
process (``ServerLimits.scoring_workers``; 0: a thread of the server's), and the option
that sizes them (``croupier serve --scoring-workers``)."""

from __future__ import annotations

import argparse
import os
from types import SimpleNamespace
from typing import Any, cast

import pytest
import trio

from croupier.clients.cli.commands.serve import register, server_limits
from croupier.engine.oracle import Question, Valuation
from croupier.protocol import ServerLimits
from croupier.protocol.tables.scoring import answer


def _where(_: object) -> Valuation:
    """Values the decision with the id of the process that valued it."""
    return Valuation({"pid": float(os.getpid())}, "pid")


def _table(workers: int) -> Any:
    limits = ServerLimits(scoring_workers=workers)
    limiter = trio.CapacityLimiter(max(1, workers))
    server = SimpleNamespace(limits=limits, scoring_limiter=limiter)
    return cast(Any, SimpleNamespace(server=server))


def _valued_in(workers: int) -> set[float]:
    async def main() -> list[Valuation]:
        return await answer(_table(workers), [Question(_where, None), Question(_where, None)])

    return {v.values["pid"] for v in trio.run(main)}


def test_a_scoring_worker_values_decisions_in_another_process() -> None:
    (pid,) = _valued_in(1)
    assert pid != os.getpid()


def test_no_scoring_workers_values_them_in_the_servers_process() -> None:
    assert _valued_in(0) == {os.getpid()}


def _serve(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_serve_sizes_the_scoring_workers() -> None:
    assert server_limits(_serve()).scoring_workers == ServerLimits().scoring_workers == 1
    assert server_limits(_serve("--scoring-workers", "0")).scoring_workers == 0
    assert server_limits(_serve("--scoring-workers", "3")).scoring_workers == 3


@pytest.mark.parametrize("value", ["-1", "two"])
def test_serve_rejects_a_bad_number_of_scoring_workers(cli: Any, value: str) -> None:
    status, _, err = cli("serve", "--scoring-workers", value)
    assert status == 2 and "a number of workers" in err and "Traceback" not in err
