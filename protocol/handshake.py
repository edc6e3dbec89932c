"""The handshake and the basics every connection has: ``hello``, ``ping``, ``methods``.

Every method but ``hello`` requires a successful ``hello`` first: it says which protocol
version the client speaks, its name and role, how it reads errors, and (a registered bot)
its key. ``docs/protocol.md`` documents each method.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import trio

from croupier.engine import __version__
from croupier.protocol.botkeys import REFUSED
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.transport.codec import SUPPORTED_VERSIONS
from croupier.protocol.transport.methods import Method, Param, Service
from croupier.protocol.transport.server import Connection

ROLES = ("bot", "client", "watcher")
"""``bot``: plays seats (answers ``decide``); ``client``: uses services; ``watcher``: watches."""

MAX_NAME = 100


class CoreService(Service):
    """``hello`` (the handshake), ``ping`` and ``methods``."""

    def methods(self) -> Iterable[Method]:
        return [
            Method(
                "hello",
                (
                    Param("version", (int,), doc="the protocol version the client speaks"),
                    Param("name", (str,), doc="the client's name, for logs"),
                    Param("role", (str,), "client", doc="one of: " + ", ".join(ROLES)),
                    Param(
                        "errors",
                        (str,),
                        "map",
                        doc="'map' (errors are {code, name, message} maps) or 'string' "
                        "(errors are 'name (code): message' strings, for codecs such as "
                        "Go's net/rpc that cannot read a map)",
                    ),
                    Param(
                        "key",
                        (str, type(None)),
                        None,
                        doc="a registered bot's key (servers run with --auth keys): the "
                        "connection plays under the bot's registered name",
                    ),
                ),
                self.hello,
                "introduce the client; must be the first call",
                returns="{protocol, server, connection, roles, name, auth}",
                hello_required=False,
                quick=True,
                watcher=True,
            ),
            Method(
                "ping",
                (),
                self.ping,
                "a trivial call (latency, liveness)",
                returns='"pong"',
                quick=True,
                watcher=True,
            ),
            Method(
                "methods",
                (),
                self.list_methods,
                "every method with its parameters",
                returns="[{name, summary, params, returns}]",
                quick=True,
                watcher=True,
            ),
        ]

    async def hello(
        self,
        conn: Connection,
        version: int,
        name: str,
        role: str,
        errors: str = "map",
        key: str | None = None,
    ) -> dict[str, Any]:
        if errors not in ("map", "string"):
            raise RpcError(Code.BAD_INPUT, "errors is 'map' or 'string'")
        if conn.protocol is None:
            conn.session.string_errors = errors == "string"
        if conn.protocol is not None:
            raise RpcError(Code.INVALID_REQUEST, "'hello' was already called on this connection")
        if version not in SUPPORTED_VERSIONS:
            speaks = ", ".join(str(v) for v in SUPPORTED_VERSIONS)
            raise RpcError(
                Code.UNSUPPORTED_VERSION,
                f"protocol version {version} is not supported; this server speaks {speaks}",
                {"supported": list(SUPPORTED_VERSIONS)},
            )
        if not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            raise RpcError(Code.BAD_INPUT, f"a client name is 1 to {MAX_NAME} printable characters")
        if role not in ROLES:
            raise RpcError(
                Code.BAD_INPUT, f"unknown role {role[:MAX_NAME]!r}; roles: {', '.join(ROLES)}"
            )
        if conn.roles is not None and role not in conn.roles:
            raise RpcError(
                Code.BAD_INPUT,
                f"this connection may only say hello as {' or '.join(map(repr, conn.roles))}",
            )
        identity = check_key(conn, role, key)
        conn.protocol, conn.client, conn.role = version, identity or name, role
        conn.identity = identity
        return {
            "protocol": version,
            "server": f"croupier {__version__}",
            "connection": conn.id,
            "roles": list(ROLES),
            "name": conn.client,
            "auth": conn.server.auth,
        }

    async def ping(self, conn: Connection) -> str:
        return "pong"

    async def list_methods(self, conn: Connection) -> list[dict[str, Any]]:
        return [method.describe() for method in conn.server.methods]


def check_key(conn: Connection, role: str, key: str | None) -> str | None:
    """The registered name ``key`` proves (None without a key on an ``open`` server);
    an error for a key an ``open`` server does not take, a bot without a key on a ``keys``
    server, a wrong or revoked key (one error, rate-limited per address), or a bot already
    connected under that name."""
    server = conn.server
    if key is None:
        if server.auth == "keys" and role == "bot":
            raise RpcError(
                Code.NOT_ALLOWED,
                "this server plays registered bots only: present the bot's key (croupier "
                "bot --key KEY, or CROUPIER_KEY)",
            )
        return None
    if server.auth == "open":
        raise RpcError(
            Code.BAD_INPUT,
            "this server runs --auth open and takes no keys: connect without one",
        )
    now = trio.current_time()
    wait = server.key_failures.wait(conn.address, now)
    if wait > 0:
        raise RpcError(
            Code.TOO_MANY_REQUESTS,
            f"too many wrong keys from this address: try again in {math.ceil(wait)} s",
        )
    name = server.bot_keys.who(key)
    if name is None:
        server.key_failures.failed(conn.address, now)
        raise RpcError(Code.BAD_TOKEN, REFUSED)
    if any(other.identity == name for other in list(server.connections.values())):
        raise RpcError(
            Code.NOT_ALLOWED, f"bot {name!r} is already connected (one connection per key)"
        )
    return name
