"""The simulator's driver: a job's rounds in fixed chunks, on any number of processes.

A run of ``rounds`` rounds from ``seed`` is cut into chunks of the job's fixed size
(:data:`CHUNK` rounds for a compiled kernel, fewer for a game played in Python: see
:attr:`KernelJob.chunk`; the last chunk shorter); chunk ``i`` is played from the 64-bit
seed ``Stream(seed).child("chunk", i).getrandbits(64)`` and returns integer totals, which
are summed. The chunks and their seeds depend on the job, the seed and the number of
rounds only (never on timing), and integer sums do not depend on the order they are added
in, so a run gives the same totals on one process, on every core, or on a cluster.

The driver knows nothing of the game: a :class:`~croupier.engine.kernels.KernelJob` brings
the function that plays a chunk and the data it needs (and, for a short run, the same chunk
without compiled code: :attr:`~croupier.engine.kernels.KernelJob.plain`); an
:class:`~croupier.engine.executor.Executor` says where chunks run. Ctrl-C (``KeyboardInterrupt``)
stops at once and returns the chunks finished so far, marked partial: the first ``k``
chunks (a chunk finished after one still running is dropped), so that the partial result
is exactly the whole run of its rounds from the same seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import closing

import attrs

from croupier.engine.errors import CroupierError
from croupier.engine.executor import Executor
from croupier.engine.kernels import KernelJob
from croupier.engine.seeds import Stream

CHUNK = 1_000_000
"""Rounds per chunk: part of what makes a run reproducible (see the module's text)."""


def chunk_seed(seed: int, index: int) -> int:
    """The 64-bit seed of chunk ``index`` of a run seeded ``seed``."""
    return Stream(seed).child("chunk", str(index)).getrandbits(64)


def chunk_count(rounds: int, chunk: int | None = None) -> int:
    """How many chunks of ``chunk`` rounds (default :data:`CHUNK`) a run of ``rounds``
    rounds has (never more workers are useful)."""
    size = chunk or CHUNK
    return -(-rounds // size)


def chunk_sizes(rounds: int, chunk: int | None = None) -> Iterator[int]:
    """The rounds of each chunk, in order."""
    size = chunk or CHUNK
    full, rest = divmod(rounds, size)
    yield from (size for _ in range(full))
    if rest:
        yield rest


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
    executor: Executor | None = None,
    progress: Callable[[int, dict[str, int]], None] | None = None,
) -> ChunkResult:
    """Play ``rounds`` rounds of ``job`` on ``executor`` (default: this process).

    ``progress(rounds_done_now, totals_so_far)`` is called after each chunk, in the order
    chunks finish, with the totals of every chunk finished so far.
    """
    totals = dict.fromkeys(job.fields, 0)  # every chunk finished, for progress
    prefix = dict.fromkeys(job.fields, 0)  # chunks 0 .. first-1, for a partial result
    first = done = 0
    waiting: dict[int, list[int]] = {}  # finished after a chunk still running
    sizes = list(chunk_sizes(rounds, job.chunk))
    tasks = ((job, chunk_seed(seed, index), size) for index, size in enumerate(sizes))
    plain = job.plain is not None and rounds <= job.plain_up_to
    if plain:  # a short run plays here, without compiled code: the same totals
        executor = None
    here = executor or Executor(None, 1, "this process")
    try:
        with closing(
            here.map(_play_plain if plain else _play, tasks)
        ) as results:  # Ctrl-C cancels what is queued
            for index, values in results:
                _check(job, values, index)
                for name, value in zip(job.fields, values, strict=True):
                    totals[name] += value
                waiting[index] = values
                while first in waiting:
                    for name, value in zip(job.fields, waiting.pop(first), strict=True):
                        prefix[name] += value
                    done += sizes[first]
                    first += 1
                if progress is not None:
                    progress(sizes[index], totals)
    except KeyboardInterrupt:
        return ChunkResult(prefix, done, partial=True)
    return ChunkResult(totals, done, partial=False)


def _play(job: KernelJob, seed: int, rounds: int) -> list[int]:
    return list(job.run(job.data, seed, rounds))


def _play_plain(job: KernelJob, seed: int, rounds: int) -> list[int]:
    assert job.plain is not None
    return list(job.plain(seed, rounds))
