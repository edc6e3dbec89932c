"""Workers yield to the event loop and to other clients: a worker process runs below the
server's CPU priority, and one address (however many connections it opens) holds at most
its share of the workers."""

from __future__ import annotations

import os

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from croupier.protocol.transport.fairpool import FairPool
from croupier.protocol.workers import WORKER_NICENESS, run_job
from tests import memnet
from tests.protocol_helpers import make_server


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no CPU priorities here")
async def test_a_worker_process_runs_below_the_servers_priority(virtual_clock):
    pool = FairPool("solver", 1, max_waiting=1, per_owner=1, max_wait=10.0)
    mine = os.nice(0)
    theirs = await run_job(pool, 1, "niceness", os.nice, 0, timeout=60)
    assert theirs == min(19, mine + WORKER_NICENESS)
    assert os.nice(0) == mine  # the server itself is untouched


async def test_one_group_holds_at_most_its_share_of_the_slots(autojump_clock):
    pool = FairPool("solver", 2, max_waiting=10, per_owner=10, max_wait=100.0, per_group_running=1)
    started: list[tuple[str, float]] = []

    async def job(owner: str, group: str) -> None:
        async with pool.turn(owner, group):
            started.append((owner, trio.current_time()))
            await trio.sleep(10)

    t0 = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(job, "a1", "A")
        await wait_all_tasks_blocked()
        nursery.start_soon(job, "a2", "A")  # a free slot, but A holds its share
        await wait_all_tasks_blocked()
        assert (pool.running, pool.waiting) == (1, 1)
        nursery.start_soon(job, "b1", "B")  # another group takes the free slot at once
    assert started == [("a1", t0), ("b1", t0), ("a2", t0 + 10)]
    assert pool.running == pool.waiting == 0


async def test_two_connections_of_one_address_share_the_solver_workers(nursery, virtual_clock):
    server, _ = make_server(solver_threads=2, solver_timeout=60.0)
    net = await memnet.serve(nursery, server)
    pool = server.solver_pool
    hogs = [net.raw("10.0.0.9") for _ in range(2)]
    other = net.raw("10.0.0.10")
    for raw in (*hogs, other):
        await raw.hello()
    for raw in hogs:
        await raw.send([0, 1, "solve", ["slow", {"seconds": 30}]])
    await wait_all_tasks_blocked()
    assert (pool.running, pool.waiting) == (1, 1)  # one address: one of the two workers
    assert await other.call(1, "solve", "add", {"a": 1, "b": 2}) == [1, 1, None, {"sum": 3}]
