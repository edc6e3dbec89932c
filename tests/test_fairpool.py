"""The fair worker pool: owners served in turn, a bounded queue, ``busy`` when it is true."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from croupier.protocol.errors import Code, RpcError
from croupier.protocol.transport.fairpool import FairPool


def pool(**kw: object) -> FairPool:
    args: dict[str, object] = {"max_waiting": 100, "per_owner": 100, "max_wait": 1000.0}
    args.update(kw)
    return FairPool("test", int(args.pop("slots", 1)), **args)  # type: ignore[arg-type]


async def test_a_freed_slot_goes_to_each_waiting_owner_in_turn(autojump_clock):
    p = pool()
    order: list[str] = []

    async def job(owner: str, tag: str) -> None:
        async with p.turn(owner):
            order.append(tag)
            await trio.sleep(1)

    async with trio.open_nursery() as nursery:
        for i in range(4):  # the hog queues four jobs first ...
            nursery.start_soon(job, "hog", f"hog{i}")
            await trio.testing.wait_all_tasks_blocked()
        nursery.start_soon(job, "a", "a0")  # ... then two others one job each
        await trio.testing.wait_all_tasks_blocked()
        nursery.start_soon(job, "b", "b0")
    assert order == ["hog0", "hog1", "a0", "b0", "hog2", "hog3"]
    assert p.running == 0 and p.waiting == 0


async def test_one_owner_runs_one_job_at_a_time_when_asked(autojump_clock):
    p = pool(slots=2, per_owner_running=1)
    started: list[tuple[str, float]] = []

    async def job(owner: str) -> None:
        async with p.turn(owner):
            started.append((owner, trio.current_time()))
            await trio.sleep(10)

    t0 = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(job, "hog")
        nursery.start_soon(job, "hog")
        await trio.testing.wait_all_tasks_blocked()
        nursery.start_soon(job, "other")
    assert [(o, t - t0) for o, t in started] == [("hog", 0), ("other", 0), ("hog", 10)]


async def test_a_full_queue_says_busy_at_once_and_nothing_runs(autojump_clock):
    p = pool(max_waiting=2, per_owner=1)
    ran: list[str] = []

    async def job(owner: str) -> None:
        async with p.turn(owner):
            ran.append(owner)
            await trio.sleep(5)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(job, "x")
        await trio.testing.wait_all_tasks_blocked()
        nursery.start_soon(job, "y")
        await trio.testing.wait_all_tasks_blocked()
        with pytest.raises(RpcError) as mine:  # y already has its one waiting job
            await job("y")
        assert mine.value.code == Code.BUSY and "1 of yours" in mine.value.message
        nursery.start_soon(job, "z")
        await trio.testing.wait_all_tasks_blocked()
        with pytest.raises(RpcError) as full:  # two wait: the queue is full
            await job("w")
        assert full.value.code == Code.BUSY and "nothing was run" in full.value.message
    assert ran == ["x", "y", "z"]


async def test_a_job_that_waits_too_long_is_busy_and_leaves_the_queue(autojump_clock):
    p = pool(max_wait=3.0)

    async def hold() -> None:
        async with p.turn("x"):
            await trio.sleep(10)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hold)
        await trio.testing.wait_all_tasks_blocked()
        with pytest.raises(RpcError, match="no test worker was free within 3 s") as exc:
            async with p.turn("y"):
                pass
        assert exc.value.code == Code.BUSY and p.waiting == 0


async def test_a_job_cancelled_while_waiting_or_just_handed_a_slot_frees_it(autojump_clock):
    p = pool()
    async with trio.open_nursery() as nursery:
        release = trio.Event()

        async def hold() -> None:
            async with p.turn("x"):
                await release.wait()

        nursery.start_soon(hold)
        await trio.testing.wait_all_tasks_blocked()
        with trio.move_on_after(1):
            async with p.turn("y"):  # cancelled while it waits
                pytest.fail("never runs")
        assert p.waiting == 0

        handed = trio.CancelScope()

        async def wait_then_cancelled() -> None:
            with handed:
                async with p.turn("z"):
                    await trio.sleep_forever()

        nursery.start_soon(wait_then_cancelled)
        await trio.testing.wait_all_tasks_blocked()
        release.set()  # the slot passes to z ...
        handed.cancel()  # ... which is cancelled before it runs: the slot comes back
        await trio.testing.wait_all_tasks_blocked()
    assert p.running == 0 and p.waiting == 0
    async with p.turn("again"):
        assert p.running == 1
