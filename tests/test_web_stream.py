"""The WebSocket as a trio stream: whole msgpack messages gathered into frames out (a frame
every FRAME_INTERVAL at most), frames in as bytes, and a web connection served as any other
one, limited to the ``watcher`` role. On trio's virtual clock (the tests' autojump MockClock):
the frame writer's pause is virtual time, and the tests wait on events."""

from __future__ import annotations

import os
import socket
from typing import Any

import msgpack
import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Server
from croupier.protocol.web import websocket_stream
from croupier.protocol.web.app import WEB_ROLES, same_origin
from croupier.protocol.web.transports import FrameWriter, binary_frame
from croupier.protocol.web.wsstream import FRAME_BYTES, FRAME_INTERVAL, WAITING_BYTES


class FakeWebSocket:
    """What the stream uses of starlette's WebSocket: frames in from a channel, out to a list."""

    def __init__(self) -> None:
        self.to_server, self.incoming = trio.open_memory_channel[dict[str, Any]](16)
        self.frames: list[bytes] = []
        self.messages: list[Any] = []
        self.got_frame = trio.Event()
        self.closed = False

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.receive()

    async def send_bytes(self, data: bytes) -> None:
        if self.closed:
            raise RuntimeError('Cannot call "send" once a close message has been sent.')
        self.frames.append(data)
        self.got_frame.set()

    async def close(self) -> None:
        self.closed = True

    async def send_message(self, obj: Any) -> None:
        await self.to_server.send({"type": "websocket.receive", "bytes": msgpack.packb(obj)})

    async def next_message(self) -> Any:
        while not self.messages:
            while not self.frames:
                self.got_frame = trio.Event()
                await self.got_frame.wait()
            unpacker = msgpack.Unpacker()
            unpacker.feed(self.frames.pop(0))
            self.messages.extend(unpacker)  # a frame holds whole messages
        return self.messages.pop(0)

    async def frames_after(self, count: int) -> list[bytes]:
        """The frames once there are ``count``."""
        while len(self.frames) < count:
            self.got_frame = trio.Event()
            await self.got_frame.wait()
        return self.frames


