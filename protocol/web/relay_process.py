"""The frame relay's own process: it writes the frames the server hands it, once each, to
every browser socket named with them (see :mod:`.relay`, which starts it).

Writing one table's tick to a thousand browsers costs a thousand socket writes, most of it
in the kernel (about 12 us each on loopback): here it is spent on another core than the
tables'. The server hands each browser's socket over once (``SCM_RIGHTS``: a duplicate of
its descriptor, so the number never names another socket once the server has closed its
own), then each frame once with the browsers it goes to. A socket that cannot take a frame
at once keeps the rest (and any later frame for it) in order here, written as it drains;
the server holds that browser's send gate meanwhile, so nothing else is written to it in
between. The server is told what was written: for each batch the browsers still pending or
gone, then each pending one when it is done or gone.

Runs as ``python -I -S relay_process.py FD`` (the standard library only: no import of
croupier, so it starts in a few milliseconds); it ends when the server closes its end of
the control socket.

Messages both ways are ``!BI`` (kind, length) and a payload of big-endian ``u32``\\ s:

- to the relay: ``R`` id (the descriptor rides with it), ``W`` batch, n, n ids and the
  frame, ``F`` id (close it);
- from it: ``A`` batch, pending count, gone count and those ids, ``D`` id (its pending
  bytes are written), ``G`` id (the browser has gone).
"""

from __future__ import annotations

import array
import contextlib
import os
import select
import socket
import struct
import sys
from collections import deque

HEAD = struct.Struct("!BI")
U32 = struct.Struct("!I")
REGISTER, WRITE, FORGET = b"RWF"
ACK, DONE, GONE = b"ADG"
MAX_FDS = 64
"""Descriptors read at most with one ``recvmsg``."""
READ = 1 << 20
"""Bytes read at most from the control socket at once."""


def message(kind: int, *numbers: int, tail: bytes = b"") -> bytes:
    """One message: its head, ``numbers`` as u32s, then ``tail``."""
    body = struct.pack(f"!{len(numbers)}I", *numbers) + tail
    return HEAD.pack(kind, len(body)) + body


class Relay:
    """The relay's state: the browsers' sockets by id and what each still has to take."""

    def __init__(self, control: socket.socket) -> None:
        self.control = control
        self.sockets: dict[int, int] = {}  # id -> our descriptor
        self.pending: dict[int, deque[memoryview]] = {}  # id -> what its socket did not take
        self.by_fd: dict[int, int] = {}  # descriptor -> id, for the pending ones
        self.fds: deque[int] = deque()  # received, not yet named by an R message
        self.buffer = bytearray()
        self.replies: list[bytes] = []
        self.poller = select.poll()
        self.poller.register(control, select.POLLIN)

    def run(self) -> None:
        """Serve until the server closes the control socket."""
        control = self.control.fileno()
        while True:
            for fd, events in self.poller.poll():
                if fd == control:
                    if not self.receive():
                        return
                else:
                    self.drain(self.by_fd[fd], events)
            if self.replies:
                self.control.sendall(b"".join(self.replies))
                self.replies = []

    def receive(self) -> bool:
        """Read and handle what the server sent; False once it has closed its end."""
        space = socket.CMSG_SPACE(MAX_FDS * 4)
        data, ancillary, _, _ = self.control.recvmsg(READ, space)
        for level, kind, cdata in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds = array.array("i")
                fds.frombytes(cdata[: len(cdata) - len(cdata) % fds.itemsize])
                self.fds.extend(fds)
        if not data:
            return False
        self.buffer += data
        at = 0
        while len(self.buffer) - at >= HEAD.size:
            kind, size = HEAD.unpack_from(self.buffer, at)
            if len(self.buffer) - at - HEAD.size < size:
                break
            start = at + HEAD.size
            self.handle(kind, memoryview(self.buffer)[start : start + size])
            at = start + size
        del self.buffer[:at]
        return True

    def handle(self, kind: int, body: memoryview) -> None:
        if kind == REGISTER:
            (key,) = U32.unpack_from(body)
            self.forget(key)
            self.sockets[key] = self.fds.popleft()
        elif kind == FORGET:
            (key,) = U32.unpack_from(body)
            self.forget(key)
        elif kind == WRITE:
            batch, count = struct.unpack_from("!II", body)
            keys = struct.unpack_from(f"!{count}I", body, 8)
            self.write(batch, keys, bytes(body[8 + 4 * count :]))

    def write(self, batch: int, keys: tuple[int, ...], frame: bytes) -> None:
        """Write ``frame`` to every socket of ``keys``; report those pending or gone."""
        pending: list[int] = []
        gone: list[int] = []
        for key in keys:
            fd = self.sockets.get(key)
            if fd is None:
                gone.append(key)
                continue
            queued = self.pending.get(key)
            if queued is not None:  # behind what it has not taken yet
                queued.append(memoryview(frame))
                pending.append(key)
                continue
            try:
                sent = os.write(fd, frame)
            except BlockingIOError:
                sent = 0
            except OSError:
                self.forget(key)
                gone.append(key)
                continue
            if sent < len(frame):
                self.pending[key] = deque([memoryview(frame)[sent:]])
                self.by_fd[fd] = key
                self.poller.register(fd, select.POLLOUT)
                pending.append(key)
        self.replies.append(message(ACK, batch, len(pending), len(gone), *pending, *gone))

    def drain(self, key: int, events: int) -> None:
        """Write what a pending socket still has to take, as far as it takes it."""
        queued = self.pending[key]
        fd = self.sockets[key]
        try:
            while queued:
                sent = os.write(fd, queued[0])
                if sent < len(queued[0]):
                    queued[0] = queued[0][sent:]
                    return
                queued.popleft()
        except BlockingIOError:
            return
        except OSError:
            self.forget(key)
            self.replies.append(message(GONE, key))
            return
        self.poller.unregister(fd)
        del self.pending[key], self.by_fd[fd]
        self.replies.append(message(DONE, key))

    def forget(self, key: int) -> None:
        """Close the socket of ``key`` (what it had pending is dropped)."""
        fd = self.sockets.pop(key, None)
        if fd is None:
            return
        if self.pending.pop(key, None) is not None:
            self.poller.unregister(fd)
            del self.by_fd[fd]
        os.close(fd)


def main() -> None:
    control = socket.socket(fileno=int(sys.argv[1]))
    control.setblocking(True)
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the server has gone
        Relay(control).run()


if __name__ == "__main__":
    main()
