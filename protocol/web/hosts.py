"""The names the web page answers to: its defence against DNS rebinding.

A page on another site can have its own name resolve to 127.0.0.1 a moment after it was
loaded (DNS rebinding); the browser then lets it talk to a server on the visitor's loopback
as to its own origin, sending ``Host: evil.example:PORT`` (and that ``Origin``). So every
HTTP request and WebSocket handshake must name this server in ``Host`` (and, when a browser
says where the page came from, in ``Origin``): ``localhost``, any IP address (a browser
sends an address only to that address: nothing to rebind), the name the page is served on
(``--http-host``) and the names the operator adds (``--http-allow-host NAME``; ``.NAME``
also allows its subdomains, ``*`` any name, for a proxy that checks them itself). Anything
else is answered ``403``, as local development servers do (Vite's ``server.allowedHosts``,
webpack-dev-server's ``allowedHosts``, Jupyter's ``allow_remote_access``).

Starlette's ``TrustedHostMiddleware`` answers 400 and cuts an IPv6 ``Host`` (``[::1]:8080``)
at its first colon; this one is small enough to keep.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable
from urllib.parse import urlsplit

import attrs
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("croupier.server")

LOCAL_NAMES = ("localhost",)
"""Names that are this machine whatever DNS says (RFC 6761); addresses need no listing."""

_LOGGED = 64
"""Refused names logged (once each), so a flood of them cannot fill the log."""


def host_name(header: str) -> str | None:
    """The name in a ``Host`` header (``name``, ``name:port``, ``[v6]:port``), lower case,
    without a trailing dot; None when it is no host."""
    try:
        name = urlsplit(f"//{header.strip()}").hostname
    except ValueError:  # an unbalanced bracket
        return None
    return name.rstrip(".") if name else None


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@attrs.frozen
class HostAllowlist:
    """The names a web page's requests may give in ``Host`` and ``Origin``."""

    names: frozenset[str] = frozenset(LOCAL_NAMES)
    suffixes: tuple[str, ...] = ()
    """``.example.org``: the name and any name under it."""
    anything: bool = False

    @classmethod
    def of(cls, http_host: str | None = None, extra: Iterable[str] = ()) -> HostAllowlist:
        """localhost, addresses, ``http_host`` (the address the page is served on) and the
        operator's ``extra`` names."""
        names, suffixes, anything = set(LOCAL_NAMES), [], False
        for given in (http_host, *extra):
            if not given:
                continue
            text = given.strip().lower().rstrip(".")
            if text == "*":
                anything = True
            elif text.startswith("."):
                names.add(text[1:])
                suffixes.append(text)
            else:
                names.add(text.strip("[]"))
        return cls(frozenset(names), tuple(suffixes), anything)

    def allows_name(self, name: str | None) -> bool:
        if name is None:
            return False
        return (
            self.anything
            or name in self.names
            or is_address(name)
            or any(name.endswith(s) for s in self.suffixes)
        )

    def allows_host(self, header: str | None) -> bool:
        """A request's ``Host`` (None: there is none, as in HTTP/1.0: no browser)."""
        return header is None or self.allows_name(host_name(header))

    def allows_origin(self, origin: str | None) -> bool:
        """A browser's ``Origin`` (None: no browser said one)."""
        if origin is None:
            return True
        try:
            name = urlsplit(origin.strip()).hostname
        except ValueError:
            return False
        return self.allows_name(name.rstrip(".") if name else None)

    def describe(self) -> str:
        listed = sorted(self.names) + [f"*{s}" for s in self.suffixes]
        return "any name" if self.anything else ", ".join(listed) + " and IP addresses"


class CheckHost:
    """ASGI middleware: ``403`` for an HTTP request or WebSocket handshake whose ``Host``
    (or a WebSocket's ``Origin``) names no host of :class:`HostAllowlist`."""

    def __init__(self, app: ASGIApp, allowed: HostAllowlist) -> None:
        self.app = app
        self.allowed = allowed
        self._logged: set[str] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers: dict[bytes, bytes] = dict(scope.get("headers") or ())
        host = _text(headers.get(b"host"))
        origin = _text(headers.get(b"origin")) if scope["type"] == "websocket" else None
        if self.allowed.allows_host(host) and self.allowed.allows_origin(origin):
            await self.app(scope, receive, send)
            return
        self._log(host, origin)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # before accept: a 403
            return
        body = (
            f"403 Forbidden: this croupier web page answers to {self.allowed.describe()}, "
            f"not {host!r} (croupier serve --http-allow-host NAME adds a name)\n"
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _log(self, host: str | None, origin: str | None) -> None:
        said = repr(host and host[:100]) + ("" if origin is None else f" (Origin {origin[:100]!r})")
        if said in self._logged or len(self._logged) >= _LOGGED:
            return
        self._logged.add(said)
        log.warning(
            "web page: refused a request for host %s: not a name it answers to "
            "(--http-allow-host NAME adds one)",
            said,
        )


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode("latin-1")
