"""A bidirectional msgpack-rpc session over one trio stream.

Either side may send requests: the server answers the client's calls, and calls the
client's ``decide`` when a bot must act. A :class:`Session` matches responses to its own
requests by msgid, runs each incoming request in its own task (so a handler may itself call
the peer without blocking the connection), and bounds everything the peer controls:

- message size (the :class:`~croupier.protocol.transport.codec.Decoder`'s buffer limit);
- requests in flight from the peer (``max_pending``; the excess gets ``too-many-requests``);
- the peer's request rate (``pace``: a request its budget cannot pay stops the reads until
  it can, see :mod:`~croupier.protocol.budgets`);
- idle time (``idle_timeout``: nothing received while nothing is in flight either way);
- a peer that stops reading (``send_timeout`` on every write closes the connection).

Garbage framing or an oversized message closes the connection after one ``error``
notification explaining why; everything else gets an error response.

The per-message path is kept short, since a trivial request costs about as much as a bare
echo server's: quick requests (``is_quick``) are answered in the receive loop, and their
answers to one received chunk leave in one write; a well-formed request is taken without
``parse`` and a quick one's answer packed straight from its result. On a TCP socket the
session reads after its turn through the scheduler (waiting for readiness only if nothing
came meanwhile) and writes directly when the socket has room, falling back to trio's
``send_all`` under ``send_timeout`` only for what the kernel does not take at once.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

import attrs
import trio

from croupier.protocol.errors import Code, ConnectionClosed, RpcError
from croupier.protocol.transport.admission import linger_close
from croupier.protocol.transport.caller import SessionCaller
from croupier.protocol.transport.calls import PendingCalls
from croupier.protocol.transport.codec import (
    DEFAULT_MAX_MESSAGE_SIZE,
    MAX_MSGID,
    REQUEST,
    BufferBudget,
    Decoder,
    InvalidMessage,
    Notification,
    Request,
    Response,
    parse,
)
from croupier.protocol.transport.lanes import PlayLane
from croupier.protocol.transport.reader import DISPATCH_TURN

__all__ = ["DISPATCH_TURN", "ERROR_NOTIFICATION", "Session", "SessionLimits"]

log = logging.getLogger("croupier.protocol")

RequestHandler = Callable[["Session", Request], Awaitable[Any]]
NotificationHandler = Callable[["Session", Notification], Awaitable[None]]
Pace = Callable[[Request], float]
"""Pays a request from the peer's budget; the seconds to wait before handling it."""

ERROR_NOTIFICATION = "error"
"""Sent as ``[2, "error", [error]]`` for a bad message that has no msgid to answer."""


@attrs.frozen
class SessionLimits:
    """What one side tolerates from its peer (seconds, bytes, counts; ``None``: no limit)."""

    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE
    max_pending: int = 64
    idle_timeout: float | None = None
    send_timeout: float | None = 30.0
    max_elements: int | None = None
    """Arrays, maps and items in one received message (see the codec's ``Decoder``)."""


async def _no_requests(session: Session, request: Request) -> Any:
    raise RpcError(Code.METHOD_NOT_FOUND, f"unknown method {request.method!r}")


async def _ignore(session: Session, notification: Notification) -> None:
    return None


