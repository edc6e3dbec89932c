"""The calling side of a :class:`~croupier.protocol.transport.session.Session`: calls to the peer.

Split from the session (as :mod:`~croupier.protocol.transport.reader` and
:mod:`~croupier.protocol.transport.writer` are): a call is sent and its answer matched by msgid
(:class:`~croupier.protocol.transport.calls.PendingCalls`); :meth:`SessionCaller.begin_call` and
:meth:`SessionCaller.end_call` let a caller wait in a task of its own, under a deadline of
its own (a table's decision clock), with no task per call. :class:`SessionCaller` is a
mixin; the session supplies the state it declares.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import trio

from croupier.protocol.errors import CallTimeout, ConnectionClosed, RpcError
from croupier.protocol.transport.calls import Call
from croupier.protocol.transport.codec import Request
from croupier.protocol.transport.reader import SessionReader


class SessionCaller(SessionReader):
    """Calling the peer for a session (the state is the session's, set in its init)."""

    _started: trio.Event

    async def call(
        self,
        method: str,
        params: Iterable[Any] | Mapping[str, Any] = (),
        *,
        timeout: float | None = None,
    ) -> Any:
        """Call ``method`` on the peer and return its result.

        Raises :class:`RpcError` with the peer's error, :class:`CallTimeout` when no answer
        came within ``timeout`` seconds (a late answer is then dropped), and
        :class:`ConnectionClosed` when the connection ends first.
        """
        call = await self.begin_call(method, params)
        try:
            with trio.move_on_after(math.inf if timeout is None else timeout) as scope:
                await call.done.wait()
            if scope.cancelled_caught:
                raise CallTimeout(method, timeout or 0.0)
        finally:
            self.end_call(call)
        return self.result_of(call)

    async def begin_call(self, method: str, params: Iterable[Any] | Mapping[str, Any] = ()) -> Call:
        """Send a call to the peer and return it without waiting: its ``done`` is set when
        the answer came (:meth:`result_of`) or the connection closed. :meth:`end_call` it
        once it is over, answered or given up (a late answer is then dropped). What lets
        its caller wait with a deadline of its own (a table's decision clock) in its own
        task, with no task per call."""
        if self._closed:
            raise ConnectionClosed()
        if not self._started.is_set():  # a set Event would still cost a scheduling round
            await self._started.wait()
        wire_params: list[Any] | dict[str, Any] = (
            dict(params) if isinstance(params, Mapping) else list(params)
        )
        msgid, call = self._calls.open()
        call.method = method
        lane = self.lane
        if lane is not None:
            lane.waiting += 1
        try:
            if self._closed:
                raise ConnectionClosed()
            await self._send(Request(msgid, method, wire_params))
        except BaseException:
            self.end_call(call)
            raise
        return call

    def end_call(self, call: Call) -> None:
        """The call begun with :meth:`begin_call` is over: its msgid is free again."""
        if call.msgid < 0:
            return
        self._calls.close(call.msgid)
        call.msgid = -1
        if self.lane is not None:
            self.lane.waiting -= 1

    @staticmethod
    def result_of(call: Call) -> Any:
        """The result of an answered call; :class:`RpcError` with the peer's error, or
        :class:`ConnectionClosed` when the connection ended first."""
        if call.response is None:
            raise ConnectionClosed(f"the connection closed during {call.method!r}")
        if call.response.error is not None:
            raise RpcError.from_wire(call.response.error)
        return call.response.result
