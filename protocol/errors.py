"""Structured protocol errors: ``{"code": int, "name": str, "message": str}`` on the wire.

The four generic codes are JSON-RPC 2.0's, so they look familiar to anyone who has written
an RPC client; croupier's own codes are small positive integers. ``docs/protocol.md`` lists
them all; the table here is the single source of truth and a test keeps the two in sync.
"""

from __future__ import annotations

import enum
import logging
from typing import Any

import attrs

from croupier.engine import CroupierError, PluginError, SpecError, UnknownNameError

log = logging.getLogger("croupier.server")


class Code(enum.IntEnum):
    """Every error code the server sends. The name, lower-cased with dashes, goes along."""

    INVALID_REQUEST = -32600
    """The message is msgpack but not a msgpack-rpc request, or the call is out of order."""
    METHOD_NOT_FOUND = -32601
    """No method of that name."""
    INVALID_PARAMS = -32602
    """Wrong number of parameters, an unknown parameter name, or a parameter of the wrong type."""
    INTERNAL_ERROR = -32603
    """A bug in croupier or in a plugin; the message says which method failed."""
    HELLO_REQUIRED = 1
    """Any method but ``hello`` before a successful ``hello``."""
    UNSUPPORTED_VERSION = 2
    """``hello`` asked for a protocol version the server does not speak."""
    TOO_MANY_REQUESTS = 3
    """More requests in flight on this connection than the server allows."""
    MESSAGE_TOO_LARGE = 4
    """A message (or the reply it would need) exceeds the server's size limit."""
    UNKNOWN_NAME = 5
    """A name (solver, randomizer, stream id, ...) that does not exist."""
    BAD_INPUT = 6
    """The parameters are well typed but wrong: a bad spec, a bad problem, a bad seed."""
    LIMIT_EXCEEDED = 7
    """A resource limit: too many open streams, too many symbols in one draw, too slow."""
    SHUTTING_DOWN = 8
    """The server is shutting down and takes no new work."""
    TIMEOUT = 9
    """A call the server made to the client was not answered in time (client side only)."""
    CONNECTION_CLOSED = 10
    """The connection closed before the answer came (client side only)."""
    SEAT_TAKEN = 11
    """The seat asked for is held by a bot, a built-in strategy or a token (or none is free)."""
    BAD_TOKEN = 12
    """A seat token that no seat has (never issued, given up with ``table.leave``, or the
    table is gone)."""
    BUSY = 13
    """The server's workers are all taken and the queue for them is full, or a job waited
    too long for one: nothing was run; try again later."""
    NOT_ALLOWED = 14
    """The call touches a table or tournament that belongs to another client."""
    JOURNAL_FAILED = 15
    """The server cannot write its journal (a full disk, a read-only file): it takes no new
    tables or tournaments until an operator fixes the journal and restarts it."""
    RECOVERING = 16
    """The table or tournament (or the seat a token holds) is still being rebuilt from the
    journal after a restart: try again in a moment (the server answers everything else)."""

    @property
    def slug(self) -> str:
        """The code's name as sent on the wire, e.g. ``method-not-found``."""
        return self.name.lower().replace("_", "-")


def recovering(what: str) -> RpcError:
    """The ``recovering`` error for ``what`` ("table 3"), still being rebuilt after a restart."""
    return RpcError(
        Code.RECOVERING,
        f"{what} is still being recovered from the journal after a restart; try again shortly",
    )


@attrs.define(eq=False, repr=False)
class RpcError(Exception):
    """An error to send as a response (server side) or received in one (client side).

    ``data`` is optional plain data with details, such as the column of a bad spec.
    """

    code: int
    message: str
    data: Any = None

    def __attrs_post_init__(self) -> None:
        Exception.__init__(self, self.message)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"RpcError({self.code!r}, {self.message!r})"

    @property
    def name(self) -> str:
        try:
            return Code(self.code).slug
        except ValueError:
            return "unknown"

    def to_wire(self) -> dict[str, Any]:
        """The error object as sent: code, name, message and, when there is some, data."""
        out: dict[str, Any] = {"code": int(self.code), "name": self.name, "message": self.message}
        if self.data is not None:
            out["data"] = self.data
        return out

    def to_string(self) -> str:
        """The error as one string, for clients that asked for string errors in ``hello``:
        ``name (code): message``."""
        return f"{self.name} ({int(self.code)}): {self.message}"

    @classmethod
    def from_wire(cls, error: Any) -> RpcError:
        """Read the error of a response; tolerate peers that send a bare string or number."""
        if isinstance(error, dict):
            code = error.get("code", Code.INTERNAL_ERROR)
            message = error.get("message", repr(error))
            if not isinstance(code, int) or isinstance(code, bool):
                code = Code.INTERNAL_ERROR
            return cls(int(code), str(message), error.get("data"))
        return cls(int(Code.INTERNAL_ERROR), str(error))


class CallTimeout(RpcError):
    """A call to the peer was not answered within its time limit."""

    def __init__(self, method: str, timeout: float) -> None:
        super().__init__(int(Code.TIMEOUT), f"{method!r} was not answered within {timeout:g} s")


class ConnectionClosed(RpcError):
    """The connection closed while a call was waiting, or before it could be sent."""

    def __init__(self, message: str = "the connection is closed") -> None:
        super().__init__(int(Code.CONNECTION_CLOSED), message)


class ProtocolViolation(Exception):
    """The peer broke the framing (garbage bytes, oversized message): close the connection.

    ``code`` is the error the peer is told (``invalid-request`` unless said otherwise)."""

    def __init__(self, message: str, code: int = Code.INVALID_REQUEST) -> None:
        super().__init__(message)
        self.code = int(code)


def to_rpc_error(exc: CroupierError) -> RpcError:
    """The structured error for a user error raised by the engine or a plugin."""
    message = str(exc)
    if isinstance(exc, PluginError):  # a plugin's bug, not the client's input
        log.error("%s", message)
        return RpcError(Code.INTERNAL_ERROR, message)
    if isinstance(exc, UnknownNameError):
        return RpcError(Code.UNKNOWN_NAME, message, {"known": exc.known})
    if isinstance(exc, SpecError) and exc.position is not None:
        return RpcError(Code.BAD_INPUT, message, {"text": exc.text, "position": exc.position})
    return RpcError(Code.BAD_INPUT, message)
