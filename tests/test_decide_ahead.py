"""A bot's events not yet sent go out ahead of its ``decide`` request, in the same write
(:meth:`Subscriber.take`): in order, never twice, and the sender writes nothing of its own
for them, whether it was gathering them or had not yet picked them up."""

from __future__ import annotations

import msgpack
import trio

from croupier.protocol.subscribers import GATHER
from tests.test_broadcast import _note, _pumped


def _numbers(data: bytes) -> list[object]:
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    return [message[2][0] for message in unpacker]


async def test_a_bots_events_are_taken_for_its_decide_in_order_and_only_once(autojump_clock):
    sub, session = _pumped()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(sub.pump)
        await trio.sleep(1)
        _note(sub, 1)
        await trio.sleep(GATHER / 4)  # the sender holds 1, gathering
        _note(sub, 2)
        _note(sub, 3)  # still queued
        assert _numbers(sub.take()) == [1, 2, 3]
        assert sub.sent == sub.queued == 3
        assert sub.take() == b""
        await trio.sleep(2 * GATHER)
        assert session.writes == []  # the sender wrote none of them again
        _note(sub, 4)  # and the next one is the sender's, as before
        await trio.sleep(2 * GATHER)
        assert [notes for _, notes in session.writes] == [[4]]
        sub.send.close()


async def test_a_dropped_subscriber_has_nothing_to_take(autojump_clock):
    sub, _ = _pumped()
    _note(sub, 1)
    sub.dropped = True
    assert sub.take() == b""


async def test_a_served_bots_decide_carries_its_events_in_the_same_write(nursery, monkeypatch):
    from croupier.clients.bot import Bot, play
    from croupier.protocol.session import Session
    from tests.servedtables import start_table_server

    writes: list[list[list[object]]] = []
    send_bytes = Session._send_bytes

    async def recording(self: Session, data: bytes) -> None:
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(data)
        writes.append(list(unpacker))
        await send_bytes(self, data)

    monkeypatch.setattr(Session, "_send_bytes", recording)

    seen: list[str] = []

    class Watching(Bot):
        def decide(self, observation):
            return "hit" if observation.total < 17 else "stand"

        def on_event(self, event):
            seen.append(event.kind)

    server = await start_table_server(nursery)
    final = await play(
        Watching(), "127.0.0.1", server.port, create={"seats": 1, "rounds": 4, "seed": 5}
    )
    assert final["state"] == "finished" and seen
    decides = [w for w in writes if any(m[0] == 0 and m[2] == "decide" for m in w)]
    assert decides
    for write in decides:  # each after the table's events since the bot's last answer
        assert write[-1][2] == "decide" and write[-2][:2] == [2, "table.event"], write
