"""An in-memory network for server tests: no sockets, no ports, no wall clock.

:class:`MemoryNet` is a trio listener the server serves on (``Server.serve_listeners``)
and the dialler its clients connect through. Each connection is a pair of
:class:`MemoryStream` ends whose buffers hold at most ``capacity`` bytes each way, as a
socket's do: a peer that stops reading makes the other side's writes wait, which is what
the server's send timeout is for. Nothing here depends on time, so the tests run on trio's
MockClock and the order of events is the order the tasks make them.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Any

import trio

from croupier.protocol import Server
from croupier.protocol.transport.client import Client, connect_stream
from tests.protocol_helpers import Raw

CAPACITY = 64 << 10
"""Bytes buffered each way, about what a loopback socket holds before writes block."""


class _Pipe:
    """Bytes one way: what the writer sent and the reader has not read yet."""

    def __init__(self, capacity: int) -> None:
        self.buffer = bytearray()
        self.capacity = capacity
        self.eof = False
        """The writer is done (it sent EOF or closed): reads end once the buffer is empty."""
        self.reader_gone = False
        """The reader closed: writes fail, as on a socket the peer closed."""
        self.changed = trio.lowlevel.ParkingLot()

    def wake(self) -> None:
        self.changed.unpark_all()


class _Address:
    """Stands in for a socket where only the peer's address is asked for."""

    def __init__(self, peer: tuple[str, int]) -> None:
        self.peer = peer

    def getpeername(self) -> tuple[str, int]:
        return self.peer


class MemoryStream(trio.abc.HalfCloseableStream):
    """One end of an in-memory connection (see :func:`stream_pair`)."""

    def __init__(self, incoming: _Pipe, outgoing: _Pipe, peer: tuple[str, int]) -> None:
        self._in = incoming
        self._out = outgoing
        self._closed = False
        self._busy: set[str] = set()
        self.socket = _Address(peer)
        """Where the server looks up its peer's address (as on a ``trio.SocketStream``)."""

    @contextmanager
    def _one(self, side: str) -> Iterator[None]:
        """One task at a time sends (or receives), as trio's streams require."""
        if side in self._busy:
            raise trio.BusyResourceError(f"another task is already {side} on this stream")
        self._busy.add(side)
        try:
            yield
        finally:
            self._busy.discard(side)

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        with self._one("sending"):
            await trio.lowlevel.checkpoint_if_cancelled()
            view = memoryview(data)
            while True:
                self._check_send()
                room = self._out.capacity - len(self._out.buffer)
                if room > 0 and view:
                    self._out.buffer += view[:room]
                    view = view[room:]
                    self._out.wake()
                if not view:
                    break
                await self._out.changed.park()
            await trio.lowlevel.cancel_shielded_checkpoint()

    async def wait_send_all_might_not_block(self) -> None:
        with self._one("sending"):
            await trio.lowlevel.checkpoint_if_cancelled()
            while True:
                self._check_send()
                if len(self._out.buffer) < self._out.capacity:
                    break
                await self._out.changed.park()
            await trio.lowlevel.cancel_shielded_checkpoint()

    def _check_send(self) -> None:
        if self._closed or self._out.eof:
            raise trio.ClosedResourceError("this end is closed for sending")
        if self._out.reader_gone:
            raise trio.BrokenResourceError("the peer closed the connection")

    async def send_eof(self) -> None:
        with self._one("sending"):
            if self._closed:
                raise trio.ClosedResourceError("this end is closed")
            self._out.eof = True
            self._out.wake()
            await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        if max_bytes is not None:
            max_bytes = operator.index(max_bytes)
            if max_bytes < 1:
                raise ValueError("max_bytes must be at least 1")
        with self._one("receiving"):
            await trio.lowlevel.checkpoint_if_cancelled()
            while True:
                if self._closed:
                    raise trio.ClosedResourceError("this end is closed")
                if self._in.buffer or self._in.eof:
                    break
                await self._in.changed.park()
            held = len(self._in.buffer)
            n = held if max_bytes is None else min(max_bytes, held)
            data = bytes(self._in.buffer[:n])
            del self._in.buffer[:n]
            self._in.wake()
            await trio.lowlevel.cancel_shielded_checkpoint()
            return data

    async def aclose(self) -> None:
        if not self._closed:
            self._closed = True
            self._out.eof = True
            self._in.reader_gone = True
            self._in.buffer.clear()
            self._out.wake()
            self._in.wake()
        await trio.lowlevel.checkpoint()


def stream_pair(
    capacity: int = CAPACITY, peers: tuple[tuple[str, int], tuple[str, int]] = (("?", 0), ("?", 0))
) -> tuple[MemoryStream, MemoryStream]:
    """Two connected ends; each way holds at most ``capacity`` unread bytes. ``peers``: the
    address each end's peer appears to have."""
    there, back = _Pipe(capacity), _Pipe(capacity)
    return MemoryStream(back, there, peers[0]), MemoryStream(there, back, peers[1])


class MemoryNet(trio.abc.Listener[MemoryStream]):
    """A listener handing the server one end of every :meth:`dial`, in order."""

    ADDRESS = ("127.0.0.1", 7171)
    """What the clients see as the server's address."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._send, self._accepting = trio.open_memory_channel[MemoryStream](math.inf)
        self._ports = itertools.count(40000)

    def dial(self, host: str = "127.0.0.1") -> MemoryStream:
        """A new connection from ``host`` (a new port each time, as the server sees it):
        the client's end (the server accepts the other)."""
        client, server = stream_pair(self.capacity, (self.ADDRESS, (host, next(self._ports))))
        self._send.send_nowait(server)
        return client

    async def accept(self) -> MemoryStream:
        try:
            return await self._accepting.receive()
        except trio.ClosedResourceError:
            raise trio.ClosedResourceError("the listener is closed") from None

    async def aclose(self) -> None:
        await self._accepting.aclose()

    def connect(
        self, *, name: str, host: str = "127.0.0.1", **options: Any
    ) -> AbstractAsyncContextManager[Client]:
        """``croupier.protocol.connect`` to the server on this net (same options), from
        ``host``."""
        return connect_stream(self.dial(host), name=name, peer="memnet", **options)

    def connector(self) -> Callable[..., AbstractAsyncContextManager[Client]]:
        """A stand-in for ``connect(host, port, ...)`` that ignores the address (for
        clients, like the bot SDK, that connect by themselves)."""

        def connect(_host: str, _port: int, **options: Any) -> AbstractAsyncContextManager[Client]:
            return self.connect(**options)

        return connect

    def raw(self, host: str = "127.0.0.1") -> Raw:
        """A raw msgpack client on a new connection from ``host``."""
        return Raw(self.dial(host))


async def serve(nursery: trio.Nursery, server: Server) -> MemoryNet:
    """Start ``server`` on a new :class:`MemoryNet` (also kept as ``server.net``)."""
    net = MemoryNet()
    await nursery.start(server.serve_listeners, [net])
    server.net = net  # type: ignore[attr-defined]
    return net
