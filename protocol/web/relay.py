"""Browsers' frames written by a process of their own (:mod:`.relay_process`), so that a
table's process spends no socket write on its watchers.

A watched table hands every browser the same frame a tick (:mod:`.transports`); written
from the server's own process, a thousand browsers cost it a thousand socket writes a tick,
mostly kernel time, on the core its tables play on. With the relay, a browser's socket is
handed over once (a duplicate of its descriptor), then each frame goes to the relay once
with the ids of every browser it is for, in one message, and the relay writes them. A
browser's send gate (hypercorn's send lock, :class:`~.transports.FrameWriter`) is held
from the moment its frame is handed over until the relay says it is written, so nothing
hypercorn or the session writes can land before or inside it: each browser's bytes are
the same, in the same order, as when the server writes them itself. A browser whose
socket cannot take its frame keeps it in the relay and its gate held until written; the
next ticks' frames queue behind it there (the same frame as every other browser's, in the
same message), up to :data:`~.transports.RELAYED_AT_MOST`, then in its stream, bounded,
and a browser that stops reading is dropped as too slow, as without the relay. One that
has gone is told to its writer, which fails its next write.

If the relay process dies, the browsers it held frames for are lost (their streams cannot
be trusted any more) and every other writes its own frames again.
"""

from __future__ import annotations

import logging
import os
import socket
import struct
import sys
from array import array
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from croupier.protocol.web.relay_process import (
    ACK,
    DONE,
    FORGET,
    GONE,
    HEAD,
    REGISTER,
    U32,
    WRITE,
    message,
)

if TYPE_CHECKING:
    from croupier.protocol.web.transports import FrameWriter

log = logging.getLogger("croupier.server")

PROGRAM = Path(__file__).with_name("relay_process.py")
RELAY_FROM = 8
"""Browsers connected from which their frames go through the relay. A tick costs the relay
path about two task wake-ups and two Unix-socket calls of the server's (some 50 us) where
each browser's own write costs it 12 to 25 us: with fewer browsers the server writes
their frames itself, as without a relay."""
STOP_WAIT = 2.0
"""Seconds the relay has to end once told to, before it is killed."""


def supported() -> bool:
    """Whether this platform can hand sockets to another process (Unix sockets with
    ``SCM_RIGHTS``)."""
    return hasattr(socket, "AF_UNIX") and hasattr(socket.socket, "sendmsg")


