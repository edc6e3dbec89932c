"""Where CPU-bound work runs: in this process, on its threads, on worker processes, or on a
Dask cluster.

One interface for everything croupier fans out: the simulator's chunks, Minesweeper
auto-play and local tournaments. A task is a module-level function and picklable
arguments; :meth:`Executor.map` keeps a few tasks in flight per worker (memory stays flat
however many tasks there are) and yields each result with its task's index, in the order
tasks finish or, with ``ordered=True``, in the order they were given. Callers make results
independent of where they ran (each task carries its own seed), so the same seed gives
the same answer on one process, on every core or on a cluster.

The cluster is Dask distributed's (the optional ``croupier[dask]`` extra): an existing
scheduler's address, or a ``distributed.Client``. Its workers need croupier and the same
plugins installed. Ctrl-C (``KeyboardInterrupt``) reaches the caller at once: local
workers ignore it, the pool is shut down without waiting for queued tasks, and workers
still busy with a task nobody awaits any more are killed when the executor closes (they
would otherwise finish it first, or outlive the command as orphans).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures import Executor as PoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

import attrs

from croupier.engine.errors import CroupierError

R = TypeVar("R")

CLUSTER_TIMEOUT = 10
"""Seconds to wait for a Dask scheduler to answer before giving up with a clear error."""


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@attrs.define
class Executor:
    """Runs tasks here (``pool`` None), on local processes or on a Dask cluster.

    ``slots`` is how many tasks run at once; ``where`` says where, for reports; ``ahead``
    is how many tasks are handed out per slot (more hides a cluster's scheduling delay).
    """

    pool: PoolExecutor | None
    slots: int
    where: str
    ahead: int = 2
    abandoned: list[Future[Any]] = attrs.field(factory=list, init=False, repr=False)
    """Tasks a stopped :meth:`map` left running: the pool's close kills their workers."""

    def map(
        self,
        fn: Callable[..., R],
        tasks: Iterable[tuple[Any, ...]],
        *,
        ordered: bool = False,
    ) -> Generator[tuple[int, R], None, None]:
        """``fn(*task)`` for each task: ``(index, result)`` pairs, at most :attr:`ahead` tasks
        in flight per slot. A task's exception is raised here when its result is reached."""
        if self.pool is None:
            for index, args in enumerate(tasks):
                yield index, fn(*args)
            return
        upcoming = iter(enumerate(tasks))
        limit = max(1, self.ahead * self.slots)
        pending: dict[Future[R], int] = {}
        try:
            if ordered:
                for index, args in upcoming:
                    pending[self.pool.submit(fn, *args)] = index
                    if len(pending) >= limit:
                        yield self._first(pending)
                while pending:
                    yield self._first(pending)
                return
            while True:
                while len(pending) < limit:
                    nxt = next(upcoming, None)
                    if nxt is None:
                        break
                    pending[self.pool.submit(fn, *nxt[1])] = nxt[0]
                if not pending:
                    return
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield pending.pop(future), future.result()
        finally:  # stopped early (Ctrl-C, an error, a caller that has enough): drop the rest
            for future in pending:
                if not future.cancel():
                    self.abandoned.append(future)

    def busy(self) -> bool:
        """Whether a task nobody awaits is still running."""
        self.abandoned = [f for f in self.abandoned if not f.done()]
        return bool(self.abandoned)

    @staticmethod
    def _first(pending: dict[Future[R], int]) -> tuple[int, R]:
        """The oldest pending task's result (dicts keep their insertion order)."""
        future = next(iter(pending))
        index = pending.pop(future)
        return index, future.result()


@contextmanager
def open_executor(
    workers: int = 1, cluster: object | None = None, threads: int = 0
) -> Iterator[Executor]:
    """An :class:`Executor` for ``workers`` local processes (1: this process), for
    ``threads`` threads of this process (tasks that release the GIL, such as the compiled
    simulator's chunks: nothing to start, nothing to load again), or for the Dask cluster
    ``cluster`` (an address such as ``tcp://host:8786``, or a Client)."""
    if cluster is not None:
        with _dask(cluster) as executor:
            yield executor
        return
    if threads > 1:
        with ThreadPoolExecutor(threads) as in_threads:
            yield Executor(in_threads, threads, f"{threads} threads")
        return
    if workers < 1:
        raise CroupierError(f"workers must be at least 1, not {workers}")
    if workers == 1:
        yield Executor(None, 1, "this process")
        return
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_sigint)
    executor = Executor(pool, workers, f"{workers} worker processes")
    clean = False
    try:
        yield executor
        clean = True
    finally:
        if clean and not executor.busy():
            pool.shutdown(wait=True)
        else:
            _stop(pool)


@contextmanager
def _dask(cluster: object) -> Iterator[Executor]:
    try:
        from distributed import Client
    except ImportError:
        raise CroupierError("a Dask cluster needs Dask: pip install 'croupier[dask]'") from None
    own = not isinstance(cluster, Client)
    if own:
        address = str(cluster)
        _reach(address)
        try:
            client = Client(address, timeout=CLUSTER_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise CroupierError(f"cannot reach the Dask cluster at {address}: {exc}") from None
    else:
        client = cluster
    try:
        threads = sum(client.nthreads().values())
        if threads < 1:
            raise CroupierError(f"the Dask cluster at {client.scheduler.address} has no workers")
        pool = client.get_executor(pure=False)
        clean = False
        try:
            where = f"the Dask cluster at {client.scheduler.address}"
            yield Executor(pool, threads, where, ahead=4)
            clean = True
        finally:
            pool.shutdown(wait=clean)  # not waiting cancels what is queued
    finally:
        if own:
            client.close()


def _reach(address: str) -> None:
    """Refuse a malformed or unreachable scheduler address at once, in one line (a Client
    would retry for its whole timeout, then complain again when collected)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme not in ("tcp", "tls"):
            if scheme in ("ws", "wss", "ucx", "inproc"):
                return  # another of Dask's transports: the Client checks it
            raise ValueError(scheme)
        host, port = parse_host_port(location)
    except ValueError:
        raise CroupierError(
            f"a Dask cluster is its scheduler's address, such as tcp://10.0.0.5:8786, "
            f"not {address!r}"
        ) from None
    try:
        socket.create_connection((host, port), timeout=CLUSTER_TIMEOUT).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise CroupierError(f"cannot reach the Dask cluster at {address}: {reason}") from None


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down now: queued tasks dropped, its workers killed (a worker only
    stops between tasks by itself, and one left behind keeps the forkserver and the
    resource tracker alive too) and reaped."""
    processes = list((pool._processes or {}).values())  # no public way before Python 3.14
    for process in processes:
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join()


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops the run and reports what is done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
