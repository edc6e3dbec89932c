"""A watching browser, simulated: a minimal WebSocket client (RFC 6455) that speaks the web
page's msgpack-rpc to ``/rpc`` as the page does (``hello`` as a ``watcher``, then
``table.watch``) and reads every notification, decoding each frame's message with msgpack,
until the table's status says it finished. For benchmarks/watchers.py, which sets a TCP
watcher's cost (:class:`TcpWatcher`) beside it.

The client is written here, on a trio stream, rather than with wsproto: the server is what
is measured, so a simulated browser should cost its own process as little as it can (a
frame's header read by hand, the payload handed to msgpack's C decoder).
"""

from __future__ import annotations

import base64
import hashlib
import os
import struct
import time
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import trio

from croupier.protocol.client import connect_stream

ACCEPT_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
BINARY, CLOSE, PING, PONG = 0x2, 0x8, 0x9, 0xA


class WebSocketClient:
    """One WebSocket connection: binary frames out (masked, as a client must), frames in."""

    def __init__(self, stream: trio.SocketStream, pending: bytes) -> None:
        self.stream = stream
        self.buffer = bytearray(pending)
        self.at = 0  # where the next frame starts in the buffer

    @classmethod
    async def open(
        cls, host: str, port: int, path: str = "/rpc", local: str | None = None
    ) -> WebSocketClient:
        """Connect (from the local address ``local``, so many browsers can come from many
        addresses) and do the opening handshake, with the page's own ``Origin``."""
        stream = await trio.open_tcp_stream(host, port, local_address=local)
        key = base64.b64encode(os.urandom(16))
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n\r\n"
        )
        await stream.send_all(request.encode())
        head = bytearray()
        while b"\r\n\r\n" not in head:
            chunk = await stream.receive_some(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection during the handshake")
            head += chunk
        header, _, rest = bytes(head).partition(b"\r\n\r\n")
        status, *lines = header.decode("latin-1").split("\r\n")
        if " 101 " not in status + " ":
            raise ConnectionError(f"no WebSocket: {status}")
        accept = base64.b64encode(hashlib.sha1(key + ACCEPT_GUID).digest()).decode()
        fields = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines)}
        if fields.get("sec-websocket-accept") != accept:
            raise ConnectionError("the server's Sec-WebSocket-Accept is wrong")
        return cls(stream, rest)

    async def send(self, payload: bytes, opcode: int = BINARY) -> None:
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        mask = os.urandom(4)
        stretched = (mask * (size // 4 + 1))[:size]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(stretched, "big")).to_bytes(
            size, "big"
        )
        await self.stream.send_all(head + mask + masked)

    def _take(self) -> tuple[int, bytes] | None:
        """The next whole frame in the buffer from ``self.at`` (opcode, payload), or None."""
        buf, at = self.buffer, self.at
        if len(buf) - at < 2:
            return None
        size, start = buf[at + 1] & 0x7F, at + 2
        if size == 126:
            if len(buf) - at < 4:
                return None
            (size,), start = struct.unpack_from("!H", buf, at + 2), at + 4
        elif size == 127:
            if len(buf) - at < 10:
                return None
            (size,), start = struct.unpack_from("!Q", buf, at + 2), at + 10
        if len(buf) < start + size:
            return None
        self.at = start + size
        return buf[at] & 0x0F, bytes(buf[start : start + size])

    async def frames(self) -> AsyncIterator[bytes]:
        """Each binary frame's payload (a ping is answered, a close ends the stream); the
        server sends each message whole, in one frame."""
        while True:
            frame = self._take()
            if frame is None:
                del self.buffer[: self.at]  # once per read, not once per frame
                self.at = 0
                chunk = await self.stream.receive_some(1 << 18)
                if not chunk:
                    return
                self.buffer += chunk
                continue
            opcode, payload = frame
            if opcode == BINARY:
                yield payload
            elif opcode == PING:
                await self.send(payload, PONG)
            elif opcode == CLOSE:
                return

    async def aclose(self) -> None:
        await self.stream.aclose()


class Watcher:
    """A simulated browser on a table's live page: what it was sent, counted."""

    def __init__(self) -> None:
        self.events = 0
        self.ended: float | None = None  # time.monotonic() when the table's end came
        self.error: str | None = None
        self.watching = False

    async def watch(
        self,
        host: str,
        port: int,
        table: int,
        local: str | None,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Say hello as a watcher, watch ``table`` (``task_status.started()`` once the
        server has answered) and read until it finishes or the server drops this page."""
        ws = await WebSocketClient.open(host, port, local=local)
        try:
            await ws.send(msgpack.packb([0, 0, "hello", [1, "bench-watcher", "watcher"]]))
            await ws.send(msgpack.packb([0, 1, "table.watch", [table]]))
            messages = msgpack.Unpacker()  # a frame holds one or more whole messages
            async for payload in ws.frames():
                messages.feed(payload)
                if any(self._heard(message, task_status) for message in messages):
                    break
            if not self.watching:
                self.error = self.error or "the connection closed before table.watch answered"
                task_status.started()
        finally:
            await ws.aclose()

    def _heard(self, message: list[Any], task_status: trio.TaskStatus[None]) -> bool:
        """Count one message; True when there is nothing more to read."""
        if message[0] == 1:  # a response: hello's (msgid 0) or table.watch's (1)
            if message[2] is not None:
                self.error = str(message[2])
                return True
            if message[1] == 1:
                self.watching = True
                task_status.started()
        elif message[1] == "table.event":
            self.events += 1
        elif message[1] == "table.status" and message[2][1]["state"] == "finished":
            self.ended = time.monotonic()
            return True
        return False


class TcpWatcher(Watcher):
    """A watcher over TCP (croupier's own client), to set a browser's cost beside."""

    async def watch(
        self,
        host: str,
        port: int,
        table: int,
        local: str | None,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        done = trio.Event()

        def heard(method: str, params: Any) -> None:
            if method == "table.event":
                self.events += 1
            elif method == "table.status" and params[1]["state"] == "finished":
                self.ended = time.monotonic()
                done.set()

        stream = await trio.open_tcp_stream(host, port, local_address=local)
        async with connect_stream(
            stream, name="bench-watcher", role="watcher", on_notification=heard
        ) as client:
            await client.call("table.watch", table)
            self.watching = True
            task_status.started()
            await done.wait()