class Relay:
    """The server's end of the relay: browsers' sockets handed over, frames sent in
    batches (one per distinct frame, per wake-up of its sending task), the relay's answers
    opening the browsers' gates. :meth:`run` starts the process and serves until
    cancelled; before it has started (or after it has ended) :attr:`running` is False and
    writers write their frames themselves, as they do while fewer than ``relay_from``
    browsers are connected (a frame goes one way or the other only once the browser's gate
    is open, so a browser's bytes stay in order either way)."""

    def __init__(self, relay_from: int | None = None) -> None:
        """``relay_from``: browsers connected from which their frames go through it
        (:data:`RELAY_FROM`)."""
        self.running = False
        self.relay_from = RELAY_FROM if relay_from is None else relay_from
        self.browsers = 0
        """Browsers connected (counted by :class:`~.transports.Transports`)."""
        self._out: list[bytes | tuple[bytes, int]] = []  # messages (with a descriptor)
        self._current: dict[int, tuple[bytes, list[FrameWriter]]] = {}  # id(frame) ->
        self._batches: dict[int, list[FrameWriter]] = {}  # sent, not yet answered
        self._writers: dict[int, FrameWriter] = {}  # by relay id, the registered ones
        self._next_id = 1
        self._next_batch = 1
        self._wake = trio.Event()
        self._control: trio.socket.SocketType | None = None

    # -- what writers call -------------------------------------------------------------------
    def wanted(self) -> bool:
        """Whether frames go through the relay now: it runs, with enough browsers."""
        return self.running and self.browsers >= self.relay_from

    def write(self, writer: FrameWriter, frame: bytes) -> None:
        """Have the relay write ``frame`` to ``writer``'s socket (its gate is held by the
        caller, and opened when the relay has written it). ``OSError`` when the socket is
        closed already."""
        if writer.relay_id is None:
            self._register(writer)
        batch = self._current.get(id(frame))
        if batch is None:
            self._current[id(frame)] = (frame, [writer])
        else:
            batch[1].append(writer)
        if not self._wake.is_set():
            self._wake.set()

    def forget(self, writer: FrameWriter) -> None:
        """The browser's connection has ended: the relay closes its copy of the socket
        (after any frame handed over for it)."""
        key = writer.relay_id
        if key is None or self._writers.pop(key, None) is None:
            return
        self._seal()
        self._out.append(message(FORGET, key))
        self._wake.set()

    def _register(self, writer: FrameWriter) -> None:
        fd = os.dup(writer.stream.socket.fileno())  # now: the number may be reused later
        key = self._next_id
        self._next_id += 1
        writer.relay_id = key
        self._writers[key] = writer
        self._seal()
        self._out.append((message(REGISTER, key), fd))

    def _seal(self) -> None:
        """Turn the frames gathered so far into write messages, in order."""
        for frame, writers in self._current.values():
            batch = self._next_batch
            self._next_batch += 1
            self._batches[batch] = writers
            keys = [w.relay_id or 0 for w in writers]
            self._out.append(message(WRITE, batch, len(keys), *keys, tail=frame))
        self._current = {}

    # -- the process -------------------------------------------------------------------------
    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Start the relay process and feed it until cancelled; then it ends with its
        control socket."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            process = await trio.lowlevel.open_process(
                [sys.executable, "-I", "-S", str(PROGRAM), str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
            )
        finally:
            theirs.close()
        self._control = trio.socket.from_stdlib_socket(ours)
        try:
            self.running = True
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._send)
                task_status.started()
                await self._receive()  # until the relay ends
                nursery.cancel_scope.cancel()
            log.error("the web page's frame relay ended (exit %s)", await process.wait())
        finally:
            self._stopped()
            self._control.close()
            with trio.move_on_after(STOP_WAIT, shield=True):
                await process.wait()
            if process.returncode is None:
                process.kill()

    async def _send(self) -> None:
        assert self._control is not None
        while True:
            await self._wake.wait()
            self._wake = trio.Event()
            self._seal()
            out, self._out = self._out, []
            data = bytearray()
            try:
                while out:
                    item = out.pop(0)
                    if isinstance(item, bytes):
                        data += item
                        continue
                    await self._send_all(data)
                    data.clear()
                    body, fd = item
                    try:
                        await self._control.sendmsg(
                            [body], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array("i", [fd]))]
                        )
                    finally:
                        os.close(fd)
                await self._send_all(data)
            finally:
                for item in out:  # cancelled: the sockets not handed over are let go
                    if isinstance(item, tuple):
                        os.close(item[1])

    async def _send_all(self, data: bytearray) -> None:
        assert self._control is not None
        view = memoryview(data)
        while view:
            view = view[await self._control.send(view) :]

    async def _receive(self) -> None:
        """Open the gates the relay's answers name, until it closes its end."""
        assert self._control is not None
        buffer = bytearray()
        while data := await self._control.recv(1 << 16):
            buffer += data
            at = 0
            while len(buffer) - at >= HEAD.size:
                kind, size = HEAD.unpack_from(buffer, at)
                if len(buffer) - at - HEAD.size < size:
                    break
                start = at + HEAD.size
                self._answered(kind, bytes(buffer[start : start + size]))
                at = start + size
            del buffer[:at]

    def _answered(self, kind: int, body: bytes) -> None:
        if kind == ACK:
            batch, pending, gone = struct.unpack_from("!III", body)
            keys = struct.unpack_from(f"!{pending + gone}I", body, 12)
            waiting = set(keys[:pending])
            gone = set(keys[pending:])
            for sent in self._batches.pop(batch, ()):
                if sent.relay_id in waiting:
                    sent.held += 1  # written when the relay says it has drained
                elif sent.relay_id not in gone:
                    sent.written()
            for key in gone:
                self._lost(key)
        elif kind == DONE:
            (key,) = U32.unpack(body)
            if (writer := self._writers.get(key)) is not None:
                writer.drained()
        elif kind == GONE:
            self._lost(U32.unpack(body)[0])

    def _lost(self, key: int) -> None:
        writer = self._writers.pop(key, None)
        if writer is not None:
            writer.lost()

    def _stopped(self) -> None:
        """The relay has ended: whoever had a frame out with it is lost; the rest write
        their own frames from now on."""
        self.running = False
        for item in self._out:
            if isinstance(item, tuple):
                os.close(item[1])  # a socket never handed over
        self._out.clear()
        self._current.clear()
        self._batches.clear()
        for writer in self._writers.values():
            writer.relay_id = None
            if writer.relayed:
                writer.lost()
        self._writers.clear()
