"""A WebSocket's frames written straight to its connection's socket, past starlette,
hypercorn and wsproto.

A watched table sends every browser the same bytes a tick; through the ASGI stack each
frame costs a browser several task switches and about a hundred microseconds (wsproto
builds the frame, hypercorn takes its lock and sends through trio). Here the frame (a
binary frame's header and the bytes, built once for every browser given the same bytes)
goes out with one non-blocking ``write``, holding hypercorn's send gate only for what the
socket did not take, so no byte of hypercorn's (a pong, the close) lands inside it. The
gate is hypercorn's own send lock replaced by a one-slot semaphore (hypercorn uses it as
``async with``): a table's fan-out writes to every browser from its own task (no task per
browser), and the rest of a frame a socket did not take at once is finished by the
browser's frame writer, which releases the gate the fan-out took. Server frames are not
masked, and a frame without RSV1 is a valid uncompressed message under permessage-deflate
too (RFC 6455 5.2, RFC 7692 6)."""

from __future__ import annotations

import errno
import os
import struct
import zlib
from typing import TYPE_CHECKING, Any

import trio
from wsproto.extensions import PerMessageDeflate

if TYPE_CHECKING:
    from croupier.protocol.web.relay import Relay

Address = tuple[str, int]


class Transports:
    """hypercorn's connection servers by their peer's address, while they serve: the web
    application finds a WebSocket's by ``websocket.client``. With a ``relay`` (:mod:`.relay`)
    the frames are written by the relay's process."""

    def __init__(self, relay: Relay | None = None) -> None:
        self.relay = relay
        self._by_peer: dict[Address, Any] = {}
        self._writers: dict[Address, FrameWriter] = {}

    def add(self, peer: Address, server: Any) -> None:
        self._by_peer[peer] = server

    def remove(self, peer: Address, server: Any) -> None:
        if self._by_peer.get(peer) is server:
            del self._by_peer[peer]
            writer = self._writers.pop(peer, None)
            if writer is not None and self.relay is not None:
                self.relay.browsers -= 1
                self.relay.forget(writer)  # its copy of the socket is closed too

    def writer(self, peer: Address | None) -> FrameWriter | None:
        if peer is None or (server := self._by_peer.get(peer)) is None:
            return None
        host, port = peer
        stream = getattr(server, "stream", None)
        lock = getattr(server, "send_lock", None)
        if isinstance(lock, trio.Lock) and not lock.locked():
            lock = server.send_lock = trio.Semaphore(1)  # the gate, released from any task
        if not isinstance(stream, trio.SocketStream) or not isinstance(lock, trio.Semaphore):
            return None  # TLS, or a hypercorn that keeps them otherwise: the ASGI way
        writer = FrameWriter(stream, lock, deflate_bits(server), self.relay)
        if self.relay is not None and self._writers.get((host, port)) is None:
            self.relay.browsers += 1
        self._writers[(host, port)] = writer
        return writer


def deflate_bits(server: Any) -> int | None:
    """The window bits of the permessage-deflate a connection's browser and hypercorn
    agreed on in the handshake (None: none; browsers offer it, and wsproto accepts)."""
    try:
        extensions = server.protocol.protocol.stream.connection._proto.extensions
    except AttributeError:
        return None
    for extension in extensions:
        if isinstance(extension, PerMessageDeflate) and extension.enabled():
            return int(extension.server_max_window_bits)  # 9 to 15 (wsproto's)
    return None


_last: tuple[bytes | None, bytes] = (None, b"")
"""The last payload framed and its frame: every browser at a table's same place is handed
the same bytes object, framed once."""


def binary_frame(payload: bytes) -> bytes:
    """``payload`` as one unmasked, final, binary WebSocket frame."""
    global _last
    if payload is _last[0]:
        return _last[1]
    frame = _header(0x82, len(payload)) + payload
    _last = (payload, frame)
    return frame


DEFLATE_FROM = 512
"""Payloads this large or more go compressed to a browser that agreed to permessage-deflate."""
_last_deflated: tuple[bytes | None, int, bytes] = (None, 0, b"")
"""The last payload compressed, its window bits, and its frame (framed once, as above)."""


def deflated_frame(payload: bytes, bits: int) -> bytes:
    """``payload`` as one final binary WebSocket frame compressed by permessage-deflate
    (RSV1; RFC 7692 7.2.1: a raw deflate stream, flushed, without its last 4 bytes),
    compressed on its own (no earlier message's bytes referred to), so every browser may be
    handed the same frame whatever it was sent before, and within ``bits`` of window."""
    global _last_deflated
    if payload is _last_deflated[0] and bits == _last_deflated[1]:
        return _last_deflated[2]
    compressor = zlib.compressobj(1, zlib.DEFLATED, -bits)
    body = compressor.compress(payload) + compressor.flush(zlib.Z_SYNC_FLUSH)
    frame = _header(0xC2, len(body) - 4) + body[:-4]
    _last_deflated = (payload, bits, frame)
    return frame


def _header(first: int, size: int) -> bytes:
    if size < 126:
        return struct.pack("!BB", first, size)
    if size < 1 << 16:
        return struct.pack("!BBH", first, 126, size)
    return struct.pack("!BBQ", first, 127, size)