class Session(SessionCaller):
    """One end of a msgpack-rpc connection. Call :meth:`run` in a task, then use it.

    ``on_request(session, request)`` returns the result or raises :class:`RpcError`;
    any other exception is logged and answered with ``internal-error``.
    ``on_notification(session, notification)`` runs in the receive loop, in order, so it
    must be quick.
    """

    def __init__(
        self,
        stream: trio.abc.Stream,
        *,
        on_request: RequestHandler = _no_requests,
        on_notification: NotificationHandler = _ignore,
        limits: SessionLimits = SessionLimits(),
        name: str = "peer",
        is_quick: Callable[[Request], bool] | None = None,
        budget: BufferBudget | None = None,
        pace: Pace | None = None,
        lane: PlayLane | None = None,
    ) -> None:
        self.stream = stream
        self.on_request = on_request
        self.on_notification = on_notification
        self.limits = limits
        self.name = name
        self.is_quick = is_quick
        """Requests for which this returns True are handled in the receive loop itself.

        For handlers that never wait on the peer or on anything slow (``ping``, discovery):
        they skip a task spawn and a scheduling round trip, which roughly halves their cost.
        """
        self.pace = pace
        """Charges each request to the peer's rate budget (None: no budget)."""
        self.lane = lane
        """Counts our calls waiting for an answer; while any call of any session sharing
        it waits, requests are handled one per turn (see
        :mod:`~croupier.protocol.transport.lanes`)."""
        self.closed_reason: str | None = None
        self.keepalive: set[str] = set()
        """Reasons the connection is never idle (a table watch, say); services add to it."""
        self._decoder = Decoder(
            limits.max_message_size, max_elements=limits.max_elements, budget=budget
        )
        self._decoder.on_evict = self._evicted
        self._send_lock = trio.Lock()
        self._socket = (
            stream.socket if os.name == "posix" and isinstance(stream, trio.SocketStream) else None
        )
        """The socket written to directly (no scheduling round trip) when it has room."""
        self._outbox: list[bytes] = []
        """Answers to quick requests of the chunk being dispatched, written in one go."""
        self._outbox_bytes = 0
        self._calls = PendingCalls()
        self._in_flight = 0
        self._quiet: trio.Event | None = None
        self._last_receive = 0.0
        self._draining = False
        self._closed = False
        self._closed_event = trio.Event()
        self._nursery: trio.Nursery | None = None
        self._started = trio.Event()
        self._receive_scope: trio.CancelScope | None = None
        self._shed: RpcError | None = None
        self._linger = False
        """Close politely (drain the peer's input) so the error just sent is read."""
        self._receiving = False

    # -- state -----------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def in_flight(self) -> int:
        """Requests from the peer being handled now."""
        return self._in_flight

    @property
    def waiting(self) -> int:
        """Our requests waiting for the peer's answer."""
        return len(self._calls)

    @property
    def last_receive(self) -> float:
        """When the peer last sent something (trio time; the start if it never did)."""
        return self._last_receive

    @property
    def idle(self) -> bool:
        """Nothing in flight either way and nothing keeping the connection open."""
        return not (self._closed or self._shed or self._in_flight or self._calls or self.keepalive)

    @property
    def shedding(self) -> bool:
        """:meth:`shed` was called and the connection is on its way out."""
        return self._shed is not None and not self._closed

    def shed(self, error: RpcError, reason: str) -> None:
        """End the connection from outside (a hello not said in time, a slot needed, a
        memory budget): the receive loop stops, the peer is sent ``error`` as an ``error``
        notification, and the connection closes politely. Safe to call more than once."""
        if self._closed or self._shed is not None:
            return
        self._shed = error
        self.closed_reason = reason
        if self._receive_scope is not None:
            self._receive_scope.cancel()

    def _evicted(self) -> None:
        reason = "the server's input buffers are full; the largest unfinished message is refused"
        self.shed(RpcError(Code.LIMIT_EXCEEDED, f"{reason}; closing"), reason)

    # -- running ---------------------------------------------------------------------------
    async def run(self) -> None:
        """Receive and dispatch until the peer closes, idles out or breaks the framing.

        Returns normally in every one of those cases; :attr:`closed_reason` says why.
        Handlers still running when the connection ends are cancelled.
        """
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self._started.set()
                self._receiving = True
                try:
                    await self._receive_loop()
                finally:
                    self._receiving = False
                    nursery.cancel_scope.cancel()
        finally:
            await self._finish(self.closed_reason or "closed")

    async def _dispatch(self, obj: Any) -> bool:
        """Handle one received message; True if it was a request (what ends a turn while
        the play lane is busy: answers to our calls never do)."""
        if (  # a well-formed request (nearly every message) is taken as it is
            type(obj) is list
            and len(obj) == 4
            and obj[0] == REQUEST
            and type(obj[0]) is int
            and type(obj[1]) is int
            and 0 <= obj[1] <= MAX_MSGID
            and type(obj[2]) is str
            and type(obj[3]) is list
        ):
            await self._accept_request(Request(obj[1], obj[2], obj[3]))
            return True
        try:
            message = parse(obj)
        except InvalidMessage as exc:
            if exc.msgid is not None:
                await self._send(Response(exc.msgid, self._error_wire(exc), None))
            else:
                await self._send_error_notification(exc)
            return True
        if isinstance(message, Request):
            await self._accept_request(message)
            return True
        if isinstance(message, Response):
            if not self._calls.answer(message):
                log.debug("%s: response to unknown msgid %d ignored", self.name, message.msgid)
        else:
            try:
                await self.on_notification(self, message)
            except Exception:
                log.exception("%s: notification handler failed", self.name)
        return False

    async def _accept_request(self, request: Request) -> None:
        if self.pace is not None:
            wait = self.pace(request)
            if wait > 0:
                await self._pause(wait)
        if self._draining:
            error = RpcError(Code.SHUTTING_DOWN, "the server is shutting down")
            await self._send(Response(request.msgid, self._error_wire(error), None))
            return
        if self._in_flight >= self.limits.max_pending:
            error = RpcError(
                Code.TOO_MANY_REQUESTS,
                f"more than {self.limits.max_pending} requests in flight on this connection",
            )
            await self._send(Response(request.msgid, self._error_wire(error), None))
            return
        assert self._nursery is not None
        self._in_flight += 1
        if self.is_quick is not None and self.is_quick(request):
            # answered in the receive loop; the answer waits in the outbox until every
            # message of this chunk is dispatched (or anything else is sent), then all the
            # answers go out in one write
            try:
                try:
                    result = await self.on_request(self, request)
                except Exception as exc:
                    answer = self._encode(self._failure(request, exc))
                else:
                    answer = self._encode_result(request.msgid, result)
                self._outbox.append(answer)
                self._outbox_bytes += len(answer)
            finally:
                self._done()
            if self._outbox_bytes >= self.limits.max_message_size:
                # large answers (a big draw) go out now: the outbox never holds more than
                # about one message, so a client that does not read is held back by its
                # socket (and dropped after send_timeout) instead of growing the server
                await self._send_bytes(b"")
        else:
            self._nursery.start_soon(self._handle, request)

    async def _answer(self, request: Request) -> Response:
        try:
            return Response(request.msgid, None, await self.on_request(self, request))
        except Exception as exc:
            return self._failure(request, exc)

    def _failure(self, request: Request, exc: Exception) -> Response:
        """The answer to ``request`` whose handler raised ``exc`` (called where it is
        caught): its error if an :class:`RpcError`, else ``internal-error`` (and the
        traceback in the log)."""
        if isinstance(exc, RpcError):
            return Response(request.msgid, self._error_wire(exc), None)
        log.exception("%s: handler of %r failed", self.name, request.method)
        error = RpcError(
            Code.INTERNAL_ERROR,
            f"internal error in {request.method!r}: {type(exc).__name__}",
        )
        return Response(request.msgid, self._error_wire(error), None)

    async def _handle(self, request: Request) -> None:
        try:
            await self._send(await self._answer(request))
        except ConnectionClosed:
            log.debug("%s: connection closed before answering %r", self.name, request.method)
        finally:
            self._done()

    def _done(self) -> None:
        self._in_flight -= 1
        if self._in_flight == 0 and self._quiet is not None:
            self._quiet.set()

    # -- sending (the write path itself is SessionWriter's) ---------------------------
    async def _send_error_notification(self, error: RpcError, closing: bool = False) -> None:
        """Send ``[2, "error", [error]]``; ``closing``: the connection closes next, politely
        (see :func:`~croupier.protocol.transport.admission.linger_close`)."""
        self._linger = self._linger or closing
        with trio.move_on_after(1.0):
            with contextlib.suppress(ConnectionClosed):
                await self._send(Notification(ERROR_NOTIFICATION, [self._error_wire(error)]))

    async def notify(self, method: str, params: Iterable[Any] | Mapping[str, Any] = ()) -> None:
        """Send a notification (no answer comes)."""
        wire_params = dict(params) if isinstance(params, Mapping) else list(params)
        await self._send(Notification(method, wire_params))

    async def send_encoded(self, data: bytes) -> None:
        """Send messages already encoded
        (:func:`~croupier.protocol.transport.writer.encode_checked`), in one write: what a table
        broadcasts is encoded once for all its watchers."""
        if self._closed:
            raise ConnectionClosed()
        await self._send_bytes(data)

    # -- closing ---------------------------------------------------------------------------
    async def drain(self, grace: float) -> None:
        """Refuse new requests and wait up to ``grace`` seconds for those in flight."""
        self._draining = True
        if self._in_flight:
            if self._quiet is None or self._quiet.is_set():
                self._quiet = trio.Event()
            with trio.move_on_after(grace):
                await self._quiet.wait()

    async def wait_closed(self) -> None:
        """Return when the connection has closed, for whatever reason."""
        await self._closed_event.wait()

    async def close(self) -> None:
        """Close the connection: pending calls fail with :class:`ConnectionClosed`."""
        if not self._closed:
            await self._finish(self.closed_reason or "closed locally")
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    async def _finish(self, reason: str) -> None:
        if self._closed:
            return
        self._closed = True
        self._closed_event.set()
        self.closed_reason = reason
        self._calls.fail_all()
        self._decoder.release()
        if self._linger and not self._receiving:  # (only the receive loop reads)
            await linger_close(self.stream)
            return
        with trio.CancelScope(shield=True):
            await self.stream.aclose()
