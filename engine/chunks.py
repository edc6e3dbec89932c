"""The simulator's driver: a job's rounds in fixed chunks, on any number of processes.

A run of ``rounds`` rounds from ``seed`` is cut into chunks of :data:`CHUNK` rounds (the
last one shorter); chunk ``i`` is played from the 64-bit seed
``Stream(seed).child("chunk", i).getrandbits(64)`` and returns integer totals, which are
summed. The chunks and their seeds depend on the seed and the number of rounds only, and
integer sums do not depend on the order they are added in, so a run gives the same totals
on one process, on every core, or on a cluster.

The driver knows nothing of the game: a :class:`~croupier.engine.kernels.KernelJob` brings
the function that plays a chunk and the data it needs. Ctrl-C (``KeyboardInterrupt``)
stops at once and returns the chunks finished so far, marked partial.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

import attrs

from croupier.engine.errors import CroupierError
from croupier.engine.kernels import KernelJob
from croupier.engine.seeds import Stream

CHUNK = 1_000_000
"""Rounds per chunk: part of what makes a run reproducible (see the module's text)."""


def chunk_seed(seed: int, index: int) -> int:
    """The 64-bit seed of chunk ``index`` of a run seeded ``seed``."""
    return Stream(seed).child("chunk", str(index)).getrandbits(64)


def chunk_sizes(rounds: int) -> Iterator[int]:
    """The rounds of each chunk, in order."""
    full, rest = divmod(rounds, CHUNK)
    yield from (CHUNK for _ in range(full))
    if rest:
        yield rest


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@attrs.frozen
class ChunkResult:
    """Summed totals by field, the rounds they cover, and whether the run stopped early."""

    totals: dict[str, int]
    rounds: int
    partial: bool


def _check(job: KernelJob, values: list[int], index: int) -> list[int]:
    if len(values) != len(job.fields):
        raise CroupierError(
            f"a simulator chunk returned {len(values)} totals, not {len(job.fields)}"
        )
    if all(v == -1 for v in values):
        raise CroupierError(f"chunk {index} could not be played: the shoe ran out in a round")
    return values


def run_chunks(
    job: KernelJob,
    seed: int,
    rounds: int,
    *,
    workers: int = 1,
    progress: Callable[[int, dict[str, int]], None] | None = None,
) -> ChunkResult:
    """Play ``rounds`` rounds of ``job`` on ``workers`` processes (1: in this one).

    ``progress(rounds_done_now, totals_so_far)`` is called after each chunk, in the order
    chunks finish.
    """
    if workers < 1:
        raise CroupierError(f"workers must be at least 1, not {workers}")
    totals = dict.fromkeys(job.fields, 0)
    done = 0

    def add(values: list[int], size: int) -> None:
        nonlocal done
        for name, value in zip(job.fields, values, strict=True):
            totals[name] += value
        done += size
        if progress is not None:
            progress(size, totals)

    sizes = list(chunk_sizes(rounds))
    try:
        if workers == 1 or len(sizes) == 1:
            for index, size in enumerate(sizes):
                values = list(job.run(job.data, chunk_seed(seed, index), size))
                add(_check(job, values, index), size)
        else:
            _run_pool(job, seed, sizes, min(workers, len(sizes)), add)
    except KeyboardInterrupt:
        return ChunkResult(totals, done, partial=True)
    return ChunkResult(totals, done, partial=False)


def _run_pool(
    job: KernelJob, seed: int, sizes: list[int], workers: int, add: Callable[[list[int], int], None]
) -> None:
    """Chunks on a pool of processes, a few in flight per worker (memory stays flat)."""
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_init)
    pending: dict[Future[list[int]], tuple[int, int]] = {}
    upcoming = iter(enumerate(sizes))
    try:
        while True:
            while len(pending) < 2 * workers:
                nxt = next(upcoming, None)
                if nxt is None:
                    break
                index, size = nxt
                future = pool.submit(_play, job, chunk_seed(seed, index), size)
                pending[future] = (index, size)
            if not pending:
                break
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index, size = pending.pop(future)
                add(_check(job, future.result(), index), size)
    finally:
        pool.shutdown(wait=not pending, cancel_futures=True)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops the run and reports what is done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play(job: KernelJob, seed: int, rounds: int) -> list[int]:
    return list(job.run(job.data, seed, rounds))
