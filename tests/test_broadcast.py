"""A table's notifications go to every watcher through one fan-out: encoded once, written
together at most once a tick from one task, the same bytes to every watcher at the same
place; a watcher whose connection cannot keep up falls behind on its own and is dropped,
never holding up the table."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from itertools import count, pairwise
from types import SimpleNamespace

import msgpack
import trio

from croupier.protocol.subscribers import FULL, GATHER, LONGEST, WATCH_BUFFER, Feed
from tests import memnet
from tests.protocol_helpers import Raw
from tests.servedtables import table_server

_ids = count(1)


class _Session:
    """A connection's session that records each write and when it came; ``room`` False:
    it takes nothing without waiting, and its waiting writes wait for ``reading``."""

    def __init__(self, limit: int = 1000, room: bool = True) -> None:
        self.limits = SimpleNamespace(max_message_size=limit)
        self.closed = False
        self.keepalive: set[str] = set()
        self.room = room
        self.reading = trio.Event()
        self.backlogged = False
        self.writes: list[tuple[float, list[object]]] = []
        self.chunks: list[bytes] = []

    def _record(self, data: bytes) -> None:
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(data)
        self.chunks.append(data)
        self.writes.append((trio.current_time(), [message[2][0] for message in unpacker]))

    def offer_encoded(self, data: bytes) -> bool:
        if not self.room:
            return False
        self._record(data)
        return True

    async def send_encoded(self, data: bytes) -> None:
        await self.reading.wait()
        if data:
            self._record(data)

    @property
    def notes(self) -> list[object]:
        return [n for _, notes in self.writes for n in notes]


def _conn(session: _Session) -> SimpleNamespace:
    return SimpleNamespace(id=next(_ids), session=session)


def _feed(nursery: trio.Nursery) -> tuple[Feed, list[str]]:
    """A feed whose tasks run in ``nursery``; the names of the tasks it started."""
    started: list[str] = []

    def spawn(fn: Callable[[], Awaitable[None]], name: str) -> None:
        started.append(name)
        nursery.start_soon(fn, name=name)

    return Feed(spawn, "table 7"), started


def _watch(feed: Feed, **kwargs: object) -> _Session:
    session = _Session(**kwargs)  # type: ignore[arg-type]
    feed.subscribe(_conn(session))  # type: ignore[arg-type]
    return session


def _note(feed: Feed, n: int, text: str = "") -> None:
    feed.publish("table.event", [n, {"text": text}], event=True)


async def test_every_watcher_gets_the_same_bytes_from_one_task(nursery, autojump_clock):
    feed, started = _feed(nursery)
    sessions = [_watch(feed) for _ in range(1000)]
    for n in range(5):
        _note(feed, n)
    await trio.sleep(2 * feed.tick())
    assert all(s.notes == [0, 1, 2, 3, 4] for s in sessions)
    first = sessions[0].chunks[0]
    assert all(s.chunks == [first] for s in sessions)
    assert all(s.chunks[0] is first for s in sessions)  # the same bytes, not an equal copy
    assert started == ["table 7 -> its watchers"]  # one task for them all


async def test_a_notification_over_a_watchers_limit_drops_that_watcher_only(
    nursery, autojump_clock
):
    feed, _ = _feed(nursery)
    small, large = _watch(feed, limit=50), _watch(feed, limit=1000)
    _note(feed, 1, "x" * 100)
    await trio.sleep(2 * feed.tick())
    assert large.notes == [1] and small.notes == []
    (dropped,) = [s for s in [small] if s.writes == []]
    assert len(feed.subscribers) == 1
    _note(feed, 2)
    await trio.sleep(2 * feed.tick())
    assert large.notes == [1, 2] and dropped.notes == []  # a dropped watcher gets nothing more


async def test_a_dropped_watcher_says_why(nursery, autojump_clock):
    feed, _ = _feed(nursery)
    conn = _conn(_Session(limit=50))
    sub = feed.subscribe(conn)  # type: ignore[arg-type]
    _note(feed, 1, "x" * 100)
    await trio.sleep(2 * feed.tick())
    assert sub.dropped and "50" in sub.reason and sub.reason != "too slow"


async def test_a_watcher_gets_what_came_within_the_tick_in_one_write(nursery, autojump_clock):
    feed, _ = _feed(nursery)
    session = _watch(feed)
    tick = feed.tick()
    assert GATHER <= tick < 2 * GATHER
    start = trio.current_time()
    _note(feed, 1)
    await trio.sleep(tick / 4)
    _note(feed, 2)
    await trio.sleep(tick / 4)
    _note(feed, 3)
    await trio.sleep(2 * tick)
    _note(feed, 4)
    await trio.sleep(2 * tick)
    assert [notes for _, notes in session.writes] == [[1, 2, 3], [4]]
    assert session.writes[0][0] == start + tick  # the first write waited for the others


async def test_the_tick_lengthens_with_many_watchers(nursery):
    feed, _ = _feed(nursery)
    short = feed.tick()
    for _ in range(500):
        _watch(feed)
    assert feed.tick() > 2 * short


async def test_a_flush_before_a_bots_decision_sends_at_once(nursery, autojump_clock):
    feed, _ = _feed(nursery)
    session = _Session()
    sub = feed.subscribe(_conn(session))  # type: ignore[arg-type]
    await trio.sleep(1)
    start = trio.current_time()
    _note(feed, 1)
    _note(feed, 2)
    await sub.flushed()
    assert trio.current_time() == start  # no tick
    assert [notes for _, notes in session.writes] == [[1, 2]]
    _note(feed, 3)  # and the next one waits for the tick again
    await trio.sleep(2 * feed.tick())
    assert session.writes[-1] == (start + feed.tick(), [3])


async def test_a_full_batch_is_written_without_waiting(nursery, autojump_clock):
    feed, _ = _feed(nursery)
    session = _watch(feed)
    await trio.sleep(1)
    start = trio.current_time()
    for n in range(FULL):
        _note(feed, n)
    await trio.sleep(feed.tick() / 2)
    assert session.writes == [(start, list(range(FULL)))]


async def test_status_only_subscribers_get_no_events(nursery, autojump_clock):
    feed, _ = _feed(nursery)
    both = _watch(feed)
    status = _Session()
    bot = feed.subscribe(_conn(status), events=False)  # type: ignore[arg-type]
    _note(feed, 0)
    await bot.flushed()  # a seated bot about to decide: only an event since, nothing to send
    assert status.writes == [] and bot.cursor == feed.end
    _note(feed, 1)
    feed.publish("table.status", [2, {}])
    _note(feed, 3)
    await trio.sleep(2 * feed.tick())
    assert both.notes == [0, 1, 2, 3] and status.notes == [2]


async def test_a_slow_watcher_falls_behind_alone_and_is_dropped(nursery, autojump_clock):
    """Publishing never waits: the watcher whose connection takes nothing gets a task of its
    own, blocked, while the fast one gets everything every tick; once it is WATCH_BUFFER
    behind it is dropped (its task ends with its write), and the log is let go of."""
    feed, started = _feed(nursery)
    fast, slow = _watch(feed), _watch(feed, room=False)
    total = WATCH_BUFFER + 2 * FULL
    for n in range(total):
        _note(feed, n)  # never awaits: a table publishing flat out
        if n % 100 == 99:
            await trio.sleep(feed.tick())
    await trio.sleep(2 * feed.tick())
    assert fast.notes == list(range(total))
    assert slow.notes == [] and len(feed.subscribers) == 1
    assert started[0] == "table 7 -> its watchers" and len(started) == 2  # + the slow one's
    slow.reading.set()  # its one waiting write goes, then its task ends
    await trio.sleep(1)
    assert 0 < len(slow.notes) < total
    assert len(feed._log) < 2 * FULL  # what every remaining watcher has is let go of


async def test_many_watchers_get_everything_in_order_within_a_tick(nursery, autojump_clock):
    """250 watchers of a table publishing 40 notifications every 10 ms, 10 of them unable to
    take anything for a while: every watcher gets every notification once, in order; the
    others each get one write a tick, at most a tick (0.25 s here) after a notification was
    published; the slow ones catch up from the log on their own tasks once they read."""
    feed, started = _feed(nursery)
    watchers = [_watch(feed) for _ in range(240)]
    slow = [_watch(feed, room=False) for _ in range(10)]
    tick = feed.tick()
    assert tick == LONGEST
    published: dict[int, float] = {}
    total = 0
    for burst in range(120):
        for _ in range(40):
            published[total] = trio.current_time()
            _note(feed, total)
            total += 1
        await trio.sleep(0.01)
        if burst == 60:
            for session in slow:
                session.reading.set()
                session.room = True
    await trio.sleep(2 * tick)
    for session in watchers + slow:
        assert session.notes == list(range(total))
    for session in watchers:
        times = [at for at, _ in session.writes]
        assert all(b - a >= tick for a, b in pairwise(times))
        for at, notes in session.writes:
            assert at - published[notes[0]] <= tick + 1e-9
    assert len(started) == 1 + len(slow)  # the fan-out's task, and one each for the slow
    assert feed.subscribers and not any(sub.dropped for sub in feed.subscribers.values())


async def test_a_notification_that_cannot_be_encoded_drops_those_it_was_for(
    nursery, autojump_clock
):
    feed, _ = _feed(nursery)
    events = feed.subscribe(_conn(_Session()))  # type: ignore[arg-type]
    status = _Session()
    feed.subscribe(_conn(status), events=False)  # type: ignore[arg-type]
    feed.publish("table.event", [1, {"odd": object()}], event=True)
    assert events.dropped and events.reason.startswith("cannot encode the message: ")
    assert not feed.wants_events()  # the one left takes statuses only
    feed.publish("table.status", [2, {}])
    await trio.sleep(2 * feed.tick())
    assert status.notes == [2]


async def test_whether_events_are_wanted_follows_the_subscribers(nursery):
    feed, _ = _feed(nursery)
    conn = _conn(_Session())
    feed.subscribe(conn, events=False)  # type: ignore[arg-type]
    assert not feed.wants_events()
    feed.subscribe(conn, events=True)  # type: ignore[arg-type]
    assert feed.wants_events()
    feed.unsubscribe(conn)  # type: ignore[arg-type]
    assert not feed.wants_events()


# -- a watcher that stops reading, on a served table -------------------------------------------
async def test_a_table_plays_on_while_a_watcher_reads_nothing(nursery, virtual_clock, caplog):
    """A watcher that said hello, watched and never read again (its memory stream fills):
    the table of strategies plays its rounds and finishes while the watcher's socket stays
    full, well before the send timeout; another watcher gets the table's end."""
    caplog.set_level(logging.WARNING, logger="croupier.tables")
    server = table_server()
    await memnet.serve(nursery, server)
    raw = Raw(server.net.dial())
    assert (await raw.hello())[3] is not None
    async with server.net.connect(name="c") as c:
        options = {"seats": 2, "fill": ["lim17", "lim17"], "rounds": 1000, "autostart": False}
        created = await c.call_named("table.create", options)
        table = created["table"]
        assert (await raw.call(1, "table.watch", table))[2] is None  # then it reads no more
        ended = trio.Event()

        def heard(method: str, params: list[object]) -> None:
            info = params[1]
            if method == "table.status" and isinstance(info, dict) and info["state"] == "finished":
                ended.set()

        async with server.net.connect(name="w", on_notification=heard) as w:
            await w.call("table.watch", table)
            start = trio.current_time()
            await c.call("table.start", table)
            with trio.fail_after(server.limits.send_timeout / 2):
                await ended.wait()
            assert trio.current_time() - start < server.limits.send_timeout / 2
    await raw.aclose()
    assert "dropped as a watcher (too slow: " in caplog.text  # it did fall behind
