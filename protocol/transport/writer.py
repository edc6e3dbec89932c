"""The write path of a :class:`~croupier.protocol.transport.session.Session`: encoding and the
outbox.

Split from the session so the receive/dispatch logic and the byte-level writing can be read
apart. :class:`SessionWriter` is a mixin: it encodes messages within the size limit, batches
the answers to quick requests (the outbox) and writes directly to the socket when it has
room, falling back to trio's ``send_all`` under ``send_timeout`` only for what the kernel
does not take at once. The session supplies the state it declares.
"""

from __future__ import annotations

import logging
import math
import os
from typing import TYPE_CHECKING, Any

import msgpack
import trio

from croupier.protocol.errors import Code, ConnectionClosed, RpcError
from croupier.protocol.transport.codec import RESPONSE, Message, Response, encode, new_packer

if TYPE_CHECKING:
    from croupier.protocol.transport.session import SessionLimits

log = logging.getLogger("croupier.protocol")


def encode_checked(message: Message, max_size: int, packer: msgpack.Packer | None = None) -> bytes:
    """``message`` as msgpack within ``max_size`` bytes; :class:`RpcError` when it cannot be
    encoded (``invalid-params``) or is too large (``message-too-large``)."""
    try:
        data = encode(message, packer)
    except (TypeError, ValueError, OverflowError) as exc:
        raise RpcError(Code.INVALID_PARAMS, f"cannot encode the message: {exc}") from None
    if len(data) > max_size:
        raise RpcError(
            Code.MESSAGE_TOO_LARGE,
            f"the message would be {len(data)} bytes, over the limit of {max_size}",
        )
    return data


