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

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs
import msgpack

from croupier.protocol.errors import Code, ProtocolViolation, RpcError

PROTOCOL_VERSION = 1
"""The version of croupier's protocol a client says it speaks in ``hello``."""
SUPPORTED_VERSIONS = (1,)
"""The versions a server answers."""

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


def new_packer() -> msgpack.Packer:
    """A packer for :func:`encode` to reuse: a connection keeps one instead of building one
    per message (``msgpack.packb`` does), which is a good part of a cheap request's cost.
    Not for sharing between threads; after a failed ``pack`` it is empty and reusable."""
    return msgpack.Packer(use_bin_type=True)


def encode(message: Message, packer: msgpack.Packer | None = None) -> bytes:
    """The bytes of one message, with ``packer`` if given (see :func:`new_packer`). Raises
    ``TypeError`` for data msgpack cannot carry."""
    if packer is None:
        return msgpack.packb(message.to_wire(), use_bin_type=True)  # type: ignore[no-any-return]
    return packer.pack(message.to_wire())  # type: ignore[no-any-return]


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


class BufferBudget:
    """Bytes of unfinished messages buffered server-wide, across every connection.

    Each connection's :class:`Decoder` reports what it holds; when the total passes
    ``limit`` the decoder holding the most is refused (its connection closes), so many
    connections each sending an unfinished message just under the size limit cannot pin
    the server's memory.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self._held: dict[Decoder, int] = {}

    def hold(self, decoder: Decoder, nbytes: int) -> Decoder | None:
        """``decoder`` now holds ``nbytes``; the decoder to refuse if over the limit."""
        old = self._held.pop(decoder, 0)
        if nbytes:
            self._held[decoder] = nbytes
        self.total += nbytes - old
        if self.total <= self.limit:
            return None
        victim = max(self._held, key=self._held.__getitem__)
        self.total -= self._held.pop(victim)
        return victim


class Decoder:
    """Turns received bytes into decoded objects within the bounds of a message's size and
    cost.

    Garbage (bytes that are not msgpack, map keys that are not strings, invalid UTF-8), a
    message larger than ``max_message_size`` and one with more than ``max_elements``
    arrays, maps and items in all raise :class:`ProtocolViolation`: the stream cannot be
    resynchronised, so the connection must close. (A megabyte of empty arrays is a million
    objects to build; nesting is bounded by msgpack itself, at 1024 levels.)

    The size limit is per message: bytes are fed in pieces of at most the limit and
    complete messages are taken out after each, so the unpacker holds at most one
    unfinished message plus one piece (its ``max_buffer_size`` is twice the limit). The
    part of a message received so far is checked after every piece, so a message over the
    limit is refused before it is all in. Once a large message is through, the unpacker
    (whose buffer keeps its largest size) is replaced, and :meth:`release` drops it for
    good. With a ``budget``, the unfinished bytes count against a server-wide total, and
    ``on_evict`` is called when another connection's message makes this decoder the one
    to refuse.
    """

    RESET_AFTER = 256 << 10
    """An unpacker that has buffered this much is replaced once it holds nothing."""

    def __init__(
        self,
        max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
        *,
        max_elements: int | None = None,
        budget: BufferBudget | None = None,
    ) -> None:
        self.max_message_size = max_message_size
        self.max_elements = max_elements
        self.budget = budget
        self.on_evict: Callable[[], None] | None = None
        self._elements = 0  # arrays, maps and their items in the message being decoded
        self._unpacker = self._new_unpacker()
        self._fed = 0  # bytes fed so far
        self._taken = 0  # bytes of the complete messages taken out so far
        self._peak = 0  # most bytes buffered since the unpacker was made
        self._reported = 0  # bytes the budget was last told this decoder holds

    def _new_unpacker(self) -> msgpack.Unpacker:
        options: dict[str, Any] = {}
        if self.max_elements is not None:
            options.update(
                max_array_len=self.max_elements,
                max_map_len=self.max_elements,
                list_hook=self._count,
                object_hook=self._count,
            )
        return msgpack.Unpacker(
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_buffer_size=2 * self.max_message_size,
            **options,
        )

    def _count(self, container: Any) -> Any:
        self._elements += 1 + len(container)
        if self.max_elements is not None and self._elements > self.max_elements:
            raise _TooComplex
        return container

    @property
    def buffered(self) -> int:
        """Bytes of the unfinished message held now."""
        return self._fed - self._taken

    def feed(self, data: bytes | bytearray) -> Iterator[Any]:
        """Feed ``data`` and yield every object that is now complete.

        Kept lean, as every received byte passes here: data no larger than a message
        (nearly every read) is fed whole, with no slicing, and the budget hears of a piece
        only when something is or was held (telling it nothing is held, when nothing was,
        changes nothing: see :meth:`BufferBudget.hold`)."""
        limit = self.max_message_size
        if len(data) <= limit:
            pieces: Iterable[bytes | bytearray | memoryview] = (data,)
        else:
            view = memoryview(data)
            pieces = (view[start : start + limit] for start in range(0, len(view), limit))
        for piece in pieces:
            unpacker = self._unpacker  # (a new one after release(), while a message waited)
            try:
                unpacker.feed(piece)
            except msgpack.BufferFull:  # pragma: no cover - prevented by the checks below
                raise self._too_large() from None
            self._fed += len(piece)
            if self._fed - self._taken > self._peak:
                self._peak = self._fed - self._taken
            while True:
                unpacker = self._unpacker
                try:
                    obj = next(unpacker)
                except (StopIteration, msgpack.OutOfData):  # (Unpacker: StopIteration)
                    break
                except Exception as exc:
                    raise self._malformed(exc) from None
                self._elements = 0
                end = unpacker.tell()
                if end - self._taken > limit:
                    raise self._too_large()
                self._taken = end
                yield obj
            if self._fed - self._taken > limit:  # the unfinished message is already too big
                raise self._too_large()
            if self.budget is not None and (self._fed != self._taken or self._reported):
                self._account()
        if self._fed == self._taken and self._peak > self.RESET_AFTER:
            self._reset()

    def _account(self) -> None:
        assert self.budget is not None
        self._reported = self._fed - self._taken
        victim = self.budget.hold(self, self._reported)
        if victim is self:
            raise ProtocolViolation(
                f"the server's input buffers are full ({self.budget.limit} bytes of "
                "unfinished messages); yours is the largest",
                int(Code.LIMIT_EXCEEDED),
            )
        if victim is not None and victim.on_evict is not None:
            victim.on_evict()

    def _reset(self) -> None:
        self._unpacker = self._new_unpacker()
        self._fed = self._taken = self._peak = 0

    def release(self) -> None:
        """Drop the buffer and the budget's count (the connection has ended)."""
        if self.budget is not None:
            self.budget.hold(self, 0)
            self._reported = 0
        self._reset()

    def _malformed(self, exc: Exception) -> ProtocolViolation:
        """What a failure to decode means: a message over ``max_elements``, or garbage."""
        if isinstance(exc, _TooComplex):
            return self._too_complex()
        if isinstance(exc, ValueError) and "exceeds max_" in str(exc):
            return self._too_complex()  # an array or map header over the count
        # FormatError, StackError, UnicodeError ...
        return ProtocolViolation(f"malformed msgpack ({type(exc).__name__})")

    def _too_large(self) -> ProtocolViolation:
        return ProtocolViolation(
            f"message larger than the limit of {self.max_message_size} bytes",
            int(Code.MESSAGE_TOO_LARGE),
        )

    def _too_complex(self) -> ProtocolViolation:
        return ProtocolViolation(
            f"message with more than the limit of {self.max_elements} arrays, maps and items",
            int(Code.MESSAGE_TOO_LARGE),
        )


class _TooComplex(Exception):
    """Raised by the decoder's hooks to stop decoding a message over ``max_elements``."""
