"""A table's or tournament's subscribers, fed by one fan-out: each notification is encoded
once, appended to the feed's log, and written to every subscriber together, at most once a
tick, from one task (:class:`Feed`). A slow watcher never slows what it watches.

Publishing touches no subscriber: it encodes and appends. The feed's task wakes a tick
(:data:`GATHER`, longer with many subscribers: :meth:`Feed.tick`) after the first
notification since the last fan-out and hands every subscriber the log from its cursor,
one joined chunk (the same bytes for every subscriber at the same cursor) written without
waiting (``Session.offer_encoded``: a TCP socket's direct write, a WebSocket's frame
written straight to its socket, compressed once for every browser that agreed to it).
Only a connection that cannot take it at once gets a task of its own, which writes the
rest the waiting way (under the session's send timeout) and catches up from the log; a
subscriber :data:`WATCH_BUFFER` notifications behind is dropped (logged, with why). A
seated bot is never kept waiting for a tick: the table flushes the bot's events before it
asks the bot to decide (:meth:`Subscriber.flushed`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import attrs
import trio

from croupier.protocol.errors import ConnectionClosed, RpcError
from croupier.protocol.transport.codec import NOTIFICATION, new_packer
from croupier.protocol.transport.server import Connection

log = logging.getLogger("croupier.tables")

WATCH_BUFFER = 10_000
"""Notifications a subscriber may fall behind before it is dropped as too slow."""
GATHER = 0.02
"""Seconds from a notification to the fan-out that sends it with those that came meanwhile
(the web page's WebSocket gathers its frames over the same time)."""
PER_SUBSCRIBER = 0.001
"""Seconds the tick lengthens per subscriber: a fan-out costs every subscriber a write, so
with many of them the writes come less often and carry more."""
LONGEST = 0.25
"""The longest tick, whatever the number of subscribers."""
FULL = 256
"""Notifications waiting (per :data:`GATHER` of the tick) that make a fan-out at once."""
TRIM = 1024
"""Log entries every subscriber has that are let go of together."""

Spawn = Callable[[Callable[[], Awaitable[None]], str], None]


@attrs.define(eq=False)
class Subscriber:
    """One connection receiving a feed's notifications, in order (``events``: the
    ``table.event`` ones too, not only the statuses); ``cursor`` is the next it gets."""

    conn: Connection
    feed: Feed
    events: bool = True
    cursor: int = 0
    busy: bool = False
    """A task of its own is writing to it (its connection could not take a chunk at once);
    fan-outs pass it by meanwhile."""
    dropped: bool = False
    reason: str = "too slow"
    _progress: trio.Event | None = None
    """Set at the next progress; made only when someone waits for it (a fan-out tells
    every subscriber of its progress, and almost none is waited for)."""

    def progressed(self) -> None:
        if self._progress is not None:
            self._progress.set()
            self._progress = None

    async def wait_progress(self) -> None:
        """Until the next :meth:`progressed`."""
        if self._progress is None:
            self._progress = trio.Event()
        await self._progress.wait()

    async def flushed(self) -> None:
        """Wait until everything published so far has been handed to the connection."""
        await self.feed.flushed(self)


class Feed:
    """The notifications of one table or tournament and the subscribers they go to."""

    def __init__(self, spawn: Spawn, label: str, limit: int = WATCH_BUFFER) -> None:
        """``label`` names it in the log and in the connections' keep-alive set ("table 3");
        ``limit``: notifications a subscriber may fall behind."""
        self.subscribers: dict[int, Subscriber] = {}
        self.label = label
        self.limit = limit
        self.closed = False
        self._spawn = spawn
        self._log: list[bytes] = []
        self._is_event: list[bool] = []
        self._statuses_end = 0  # the index past the last notification that is no event
        self._base = 0  # the index of _log[0] since the feed began
        self._biggest = 0  # the largest notification in the log
        self._served = 0  # the end at the last fan-out
        self._pending = trio.Event()
        self._hurry = trio.Event()
        self._running = False
        self._packer = new_packer()
        self._wants: bool | None = None  # wants_events(), until the subscribers change
        self._full = FULL  # notifications waiting that make a fan-out at once (_changed)
        self.fanouts = 0

    @property
    def end(self) -> int:
        """The index the next notification gets."""
        return self._base + len(self._log)

    def tick(self) -> float:
        """Seconds from a notification to its fan-out."""
        return min(LONGEST, GATHER + PER_SUBSCRIBER * len(self.subscribers))

    # -- subscribers -------------------------------------------------------------------------
    def subscribe(self, conn: Connection, events: bool = True) -> Subscriber:
        """Feed ``conn`` from the next notification on (a subscriber already fed keeps its
        place; ``events`` once asked for is kept)."""
        known = self.subscribers.get(conn.id)
        if known is not None and not known.dropped:
            known.events = known.events or events
            self._changed()
            return known
        sub = Subscriber(conn, self, events, self.end)
        self.subscribers[conn.id] = sub
        self._changed()
        return sub

    def _changed(self) -> None:
        """The subscribers changed: what is worked out from them is worked out again."""
        self._wants = None
        self._full = FULL * max(1, int(self.tick() / GATHER))

    def unsubscribe(self, conn: Connection) -> None:
        """Stop feeding ``conn``, handing it what it has not had yet if it takes it now."""
        sub = self.subscribers.pop(conn.id, None)
        if sub is not None:
            self._changed()
            if not sub.busy and not sub.conn.session.closed:
                self._serve(sub, {}, quiet=True)
            sub.dropped = True
            sub.progressed()

    def drop(self, sub: Subscriber, reason: str, quiet: bool = False) -> None:
        """Stop feeding ``sub`` (too slow, or a notification over its message limit)."""
        sub.dropped, sub.reason = True, reason
        if self.subscribers.get(sub.conn.id) is sub:
            del self.subscribers[sub.conn.id]
            self._changed()
        sub.conn.session.keepalive.discard(self.label)  # it no longer keeps it from idling
        if not quiet and not sub.conn.session.closed:
            log.warning("%s: %s dropped as a watcher (%s)", self.label, sub.conn, reason)
        sub.progressed()

    # -- publishing --------------------------------------------------------------------------
    def wants_events(self) -> bool:
        """Whether any subscriber takes events (asked at every event: counted when the
        subscribers change, not at each)."""
        if self._wants is None:
            self._wants = any(sub.events for sub in self.subscribers.values())
        return self._wants

    def publish(self, method: str, params: list[Any], event: bool = False) -> None:
        """Encode a notification once and queue it for every subscriber (``event``: for
        those that take events only); the fan-out sends it within a tick. Called at every
        event of a watched table, so it does no more than it must (the notification packed
        as its wire list, as ``codec.encode`` would)."""
        if self.closed or not self.subscribers:
            return
        try:
            data: bytes = self._packer.pack([NOTIFICATION, method, params])
        except (TypeError, ValueError, OverflowError) as exc:
            # cannot be encoded at all: whoever would get it is dropped
            for sub in list(self.subscribers.values()):
                if sub.events or not event:
                    self.drop(sub, f"cannot encode the message: {exc}")
            return
        self._log.append(data)
        self._is_event.append(event)
        if not event:
            self._statuses_end = self._base + len(self._log)
        if len(data) > self._biggest:
            self._biggest = len(data)
        if not self._pending.is_set():
            self._pending.set()
        if self._base + len(self._log) - self._served >= self._full:
            self._hurry.set()
        if not self._running:
            self._running = True
            self._spawn(self._run, f"{self.label} -> its watchers")

    def close(self) -> None:
        """Send what is published and end the feed (the table or tournament has finished)."""
        if self.closed:
            return
        self.fanout()
        self.closed = True
        self._pending.set()
        self._hurry.set()

    async def _run(self) -> None:
        """Fan out a tick after each first notification, until the feed closes."""
        try:
            while not self.closed:
                await self._pending.wait()
                if not self._hurry.is_set():
                    with trio.move_on_after(self.tick()):
                        await self._hurry.wait()
                if not self.closed:
                    self.fanout()
        finally:
            self._running = False

    # -- sending -----------------------------------------------------------------------------
    def fanout(self) -> None:
        """Hand every subscriber what it has not had (one chunk, shared by those at the same
        cursor); drop those too far behind; let go of what everyone has."""
        self._pending = trio.Event()
        self._hurry = trio.Event()
        self.fanouts += 1
        end = self._served = self.end
        chunks: dict[tuple[int, bool], bytes] = {}
        for sub in list(self.subscribers.values()):
            if sub.busy:
                if end - sub.cursor > self.limit:
                    self.drop(sub, f"too slow: {end - sub.cursor} notifications behind")
                continue
            if sub.cursor < end:
                self._serve(sub, chunks)
        self._trim()

    def _chunk(self, sub: Subscriber, chunks: dict[tuple[int, bool], bytes]) -> bytes | None:
        """What ``sub`` has not had, joined (None, the subscriber dropped, when a
        notification is over its connection's message limit)."""
        if not sub.events and sub.cursor >= self._statuses_end:
            return b""  # events only since its cursor: nothing for it (a seated bot's flush)
        key = (sub.cursor, sub.events)
        chunk = chunks.get(key)
        start = sub.cursor - self._base
        if chunk is None:
            if sub.events:
                chunk = b"".join(self._log[start:])
            else:
                entries = zip(self._log[start:], self._is_event[start:], strict=True)
                chunk = b"".join(data for data, event in entries if not event)
            chunks[key] = chunk
        limit = sub.conn.session.limits.max_message_size
        if self._biggest > limit:
            for data, event in zip(self._log[start:], self._is_event[start:], strict=True):
                if len(data) > limit and (sub.events or not event):
                    too_large = f"the message would be {len(data)} bytes, over the limit of {limit}"
                    self.drop(sub, too_large)
                    return None
        return chunk

    def _serve(
        self, sub: Subscriber, chunks: dict[tuple[int, bool], bytes], quiet: bool = False
    ) -> None:
        """Hand ``sub`` its chunk without waiting, or start its own task to write it."""
        session = sub.conn.session
        if session.closed:
            self.drop(sub, "connection closed", quiet=True)
            return
        end = self.end
        chunk = self._chunk(sub, chunks)
        if chunk is None:
            return
        try:
            taken = not chunk or session.offer_encoded(chunk)
        except ConnectionClosed:
            self.drop(sub, "connection closed", quiet=True)
            return
        if taken:
            sub.cursor = end
            if not session.backlogged:
                sub.progressed()
                return
        if not quiet:
            sub.busy = True
            self._spawn(lambda: self._catch_up(sub), f"{self.label} -> {sub.conn}")

    async def _catch_up(self, sub: Subscriber) -> None:
        """Write to a connection that could not take its chunk at once, the waiting way,
        until it has everything published, then leave it to the fan-outs again."""
        session = sub.conn.session
        try:
            while not sub.dropped:
                end = self.end
                chunk = self._chunk(sub, {}) if sub.cursor < end else b""
                if chunk is None or (not chunk and not session.backlogged):
                    break
                await session.send_encoded(chunk)  # b"": what the connection still holds
                sub.cursor = end
                sub.progressed()
        except ConnectionClosed:
            self.drop(sub, "connection closed", quiet=True)
        except RpcError as exc:
            self.drop(sub, exc.message)
        finally:
            sub.busy = False
            sub.progressed()

    def put_ahead(self, sub: Subscriber) -> bool:
        """Queue what ``sub`` has not had in its connection's outbox, to go out ahead of the
        next message written on it, in the same write: a table's ``decide`` carries the
        bot's events before it (one write, one wake-up of the bot, instead of two). False
        when a task of its own is writing to it: then wait with :meth:`flushed`."""
        if sub.busy:
            return False
        end = self.end
        if sub.cursor >= end or sub.dropped or sub.conn.session.closed:
            return True
        chunk = self._chunk(sub, {})
        if chunk is not None:
            sub.conn.session.hold_encoded(chunk)
            sub.cursor = end
        return True

    async def flushed(self, sub: Subscriber) -> None:
        """Wait until everything published so far has been handed to ``sub``'s connection
        (at once: no tick)."""
        target = self.end
        while (sub.busy or sub.cursor < target) and not sub.dropped:
            if sub.conn.session.closed:
                return
            if not sub.busy:
                self._serve(sub, {})
                if not sub.busy:
                    continue
            await sub.wait_progress()

    def _trim(self) -> None:
        """Let go of the log entries every subscriber has had."""
        low = min((sub.cursor for sub in self.subscribers.values()), default=self.end)
        if low - self._base >= TRIM or not self.subscribers:
            cut = low - self._base
            del self._log[:cut]
            del self._is_event[:cut]
            self._base = low
            if not self._log:
                self._biggest = 0
