"""A WebSocket's frames written straight to its connection's socket, past starlette,
hypercorn and wsproto.

A watched table sends every browser the same bytes a tick; through the ASGI stack each
frame costs a browser several task switches and about a hundred microseconds (wsproto
builds the frame, hypercorn takes its lock and sends through trio). Here the frame (a
binary frame's header and the bytes, built once for every browser given the same bytes)
goes out with one non-blocking ``send``, holding hypercorn's own send lock only for what
the socket did not take, so no byte of hypercorn's (a pong, the close) lands inside it.
Server frames are not masked, and a frame without RSV1 is a valid uncompressed message
under permessage-deflate too (RFC 6455 5.2, RFC 7692 6)."""

from __future__ import annotations

import os
import struct
from typing import Any

import trio

Address = tuple[str, int]


class Transports:
    """hypercorn's connection servers by their peer's address, while they serve: the web
    application finds a WebSocket's by ``websocket.client``."""

    def __init__(self) -> None:
        self._by_peer: dict[Address, Any] = {}

    def add(self, peer: Address, server: Any) -> None:
        self._by_peer[peer] = server

    def remove(self, peer: Address, server: Any) -> None:
        if self._by_peer.get(peer) is server:
            del self._by_peer[peer]

    def writer(self, peer: Address | None) -> FrameWriter | None:
        server = None if peer is None else self._by_peer.get(peer)
        if server is None:
            return None
        stream = getattr(server, "stream", None)
        lock = getattr(server, "send_lock", None)
        if not isinstance(stream, trio.SocketStream) or not isinstance(lock, trio.Lock):
            return None  # TLS, or a hypercorn that keeps them otherwise: the ASGI way
        return FrameWriter(stream, lock)


_last: tuple[bytes | None, bytes] = (None, b"")
"""The last payload framed and its frame: every browser at a table's same place is handed
the same bytes object, framed once."""


def binary_frame(payload: bytes) -> bytes:
    """``payload`` as one unmasked, final, binary WebSocket frame."""
    global _last
    if payload is _last[0]:
        return _last[1]
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x82, size)
    elif size < 1 << 16:
        head = struct.pack("!BBH", 0x82, 126, size)
    else:
        head = struct.pack("!BBQ", 0x82, 127, size)
    frame = head + payload
    _last = (payload, frame)
    return frame


class FrameWriter:
    """Binary frames onto one connection's socket, in turn with hypercorn's writes."""

    def __init__(self, stream: trio.SocketStream, lock: trio.Lock) -> None:
        self.stream = stream
        self.lock = lock

    async def send(self, payload: bytes) -> None:
        """Send ``payload`` as a frame: at once when nobody writes and the socket takes
        it (nearly always), else the rest the waiting way under hypercorn's lock.
        ``OSError`` or trio's broken/closed errors when the browser has gone."""
        frame = binary_frame(payload)
        lock = self.lock
        if lock.locked():
            async with lock:
                await self._send_rest(frame)
            return
        try:  # the socket is non-blocking (trio's); fileno() is -1 once closed: EBADF
            sent = os.write(self.stream.socket.fileno(), frame)
        except BlockingIOError:
            sent = 0
        if sent == len(frame):
            await trio.lowlevel.checkpoint()
            return
        lock.acquire_nowait()  # before anything else can write: the rest goes first
        try:
            await self._send_rest(memoryview(frame)[sent:])
        finally:
            lock.release()

    async def _send_rest(self, data: bytes | memoryview) -> None:
        with trio.CancelScope(shield=True):  # half a frame would break the connection
            await self.stream.send_all(data)
