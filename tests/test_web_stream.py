"""The WebSocket as a trio stream: one msgpack message per frame out, frames in as bytes,
and a web connection served as any other one, limited to the ``watcher`` role."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
import trio

from croupier.engine import PluginManager
from croupier.protocol import Server
from croupier.protocol.web import WebSocketStream
from croupier.protocol.web.app import WEB_ROLES, same_origin


class FakeWebSocket:
    """What the stream uses of starlette's WebSocket: frames in from a channel, out to a list."""

    def __init__(self) -> None:
        self.to_server, self.incoming = trio.open_memory_channel[dict[str, Any]](16)
        self.frames: list[bytes] = []
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
        while not self.frames:
            self.got_frame = trio.Event()
            await self.got_frame.wait()
        return msgpack.unpackb(self.frames.pop(0))


async def test_each_message_goes_out_in_a_frame_of_its_own():
    ws = FakeWebSocket()
    stream = WebSocketStream(ws)  # type: ignore[arg-type]
    first, second, third = (msgpack.packb(m) for m in ([1, 0, None, "x" * 300], [2, "a", []], 7))
    await stream.send_all(first + second + third[:0])
    await stream.send_all(third[:1])  # a message cut across writes waits for its end
    assert ws.frames == [first, second, third]  # (7 is one byte: complete at once)
    big = msgpack.packb({"k": list(range(1000))})
    await stream.send_all(big[:10])
    assert len(ws.frames) == 3
    await stream.send_all(big[10:])
    assert ws.frames[-1] == big


async def test_frames_come_in_as_bytes_and_a_disconnect_ends_the_stream():
    ws = FakeWebSocket()
    stream = WebSocketStream(ws)  # type: ignore[arg-type]
    await ws.to_server.send({"type": "websocket.receive", "bytes": b"abcdef"})
    await ws.to_server.send({"type": "websocket.receive", "text": "é"})
    await ws.to_server.send({"type": "websocket.disconnect", "code": 1000})
    assert await stream.receive_some(4) == b"abcd"
    assert await stream.receive_some(4) == b"ef"
    assert await stream.receive_some() == "é".encode()
    assert await stream.receive_some() == b""
    assert await stream.receive_some() == b""
    await stream.aclose()
    assert not ws.closed  # the browser closed it already


async def test_a_web_connection_is_served_as_a_watcher_only():
    server = Server(PluginManager(autoload=False), default_game="blackjack", seed=1)
    ws = FakeWebSocket()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(
            lambda: server.handle(WebSocketStream(ws), peer="10.0.0.1:5", roles=WEB_ROLES)  # type: ignore[arg-type]
        )
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


def test_only_the_servers_own_pages_may_open_the_websocket():
    assert same_origin(None, "127.0.0.1:8080")  # not a browser
    assert same_origin("http://127.0.0.1:8080", "127.0.0.1:8080")
    assert same_origin("http://LOCALHOST:8080", "localhost:8080")
    assert not same_origin("http://evil.example", "127.0.0.1:8080")
    assert not same_origin("http://127.0.0.1:9999", "127.0.0.1:8080")
    assert not same_origin("http://127.0.0.1:8080", None)


async def test_writing_to_a_browser_that_has_gone_is_a_broken_stream():
    ws = FakeWebSocket()
    stream = WebSocketStream(ws)  # type: ignore[arg-type]
    ws.closed = True  # starlette refuses to send on a closed WebSocket
    with pytest.raises(trio.BrokenResourceError):
        await stream.send_all(msgpack.packb([2, "shutdown", []]))
    with pytest.raises(trio.BrokenResourceError):
        await stream.send_all(msgpack.packb([2, "shutdown", []]))
    await stream.aclose()
    with pytest.raises(trio.ClosedResourceError):
        await stream.receive_some()
