"""A WebSocket as a trio byte stream, so the server serves it as any other connection.

The session reads and writes bytes. Received frames are handed on as bytes (msgpack is
self-delimiting, so frame borders do not matter on the way in). On the way out, a binary
frame holds one or more whole messages: what the session writes is cut at message borders
(msgpack's own ``skip``, no decoding into objects) and a frame-writing task sends what has
gathered, at most one frame every :data:`FRAME_INTERVAL` seconds. A table playing a
thousand events a second would otherwise cost every watching browser a thousand frames, a
thousand socket writes and a thousand wake-ups of its reader; a page redraws at most sixty
times a second anyway. A frame that follows a quiet spell goes at once, so an answer to a
request is not held back.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import msgpack
import trio
from starlette.websockets import WebSocket, WebSocketDisconnect

from croupier.protocol.web.transports import FrameWriter

GONE = (
    RuntimeError,
    OSError,
    WebSocketDisconnect,
    trio.BrokenResourceError,
    trio.ClosedResourceError,
)
"""What starlette and hypercorn raise on a WebSocket the browser has closed."""
FRAME_INTERVAL = 0.02
"""Seconds from one frame to the next to the same browser, at least (50 frames a second)."""
FRAME_BYTES = 1 << 16
"""Messages are gathered into one frame up to this size; a larger message goes alone."""
WAITING_BYTES = 1 << 20
"""Bytes waiting for the frame writer before ``send_all`` waits too: a browser that stops
reading then holds up the session, whose send timeout drops it, as a TCP peer's would."""
CLOSE_FLUSH = 1.0
"""Seconds ``aclose`` gives what is still waiting to go out (a last error, ``shutdown``)."""


