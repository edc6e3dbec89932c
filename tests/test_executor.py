"""One executor for all fan-out: here, on worker processes, on a Dask cluster; the same
results wherever tasks run, clear errors for a cluster that is not there."""

from __future__ import annotations

import operator
import time

import attrs
import pytest

from croupier.engine import CroupierError
from croupier.engine.chunks import CHUNK, run_chunks
from croupier.engine.executor import open_executor
from croupier.engine.gamesim import game_job
from croupier.plugins.blackjack.strategy import local_strategy

TASKS = [(n, 3) for n in range(40)]
EXPECTED = [n**3 for n in range(40)]


@pytest.fixture(params=["here", "processes", "cluster"])
def executor(request, dask_cluster):
    where = request.param
    if where == "cluster":
        from distributed import Client  # imported here: it costs each worker's collection

        with Client(dask_cluster) as client, open_executor(cluster=client) as pool:
            yield pool
    else:
        with open_executor(workers=1 if where == "here" else 2) as pool:
            yield pool


def test_every_task_runs_once_with_its_index(executor):
    unordered = list(executor.map(operator.pow, TASKS))
    assert sorted(i for i, _ in unordered) == list(range(len(TASKS)))
    assert all(result == EXPECTED[i] for i, result in unordered)
    assert list(executor.map(operator.pow, TASKS, ordered=True)) == list(enumerate(EXPECTED))


def test_a_tasks_error_reaches_the_caller(executor):
    with pytest.raises(ZeroDivisionError):
        list(executor.map(operator.floordiv, [(1, 1), (1, 0), (2, 1)], ordered=True))


def test_where_is_said(executor, dask_cluster):
    expected = {1: "this process", 2: "2 worker processes"}.get(executor.slots)
    if executor.pool is not None and "Dask" in executor.where:
        assert executor.where == f"the Dask cluster at {dask_cluster.scheduler_address}"
        assert executor.slots == 2
    else:
        assert executor.where == expected


def test_a_simulation_is_the_same_wherever_it_runs(manager, executor):
    rules = manager.rule_sets.get("vegas-h17").rules
    job = manager.sim_kernels.get("blackjack").prepare(
        manager, rules, local_strategy(manager, "basic", rules), 3
    )
    rounds = 3 * CHUNK // 2 + 17
    alone = run_chunks(job, 31, rounds)
    there = run_chunks(job, 31, rounds, executor=executor)
    assert there == alone and there.rounds == rounds and not there.partial


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("nonsense", "a Dask cluster is its scheduler's address, such as tcp://"),
        ("http://example.org:80", "a Dask cluster is its scheduler's address"),
        ("tcp://127.0.0.1:1", "cannot reach the Dask cluster at tcp://127.0.0.1:1: "),
    ],
)
def test_a_cluster_that_is_not_there_is_one_clear_error(address, message):
    with pytest.raises(CroupierError, match=message), open_executor(cluster=address):
        pass


def test_workers_are_at_least_one():
    with pytest.raises(CroupierError, match="at least 1"), open_executor(workers=0):
        pass


def test_ctrl_c_returns_the_chunks_done_marked_partial(manager, executor):
    """Ctrl-C (here: raised by the progress callback after the first chunk is booked)
    stops the run at once with the first chunks finished, and what was queued is dropped."""
    rules = manager.rule_sets.get("vegas-s17").rules
    job = manager.sim_kernels.get("blackjack").prepare(
        manager, rules, local_strategy(manager, "lim17", rules), 1
    )

    def interrupt(rounds, totals):
        raise KeyboardInterrupt

    result = run_chunks(job, 5, 40 * CHUNK, executor=executor, progress=interrupt)
    assert result.partial and result.rounds in (0, CHUNK)  # chunk 1 may finish first
    assert result.totals == run_chunks(job, 5, result.rounds).totals
    # the executor is still usable: the next run is whole
    assert not run_chunks(job, 5, 1000, executor=executor).partial


class OutOfOrder:
    """An executor whose chunk 1 finishes before chunk 0, then chunk 3, and is stopped by
    Ctrl-C while chunk 2 still runs."""

    def map(self, fn, tasks):
        tasks = list(tasks)
        for index in (1, 0, 3):
            yield index, fn(*tasks[index])
        raise KeyboardInterrupt


def test_a_partial_run_is_the_whole_run_of_its_rounds(manager):
    """A chunk finished after one still running is left out of a partial result: what
    Ctrl-C returns is exactly the run of that many rounds from the same seed."""
    baccarat = manager.games.get("baccarat")
    job = attrs.evolve(game_job(baccarat, baccarat.rules(), "banker", 1), chunk=100)
    result = run_chunks(job, 8, 1000, executor=OutOfOrder())
    assert result.partial and result.rounds == 200
    assert result.totals == run_chunks(job, 8, 200).totals
    assert result.totals["rounds"] == 200


def test_closing_kills_the_workers_of_tasks_nobody_awaits():
    """A run stopped while workers are busy does not wait for their tasks (a chunk of a
    slow game took minutes) nor leave them running: closing the executor kills them."""
    with open_executor(workers=2) as executor:
        results = executor.map(time.sleep, [(0,), (3600,), (3600,)], ordered=True)
        assert next(results) == (0, None)
        workers = list(executor.pool._processes.values())
        results.close()  # what Ctrl-C does to a run's loop
        assert executor.busy()
    assert workers and not any(w.is_alive() for w in workers)
