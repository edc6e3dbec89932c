"""A WebSocket as a trio byte stream, so the server serves it as any other connection.

The session reads and writes bytes; msgpack-rpc over a WebSocket puts one message in each
binary frame. Received frames are handed on as bytes (msgpack is self-delimiting, so frame
borders do not matter on the way in); what the session writes is cut at message borders
(msgpack's own ``skip``, no decoding into objects) and each message sent as one frame.
"""

from __future__ import annotations

import contextlib

import msgpack
import trio
from starlette.websockets import WebSocket, WebSocketDisconnect

GONE = (RuntimeError, OSError, WebSocketDisconnect)
"""What starlette and hypercorn raise on a WebSocket the browser has closed."""


class WebSocketStream(trio.abc.Stream):
    """A trio :class:`~trio.abc.Stream` over an accepted starlette WebSocket."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self._incoming = b""
        self._outgoing = bytearray()
        self._splitter = msgpack.Unpacker()
        self._sent = 0  # the splitter's offset at the start of ``_outgoing``
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
        """Send every complete message of ``data`` as one binary frame each (a message cut
        across calls waits for its end)."""
        if self._closed:
            raise trio.ClosedResourceError("the WebSocket is closed")
        if self._peer_gone:
            raise trio.BrokenResourceError("the browser has gone")
        self._outgoing += data
        self._splitter.feed(data)
        start = 0
        frames = []
        while True:
            try:
                self._splitter.skip()
            except msgpack.OutOfData:
                break
            end = self._splitter.tell() - self._sent
            frames.append(bytes(self._outgoing[start:end]))
            start = end
        del self._outgoing[:start]
        self._sent += start
        for frame in frames:
            try:
                await self.websocket.send_bytes(frame)
            except GONE as exc:
                self._peer_gone = True
                raise trio.BrokenResourceError(str(exc)) from None

    async def wait_send_all_might_not_block(self) -> None:
        return None

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        if not self._peer_gone:
            with contextlib.suppress(*GONE):  # closed by the browser already
                await self.websocket.close()
        await trio.lowlevel.checkpoint()
