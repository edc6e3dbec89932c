"""A table's or tournament's subscribers: each connection gets the notifications in order,
through a bounded queue and a sender task of its own, so a slow watcher never slows what it
watches (one whose queue overflows is dropped). A notification is encoded once for every
subscriber with the same size limit, and the queues hold the bytes.

A sender gathers what is queued for up to :data:`GATHER` seconds (or until :data:`FULL`
notifications wait) into one write: a watcher costs the table a write (a task switch, a
send) every ``GATHER`` seconds at most instead of one per event. A seated bot is never
kept waiting by it: the table flushes the bot's events before it asks the bot to decide
(:meth:`Subscriber.flushed`), and that sends at once."""

from __future__ import annotations

import logging
from typing import Any

import attrs
import trio

from croupier.protocol.codec import Notification
from croupier.protocol.errors import ConnectionClosed, RpcError
from croupier.protocol.server import Connection
from croupier.protocol.writer import encode_checked

log = logging.getLogger("croupier.tables")

WATCH_BUFFER = 10_000
"""Notifications queued for one subscriber before it is dropped as too slow."""
GATHER = 0.02
"""Seconds a sender waits after a notification for more to send in the same write (the
web page's WebSocket gathers its frames over the same time)."""
FULL = 256
"""Notifications waiting that make a write at once, whatever the time."""


@attrs.define(eq=False)
class Subscriber:
    """One connection receiving one table's notifications, in order (``events``: the
    ``table.event`` ones too, not only ``table.status``)."""

    conn: Connection
    send: trio.MemorySendChannel[bytes]
    receive: trio.MemoryReceiveChannel[bytes]
    events: bool = True
    queued: int = 0
    sent: int = 0
    progress: trio.Event = attrs.field(factory=trio.Event)
    hurry: trio.Event = attrs.field(factory=trio.Event)
    """Set by :meth:`flushed`: the sender writes what it holds at once."""
    dropped: bool = False
    reason: str = "too slow"
    """Why it was dropped, for the table's log line."""

    def encode(
        self, method: str, params: list[Any], done: dict[int, bytes | RpcError]
    ) -> bytes | None:
        """The notification as this connection takes it, encoded once for every subscriber
        with the same size limit (``done``); None (the reason logged) when it cannot be."""
        limit = self.conn.session.limits.max_message_size
        if limit not in done:
            try:
                done[limit] = encode_checked(Notification(method, params), limit)
            except RpcError as exc:
                done[limit] = exc
        data = done[limit]
        if isinstance(data, RpcError):
            self.reason = data.message
            return None
        return data

    def put(self, data: bytes | None) -> bool:
        """Queue an encoded notification; False when the subscriber is too slow, or the
        notification could not be encoded (None): then drop it."""
        if self.dropped or data is None:
            self.dropped = True
            self.send.close()
            return False
        try:
            self.send.send_nowait(data)
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            self.dropped = True
            self.send.close()
            return False
        self.queued += 1
        if self.queued - self.sent >= FULL:
            self.hurry.set()  # enough for a write of its own: no need to wait for more
        return True

    async def pump(self) -> None:
        """Send queued notifications until the queue closes or the connection does."""
        try:
            async with self.receive:
                async for first in self.receive:
                    if not self.hurry.is_set():
                        with trio.move_on_after(GATHER):
                            await self.hurry.wait()
                    batch = [first]  # everything queued meanwhile goes in the same write
                    while len(batch) < 1024:
                        try:
                            batch.append(self.receive.receive_nowait())
                        except (trio.WouldBlock, trio.EndOfChannel):
                            break
                    await self.conn.session.send_encoded(b"".join(batch))
                    self.sent += len(batch)
                    self.hurry = trio.Event()
                    self.progress.set()
                    self.progress = trio.Event()
        except ConnectionClosed:
            self.dropped = True
        except RpcError as exc:  # a notification that cannot be sent (too large, say)
            log.warning("%s dropped as a watcher: %s", self.conn, exc)
            self.dropped = True
        finally:
            self.dropped = self.dropped or self.sent < self.queued
            self.progress.set()

    async def flushed(self) -> None:
        """Wait until everything queued so far has been written to the connection."""
        target = self.queued
        while self.sent < target and not self.dropped and not self.conn.session.closed:
            self.hurry.set()
            await self.progress.wait()
