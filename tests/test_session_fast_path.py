"""The session's fast path keeps the protocol's promises: order, limits, idle time.

Quick answers of one received chunk are written together, after anything sent before them
and before anything sent after; the idle deadline, moved lazily, still closes a quiet
connection on time and never a talking one.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
import trio
import trio.testing

from croupier.protocol import Code
from croupier.protocol.transport.codec import Request
from croupier.protocol.transport.session import Session
from tests import memnet
from tests.protocol_helpers import Raw, make_server


class CountingStream(trio.abc.Stream):
    """A stream that counts the writes made to it."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner = inner
        self.writes = 0

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.writes += 1
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def _read(stream: trio.abc.Stream, count: int) -> list[Any]:
    unpacker = msgpack.Unpacker(raw=False)
    out: list[Any] = []
    with trio.fail_after(5):
        while len(out) < count:
            unpacker.feed(await stream.receive_some(65536))
            out.extend(unpacker)
    return out


async def test_quick_answers_of_one_chunk_go_out_in_one_write_in_order(nursery):
    left, right = trio.testing.memory_stream_pair()
    counted = CountingStream(right)

    async def answer(session: Session, request: Request) -> Any:
        if request.method == "note":  # a quick handler that sends something itself
            await session.notify("noted", [request.msgid])
        return request.msgid

    server = Session(counted, on_request=answer, is_quick=lambda request: True)
    nursery.start_soon(server.run)
    chunk = b"".join(msgpack.packb([0, i, "ping", []]) for i in range(20))
    await left.send_all(chunk)
    assert [r[1] for r in await _read(left, 20)] == list(range(20))
    assert counted.writes == 1
    # the notification a handler sends goes after the answers before it, ahead of its own
    methods = ["ping", "note", "ping"]
    await left.send_all(b"".join(msgpack.packb([0, i, m, []]) for i, m in enumerate(methods)))
    assert await _read(left, 4) == [[1, 0, None, 0], [2, "noted", [1]], [1, 1, None, 1],
                                    [1, 2, None, 2]]  # fmt: skip


async def test_pipelined_requests_then_garbage_over_tcp(nursery):
    server, _ = make_server()
    (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
    raw = await Raw.connect(port)
    await raw.hello()
    pings = b"".join(msgpack.packb([0, i, "ping", []]) for i in range(1, 301))
    await raw.send_bytes(pings + msgpack.packb([0, 301, "ping", 5]) + b"\xc1")
    answers = [await raw.receive() for _ in range(301)]
    assert answers[:300] == [[1, i, None, "pong"] for i in range(1, 301)]
    assert answers[300][1] == 301 and answers[300][2]["code"] == Code.INVALID_REQUEST
    notice = await raw.receive()
    assert notice[:2] == [2, "error"] and notice[2][0]["code"] == Code.INVALID_REQUEST
    assert await raw.receive() is None


async def test_a_talking_connection_outlives_the_idle_timeout_and_a_quiet_one_does_not(
    nursery, virtual_clock
):
    server, _ = make_server(idle_timeout=0.3)
    await memnet.serve(nursery, server)
    raw = server.net.raw()
    await raw.hello()
    start = trio.current_time()
    for msgid in range(1, 10):  # 0.9 s of talk, every 0.1 s: never idle for 0.3 s
        await trio.sleep(0.1)
        assert await raw.call(msgid, "ping") == [1, msgid, None, "pong"]
    quiet_since = trio.current_time()
    assert quiet_since - start > 0.85
    notice = await raw.receive()
    waited = trio.current_time() - quiet_since
    assert notice[:2] == [2, "error"] and notice[2][0]["code"] == Code.LIMIT_EXCEEDED
    assert waited == pytest.approx(0.3), waited  # on time, though the deadline moves lazily
    assert await raw.receive() is None
