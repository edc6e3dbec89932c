"""The calls one end of a connection has made and not yet had answered, by msgid."""

from __future__ import annotations

import attrs
import trio

from croupier.protocol.transport.codec import MAX_MSGID, Response


@attrs.define
class Call:
    """One call waiting for its answer: ``done`` is set when the answer came (``response``)
    or the connection closed (``response`` None)."""

    done: trio.Event = attrs.field(factory=trio.Event)
    response: Response | None = None
    msgid: int = -1
    method: str = ""


class PendingCalls:
    """Calls in flight to the peer. msgids go round ``0..MAX_MSGID``, skipping those in use,
    so a long connection never runs out and never reuses the msgid of a call still waiting."""

    def __init__(self) -> None:
        self._calls: dict[int, Call] = {}
        self._next = 0

    def __len__(self) -> int:
        return len(self._calls)

    def open(self) -> tuple[int, Call]:
        """A new call and its msgid; :meth:`close` it once it is over, answered or not."""
        for _ in range(len(self._calls) + 1):
            msgid = self._next
            self._next = 0 if msgid == MAX_MSGID else msgid + 1
            if msgid not in self._calls:
                call = self._calls[msgid] = Call(msgid=msgid)
                return msgid, call
        raise RuntimeError("no free msgid")  # pragma: no cover - 2**32 calls in flight

    def close(self, msgid: int) -> None:
        del self._calls[msgid]

    def answer(self, response: Response) -> bool:
        """Hand ``response`` to its call; False when no call waits for it (unknown, timed
        out, or answered already)."""
        call = self._calls.get(response.msgid)
        if call is None or call.done.is_set():
            return False
        call.response = response
        call.done.set()
        return True

    def fail_all(self) -> None:
        """The connection closed: every waiting call ends without an answer."""
        for call in self._calls.values():
            call.done.set()
