"""Closing a browser's WebSocket always ends, within CLOSE_FLUSH: the connection's slot is
freed even when the browser stopped reading, kept sending and went away. Against a model of
what hypercorn does then (found by the red team of wave 2, where such connections were never
closed and held their slots for ever), on trio's virtual clock."""

from __future__ import annotations

import socket
from typing import Any

import msgpack
import pytest
import trio

from croupier.protocol.transport.limits import ServerLimits
from croupier.protocol.web import websocket_stream
from croupier.protocol.web.serving import bind_http
from croupier.protocol.web.wsstream import CLOSE_FLUSH
from tests.test_web_stream import FakeWebSocket

APP_QUEUE = 10
"""hypercorn's ``max_app_queue_size``: messages for the app it holds before waiting."""


class StoppedReading(FakeWebSocket):
    """hypercorn serving a browser that stopped reading: a frame being sent holds the
    connection's send lock until the browser goes; then, still holding it, the sender hands
    the app the disconnect through the app's queue (full: the browser kept sending), and
    ``close`` waits for the same lock."""

    def __init__(self) -> None:
        super().__init__()
        self.to_server, self.incoming = trio.open_memory_channel[dict[str, Any]](APP_QUEUE)
        self.lock = trio.Lock()
        self.gone = trio.Event()

    async def send_bytes(self, data: bytes) -> None:
        async with self.lock:
            await self.gone.wait()
            await self.to_server.send({"type": "websocket.disconnect", "code": 1006})

    async def close(self) -> None:
        async with self.lock:
            self.closed = True

    def fill_queue(self) -> None:
        for _ in range(APP_QUEUE):
            self.to_server.send_nowait({"type": "websocket.receive", "bytes": b"\x90"})


async def test_a_browser_that_stopped_reading_and_went_is_closed(virtual_clock):
    ws = StoppedReading()
    with trio.fail_after(10 * CLOSE_FLUSH):
        async with websocket_stream(ws) as stream:  # type: ignore[arg-type]
            await stream.send_all(msgpack.packb([2, "table.event", [1, {}]]))
            ws.fill_queue()
            ws.gone.set()
            start = trio.current_time()
        assert trio.current_time() - start <= CLOSE_FLUSH
    # the disconnect was handed over, which freed the send lock, and the close went through
    assert ws.closed and not ws.lock.locked()


async def test_a_browser_that_neither_reads_nor_goes_is_left_after_the_flush_time(virtual_clock):
    ws = StoppedReading()
    with trio.fail_after(10 * CLOSE_FLUSH):
        async with websocket_stream(ws) as stream:  # type: ignore[arg-type]
            await stream.send_all(msgpack.packb([2, "table.event", [1, {}]]))
            start = trio.current_time()
        assert trio.current_time() - start == CLOSE_FLUSH


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="a Linux socket option")
def test_the_kernel_drops_a_browser_that_stops_reading_after_the_send_timeout():
    """hypercorn never times a write out: the web port's sockets have the kernel give up on
    a peer that leaves data unacknowledged for the session's send timeout (accepted
    connections inherit it from the listening socket)."""
    listener = bind_http(ServerLimits(send_timeout=12.5), "127.0.0.1", 0)
    try:
        for sock in listener.sockets.insecure_sockets:
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 12_500
            sock.settimeout(10)
            with socket.create_connection(sock.getsockname()[:2]):
                accepted, _ = sock.accept()
                with accepted:
                    option = accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT)
                    assert option == 12_500
    finally:
        for sock in listener.sockets.insecure_sockets:
            sock.close()