class SessionWriter:
    """Encoding and writing for a session (the state is the session's, set in its init)."""

    stream: trio.abc.Stream
    limits: SessionLimits
    name: str
    closed_reason: str | None
    _send_lock: trio.Lock
    _socket: trio.socket.SocketType | None
    _outbox: list[bytes]
    _outbox_bytes: int
    _closed: bool
    _packer: msgpack.Packer | None = None

    if TYPE_CHECKING:  # provided by the Session that mixes this in

        async def close(self) -> None: ...

    string_errors = False
    """Errors go out as ``name (code): message`` strings (``hello(..., errors="string")``)."""

    def _error_wire(self, error: RpcError) -> Any:
        """An error as this peer wants it: a map, or a string if it asked for that."""
        return error.to_string() if self.string_errors else error.to_wire()

    def _encode(self, message: Message) -> bytes:
        packer = self._packer
        if packer is None:  # one per connection, made on its first message
            packer = self._packer = new_packer()
        try:
            return encode_checked(message, self.limits.max_message_size, packer)
        except RpcError as error:
            if not isinstance(message, Response):
                raise
            if error.code == Code.INVALID_PARAMS:
                log.error("%s: result of msgid %d %s", self.name, message.msgid, error.message)
                error = RpcError(Code.INTERNAL_ERROR, "the result cannot be encoded as msgpack")
            return encode(Response(message.msgid, self._error_wire(error), None), packer)

    def _encode_result(self, msgid: int, result: Any) -> bytes:
        """The response carrying ``result``, as :meth:`_encode` makes it but with no
        message object on the way (the quick requests' path); what cannot be encoded or is
        too large goes the long way, for its error."""
        packer = self._packer
        if packer is not None:
            try:
                data: bytes = packer.pack([RESPONSE, msgid, None, result])
            except Exception:  # (the packer is empty again) the long way says what failed
                pass
            else:
                if len(data) <= self.limits.max_message_size:
                    return data
        return self._encode(Response(msgid, None, result))

    async def _send(self, message: Message) -> None:
        """Write one message; a peer that does not read within ``send_timeout`` is dropped."""
        if self._closed:
            raise ConnectionClosed()
        await self._send_bytes(self._encode(message))

    async def _send_bytes(self, data: bytes) -> None:
        """Write ``data`` after the outbox, in order; a peer that does not read within
        ``send_timeout`` is dropped.

        When nobody else is writing and the socket has room (nearly always), the bytes go
        out with one direct non-blocking write: no task switch, no cancel scope. Only what
        the kernel does not take at once is sent the trio way, under the timeout.
        """
        lock = self._send_lock
        try:
            if lock.locked():  # someone is mid-write: wait, then write in turn
                await lock.acquire()
                try:
                    rest = self._write_now(self._with_outbox(data))
                except BaseException:
                    lock.release()
                    raise
            else:
                # nobody is writing, and nothing awaits before this write: the bytes go out
                # in order without taking the lock; it is taken only to wait for the rest
                rest = self._write_now(self._with_outbox(data))
                if not rest:
                    return
                lock.acquire_nowait()
            try:
                timed_out = bool(rest) and await self._write_rest(rest)
            finally:
                lock.release()
            if timed_out:
                self.closed_reason = f"peer did not read for {self.limits.send_timeout:g} s"
                await self.close()
                raise ConnectionClosed(self.closed_reason)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self.closed_reason = self.closed_reason or "connection lost"
            await self.close()
            raise ConnectionClosed(self.closed_reason) from None

    def offer_encoded(self, data: bytes) -> bool:
        """Take messages already encoded without waiting, when nobody is writing and the
        connection has room: a TCP socket's direct write (what the kernel does not take
        waits first in the outbox, :attr:`backlogged`, for the next send), a WebSocket's
        frame queue. False (nothing taken) when they would have to wait: then send them
        with ``send_encoded``. What one table's watchers share is written this way by one
        task for them all."""
        if self._closed:
            raise ConnectionClosed()
        if self._send_lock.locked():
            return False
        if self._socket is None:
            # a stream that takes whole messages without waiting (a WebSocket's)
            room = getattr(self.stream, "room_for", None)
            if room is None or not room(self._outbox_bytes + len(data)):
                return False
            self.stream.offer_messages(self._with_outbox(data))  # type: ignore[attr-defined]
            return True
        joined = self._with_outbox(data)
        try:
            rest = self._write_now(joined)
        except (trio.ClosedResourceError, OSError):
            self._outbox.append(joined)  # the waiting send finds the connection lost
            self._outbox_bytes += len(joined)
            return True
        if rest:
            self._outbox.append(bytes(rest))
            self._outbox_bytes += len(rest)
        return True

    def hold_encoded(self, data: bytes) -> None:
        """Keep messages already encoded in the outbox: they go out with the next message
        sent (in the same write, ahead of it), with no write of their own."""
        self._outbox.append(data)
        self._outbox_bytes += len(data)

    @property
    def backlogged(self) -> bool:
        """Something waits to be written (``send_encoded(b"")`` writes it)."""
        return bool(self._outbox) or self._send_lock.locked()

    def _with_outbox(self, data: bytes) -> bytes:
        """``data`` after the waiting quick answers (the outbox is emptied)."""
        if self._closed:
            raise trio.ClosedResourceError
        if not self._outbox:
            return data
        if not data and len(self._outbox) == 1:  # a flush of one answer: no copy
            data = self._outbox[0]
        else:
            self._outbox.append(data)
            data = b"".join(self._outbox)
        self._outbox.clear()
        self._outbox_bytes = 0
        return data

    def _write_now(self, data: bytes) -> bytes | memoryview:
        """Write what the socket takes without waiting; return the rest."""
        if self._socket is None or not data:
            return data
        fd = self._socket.fileno()  # -1 once closed; read right before the write, no await
        if fd < 0:
            raise trio.ClosedResourceError
        try:
            sent = os.write(fd, data)
        except BlockingIOError:
            return data
        return memoryview(data)[sent:] if sent < len(data) else b""

    async def _write_rest(self, data: bytes | memoryview) -> bool:
        """Send ``data`` the trio way; True when ``send_timeout`` passed first."""
        timeout = self.limits.send_timeout
        deadline = math.inf if timeout is None else trio.current_time() + timeout
        # shielded: a write cut in half would corrupt the stream for every later message;
        # only our own deadline (then we close) may interrupt it
        with trio.CancelScope(deadline=deadline, shield=True) as scope:
            await self.stream.send_all(data)
        return scope.cancelled_caught
