"""croupier's web page: an ASGI application (starlette) served by hypercorn's trio worker in
the server's own event loop. Browsers speak the same msgpack-rpc as TCP clients, over a
WebSocket (binary frames of whole messages), as ``watcher`` connections; the pages are static
HTML, CSS and JavaScript modules shipped in ``static/`` (no build step). See docs/web.md.
"""

from croupier.protocol.web.app import STATIC, make_app
from croupier.protocol.web.serving import WebListener, bind_http, serve_http, serve_web
from croupier.protocol.web.wsstream import WebSocketStream, websocket_stream

__all__ = [
    "STATIC",
    "WebListener",
    "WebSocketStream",
    "bind_http",
    "make_app",
    "serve_http",
    "serve_web",
    "websocket_stream",
]
