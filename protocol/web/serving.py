"""Serving the web application with hypercorn, in the caller's event loop, behind the
server's caps on connections (:mod:`.worker`)."""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, cast

import attrs
import trio
from hypercorn.config import Config, Sockets
from hypercorn.typing import ASGIFramework
from hypercorn.utils import wrap_app

from croupier.engine import CroupierError
from croupier.protocol.transport.limits import ServerLimits
from croupier.protocol.web.app import make_app
from croupier.protocol.web.hosts import HostAllowlist
from croupier.protocol.web.relay import Relay, supported
from croupier.protocol.web.transports import Transports
from croupier.protocol.web.worker import CappedWorker

if TYPE_CHECKING:
    from croupier.protocol.transport.server import RpcServer

log = logging.getLogger("croupier.server")


def _config(limits: ServerLimits, host: str, port: int) -> Config:
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    # hypercorn's own lines ("Running on ...") are replaced by ours; its errors are kept
    quiet = logging.getLogger("croupier.server.http")
    quiet.setLevel(logging.WARNING)
    config.errorlog = quiet
    config.accesslog = None
    # a WebSocket frame holds one message: the server's message limit bounds it too
    config.websocket_max_message_size = limits.max_message_size
    return config


def _give_up_on_silent_peers(sock: socket.socket, seconds: float) -> None:
    """Have the kernel drop a connection whose peer has left data unacknowledged (or kept its
    window shut) for ``seconds`` (``TCP_USER_TIMEOUT``, Linux; accepted sockets inherit it).

    hypercorn has no write timeout and shields its writes: a browser that stops reading would
    hold its connection (a descriptor, a task) for as long as it likes once our session had
    closed and freed the connection's slot, outside every cap. A TCP client's session closes
    its own socket after the same time (``send_timeout``)."""
    option = getattr(socket, "TCP_USER_TIMEOUT", None)
    if option is None:  # pragma: no cover - not Linux
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, option, max(1, int(seconds * 1000)))


@attrs.frozen
class WebListener:
    """The web page's bound sockets, before serving (see :func:`bind_http`)."""

    config: Config
    sockets: Sockets
    addresses: list[tuple[str, int]]
    allowed: HostAllowlist = attrs.field(factory=HostAllowlist.of)
    """The names requests may give in ``Host`` (:mod:`.hosts`)."""

    def descriptors(self, limits: ServerLimits) -> int:
        """The most descriptors serving it holds: its sockets and its connections."""
        return len(self.sockets.insecure_sockets) + limits.http_connections


def bind_http(
    limits: ServerLimits, host: str, port: int, allow_hosts: Sequence[str] = ()
) -> WebListener:
    """Bind ``host:port`` (0: any free port) for the web page of a server with ``limits``,
    answering requests for localhost, addresses, ``host`` and the names ``allow_hosts``;
    an address that cannot be bound is a one-line :class:`CroupierError` (raised here,
    before serving)."""
    config = _config(limits, host, port)
    try:
        sockets = config.create_sockets()
    except OSError as exc:
        raise CroupierError(
            f"cannot serve the web page on {host}:{port}: {exc.strerror or exc}"
        ) from None
    for sock in sockets.insecure_sockets:
        _give_up_on_silent_peers(sock, limits.send_timeout)
        sock.listen(config.backlog)
    addresses = [sock.getsockname()[:2] for sock in sockets.insecure_sockets]
    return WebListener(config, sockets, addresses, HostAllowlist.of(host, allow_hosts))


async def serve_web(
    server: RpcServer,
    listener: WebListener,
    *,
    relay: bool = False,
    task_status: trio.TaskStatus[list[tuple[str, int]]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve ``server``'s web page on a bound listener until cancelled; ``nursery.start``
    returns the bound addresses. Call it while the server is serving (its tables run in the
    server's tasks). ``relay``: the browsers' frames are written by a process of their own
    (:mod:`.relay`; where the platform can hand sockets over), else straight to their
    sockets from this one."""
    async with trio.open_nursery() as nursery:
        relayed = None
        if relay and supported():
            relayed = Relay()
            try:
                await nursery.start(relayed.run)
            except OSError as exc:
                log.warning("the web page's frames are written here: no relay (%s)", exc)
                relayed = None
        await nursery.start(partial(_serve_web, server, listener, Transports(relayed)))
        task_status.started(listener.addresses)


async def _serve_web(
    server: RpcServer,
    listener: WebListener,
    transports: Transports,
    *,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    config = listener.config
    app = make_app(server, listener.allowed, transports)
    wrapped = wrap_app(cast(ASGIFramework, app), config.wsgi_max_body_size, "asgi")
    limits = server.limits
    per_peer = limits.http_connections_per_peer
    worker = CappedWorker(wrapped, config, limits.http_connections, per_peer, transports)
    listeners = [
        trio.SocketListener(trio.socket.from_stdlib_socket(sock))
        for sock in listener.sockets.insecure_sockets
    ]
    async with trio.open_nursery() as nursery:
        await nursery.start(partial(worker.serve, listeners))
        for h, p in listener.addresses:
            log.info(
                "web page on http://%s/ (WebSocket /rpc)", f"[{h}]:{p}" if ":" in h else f"{h}:{p}"
            )
        task_status.started()


async def serve_http(
    server: RpcServer,
    host: str,
    port: int,
    *,
    allow_hosts: Sequence[str] = (),
    relay: bool = False,
    task_status: trio.TaskStatus[list[tuple[str, int]]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Bind ``host:port`` and serve ``server``'s web page until cancelled (both steps of
    :func:`bind_http` and :func:`serve_web`)."""
    listener = bind_http(server.limits, host, port, allow_hosts)
    await serve_web(server, listener, relay=relay, task_status=task_status)