async def test_messages_go_out_whole_gathered_into_a_frame_per_interval(virtual_clock):
    ws = FakeWebSocket()
    first, second, third = (msgpack.packb(m) for m in ([1, 0, None, "x" * 300], [2, "a", []], 7))
    async with websocket_stream(ws) as stream:  # type: ignore[arg-type]
        start = trio.current_time()
        await stream.send_all(first[:5])  # a message cut across writes waits for its end
        await stream.send_all(first[5:] + second[:3])
        # after a quiet spell a frame goes at once: the first message, alone
        assert await ws.frames_after(1) == [first] and trio.current_time() == start
        await stream.send_all(second[3:])
        await stream.send_all(third)
        # what came meanwhile goes together, one interval after the frame before
        assert await ws.frames_after(2) == [first, second + third]
        assert trio.current_time() == start + FRAME_INTERVAL
        # a frame holds FRAME_BYTES at most, cut at message borders; a larger message alone
        small = msgpack.packb(b"s" * (FRAME_BYTES // 3))
        big = msgpack.packb(b"b" * FRAME_BYTES)
        await stream.send_all(small * 4 + big + small)
        frames = await ws.frames_after(6)
        assert frames[2:] == [small * 2, small * 2, big, small]
    assert ws.closed


async def test_offered_messages_go_out_as_they_are_while_there_is_room(virtual_clock):
    """A table's fan-out hands a browser whole messages without waiting (no splitting, the
    same bytes it hands every watcher); a full stream takes nothing and says so."""
    ws = FakeWebSocket()
    messages = b"".join(msgpack.packb([2, "table.event", [1, {"n": n}]]) for n in range(3))
    async with websocket_stream(ws) as stream:  # type: ignore[arg-type]
        start = trio.current_time()
        assert stream.room_for(len(messages))
        stream.offer_messages(messages)
        assert await ws.frames_after(1) == [messages] and ws.frames[0] is messages
        stream.offer_messages(msgpack.packb(7))  # paced as the session's writes are
        assert await ws.frames_after(2) == [messages, msgpack.packb(7)]
        assert trio.current_time() == start + FRAME_INTERVAL
        assert not stream.room_for(WAITING_BYTES + 1)
        await stream.send_all(b"\x92")  # an array of two begun: half a message written
        assert not stream.room_for(1)  # nothing may come between its halves


async def test_offered_messages_go_straight_to_the_socket_in_order(virtual_clock):
    """With the socket at hand (:mod:`.transports`), an offer is written at once, by the
    caller, with no task switch; what the socket does not take, and whatever comes after
    it, goes out in order from the frame writer (gathered into a frame, as ever)."""
    a, b = trio.socket.socketpair()
    a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    server, browser = trio.SocketStream(a), trio.SocketStream(b)
    writer = FrameWriter(server, trio.Semaphore(1))
    first = msgpack.packb([2, "table.event", [1, {"n": 1}]])
    big = msgpack.packb([2, "table.event", [1, {"text": "x" * 1_000_000}]])
    last = msgpack.packb([2, "table.status", [1, {"state": "finished"}]])
    async with websocket_stream(FakeWebSocket(), writer) as stream:  # type: ignore[arg-type]
        stream.offer_messages(first)
        assert os.read(b.fileno(), 65536) == binary_frame(first)  # there: no await between
        stream.offer_messages(big)  # far more than the socket holds
        await stream.send_all(msgpack.packb([1, 5, None, "an answer"]))
        stream.offer_messages(last)
        received = bytearray()
        while not received.endswith(last):
            received += await browser.receive_some(1 << 20)
    answer = msgpack.packb([1, 5, None, "an answer"])
    assert bytes(received) == binary_frame(big) + binary_frame(answer + last)  # gathered
    a.close()
    b.close()


async def test_what_is_waiting_goes_out_before_the_stream_closes(virtual_clock):
    ws = FakeWebSocket()
    async with websocket_stream(ws) as stream:  # type: ignore[arg-type]
        await stream.send_all(msgpack.packb(1))
        await ws.frames_after(1)
        await stream.send_all(msgpack.packb([2, "shutdown", []]))  # within the interval
        await stream.aclose()
        assert ws.frames[1:] == [msgpack.packb([2, "shutdown", []])] and ws.closed


async def test_frames_come_in_as_bytes_and_a_disconnect_ends_the_stream(virtual_clock):
    ws = FakeWebSocket()
    async with websocket_stream(ws) as stream:  # type: ignore[arg-type]
        await receive_until_gone(ws, stream)
    assert not ws.closed  # the browser closed it already


async def receive_until_gone(ws: FakeWebSocket, stream: Any) -> None:
    await ws.to_server.send({"type": "websocket.receive", "bytes": b"abcdef"})
    await ws.to_server.send({"type": "websocket.receive", "text": "é"})
    await ws.to_server.send({"type": "websocket.disconnect", "code": 1000})
    assert await stream.receive_some(4) == b"abcd"
    assert await stream.receive_some(4) == b"ef"
    assert await stream.receive_some() == "é".encode()
    assert await stream.receive_some() == b""
    assert await stream.receive_some() == b""


async def test_a_web_connection_is_served_as_a_watcher_only(virtual_clock):
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    ws = FakeWebSocket()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(serve_page, server, ws)
        await ws.send_message([0, 1, "hello", [1, "page", "bot"]])
        _, msgid, error, _ = await ws.next_message()
        assert (msgid, error["name"]) == (1, "bad-input")
        assert "watcher" in error["message"]
        await ws.send_message([0, 2, "hello", [1, "page", "watcher"]])
        assert (await ws.next_message())[2] is None
        await ws.send_message([0, 3, "table.list", []])
        assert await ws.next_message() == [1, 3, None, []]
        [conn] = server.connections.values()
        assert (conn.peer, conn.role) == ("10.0.0.1:5", "watcher")
        await ws.to_server.send({"type": "websocket.disconnect", "code": 1000})
    assert not server.connections


async def serve_page(server: Server, ws: FakeWebSocket) -> None:
    """As the web application serves a page's WebSocket."""
    async with websocket_stream(ws) as stream:  # type: ignore[arg-type]
        await server.handle(stream, peer="10.0.0.1:5", roles=WEB_ROLES)


def test_only_the_servers_own_pages_may_open_the_websocket():
    assert same_origin(None, "127.0.0.1:8080")  # not a browser
    assert same_origin("http://127.0.0.1:8080", "127.0.0.1:8080")
    assert same_origin("http://LOCALHOST:8080", "localhost:8080")
    assert not same_origin("http://evil.example", "127.0.0.1:8080")
    assert not same_origin("http://127.0.0.1:9999", "127.0.0.1:8080")
    assert not same_origin("http://127.0.0.1:8080", None)


async def test_writing_to_a_browser_that_has_gone_is_a_broken_stream(virtual_clock):
    ws = FakeWebSocket()
    ws.closed = True  # starlette refuses to send on a closed WebSocket
    async with websocket_stream(ws) as stream:  # type: ignore[arg-type]
        await stream.send_all(msgpack.packb([2, "shutdown", []]))  # handed to the writer
        with pytest.raises(trio.BrokenResourceError):  # which found the browser gone
            while True:
                await stream.send_all(msgpack.packb([2, "shutdown", []]))
        with pytest.raises(trio.BrokenResourceError):
            await stream.send_all(msgpack.packb([2, "shutdown", []]))
    with pytest.raises(trio.ClosedResourceError):
        await stream.receive_some()
