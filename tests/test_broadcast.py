"""A table's notifications are encoded once for all its watchers with the same size limit;
one too large for a watcher's limit drops that watcher, not the others."""

from __future__ import annotations

from types import SimpleNamespace

import msgpack
import trio

from croupier.protocol.subscribers import Subscriber


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
