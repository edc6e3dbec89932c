"""CPU work runs off the event loop in worker processes the server can stop.

The worker processes are real, the clock is virtual (``virtual_clock``): it stands still
while a job is out, so spawning a worker or running a job takes no time however loaded the
machine is, and a test moves the clock past a time limit itself (``jump``), once the job is
out (every task blocked).
"""

from __future__ import annotations

import threading

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from croupier.plugins.blackjack.solver import basic_strategy
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.transport.fairpool import FairPool
from croupier.protocol.workers import run_job
from tests import memnet
from tests.protocol_helpers import make_server
from tests.servedtables import table_server


async def test_a_solve_over_its_time_is_stopped_and_frees_its_worker_at_once(
    nursery, virtual_clock
):
    server, _ = make_server(solver_threads=1, solver_timeout=1.0)
    net = await memnet.serve(nursery, server)
    async with net.connect(name="hog") as hog, net.connect(name="other") as other:
        stopped: list[RpcError] = []

        async def hog_solves() -> None:
            with pytest.raises(RpcError) as exc:
                await hog.call("solve", "slow", {"seconds": 120})
            stopped.append(exc.value)

        async with trio.open_nursery() as inner:
            inner.start_soon(hog_solves)
            await wait_all_tasks_blocked()
            assert server.solver_pool.running == 1  # out, in its worker
            virtual_clock.jump(1.5)
        assert stopped[0].code == Code.LIMIT_EXCEEDED
        assert "ran for 1 s and was stopped" in stopped[0].message
        # the only worker was stopped with the call (a thread would sleep on for 2 minutes)
        assert await other.call("solve", "add", {"a": 1, "b": 2}) == {"sum": 3}


async def test_a_client_whose_queue_is_full_hears_busy_not_a_timeout(nursery, virtual_clock):
    server, _ = make_server(solver_threads=1, work_queue_per_connection=1, solver_timeout=10)
    net = await memnet.serve(nursery, server)
    pool = server.solver_pool
    answers: dict[str, object] = {}

    async def call(client, key, solver, problem) -> None:
        try:
            answers[key] = await client.call("solve", solver, problem)
        except RpcError as exc:
            answers[key] = exc

    async with (
        net.connect(name="hog") as hog,
        net.connect(name="other") as other,
        trio.open_nursery() as inner,
    ):
        inner.start_soon(call, hog, "running", "slow", {"seconds": 600})
        await wait_all_tasks_blocked()
        virtual_clock.jump(1)  # the queued jobs' waits end after the running one's time
        inner.start_soon(call, hog, "queued", "add", {"a": 2, "b": 2})
        await wait_all_tasks_blocked()
        assert (pool.running, pool.waiting) == (1, 1)  # one runs, one waits: hog's queue is full
        with pytest.raises(RpcError, match="nothing was run") as exc:
            await hog.call("solve", "add", {"a": 1, "b": 2})
        assert exc.value.code == Code.BUSY
        # another client still waits its turn: it is not refused
        inner.start_soon(call, other, "other", "add", {"a": 1, "b": 2})
        await wait_all_tasks_blocked()
        assert (pool.running, pool.waiting) == (1, 2)
        virtual_clock.jump(9.5)  # past the running solve's 10 s, not the waits' 10 s
    assert isinstance(answers["running"], RpcError)
    assert answers["running"].code == Code.LIMIT_EXCEEDED
    assert answers["queued"] == {"sum": 4} and answers["other"] == {"sum": 3}


async def test_a_jobs_time_limit_counts_from_its_turn_not_from_its_call(virtual_clock):
    """A job that waited longer than its time limit for a free worker still gets all of
    it: only running counts. (Jobs that cannot be pickled run in threads; these wait on
    the test.)"""
    pool = FairPool("solver", 1, max_waiting=4, per_owner=4, max_wait=100.0)
    release = threading.Event()
    outcomes: dict[str, object] = {}

    async def job(name: str, work) -> None:
        try:
            outcomes[name] = await run_job(pool, "hog", name, work, timeout=2.5)
        except RpcError as exc:
            outcomes[name] = exc.code

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(job, "first", lambda: release.wait(60))
            await wait_all_tasks_blocked()
            nursery.start_soon(job, "second", lambda: "done")
            await wait_all_tasks_blocked()
            assert (pool.running, pool.waiting) == (1, 1)
            virtual_clock.jump(3)  # the first is stopped at 2.5 s; the second waited 3 s
    finally:
        release.set()  # the first's abandoned thread
    assert outcomes == {"first": Code.LIMIT_EXCEEDED, "second": "done"}


@pytest.mark.parametrize("method", ["table.create", "tournament.start"])
async def test_basic_strategy_is_solved_in_a_worker_never_in_the_server(
    nursery, virtual_clock, method
):
    """The chart for new rules is computed in a worker process: the server's own solver
    cache never sees the rules (solving there froze every client for seconds)."""
    server = table_server()
    await memnet.serve(nursery, server)
    options = {"decks": 3, "surrender": "none", "double_after_split": False}
    before = basic_strategy.cache_info().misses
    async with server.net.connect(name="c") as c:
        if method == "table.create":
            params = {"rules": "vegas-s17", "options": options, "fill": ["basic"], "rounds": 2}
        else:
            params = {"bots": ["basic", "lim17"], "rules": "vegas-s17", "options": options}
            params.update(tourneys=1, rounds=1, hands=1)
        info = await c.call_named(method, params)
    assert info["state"] in ("playing", "waiting", "finished")
    assert basic_strategy.cache_info().misses == before


async def test_a_chart_made_ready_once_is_kept_for_the_next_table(nursery, virtual_clock):
    server = table_server()
    await memnet.serve(nursery, server)
    params = {"rules": "vegas-s17", "options": {"decks": 5}, "fill": ["basic"], "rounds": 1}
    async with server.net.connect(name="c") as c:
        await c.call_named("table.create", params)
        (key,) = server.state["prepared"]
        first = server.state["prepared"][key]
        await c.call_named("table.create", params)
    assert list(server.state["prepared"]) == [key] and server.state["prepared"][key] is first
