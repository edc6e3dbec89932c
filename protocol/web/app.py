"""The web application: the static pages and the ``/rpc`` WebSocket into the server."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from croupier.protocol.web.wsstream import websocket_stream

if TYPE_CHECKING:
    from croupier.protocol.server import Server

STATIC = Path(__file__).resolve().parent / "static"
"""The pages, styles and scripts, served as they are."""

WEB_ROLES = ("watcher",)
"""A browser watches: it may not take seats (its ``hello`` must say ``watcher``)."""

SECURITY_HEADERS = {
    # the pages load nothing from elsewhere and talk only to this server
    "content-security-policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
_ENCODED_HEADERS = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]


class _Headers:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), *_ENCODED_HEADERS]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket may connect: a browser names the page's origin, which must be
    this server's (host and port); a client without ``Origin`` is no browser page."""
    if origin is None:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def make_app(server: Server) -> _Headers:
    """The ASGI application serving ``server``'s web page (static files and ``/rpc``)."""

    async def rpc(websocket: WebSocket) -> None:
        if not same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
            # another site's page in the visitor's browser (cross-site WebSocket hijacking)
            await websocket.close(code=1008)
            return
        await websocket.accept()
        client = websocket.client
        peer = f"{client.host}:{client.port}" if client is not None else "?"
        async with websocket_stream(websocket) as stream:
            await server.handle(stream, peer=peer, roles=WEB_ROLES)

    app = Starlette(
        routes=[
            WebSocketRoute("/rpc", rpc),
            Mount("/", StaticFiles(directory=STATIC, html=True), name="static"),
        ]
    )
    return _Headers(app)
