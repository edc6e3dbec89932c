"""A chunk of many small requests is dispatched in turns: one connection that packs
thousands of requests into each read must not hold the event loop for the whole chunk while
other connections wait (a ping flood once held it 150 to 250 ms a chunk)."""

from __future__ import annotations

import itertools
from typing import Any

import msgpack
import trio
import trio.testing

from croupier.protocol.transport.codec import Request
from croupier.protocol.transport.session import DISPATCH_TURN, Session

REQUESTS = 20 * DISPATCH_TURN


async def test_a_chunk_of_many_quick_requests_lets_other_tasks_run_between_turns(nursery):
    left, right = trio.testing.memory_stream_pair()
    handled = 0

    async def answer(session: Session, request: Request) -> Any:
        nonlocal handled
        handled += 1
        return "pong"

    session = Session(right, on_request=answer, is_quick=lambda request: True)
    nursery.start_soon(session.run)
    chunk = b"".join(msgpack.packb([0, i, "ping", []]) for i in range(REQUESTS))
    assert len(chunk) <= 65536  # one read takes the whole chunk
    seen: list[int] = []

    async def other_connection() -> None:  # what another client's task gets meanwhile
        while handled < REQUESTS:
            seen.append(handled)
            await trio.lowlevel.checkpoint()

    async def read_answers() -> None:
        unpacker, answers = msgpack.Unpacker(raw=False), 0
        while answers < REQUESTS:
            unpacker.feed(await left.receive_some(1 << 20))
            answers += sum(1 for _ in unpacker)

    async with trio.open_nursery() as inner:
        inner.start_soon(read_answers)
        await left.send_all(chunk)
        inner.start_soon(other_connection)
    # between two turns of the other task at most two of the session's (trio may run the
    # two tasks in either order within one pass of its run queue)
    steps = [b - a for a, b in itertools.pairwise(seen)]
    assert len(seen) >= REQUESTS // (2 * DISPATCH_TURN) and max(steps) <= 2 * DISPATCH_TURN
    await session.close()
