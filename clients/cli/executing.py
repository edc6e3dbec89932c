"""``--workers``, ``--threads`` and ``--cluster``: where a command's CPU-bound work runs.

The commands that fan out (``sim``, ``solve minesweeper --play``, ``tournament``) share
these options and :func:`croupier.engine.executor.open_executor`, so a run gives the same
result on one process, on every core or on a Dask cluster.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from croupier.clients.cli.common import workers_type
from croupier.clients.cli.stopping import stop_on_signals
from croupier.engine.executor import Executor, open_executor


def add_executor_arguments(
    parser: argparse.ArgumentParser, workers_help: str, threads_help: str = ""
) -> None:
    """``--workers N`` (``workers_help`` says its default) or ``--cluster ADDRESS``; with
    ``threads_help`` (its default), ``--threads N`` too, for work that releases the GIL."""
    where = parser.add_mutually_exclusive_group()
    if threads_help:
        where.add_argument(
            "--threads",
            type=workers_type,
            default=None,
            metavar="N",
            help=f"threads of this process ({threads_help}); the result does not depend on it",
        )
    where.add_argument(
        "--workers",
        type=workers_type,
        default=None,
        metavar="N",
        help=f"worker processes on this machine ({workers_help}); the result does not depend on it",
    )
    where.add_argument(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at ADDRESS, e.g. tcp://10.0.0.5:8786 "
        "(pip install 'croupier[dask]'; its workers need croupier and the same plugins); "
        "the result is the same as on this machine",
    )


@contextmanager
def executor_for(args: argparse.Namespace, workers: int, threads: int = 0) -> Iterator[Executor]:
    """The executor the options ask for: ``args.cluster``, ``threads`` threads of this
    process (more than one), or ``workers`` local processes (the command's choice from
    ``args.workers``, ``args.threads``, its default and the work there is).
    Within, SIGTERM stops the work as Ctrl-C does and a second signal exits at once
    (:func:`~croupier.clients.cli.stopping.stop_on_signals`)."""
    where = open_executor(workers=workers, cluster=args.cluster, threads=threads)
    with stop_on_signals(), where as executor:
        yield executor
