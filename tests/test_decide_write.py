"""A seated bot's events and the ``decide`` that follows them leave in one write: the
table puts the events in the connection's outbox, ahead of the request (one wake-up of the
bot, not two), in order; a connection a task of its own is writing to waits as before."""

from __future__ import annotations

from itertools import count
from types import SimpleNamespace

import msgpack

from croupier.protocol.subscribers import Feed
from croupier.protocol.transport.session import Session
from tests import memnet

_ids = count(1)


class CountingStream(memnet.MemoryStream):
    """A memory stream's end that keeps each ``send_all``'s bytes."""

    writes: list[bytes]

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))
        await super().send_all(data)


def _pair() -> tuple[CountingStream, memnet.MemoryStream]:
    server_end, bot_end = memnet.stream_pair()
    server_end.__class__ = CountingStream
    server_end.writes = []
    return server_end, bot_end  # type: ignore[return-value]


def _messages(data: bytes) -> list[object]:
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    return [message[2] if message[0] == 0 else message[2][0] for message in unpacker]


async def test_the_events_before_a_decide_leave_with_it_in_one_write(nursery):
    stream, _bot = _pair()
    session = Session(stream)
    nursery.start_soon(session.run)
    feed = Feed(lambda fn, name: nursery.start_soon(fn, name=name), "table 1")
    sub = feed.subscribe(SimpleNamespace(id=next(_ids), session=session))  # type: ignore[arg-type]
    for n in range(3):
        feed.publish("table.event", [n], event=True)
    assert feed.put_ahead(sub)
    assert stream.writes == []  # held, not written
    call = await session.begin_call("decide", [1, {"phase": "play"}])
    session.end_call(call)
    assert [_messages(data) for data in stream.writes] == [[0, 1, 2, "decide"]]
    assert feed.put_ahead(sub)  # nothing new: nothing held
    call = await session.begin_call("decide", [1, {"phase": "play"}])
    session.end_call(call)
    assert [_messages(data) for data in stream.writes[1:]] == [["decide"]]
    feed.close()
    await session.close()


async def test_a_subscriber_being_written_to_is_not_put_ahead(nursery):
    stream, _bot = _pair()
    session = Session(stream)
    nursery.start_soon(session.run)
    feed = Feed(lambda fn, name: nursery.start_soon(fn, name=name), "table 1")
    sub = feed.subscribe(SimpleNamespace(id=next(_ids), session=session))  # type: ignore[arg-type]
    feed.publish("table.event", [0], event=True)
    sub.busy = True  # its own task is writing to it: the table waits with flushed()
    assert not feed.put_ahead(sub)
    assert sub.cursor == 0
    sub.busy = False
    feed.close()
    await session.close()
