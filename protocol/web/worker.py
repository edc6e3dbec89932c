"""hypercorn's trio worker with the server's admission rules on its connections.

hypercorn's own ``worker_serve`` accepts every connection it can: each one held a
descriptor and a task outside every cap of the server, so one address opening HTTP
connections faster than hypercorn's keep-alive timeout closed them could use up the
process's descriptors, and the TCP clients' accepts with them. Here the same pieces
(hypercorn's ``Lifespan``, ``WorkerContext`` and per-connection ``TCPServer``) run behind
the server's accept loop (:func:`croupier.protocol.transport.admission.serve_listeners`):

- at most ``http_connections`` are open at once, server-wide; at the cap nothing more is
  accepted (newcomers wait in the listen backlog) until one closes;
- one address holds at most ``http_connections_per_peer``; the next is answered ``503``
  and closed once what it sent is read (:data:`LINGERING` at a time; a browser opens about
  six connections per site).

A WebSocket on ``/rpc`` is one of these connections and also a protocol connection, with
the server's own caps on those.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

import trio
from hypercorn.config import Config
from hypercorn.trio.lifespan import Lifespan
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import AppWrapper, ConnectionState, LifespanState

from croupier.protocol.transport.admission import refuse, serve_listeners
from croupier.protocol.web.transports import Transports

LINGERING = 16
"""Refused connections drained at once before closing; beyond that they close at once."""


def _busy(most: int) -> bytes:
    body = f"too many connections from your address (at most {most})\n".encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\nretry-after: 5\r\n\r\n"
    )
    return head.encode() + body


class CappedWorker:
    """Serve an ASGI ``app`` on ``listeners`` with hypercorn, at most ``cap`` connections
    at once and ``per_peer`` of them from one address."""

    def __init__(
        self,
        app: AppWrapper,
        config: Config,
        cap: int,
        per_peer: int,
        transports: Transports | None = None,
    ) -> None:
        self.app = app
        self.transports = transports
        """Where the application finds a connection's socket (:mod:`.transports`)."""
        self.config = config
        self.cap = cap
        self.per_peer = per_peer
        self.peers: Counter[str] = Counter()
        self._lingering = 0
        self._context = WorkerContext(None)
        self._state: LifespanState = {}

    async def serve(
        self,
        listeners: Sequence[trio.abc.Listener[Any]],
        *,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Serve until cancelled (how the server stops its web page)."""
        lifespan = Lifespan(self.app, self.config, self._state)
        async with trio.open_nursery() as lifespan_nursery:
            await lifespan_nursery.start(lifespan.handle_lifespan)
            await lifespan.wait_for_startup()
            try:
                async with trio.open_nursery() as connections:
                    task_status.started()
                    await serve_listeners(
                        listeners, self._handle, connections, max_open=lambda: self.cap
                    )
            finally:
                await self._context.terminated.set()  # hypercorn's connections wind down

    async def _handle(self, stream: trio.SocketStream) -> None:
        try:
            peer = stream.socket.getpeername()
            host = str(peer[0])
        except OSError:  # gone before it was looked at
            await stream.aclose()
            return
        if self.peers[host] >= self.per_peer:
            # read what it sent before closing (else the kernel's reset may beat the 503),
            # but only a few at a time: a flood of them must not fill the slots
            linger = self._lingering < LINGERING
            self._lingering += 1
            try:
                await refuse(stream, _busy(self.per_peer), linger=linger)
            finally:
                self._lingering -= 1
            return
        self.peers[host] += 1
        try:
            state = ConnectionState(self._state.copy())
            plain = cast(Any, stream)  # typed as TLS; hypercorn serves plain sockets too
            served = TCPServer(self.app, self.config, self._context, state, plain)
            if self.transports is not None:
                self.transports.add((host, int(peer[1])), served)
            try:
                await served
            finally:
                if self.transports is not None:
                    self.transports.remove((host, int(peer[1])), served)
        finally:
            self.peers[host] -= 1
            if not self.peers[host]:
                del self.peers[host]
