"""A watching browser, simulated: a minimal WebSocket client (RFC 6455) that speaks the web
page's msgpack-rpc to ``/rpc`` as the page does (``hello`` as a ``watcher``, then
``table.watch``, offering permessage-deflate as browsers do) and reads every notification
until the table's status says it finished. For benchmarks/watchers.py, which sets a TCP
watcher's cost (:class:`TcpWatcher`) beside it.

The client is written here, on a trio stream, rather than with wsproto: the server is what
is measured, so a simulated browser should cost its own process as little as it can (a
frame's header read by hand, the payload handed to msgpack's C decoder).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import struct
import time
import zlib
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import trio

from croupier.protocol.transport.client import connect_stream

TABLE_DONE = trio.Event()
"""Set in a watchers' process once the table has finished (see :class:`Watcher`)."""
ACCEPT_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
BINARY, CLOSE, PING, PONG = 0x2, 0x8, 0x9, 0xA
ENDED = msgpack.packb("state") + msgpack.packb("finished")
"""Bytes a table's last ``table.status`` holds (its map's ``state: finished``): a frame
without them is not decoded by a browser that only hashes."""
DEFLATE_TAIL = b"\x00\x00\xff\xff"
"""What permessage-deflate leaves off the end of each compressed message."""
STATUS = b"\x93" + msgpack.packb([2, "table.status"])[1:]
"""How a ``table.status`` notification starts (an array of 3, type 2, the method)."""


class WebSocketClient:
    """One WebSocket connection: binary frames out (masked, as a client must), frames in."""

    def __init__(self, stream: trio.SocketStream, pending: bytes) -> None:
        self.stream = stream
        self.buffer = bytearray(pending)
        self.at = 0  # where the next frame starts in the buffer
        self.inflate: Any = None  # permessage-deflate's, as a browser's (context kept)

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
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
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
        client = cls(stream, rest)
        if "permessage-deflate" in fields.get("sec-websocket-extensions", ""):
            client.inflate = zlib.decompressobj(-15)  # the server's window (15 bits)
        return client

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

    def _take(self) -> tuple[int, bytes, bool] | None:
        """The next whole frame in the buffer from ``self.at`` (opcode, payload, whether
        it is compressed), or None."""
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
        return buf[at] & 0x0F, bytes(buf[start : start + size]), bool(buf[at] & 0x40)

    async def frames(self) -> AsyncIterator[tuple[bytes, bool]]:
        """Each binary frame's payload and whether it is compressed (RSV1, permessage-
        deflate: :meth:`inflated`); a ping is answered, a close ends the stream."""
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
            opcode, payload, compressed = frame
            if opcode == BINARY:
                yield payload, compressed
            elif opcode == PING:
                await self.send(payload, PONG)
            elif opcode == CLOSE:
                return

    def inflated(self, payload: bytes) -> bytes:
        """A compressed frame's payload, inflated as a browser does (the window kept)."""
        return bytes(self.inflate.decompress(payload + DEFLATE_TAIL))

    async def aclose(self) -> None:
        await self.stream.aclose()


