"""A table's notifications are encoded once for all its watchers with the same size limit;
one too large for a watcher's limit drops that watcher, not the others."""

from __future__ import annotations

from types import SimpleNamespace

import msgpack
import trio

from croupier.protocol.subscribers import FULL, GATHER, Subscriber


def _subscriber(limit: int) -> tuple[Subscriber, trio.MemoryReceiveChannel[bytes]]:
    send, receive = trio.open_memory_channel[bytes](10)
    conn = SimpleNamespace(session=SimpleNamespace(limits=SimpleNamespace(max_message_size=limit)))
    return Subscriber(conn, send, receive), receive  # type: ignore[arg-type]


def test_one_encoding_serves_every_watcher_with_the_same_limit():
    (a, got_a), (b, got_b) = _subscriber(1000), _subscriber(1000)
    done: dict = {}
    params = [7, {"kind": "deal", "text": "Seat 1 is dealt the Ace of Spades."}]
    assert a.put(a.encode("table.event", params, done)) and b.put(
        b.encode("table.event", params, done)
    )
    assert len(done) == 1
    sent_a, sent_b = got_a.receive_nowait(), got_b.receive_nowait()
    assert sent_a is sent_b  # the same bytes, not an equal copy
    assert msgpack.unpackb(sent_a) == [2, "table.event", params]


def test_a_notification_over_a_watchers_limit_drops_that_watcher_only():
    (small, _), (large, got_large) = _subscriber(50), _subscriber(1000)
    done: dict = {}
    params = [7, {"kind": "deal", "text": "x" * 100}]
    assert not small.put(small.encode("table.event", params, done)) and small.dropped
    assert large.put(large.encode("table.event", params, done)) and not large.dropped
    assert msgpack.unpackb(got_large.receive_nowait())[1] == "table.event"
    assert not small.put(b"later")  # a dropped watcher gets nothing more


def test_a_dropped_watcher_says_why():
    small, _ = _subscriber(50)
    assert not small.put(small.encode("table.event", [7, {"text": "x" * 100}], {}))
    assert "50" in small.reason and small.reason != "too slow"


class _Writes:
    """A connection's session that records each write and when it came."""

    def __init__(self) -> None:
        self.limits = SimpleNamespace(max_message_size=1000)
        self.closed = False
        self.writes: list[tuple[float, list[object]]] = []

    async def send_encoded(self, data: bytes) -> None:
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(data)
        self.writes.append((trio.current_time(), [message[2][0] for message in unpacker]))


def _pumped() -> tuple[Subscriber, _Writes]:
    send, receive = trio.open_memory_channel[bytes](1000)
    session = _Writes()
    return Subscriber(SimpleNamespace(session=session), send, receive), session  # type: ignore[arg-type]


def _note(sub: Subscriber, n: int) -> None:
    assert sub.put(sub.encode("table.event", [n, {}], {}))


async def test_a_watcher_gets_what_came_within_the_gather_time_in_one_write(autojump_clock):
    sub, session = _pumped()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(sub.pump)
        start = trio.current_time()
        _note(sub, 1)
        await trio.sleep(GATHER / 4)
        _note(sub, 2)
        await trio.sleep(GATHER / 4)
        _note(sub, 3)
        await trio.sleep(2 * GATHER)
        _note(sub, 4)
        await trio.sleep(2 * GATHER)
        sub.send.close()
    assert [notes for _, notes in session.writes] == [[1, 2, 3], [4]]
    assert session.writes[0][0] == start + GATHER  # the first write waited for the others


async def test_a_flush_before_a_bots_decision_sends_at_once(autojump_clock):
    sub, session = _pumped()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(sub.pump)
        await trio.sleep(1)
        start = trio.current_time()
        _note(sub, 1)
        _note(sub, 2)
        await sub.flushed()
        assert trio.current_time() == start  # no gathering time
        assert [notes for _, notes in session.writes] == [[1, 2]]
        _note(sub, 3)  # and the next one gathers again
        await trio.sleep(2 * GATHER)
        assert session.writes[-1] == (start + GATHER, [3])
        sub.send.close()


async def test_a_full_batch_is_written_without_waiting(autojump_clock):
    sub, session = _pumped()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(sub.pump)
        await trio.sleep(1)
        start = trio.current_time()
        for n in range(FULL):
            _note(sub, n)
        await sub.progress.wait()
        assert session.writes == [(start, list(range(FULL)))]
        sub.send.close()