RELAYED_AT_MOST = 4
"""Frames a browser may have out with the relay at once (a second's worth of the longest
ticks); past them its frames wait in its stream, bounded, as a slow browser's do."""


class FrameWriter:
    """Binary frames onto one connection's socket, in turn with hypercorn's writes
    (``gate``: hypercorn's send lock, a one-slot semaphore), compressed when the browser
    agreed to permessage-deflate with ``deflate`` bits of window; by the ``relay``'s
    process while it runs (the gate held from the hand-over until it has written the
    frame)."""

    def __init__(
        self,
        stream: trio.SocketStream,
        gate: trio.Semaphore,
        deflate: int | None = None,
        relay: Relay | None = None,
    ) -> None:
        self.stream = stream
        self.gate = gate
        self.deflate = deflate
        self.relay = relay
        self.relay_id: int | None = None
        """The relay's name for the socket, once handed over."""
        self.relayed = 0
        """Frames out with the relay (the gate is held while there are any)."""
        self.held = 0
        """Of those, the relay has said are waiting for the socket (:meth:`drained`)."""
        self.gone = False
        """The relay found the browser gone: the next write fails."""

    def frame(self, payload: bytes) -> bytes:
        """``payload`` as this browser's frame (the same bytes for the same payload)."""
        if self.deflate is not None and len(payload) >= DEFLATE_FROM:
            return deflated_frame(payload, self.deflate)
        return binary_frame(payload)

    def offer(self, frame: bytes) -> bytes | memoryview | None:
        """Write ``frame`` without waiting: None when someone is writing (nothing was
        written), b"" when the socket took it all, else the rest, which the caller must
        send with :meth:`finish` before anything else (the gate is held for it meanwhile).
        ``OSError`` when the browser has gone."""
        if self.gone:
            raise OSError(errno.EPIPE, "the browser has gone")
        if (
            0 < self.relayed < RELAYED_AT_MOST
            and self.relaying()
            and not self.gate.statistics().tasks_waiting
        ):
            self._hand_over(frame)  # behind the others, in order: the relay keeps it
            return b""
        if not self.gate.value:
            return None
        if self.relaying():
            self.gate.acquire_nowait()
            self._hand_over(frame)
            return b""
        try:  # the socket is non-blocking (trio's); fileno() is -1 once closed: EBADF
            sent = os.write(self.stream.socket.fileno(), frame)
        except BlockingIOError:
            sent = 0
        if sent == len(frame):
            return b""
        self.gate.acquire_nowait()  # before anything else can write: the rest goes first
        return memoryview(frame)[sent:]

    async def finish(self, rest: bytes | memoryview) -> None:
        """Send the rest :meth:`offer` left, then open the gate (from any task)."""
        try:
            await self._send_rest(rest)
        finally:
            self.gate.release()

    async def send(self, payload: bytes) -> None:
        """Send ``payload`` as a frame: at once when nobody writes and the socket takes
        it (nearly always), else the rest the waiting way under hypercorn's gate.
        ``OSError`` or trio's broken/closed errors when the browser has gone."""
        frame = self.frame(payload)
        if self.relaying():
            await self.gate.acquire()
            if self.gone:
                self.gate.release()
                raise OSError(errno.EPIPE, "the browser has gone")
            if self.relaying():  # (still: the wait may have been long)
                self._hand_over(frame)
                await trio.lowlevel.checkpoint()
                return
            try:
                await self._send_rest(frame)
            finally:
                self.gate.release()
            return
        if not self.gate.value:
            async with self.gate:
                await self._send_rest(frame)
            return
        rest = self.offer(frame)
        if rest:
            await self.finish(rest)
        else:
            await trio.lowlevel.checkpoint()

    def relaying(self) -> bool:
        """Whether the relay writes this browser's frames now (:meth:`.Relay.wanted`)."""
        return self.relay is not None and self.relay.wanted()

    def _hand_over(self, frame: bytes) -> None:
        """Hand ``frame`` to the relay (the gate held), which has the gate opened once it
        has written every frame handed over (a frame handed over while others are out
        queues behind them there: the gate need not open between them, so a browser the
        relay is slow to answer for gets the next tick's frame, shared with the others,
        and not a frame of its own later)."""
        assert self.relay is not None
        try:
            self.relay.write(self, frame)
        except OSError:
            if not self.relayed:
                self.gate.release()
            raise
        self.relayed += 1

    def written(self) -> None:
        """The relay has written one frame handed over (the gate opens after the last)."""
        if self.relayed:
            self.relayed -= 1
            if not self.relayed:
                self.held = 0
                self.gate.release()

    def drained(self) -> None:
        """The relay has written every frame it said was waiting for the socket."""
        for _ in range(self.held):
            self.written()
        self.held = 0

    def lost(self) -> None:
        """The relay found the browser gone (or ended holding its frames)."""
        self.gone = True
        if self.relayed:
            self.relayed = 0
            self.held = 0
            self.gate.release()

    async def _send_rest(self, data: bytes | memoryview) -> None:
        with trio.CancelScope(shield=True):  # half a frame would break the connection
            await self.stream.send_all(data)
