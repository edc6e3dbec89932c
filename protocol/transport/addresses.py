"""Where the server listens, and who is at the other end of a connection."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

import trio

from croupier.engine import CroupierError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7171
"""Where ``croupier serve`` listens, and clients connect, unless told otherwise."""


async def listen(host: str, port: int) -> list[trio.SocketListener]:
    """Bind ``host:port``; a port in use or a bad host is a one-line error."""
    try:
        return await trio.open_tcp_listeners(port, host=host)
    except OSError as exc:
        raise CroupierError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def peer_of(stream: trio.abc.Stream) -> str:
    """``host:port`` of a socket stream's peer (``?`` for a stream of another kind)."""
    try:
        host, port = stream.socket.getpeername()[:2]  # type: ignore[attr-defined]
        return f"{host}:{port}"
    except (AttributeError, OSError, ValueError):
        return "?"


def exposed(addresses: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """The bound addresses other machines can reach (anything but loopback)."""
    found = []
    for host, port in addresses:
        try:
            loopback = ipaddress.ip_address(host.split("%")[0]).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            found.append((host, port))
    return found
