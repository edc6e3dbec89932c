"""The msgpack-rpc wire format: message classes, encoding, and a bounded stream decoder.

A message is a msgpack array, exactly as the msgpack-rpc specification says::

    request       [0, msgid, method, params]
    response      [1, msgid, error, result]
    notification  [2, method, params]

``msgid`` is an unsigned 32-bit integer chosen by the caller, ``method`` a string and
``params`` an array. Messages follow each other on the TCP stream with no other framing:
msgpack is self-delimiting. The :class:`Decoder` bounds how much it buffers
(``msgpack.Unpacker(max_buffer_size=...)``), so a peer cannot make us hold an unbounded
message in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import msgpack

from croupier.protocol.errors import Code, ProtocolViolation, RpcError

REQUEST, RESPONSE, NOTIFICATION = 0, 1, 2
MAX_MSGID = 2**32 - 1
DEFAULT_MAX_MESSAGE_SIZE = 1 << 20


@attrs.frozen
class Request:
    msgid: int
    method: str
    params: list[Any] | dict[str, Any]

    def to_wire(self) -> list[Any]:
        return [REQUEST, self.msgid, self.method, self.params]


@attrs.frozen
class Response:
    msgid: int
    error: Any
    result: Any

    def to_wire(self) -> list[Any]:
        return [RESPONSE, self.msgid, self.error, self.result]


@attrs.frozen
class Notification:
    method: str
    params: list[Any] | dict[str, Any]

    def to_wire(self) -> list[Any]:
        return [NOTIFICATION, self.method, self.params]


Message = Request | Response | Notification


def encode(message: Message) -> bytes:
    """The bytes of one message. Raises ``TypeError`` for data msgpack cannot carry."""
    return msgpack.packb(message.to_wire(), use_bin_type=True)  # type: ignore[no-any-return]


class InvalidMessage(RpcError):
    """A decoded object that is not a msgpack-rpc message; ``msgid`` if one could be read."""

    def __init__(self, message: str, msgid: int | None = None) -> None:
        super().__init__(int(Code.INVALID_REQUEST), message)
        self.msgid = msgid


def _is_msgid(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_MSGID


def parse(obj: Any) -> Message:
    """Check the shape of one decoded object and return the message it is.

    Raises :class:`InvalidMessage` (code ``invalid-request``) for anything that is not a msgpack-rpc
    message. ``params`` may be an array (the specification) or, as a convenience, a map of
    parameter names; every other type is refused.
    """
    if not isinstance(obj, list) or not obj:
        raise InvalidMessage("a message must be a msgpack-rpc array")
    kind = obj[0] if type(obj[0]) is int else None  # not 0.0, not False
    if kind == REQUEST and len(obj) == 4:
        _, msgid, method, params = obj
        if not _is_msgid(msgid):
            raise InvalidMessage("a request's msgid must be a uint32")
        if not isinstance(method, str):
            raise InvalidMessage("a request's method must be a string", msgid)
        if not isinstance(params, list | dict):
            raise InvalidMessage("a request's params must be an array", msgid)
        return Request(msgid, method, params)
    if kind == RESPONSE and len(obj) == 4:
        _, msgid, error, result = obj
        if not _is_msgid(msgid):
            raise InvalidMessage("a response's msgid must be a uint32")
        return Response(msgid, error, result)
    if kind == NOTIFICATION and len(obj) == 3:
        _, method, params = obj
        if not isinstance(method, str) or not isinstance(params, list | dict):
            raise InvalidMessage("a notification is [2, method, params]")
        return Notification(method, params)
    raise InvalidMessage(
        "not a msgpack-rpc message: expected [0, msgid, method, params], "
        "[1, msgid, error, result] or [2, method, params]",
    )


class Decoder:
    """Turns received bytes into decoded objects; no message may exceed ``max_message_size``.

    Garbage (bytes that are not msgpack, map keys that are not strings, invalid UTF-8) and
    a message larger than the limit raise :class:`ProtocolViolation`: the stream cannot be
    resynchronised, so the connection must close.

    The limit is per message: bytes are fed in pieces of at most the limit and complete
    messages are taken out after each, so the unpacker holds at most one unfinished message
    plus one piece (its ``max_buffer_size`` is twice the limit). Back-to-back messages just
    under the limit are fine; the part of a message received so far is checked after every
    piece, so a message over the limit is refused before it is all in.
    """

    def __init__(self, max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE) -> None:
        self.max_message_size = max_message_size
        self._unpacker = msgpack.Unpacker(
            raw=False, strict_map_key=True, use_list=True, max_buffer_size=2 * max_message_size
        )
        self._fed = 0  # bytes fed so far
        self._taken = 0  # bytes of the complete messages taken out so far

    def feed(self, data: bytes | bytearray) -> Iterator[Any]:
        """Feed ``data`` and yield every object that is now complete."""
        limit = self.max_message_size
        view = memoryview(data)
        for start in range(0, len(view), limit):
            piece = view[start : start + limit]
            try:
                self._unpacker.feed(piece)
            except msgpack.BufferFull:  # pragma: no cover - prevented by the checks below
                raise self._too_large() from None
            self._fed += len(piece)
            yield from self._complete()
            if self._fed - self._taken > limit:  # the unfinished message is already too big
                raise self._too_large()

    def _complete(self) -> Iterator[Any]:
        while True:
            try:
                obj = next(self._unpacker)
            except StopIteration:
                return
            except msgpack.OutOfData:  # pragma: no cover - Unpacker raises StopIteration
                return
            except Exception as exc:  # FormatError, StackError, ValueError, UnicodeError ...
                raise ProtocolViolation(f"malformed msgpack ({type(exc).__name__})") from None
            end = self._unpacker.tell()
            if end - self._taken > self.max_message_size:
                raise self._too_large()
            self._taken = end
            yield obj

    def _too_large(self) -> ProtocolViolation:
        return ProtocolViolation(f"message larger than the limit of {self.max_message_size} bytes")
