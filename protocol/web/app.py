"""The web application: the static pages and the ``/rpc`` WebSocket into the server."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from croupier.protocol.web.hosts import CheckHost, HostAllowlist
from croupier.protocol.web.transports import Transports
from croupier.protocol.web.wsstream import websocket_stream

if TYPE_CHECKING:
    from croupier.engine import PluginManager
    from croupier.protocol.transport.server import RpcServer

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

    def __init__(self, app: ASGIApp) -> None:
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


def game_files(manager: PluginManager) -> tuple[list[tuple[str, Path]], dict[str, Any]]:
    """Each game's web folder (served at ``/games/<name>/``) and the index the pages read
    (``/games/index.json``): ``views`` (game -> its table view's address) and ``pages``
    (each game's own pages: title and address), for the games that have them. A game
    whose folder is missing is left out (its tables show as event lists)."""
    folders: list[tuple[str, Path]] = []
    views: dict[str, str] = {}
    pages: list[dict[str, str]] = []
    for game in manager.games:
        if game.web is None:
            continue
        try:
            path = Path(str(resources.files(game.web.package).joinpath(game.web.folder)))
        except (ImportError, TypeError):
            continue
        if not path.is_dir():
            continue
        base = f"/games/{quote(game.name)}"
        folders.append((game.name, path))
        if game.web.view is not None and (path / game.web.view).is_file():
            views[game.name] = f"{base}/{quote(game.web.view)}"
        for file, title in game.web.pages.items():
            if (path / file).is_file():
                pages.append({"game": game.name, "title": title, "href": f"{base}/{quote(file)}"})
    return folders, {"views": views, "pages": pages}


def make_app(
    server: RpcServer, allowed: HostAllowlist | None = None, transports: Transports | None = None
) -> _Headers:
    """The ASGI application serving ``server``'s web page (static files and ``/rpc``) to
    requests naming an ``allowed`` host (default: localhost and addresses); a WebSocket
    whose connection is in ``transports`` has its frames written straight to its socket."""

    async def rpc(websocket: WebSocket) -> None:
        if not same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
            # another site's page in the visitor's browser (cross-site WebSocket hijacking)
            await websocket.close(code=1008)
            return
        await websocket.accept()
        client = websocket.client
        peer = f"{client.host}:{client.port}" if client is not None else "?"
        address = None if client is None else (client.host, client.port)
        frames = None if transports is None else transports.writer(address)
        async with websocket_stream(websocket, frames) as stream:
            await server.handle(stream, peer=peer, roles=WEB_ROLES)

    folders, index = game_files(server.manager)

    async def games_index(request: Request) -> JSONResponse:
        return JSONResponse(index)

    app = Starlette(
        routes=[
            WebSocketRoute("/rpc", rpc),
            Route("/games/index.json", games_index),
            *(Mount(f"/games/{name}", StaticFiles(directory=path)) for name, path in folders),
            Mount("/", StaticFiles(directory=STATIC, html=True), name="static"),
        ]
    )
    return _Headers(CheckHost(app, HostAllowlist.of() if allowed is None else allowed))
