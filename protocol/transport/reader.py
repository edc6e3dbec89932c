"""The read side of a :class:`~croupier.protocol.transport.session.Session`: the receive loop.

Split from the session (as :mod:`~croupier.protocol.transport.writer` is) so the byte-level reading,
the idle deadline and the dispatch turns read apart from the request handling.
:class:`SessionReader` is a mixin; the session supplies the state it declares and
``_dispatch``.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any

import trio

from croupier.protocol.errors import Code, ConnectionClosed, ProtocolViolation, RpcError
from croupier.protocol.transport.calls import PendingCalls
from croupier.protocol.transport.codec import Decoder
from croupier.protocol.transport.lanes import PlayLane
from croupier.protocol.transport.writer import SessionWriter

DISPATCH_TURN = 64
"""Messages of one received chunk dispatched before other tasks get a turn: a 64 KiB read
can hold thousands of tiny requests, and dispatching them all at once held the event loop
for a large fraction of a second while every other connection waited."""


class SessionReader(SessionWriter):
    """Receiving for a session (the state is the session's, set in its init)."""

    lane: PlayLane | None
    keepalive: set[str]
    _decoder: Decoder
    _calls: PendingCalls
    _in_flight: int
    _last_receive: float
    _receive_scope: trio.CancelScope | None
    _shed: RpcError | None

    if TYPE_CHECKING:  # provided by the Session that mixes this in

        async def _dispatch(self, obj: Any) -> bool: ...

        async def _send_error_notification(
            self, error: RpcError, closing: bool = False
        ) -> None: ...

    async def _receive_loop(self) -> None:
        # The idle deadline is moved lazily: a receive notes the time, and moves the deadline
        # only when less than half the idle time is left; when the deadline passes we check
        # whether anything came since. Cheaper than moving a deadline per receive, which
        # matters at tens of thousands of messages a second.
        idle = math.inf if self.limits.idle_timeout is None else self.limits.idle_timeout
        self._last_receive = trio.current_time()
        while not self._closed:
            with trio.CancelScope(deadline=self._last_receive + idle) as scope:
                self._receive_scope = scope
                if self._shed is None and await self._receive_until_done(scope, idle):
                    return
            if self._shed is not None:
                await self._send_error_notification(self._shed, closing=True)
                return
            if trio.current_time() < self._last_receive + idle:
                continue
            if self._in_flight or self._calls or self.keepalive:
                self._last_receive = trio.current_time()
                continue
            self.closed_reason = f"idle for {idle:g} s"
            error = RpcError(Code.LIMIT_EXCEEDED, "idle timeout")
            await self._send_error_notification(error, closing=True)
            return

    async def _receive_until_done(self, scope: trio.CancelScope, idle: float) -> bool:
        """Receive and dispatch; True when the connection is done, False at the deadline."""
        feed, dispatch, outbox = self._decoder.feed, self._dispatch, self._outbox
        # trio.current_time() is this clock's, two calls further away
        clock, half = trio.lowlevel.current_clock().current_time, idle / 2
        lane, sock = self.lane, self._socket
        wait_readable, checkpoint = trio.lowlevel.wait_readable, trio.lowlevel.checkpoint
        while True:
            # From a socket: one trip through trio's scheduler per chunk (so a busy
            # connection never starves the others), then read it directly, and wait until
            # it is readable only if nothing came meanwhile: on a busy server the next
            # request is nearly always in by then, and the wait (an epoll registration, a
            # system call) is saved. Inline, as this runs once per message or two.
            try:
                if sock is None:
                    data = await self.stream.receive_some(65536)
                else:
                    await checkpoint()
                    while True:
                        fd = sock.fileno()  # -1 once closed: EBADF; read after every wait
                        try:
                            data = os.read(fd, 65536)
                            break
                        except BlockingIOError:
                            await wait_readable(fd)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                self.closed_reason = self.closed_reason or "connection lost"
                return True
            if not data:
                self.closed_reason = self.closed_reason or "closed by peer"
                return True
            self._last_receive = now = clock()
            if scope.deadline - now < half:
                scope.deadline = now + idle
            try:
                turn = DISPATCH_TURN
                for obj in feed(data):
                    request = await dispatch(obj)
                    turn -= 1
                    if not turn or (request and lane is not None and lane.waiting):
                        # the rest of a large chunk waits while others run; while a bot's
                        # answer is awaited anywhere, after each request
                        turn = DISPATCH_TURN
                        await trio.lowlevel.cancel_shielded_checkpoint()
                if outbox:
                    await self._send_bytes(b"")
            except ConnectionClosed:
                return True
            except ProtocolViolation as exc:
                self.closed_reason = str(exc)
                error = RpcError(exc.code, f"{exc}; closing")
                await self._send_error_notification(error, closing=True)
                return True

    async def _pause(self, seconds: float) -> None:
        """Stop reading for ``seconds`` (the budget is spent): answers already made go out
        first, and the wait does not count as idle time."""
        if self._outbox:
            await self._send_bytes(b"")
        scope = self._receive_scope
        if scope is not None:
            idle = math.inf if self.limits.idle_timeout is None else self.limits.idle_timeout
            scope.deadline = max(scope.deadline, trio.current_time() + seconds + idle)
        await trio.sleep(seconds)
        self._last_receive = trio.current_time()