class WebSocketStream(trio.abc.Stream):
    """A trio :class:`~trio.abc.Stream` over an accepted starlette WebSocket; its frames go
    out from :meth:`write_frames`, which :func:`websocket_stream` runs."""

    def __init__(self, websocket: WebSocket, frames: FrameWriter | None = None) -> None:
        self.websocket = websocket
        self._frames = frames
        self._send_frame = websocket.send_bytes if frames is None else frames.send
        """How a frame goes out: straight to the socket (:mod:`.transports`) or through
        the ASGI stack."""
        self._incoming = b""
        self._outgoing = bytearray()  # written, its last message not yet whole
        self._splitter = msgpack.Unpacker()
        self._sent = 0  # the splitter's offset at the start of ``_outgoing``
        self._waiting: list[bytes] = []  # whole messages for the next frame(s)
        self._waiting_bytes = 0
        self._writing = False  # the frame writer is sending
        self._rest: bytes | memoryview = b""  # of a frame offered straight to the socket
        self._wake = trio.Event()  # something is waiting
        self._progress = trio.Event()  # the frame writer took or sent something, or failed
        self._peer_gone = False
        self._closed = False

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        """The next frame's bytes (b"" once the browser has gone); a text frame's UTF-8."""
        if self._closed:
            raise trio.ClosedResourceError("the WebSocket is closed")
        if not self._incoming:
            if self._peer_gone:
                return b""
            try:
                message = await self.websocket.receive()
            except GONE:  # receive after a close: the stream has ended
                message = {"type": "websocket.disconnect"}
            if message["type"] == "websocket.disconnect":
                self._peer_gone = True
                return b""
            data = message.get("bytes")
            if data is None:
                data = (message.get("text") or "").encode()
            self._incoming = data
        size = len(self._incoming) if max_bytes is None else max(1, max_bytes)
        data, self._incoming = self._incoming[:size], self._incoming[size:]
        return data

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        """Hand every complete message of ``data`` to the frame writer (a message cut across
        calls waits for its end); wait while too much is waiting already."""
        if self._closed:
            raise trio.ClosedResourceError("the WebSocket is closed")
        self._check_peer()
        self._outgoing += data
        self._splitter.feed(data)
        start = 0
        while True:
            try:
                self._splitter.skip()
            except msgpack.OutOfData:
                break
            end = self._splitter.tell() - self._sent
            self._waiting.append(bytes(self._outgoing[start:end]))
            self._waiting_bytes += end - start
            start = end
        del self._outgoing[:start]
        self._sent += start
        if start:
            self._wake.set()
        await trio.lowlevel.checkpoint()
        while self._waiting_bytes > WAITING_BYTES:
            self._check_peer()
            await self._progress.wait()
        self._check_peer()

    def room_for(self, size: int) -> bool:
        """Whether :meth:`offer_messages` may take ``size`` bytes now (the browser is there
        and reading, no message is half written)."""
        return (
            not (self._closed or self._peer_gone or self._outgoing)
            and self._waiting_bytes + size <= WAITING_BYTES
        )

    def offer_messages(self, data: bytes) -> None:
        """Send ``data``, whole messages (the caller vouches for their borders: no
        splitting), as one frame without waiting (after :meth:`room_for`). A table's
        watchers get the same bytes, encoded and framed once, this way: straight to the
        socket when nothing waits before them (no task switch; the frame writer sends
        only what the socket did not take), else queued for the frame writer."""
        if self._frames is not None and not (self._waiting or self._writing or self._rest):
            try:
                rest = self._frames.offer(self._frames.frame(data))
            except OSError:  # the browser has gone
                self._peer_gone = True
                self._progressed()
                return
            if rest is not None:
                if rest:
                    self._rest = rest
                    self._wake.set()
                return
        self._waiting.append(data)
        self._waiting_bytes += len(data)
        self._wake.set()

    def _check_peer(self) -> None:
        if self._peer_gone:
            raise trio.BrokenResourceError("the browser has gone")

    async def write_frames(self) -> None:
        """Send what is waiting, a frame (or a few, for more than FRAME_BYTES) at a time and
        one batch every FRAME_INTERVAL at most, until cancelled or the browser goes; first
        the rest of a frame offered straight to the socket that it did not take."""
        ready = 0.0  # when the next frame may go
        while not self._peer_gone:
            await self._wake.wait()
            if self._rest and self._frames is not None:  # first: it holds the gate
                await self._finish_rest(self._frames)
                if not self._waiting:
                    self._wake = trio.Event()
                    continue
            if (wait := ready - trio.current_time()) > 0:
                await trio.sleep(wait)  # (no wake-up of its own when writes are sparser)
            self._wake = trio.Event()
            frames = _frames(self._waiting)
            self._waiting, self._waiting_bytes = [], 0
            self._writing = True
            self._progressed()
            try:
                for frame in frames:
                    await self._send_frame(frame)
            except GONE:
                self._peer_gone = True
            finally:
                self._writing = False
                self._progressed()
            ready = trio.current_time() + FRAME_INTERVAL

    async def _finish_rest(self, frames: FrameWriter) -> None:
        """Send the rest of the frame the socket did not take at once (and open the gate
        it holds)."""
        rest, self._rest = self._rest, b""
        self._writing = True
        try:
            await frames.finish(rest)
        except GONE:
            self._peer_gone = True
        finally:
            self._writing = False
            self._progressed()

    def _progressed(self) -> None:
        self._progress.set()
        self._progress = trio.Event()

    async def wait_send_all_might_not_block(self) -> None:
        return None

    async def aclose(self) -> None:
        """Let what is waiting go out, then close: CLOSE_FLUSH seconds at most in all.

        Meanwhile what the browser still sends is read and dropped: hypercorn hands the app a
        browser's disconnect while it holds the connection's send lock, into a queue of ten
        messages, so a browser that stopped reading, sent more and went would otherwise
        leave the close waiting for that lock for ever (the connection never ending, its
        slot never freed). A browser that neither reads nor goes is left after the time."""
        if self._closed:
            return
        self._closed = True
        with trio.move_on_after(CLOSE_FLUSH, shield=True):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._drop_incoming)
                while (self._waiting or self._writing or self._rest) and not self._peer_gone:
                    await self._progress.wait()
                if not self._peer_gone:
                    with contextlib.suppress(*GONE):  # closed by the browser already
                        await self.websocket.close()
                nursery.cancel_scope.cancel()
        await trio.lowlevel.checkpoint()

    async def _drop_incoming(self) -> None:
        """Read and drop what the browser sends until it has gone (see :meth:`aclose`)."""
        while not self._peer_gone:
            try:
                message = await self.websocket.receive()
            except GONE:
                message = {"type": "websocket.disconnect"}
            if message["type"] == "websocket.disconnect":
                self._peer_gone = True
                self._progressed()


def _frames(messages: list[bytes]) -> list[bytes]:
    """Whole messages joined into frames of FRAME_BYTES at most (a larger one alone)."""
    groups: list[list[bytes]] = []
    size = FRAME_BYTES
    for message in messages:
        if size + len(message) > FRAME_BYTES:
            groups.append([])
            size = 0
        groups[-1].append(message)
        size += len(message)
    return [b"".join(group) for group in groups]


@contextlib.asynccontextmanager
async def websocket_stream(
    websocket: WebSocket, frames: FrameWriter | None = None
) -> AsyncIterator[WebSocketStream]:
    """A :class:`WebSocketStream` with its frame writer running (``frames``: straight to
    the socket); closed at the end."""
    stream = WebSocketStream(websocket, frames)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(stream.write_frames)
        try:
            yield stream
        finally:
            await stream.aclose()
            nursery.cancel_scope.cancel()
