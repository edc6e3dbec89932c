"""croupier's wire: msgpack-rpc codec, bidirectional sessions, the trio server, the client.

``from croupier.protocol import Server, connect`` is all an embedding program needs; see
``docs/protocol.md`` for the methods, their parameters and the error codes.
"""

from croupier.protocol.errors import CallTimeout, Code, ConnectionClosed, RpcError
from croupier.protocol.running import run_server
from croupier.protocol.services import Server
from croupier.protocol.transport.addresses import DEFAULT_HOST, DEFAULT_PORT
from croupier.protocol.transport.client import Client, connect
from croupier.protocol.transport.codec import (
    PROTOCOL_VERSION,
    Decoder,
    Notification,
    Request,
    Response,
    encode,
    parse,
)
from croupier.protocol.transport.limits import ServerLimits
from croupier.protocol.transport.methods import Method, MethodTable, Param, Service
from croupier.protocol.transport.server import Connection, RpcServer
from croupier.protocol.transport.session import Session, SessionLimits

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "PROTOCOL_VERSION",
    "CallTimeout",
    "Client",
    "Code",
    "Connection",
    "ConnectionClosed",
    "Decoder",
    "Method",
    "MethodTable",
    "Notification",
    "Param",
    "Request",
    "Response",
    "RpcError",
    "RpcServer",
    "Server",
    "ServerLimits",
    "Service",
    "Session",
    "SessionLimits",
    "connect",
    "encode",
    "parse",
    "run_server",
]