class Watcher:
    """A simulated browser on a table's live page: what it was sent, counted.

    A browser that ``decodes`` inflates and reads every message as the page does; the
    others (most of them, so a thousand cost their process little and the server is what
    is measured) take a CRC-32 of the frames after the one holding ``table.watch``'s
    answer, as they came (compressed or not), and look for the table's end only in frames
    that came after :data:`TABLE_DONE` and in the last one before (inflated alone: the
    server compresses each frame on its own). Every browser is sent the same frames, so
    a checksum equal to a decoding browser's that counted every event says it got them all
    (one sent other frames, caught up on its own, counts as not fed)."""

    def __init__(self, decodes: bool = True) -> None:
        self.decodes = decodes
        self.events: int | None = 0 if decodes else None
        self.ended: float | None = None  # time.monotonic() when the table's end came
        self.error: str | None = None
        self.watching = False
        self._digest = 0  # CRC-32 of the frames after table.watch's answer
        self._last: tuple[bytes, bool, float] | None = None  # a frame, compressed, when
        self._scope = trio.CancelScope()

    @property
    def digest(self) -> str | None:
        return f"{self._digest:08x}"

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
            with self._scope:
                async for raw, compressed in ws.frames():
                    if self.watching and not self.decodes:
                        self._digest = zlib.crc32(raw, self._digest)
                        self._last = (raw, compressed, time.monotonic())
                        if TABLE_DONE.is_set() and self.check_end():
                            break
                        continue
                    messages.feed(ws.inflated(raw) if compressed else raw)
                    if self.watching:
                        self._digest = zlib.crc32(raw, self._digest)
                    if any(self._heard(message, task_status) for message in messages):
                        break
            if not self.watching:
                self.error = self.error or "the connection closed before table.watch answered"
                task_status.started()
        finally:
            await ws.aclose()

    def check_end(self) -> bool:
        """Whether the last frame holds the table's end (then stop reading; ``ended`` is
        when that frame came)."""
        if self._last is None or self.ended is not None:
            return self.ended is not None
        raw, compressed, came = self._last
        data = zlib.decompressobj(-15).decompress(raw + DEFLATE_TAIL) if compressed else raw
        if ENDED not in data:
            return False
        last = data.rfind(STATUS, 0, data.rfind(ENDED))
        unpacker = msgpack.Unpacker(io.BytesIO(data[max(0, last) :]))
        if not any(self._heard(m, trio.TASK_STATUS_IGNORED) for m in unpacker):
            return False
        self.ended = came
        self._scope.cancel()
        return True

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
            if self.events is not None:
                self.events += 1
        elif message[1] == "table.status" and message[2][1]["state"] == "finished":
            self.ended = time.monotonic()
            return True
        return False


class TcpWatcher(Watcher):
    """A watcher over TCP (croupier's own client), to set a browser's cost beside: it
    decodes every message (no digest)."""

    @property
    def digest(self) -> str | None:
        return None

    async def watch(
        self,
        host: str,
        port: int,
        table: int,
        local: str | None,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        done = trio.Event()
        self.events = 0

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


# -- many watchers: the process benchmarks/watchers.py starts, and its output ----------
DECODING = 50
"""One simulated browser in this many decodes every message; the others hash them."""
GRACE = 30.0
"""Seconds the watchers may still take once the table has finished (then they are stopped:
a watcher the server dropped as too slow hears no end)."""


async def watch_many(kind: str, port: int, table: int, first: int, count: int) -> None:
    """``count`` simulated browsers (``kind`` web, on the web port) or TCP watchers (tcp)
    watching ``table``, numbered from ``first`` (every :data:`DECODING`-th decodes every
    message, the others hash them): "ready" once all watch, then (when every one has the
    table's end, or GRACE seconds after stdin closes) a JSON line of what each got: its
    events (None: not counted), its digest, when the end came, errors."""
    numbers = range(first, first + count)
    browsers = [
        TcpWatcher() if kind == "tcp" else Watcher(decodes=i % DECODING == 0) for i in numbers
    ]
    limit = trio.Semaphore(32)  # connections opening at once (the listen backlog is 100)

    async def stragglers(scope: trio.CancelScope) -> None:
        stdin = trio.lowlevel.FdStream(os.dup(0))
        while await stdin.receive_some():
            pass
        TABLE_DONE.set()  # the table has finished: its end is in the last frames
        for browser in browsers:
            if browser.watching and not browser.decodes:
                browser.check_end()
        scope.deadline = trio.current_time() + GRACE

    async with trio.open_nursery() as outer:
        outer.start_soon(stragglers, outer.cancel_scope)
        async with trio.open_nursery() as running:

            async def one(i: int, browser: Watcher) -> None:
                local = f"127.1.{i // 250}.{i % 250 + 1}"  # a browser's own address
                async with limit:
                    await running.start(browser.watch, "127.0.0.1", port, table, local)

            async with trio.open_nursery() as opening:
                for i, browser in zip(numbers, browsers, strict=True):
                    opening.start_soon(one, i, browser)
            print("ready", flush=True)
        outer.cancel_scope.cancel()
    errors = sorted({b.error for b in browsers if b.error})
    ends = [b.ended for b in browsers]
    got = {"events": [b.events for b in browsers], "digests": [b.digest for b in browsers]}
    print(json.dumps({**got, "ends": ends, "errors": errors}))


async def read_line(proc: trio.Process) -> str:
    """The next line a :func:`watch_many` process writes."""
    assert proc.stdout is not None
    line = bytearray()
    while not line.endswith(b"\n"):
        chunk = await proc.stdout.receive_some(1)
        if not chunk:
            break
        line += chunk
    return line.decode().strip()
