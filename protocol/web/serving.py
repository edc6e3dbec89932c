"""Serving the web application with hypercorn's trio worker, in the caller's event loop."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

import trio
from hypercorn.config import Config
from hypercorn.trio.run import worker_serve
from hypercorn.typing import ASGIFramework
from hypercorn.utils import wrap_app

from croupier.engine import CroupierError
from croupier.protocol.web.app import make_app

if TYPE_CHECKING:
    from croupier.protocol.server import Server

log = logging.getLogger("croupier.server")


def _config(server: Server, host: str, port: int) -> Config:
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    # hypercorn's own lines ("Running on ...") are replaced by ours; its errors are kept
    quiet = logging.getLogger("croupier.server.http")
    quiet.setLevel(logging.WARNING)
    config.errorlog = quiet
    config.accesslog = None
    # a WebSocket frame holds one message: the server's message limit bounds it too
    config.websocket_max_message_size = server.limits.max_message_size
    return config


async def serve_http(
    server: Server,
    host: str,
    port: int,
    *,
    task_status: trio.TaskStatus[list[tuple[str, int]]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve ``server``'s web page on ``host:port`` (0: any free port) until cancelled.

    ``nursery.start(serve_http, server, host, port)`` returns the bound addresses; an
    address that cannot be bound is a one-line :class:`CroupierError`. Call it while the
    server is serving (its tables run in the server's tasks).
    """
    app = make_app(server)
    config = _config(server, host, port)
    try:
        sockets = config.create_sockets()  # bind here: a port in use is a one-line error
    except OSError as exc:
        raise CroupierError(
            f"cannot serve the web page on {host}:{port}: {exc.strerror or exc}"
        ) from None
    bound = [sock.getsockname()[:2] for sock in sockets.insecure_sockets]
    for sock in sockets.insecure_sockets:
        sock.listen(config.backlog)
    # hypercorn.trio.serve binds by itself; its worker takes the sockets bound here
    wrapped = wrap_app(cast(ASGIFramework, app), config.wsgi_max_body_size, "asgi")
    async with trio.open_nursery() as nursery:
        await nursery.start(
            lambda task_status: worker_serve(
                wrapped, config, sockets=sockets, task_status=task_status
            )
        )
        for where in (f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in bound):
            log.info("web page on http://%s/ (WebSocket /rpc)", where)
        task_status.started(bound)
