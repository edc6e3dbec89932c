"""The tests' in-memory network behaves as a trio stream must (trio's own conformance
checks), holds at most its capacity, and connects clients to a server."""

from __future__ import annotations

import trio
from trio.testing import check_half_closeable_stream, wait_all_tasks_blocked

from tests import memnet
from tests.memnet import MemoryNet, stream_pair
from tests.protocol_helpers import make_server


async def test_memory_streams_pass_trios_stream_checks():
    async def pair():
        return stream_pair()

    async def clogged():
        a, b = stream_pair(capacity=1)
        await a.send_all(b"x")  # full both ways: the next send waits for a read
        await b.send_all(b"y")
        return a, b

    await check_half_closeable_stream(pair, clogged)


async def test_a_writer_waits_while_the_reader_holds_its_capacity_unread():
    a, b = stream_pair(capacity=10)
    sent = []

    async def write():
        await a.send_all(b"0123456789abc")
        sent.append(True)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(write)
        await wait_all_tasks_blocked()
        assert not sent  # 10 bytes in, 3 wait for room
        assert await b.receive_some(4) == b"0123"
        await wait_all_tasks_blocked()
        assert sent
    assert await b.receive_some() == b"456789abc"


async def test_a_server_serves_on_the_memory_net(nursery, virtual_clock):
    server, _ = make_server()
    net = await memnet.serve(nursery, server)
    assert isinstance(net, MemoryNet) and server.addresses == []
    async with net.connect(name="c") as client:
        assert await client.call("ping") == "pong"
    raw = net.raw()
    assert (await raw.hello())[2] is None
    assert await raw.call(1, "ping") == [1, 1, None, "pong"]
